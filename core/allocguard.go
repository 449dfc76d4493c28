package core

import (
	_ "embed"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed js/allocguard.js
var allocGuardJS string

var allocGuardSource = jsutil.NewSource("jsworker:allocguard", allocGuardJS)

// MaxAllocationBytes is the largest single buffer a script may ask for (an ArrayBuffer, SharedArrayBuffer or typed
// array; a dense Array.prototype.fill of this many bytes' worth of slots): half the machine's physical memory, at
// most 32 GiB. Larger requests throw a catchable RangeError ("Array buffer allocation failed") where goja would
// otherwise ask Go for the memory, and Go aborts the whole process when it cannot have it. Strings are held to
// V8's limit, 2**29 − 24 code units ("Invalid string length"). See docs/limits.md.
var MaxAllocationBytes = min(physicalMemory()/2, 32<<30)

// installAllocGuard wraps the realm's allocating constructors and methods (core/js/allocguard.js), so that huge
// single allocations throw a RangeError. structured clone captures the engine's typed-array constructors first: the
// guard replaces those globals with wrappers. Every realm core makes calls it (setupRealm, OpenHostRealm).
func installAllocGuard(rt *goja.Runtime) error {
	if err := clone.CaptureTypedArrays(rt); err != nil {
		return err
	}
	install, err := allocGuardSource.Call(rt, rt.ToValue(MaxAllocationBytes))
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(install)
	_, err = fn(goja.Undefined(), rt.GlobalObject())
	return err
}
