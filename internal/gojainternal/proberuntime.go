package gojainternal

import (
	"fmt"
	"sync"

	"github.com/dop251/goja"
)

// The probes' private runtime.
//
// Every probe confirms what it located on sample values made in a runtime no script of the process can reach. A
// runtime costs little to make (goja.New, ~0.05 ms); what costs is what each fresh runtime builds the first time a
// sample touches it (Function, the typed arrays, Array.prototype's methods, JSON) and compiling the samples. The
// probes that only read what they made (Kinds, the property and array layouts, FillPlainObject's) therefore share
// one runtime, made at the first probe and kept for the process; a probe that changes its runtime (LazyGuard's
// templates and guarded constructors) still makes its own, and compares with the shared one.

var probeRT struct {
	mu sync.Mutex // held while a probe uses rt
	rt *goja.Runtime
}

// withProbeRuntime runs f on the shared probe runtime. f must leave no global binding or change behind (it may make
// objects and compile functions). goja runtimes are not safe for concurrent use, so f holds the runtime alone; a
// probe that finds it taken (by a probe on another goroutine, or by the probe that called this one) gets a fresh
// runtime instead of waiting, so probes never deadlock on each other. A panic in f is its error (and the shared
// runtime is dropped).
func withProbeRuntime(f func(rt *goja.Runtime) error) (err error) {
	if !probeRT.mu.TryLock() {
		defer func() {
			if x := recover(); x != nil {
				err = fmt.Errorf("panic while probing: %v", x)
			}
		}()
		return f(goja.New())
	}
	defer probeRT.mu.Unlock()
	defer func() {
		if x := recover(); x != nil {
			probeRT.rt = nil // a probe that panicked may have left it half changed: the next probe makes another
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	if probeRT.rt == nil {
		probeRT.rt = goja.New()
	}
	return f(probeRT.rt)
}

// runProgram runs p in rt and returns its string value (or the error's text): one compiled check, run on the
// runtime under test and on the reference, without compiling it twice.
func runProgram(rt *goja.Runtime, p *goja.Program) string {
	v, err := rt.RunProgram(p)
	if err != nil {
		return "error: " + err.Error()
	}
	return v.String()
}

var prewarm sync.Once

// startPrewarm starts, once per process, the probes every realm and its first message need besides LazyGuard's
// (TypedArrays and Kinds for web.Install and the allocation guard, FillPlainObject's and the property readers' for
// the first structured clone), on a goroutine of their own: LazyGuard calls it as it starts its own verification,
// when the first realm is being made, so that on a machine with a second CPU they are done, or under way, by the
// time the realm asks for them. Each probe still runs once (sync.Once) and is verified before its first use: a
// caller that needs one sooner waits for it as for any probe.
//
// Between the two it compiles LazyProps' checks (lazyPropsChecks), which the realm's depth guard needs right after
// LazyGuard's verification: compiling installs nothing and reads no goja internals, and LazyProps itself (which
// waits for LazyGuard) still verifies on the realm's goroutine; it only no longer compiles there.
func startPrewarm() {
	prewarm.Do(func() {
		go func() {
			_ = TypedArrays()
			_, _ = lazyPropsChecks()
			_ = loadBuild()
		}()
	})
}
