// Package depthguard makes exceeding the JavaScript call-stack depth a
// RangeError that try/catch can catch, as in every other engine.
//
// goja bounds the depth itself (Runtime.SetMaxCallStackSize), but the error it
// throws, *goja.StackOverflowError, is uncatchable by design: it unwinds every
// try/catch and finally up to the Go caller (vm.handleThrow skips all
// JavaScript handlers for it). So a script's
//
//	function f() { return f() + 1 }
//	try { f() } catch (e) { console.log("caught") }
//
// ends instead of printing "caught". There is no hook in goja that runs on a
// call, so the check is ours, in two parts:
//
//   - Rewrite splices a call of the guard, a native function installed as a
//     global lexical binding no source text can name (GuardName), at the start of every function body of a
//     parsed program (after its directive prologue; an arrow's expression
//     body becomes a comma expression). The inserted nodes carry the body's
//     own positions, so Error.stack and Function.prototype.toString are
//     unchanged.
//   - Install defines the guard in a realm: it reads the depth goja already
//     keeps (the length of the VM's call stack, read once per call through
//     the one unsafe accessor in stack.go) and throws a RangeError
//     "Maximum call stack size exceeded" when it passes the limit. goja's own
//     limit is set a margin above ours (Backstop), so that catch handlers
//     and code the guard does not cover still have room, and it stays the
//     uncatchable last resort. The builtins the guard also checks (JSON.parse,
//     Array.prototype.join, toString, toLocaleString) are guarded in place
//     when goja makes them, and the RangeError constructor is looked up when
//     the guard first throws (overflow.go), so that a realm pays only for
//     what it touches; where goja's internals cannot be read, all of it is
//     done at Install, with wrapper functions.
//
// Every call of the guard returns the realm's Flag (flag.go): undefined, which
// plain code discards, until the realm's owner sets it. The inspector sets it
// while a debugger listens and has its instrumented functions test the value
// of the call they make anyway instead of looking up a global; Rewrite keeps
// the call such a function already makes in its first statement (Call) as its
// only one.
//
// The Function constructor and its async and generator forms are changed in
// place to compile through Rewrite (function.go; wrapper constructors where
// gojainternal cannot change them), keeping their identity. AsyncFunction and GeneratorFunction, which goja makes
// only with a realm's first async function or generator, are guarded just before the first code that can make one
// runs — a rewritten program holding one (a call Rewrite inserts at its start), an eval text holding one, or a
// library source (EnsureFunctionKinds) — so that an idle realm makes neither (ensure.go). Code goja still compiles itself, out of our reach, is not
// rewritten: eval code. Its recursion ends at the backstop; for an indirect eval, a call of the eval object, which is
// guarded in place, the backstop's error reaches a Go frame of ours and is rethrown as the catchable RangeError; for a
// direct eval, a VM instruction with no Go frame in between, it stays uncatchable. Every eval checks its text for a
// panic of goja's parser first (eval.go), as Parse does for what we compile. docs/limits.md states the costs.
package depthguard
