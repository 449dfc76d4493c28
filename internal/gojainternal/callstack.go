package gojainternal

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// The length of a runtime's JavaScript call stack (goja.Runtime.vm.callStack): the depth goja itself compares
// with its limit in vm.pushCtx, read by internal/depthguard to throw a catchable RangeError before goja's
// uncatchable one. The offsets are found by name with reflect once, at first use, and confirmed on a runtime
// running nested calls; a goja upgrade that renames or retypes the fields makes CallStack report an error.
var callStack struct {
	once         sync.Once
	err          error
	offVM, offCS uintptr
}

// CallStack returns the error of the call-stack probe, nil when CallStackDepth can be trusted.
func CallStack() error {
	callStack.once.Do(probeCallStack)
	return callStack.err
}

func probeCallStack() {
	rtType := reflect.TypeFor[goja.Runtime]()
	vmField, ok := rtType.FieldByName("vm")
	if !ok || vmField.Type.Kind() != reflect.Pointer {
		callStack.err = errors.New("gojainternal: goja.Runtime has no pointer field vm (goja changed)")
		return
	}
	cs, ok := vmField.Type.Elem().FieldByName("callStack")
	if !ok || cs.Type.Kind() != reflect.Slice {
		callStack.err = errors.New("gojainternal: goja's vm has no slice field callStack (goja changed)")
		return
	}
	callStack.offVM, callStack.offCS = vmField.Offset, cs.Offset
	// Confirm on samples: the depth inside n nested calls grows by one a call.
	rt := goja.New()
	var depths []int
	_ = rt.Set("probe", func() { depths = append(depths, readDepth(rt)) })
	if _, err := rt.RunString(`function f(n) { probe(); if (n > 0) f(n - 1); } f(3);`); err != nil || len(depths) != 4 {
		callStack.err = errors.New("gojainternal: the call-stack probe did not run")
		return
	}
	for i := 1; i < len(depths); i++ {
		if depths[i] != depths[i-1]+1 {
			callStack.err = errors.New("gojainternal: goja's call stack does not grow by one a call (goja changed)")
			return
		}
	}
}

// CallStackDepth returns how many JavaScript frames rt's VM holds now, or ok=false when the probe failed. It reads
// the VM without synchronisation: call it only on the runtime's own goroutine.
func CallStackDepth(rt *goja.Runtime) (depth int, ok bool) {
	if CallStack() != nil {
		return 0, false
	}
	return readDepth(rt), true
}

func readDepth(rt *goja.Runtime) int {
	vm := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(rt), callStack.offVM))
	if vm == nil {
		return 0
	}
	// A slice header is {data, len, cap}: the length is the second word.
	return *(*int)(unsafe.Add(vm, callStack.offCS+unsafe.Sizeof(uintptr(0))))
}
