package inspector

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// Expressions a client sends (Runtime.evaluate, Runtime.callFunctionOn, Runtime.compileScript) are compiled with
// every function guarded (internal/depthguard) when the target's realm has the guard — every realm of core and
// modules does — so that recursion inside them is a RangeError the expression can catch, as in the realm's own
// scripts. A realm without the guard, and text with a syntax error, go through goja's compiler as before, so
// errors read the same.

// runGuarded runs src as a global script of rt, as rt.RunScript(name, src) does.
func runGuarded(rt *goja.Runtime, name, src string) (goja.Value, error) {
	if prg := compileGuarded(rt, name, src); prg != nil {
		return rt.RunProgram(prg)
	}
	return rt.RunScript(name, src)
}

// compileGuarded compiles src guarded for rt, or returns nil when rt has no guard or src does not compile.
func compileGuarded(rt *goja.Runtime, name, src string) *goja.Program {
	if !depthguard.Installed(rt) {
		return nil
	}
	prg, err := depthguard.Compile(name, src, false)
	if err != nil {
		return nil
	}
	return prg
}
