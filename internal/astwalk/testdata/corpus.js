// A script reaching every node type of goja/ast (BadExpression and
// BadStatement, which only a parse error makes, are added by the test).
var a = 1, [b, , ...rest] = [1, , 2, 3], { c, d: [e] = [], ...others } = { c: 1 };
let l = a ? b : c, m = (a, b), n = -a + ~b, o = a++, p = (!a && b || c) ?? d;
const re = /x+/g, s = 'str', t = `t${a}u${b}`, tag = String.raw`x${1}`, nul = null, yes = true;
var arr = [1, ...rest], obj = { a, b: 2, [s]: 3, get g() { return 1 }, set g(v) {}, m() {}, ...arr };
obj.a = obj[s]; obj?.a?.[s]?.(); new Date(1); new Date; typeof a; delete obj.b; void 0;
a += 1; [a, b] = [b, a]; ({ a, b: c } = obj);
function f(x, y = 2, { z } = {}, [w] = [], ...more) {
  if (new.target) return this;
  var inner = function named() { return arguments.length; };
  return x + y + inner();
}
function strict() { "use strict"; return 1; }
function* gen() { yield 1; yield* [2, 3]; }
async function af() { await null; }
const arrow = (q) => q * 2, arrow2 = async (q) => { await q; }, arrow3 = () => {};
class Base { constructor() { this.v = 1; } }
class Derived extends Base {
  #priv = 1;
  static sf = 2;
  field;
  [s + 'k'] = 3;
  constructor() { super(); this.#priv = super.toString; }
  get priv() { return this.#priv; }
  static { var inStatic = 1; this.sb = inStatic; }
  #pm() { return #priv in this; }
}
const Expr = class {};
outer: for (var i = 0; i < 2; i++) { if (i) continue outer; else break outer; }
for (i = 0; i < 1; i++);
for (let j = 0, k = 1; j < k; j++) {}
for (var key in obj) {}
for (const k2 in obj) {}
for (obj.k in {}) {}
for (var v of arr) {}
for (let v2 of arr) {}
for (obj.v of arr) {}
while (false) a;
do a--; while (false)
with (obj) { a; }
switch (a) { case 1: a; break; case 2: { a; } default: a; }
try { throw new Error('x'); } catch (err) { a; } finally { a; }
try { a; } catch { a; }
try { a; } catch ({ message }) { a; }
lbl: { break lbl; }
;
debugger;
