package main

import (
	"os"
	"path/filepath"
	"testing"
)

// recursionProgram overflows the call stack in every way a script can, in the main program and in a worker_threads
// worker, and prints what it caught: jsworker must print what Node prints.
const recursionProgram = `const { Worker, isMainThread, parentPort } = require("worker_threads");
function report(what, fn) {
  try { fn(); console.log(what, "not caught") }
  catch (e) { console.log(what, "caught", e instanceof RangeError, e.message) }
}
function run(where) {
  report(where + " plain", function f() { return f() + 1 });
  report(where + " arrow", () => { const g = () => g() + 1; g() });
  report(where + " mutual", () => { function a() { return b() } function b() { return a() } a() });
  report(where + " through map", function f() { return [1].map(f) });
  report(where + " getter", () => { const o = { get x() { return this.x } }; o.x });
  report(where + " generator", () => { function* g() { yield* g() } g().next() });
  report(where + " again", function f() { return f() + 1 });
}
if (isMainThread) {
  run("main");
  const w = new Worker(__filename);
  w.on("exit", (code) => console.log("worker exit", code));
} else {
  run("worker");
}
`

func TestRecursionLikeNode(t *testing.T) {
	p := script(t, "recursion.js", recursionProgram)
	printsLikeNode(t, p)
}

// compiledProgram overflows the call stack inside code goja compiles from strings at run time — the Function
// constructor and its async and generator forms — and inside CommonJS files loaded by require, in the main program
// and in a worker, and checks that the constructors keep their identity: jsworker must print what Node prints.
const compiledProgram = `const { Worker, isMainThread } = require("worker_threads");
const path = require("path");
function report(what, fn) {
  try { fn(); console.log(what, "not caught") }
  catch (e) { console.log(what, "caught", e instanceof RangeError, e.message) }
}
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
function run(where) {
  report(where + " Function", () => new Function("function r() { return r() + 1 } return r()")());
  report(where + " Function calls itself", () => { globalThis.again = Function("return again() + 1"); again() });
  report(where + " Function strict", () => Function("'use strict'; function r() { return r() + 1 } return r()")());
  report(where + " Function arrow", () => Function("const r = () => r() + 1; return r()")());
  report(where + " GeneratorFunction", () => GeneratorFunction("function r() { return r() + 1 } yield r()")().next());
  report(where + " required function", () => require(path.join(__dirname, "rec_mod.js")).rec());
  console.log(where, "required at load", require(path.join(__dirname, "rec_mod.js")).atLoad);
  report(where + " after", function f() { return f() + 1 });
  console.log(where, "identity", (function () {}).constructor === Function, new Function("") instanceof Function,
    Function.prototype.constructor === Function, Object.getPrototypeOf(Function) === Function.prototype,
    new Function("").name, Function.name, Function.length, String(new Function("a", "b", "return a + b")),
    Object.getPrototypeOf(AsyncFunction) === Function, Object.getPrototypeOf(GeneratorFunction) === Function,
    AsyncFunction.name, GeneratorFunction.name, new Function("return this")() === globalThis,
    Function("'use strict'; return this")(), Object.getOwnPropertyNames(Function).sort().join());
  class F extends Function {}
  const sub = new F("return 7");
  console.log(where, "subclass", sub instanceof F, sub instanceof Function, sub());
  try { Function("}") } catch (e) { console.log(where, "syntax error", e.name) } // goja's message is its own
  return AsyncFunction("function r() { return r() + 1 } return r()")()
    .then(() => console.log(where, "AsyncFunction not caught"),
          (e) => console.log(where, "AsyncFunction caught", e instanceof RangeError, e.message));
}
if (isMainThread) {
  run("main").then(() => {
    const w = new Worker(__filename);
    w.on("exit", (code) => console.log("worker exit", code));
  });
} else {
  run("worker");
}
`

const compiledModule = `exports.rec = function rec() { return rec() + 1 };
function r() { return r() + 1 }
try { r(); exports.atLoad = "not caught" } catch (e) { exports.atLoad = "caught " + e.message }
`

func TestRecursionInCompiledCodeLikeNode(t *testing.T) {
	p := script(t, "compiled.js", compiledProgram)
	if err := os.WriteFile(filepath.Join(filepath.Dir(p), "rec_mod.js"), []byte(compiledModule), 0o644); err != nil {
		t.Fatal(err)
	}
	printsLikeNode(t, p)
}
