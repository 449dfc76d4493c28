package core

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// CompileScript compiles a classic script for a realm of this package (a
// worker, or a realm from NewHostRealm), as goja.Compile does, with every
// function guarded: recursion deeper than the realm's MaxCallStackSize
// throws a RangeError ("Maximum call stack size exceeded") that try/catch
// catches, as in other engines. Worker scripts, modules and main-context
// scripts of the C API are compiled this way.
//
// The realms' Function constructors (and their async and generator forms)
// compile guarded code too. Code compiled otherwise (goja.Compile,
// Runtime.RunString, eval) runs in the same realms, but recursion that stays
// inside it ends with goja's own, uncatchable *goja.StackOverflowError a
// quarter above the limit (docs/limits.md, "Recursion"); inside an indirect
// eval it is rethrown as the catchable RangeError.
func CompileScript(name, src string, strict bool) (*goja.Program, error) {
	return depthguard.Compile(name, src, strict)
}

// RunUncompiled runs src in rt as goja's RunScript does (unguarded), for a text CompileScript refused, so that the
// syntax error is goja's own exception: a text goja's parser panics on (CompileScript recovers that as a syntax
// error) returns the realm's SyntaxError exception instead of panicking again in goja's compiler. A text that
// compiles has its break and continue statements in dead code fixed as CompileScript's (depthguard.RunScript).
func RunUncompiled(rt *goja.Runtime, name, src string) (goja.Value, error) {
	return depthguard.RunScript(rt, name, src)
}
