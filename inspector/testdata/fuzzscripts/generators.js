function* range(a, b, step = 1) { for (let i = a; i < b; i += step) yield i; }
function* take(it, n) { for (const v of it) { if (n-- <= 0) return; yield v; } }
function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }
console.log([...range(0, 10, 3)], [...take(fib(), 10)].join(" "));
const g = (function* () { const x = yield 1; console.log("got", x); try { yield 2 } finally { console.log("closed") } })();
console.log(g.next().value, g.next("hello").value, g.return(9).value);
const it = { from: 1, to: 4, [Symbol.iterator]() { let c = this.from, t = this.to; return { next: () => c <= t ? { value: c++, done: false } : { value: undefined, done: true } }; } };
console.log(Array.from(it), Math.max(...it));
