function counter() { let n = 0; return { inc: () => ++n, get value() { return n } }; }
const c = counter(); c.inc(); c.inc();
console.log(c.value);
const memo = (fn, cache = {}) => (k) => k in cache ? cache[k] : (cache[k] = fn(k));
const slowSquare = memo((x) => { console.log("compute", x); return x * x; });
console.log(slowSquare(4), slowSquare(4));
var fns = []; for (var i = 0; i < 3; i++) fns.push(function () { return i; });
let lets = []; for (let j = 0; j < 3; j++) lets.push(() => j);
console.log(fns.map(f => f()).join(), lets.map(f => f()).join());
function outer(a) { return function middle(b) { return (c) => a + b + c } }
console.log(outer(1)(2)(3));
const obj = { x: 1, m() { return [this.x, (() => this.x)()]; } };
console.log(obj.m().join(), (function () { "use strict"; return this; })());
var hoisted = typeof later; function later() {} console.log(hoisted);
