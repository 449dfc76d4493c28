// The program devtools_browser.js debugs in Chrome's DevTools front end (line numbers matter: see there).
'use strict';
function sum(items) {
  let total = 0;
  for (const x of items) {
    total += x;
  }
  debugger;
  const avg = total / items.length;
  return avg;
}
console.log('avg', sum([1, 2, 3]));
