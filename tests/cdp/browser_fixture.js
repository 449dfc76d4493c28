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
function busy(ms) { // what the CPU profile of devtools_browser.js records (called from there after the program's end)
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) {
    n += spin(200);
  }
  return n;
}
function spin(k) {
  let s = 0;
  for (let i = 0; i < k; i++) s += i % 7;
  return s;
}
