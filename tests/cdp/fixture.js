// The program inspect_brk.js debugs: the breakpoint goes on line 4 (0-based 3).
'use strict';
function double(n) {
  const doubled = n * 2;
  return doubled;
}
console.log('doubled', double(21));
