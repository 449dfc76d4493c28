package gojainternal

import (
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dop251/goja"
)

// Whether a runtime was asked to stop (goja.Runtime.vm.interrupted, the word Runtime.Interrupt sets and the VM loads
// atomically before every instruction). goja never looks at it inside a native function, so a builtin of ours that
// runs long (JSON.parse, JSON.stringify) reads it itself, now and then, to end the call when the realm is being
// terminated. The offset is found by name with reflect once, at first use, and confirmed on a runtime: 0, then 1
// after Interrupt, then 0 after ClearInterrupt; a goja upgrade that renames or retypes the field makes Interrupt
// report an error.
var interrupt struct {
	once          sync.Once
	err           error
	offVM, offInt uintptr
}

// Interrupt returns the error of the interrupt probe, nil when Interrupted can be trusted.
func Interrupt() error {
	interrupt.once.Do(probeInterrupt)
	if err := simulatedErr(); err != nil {
		return err
	}
	return interrupt.err
}

func probeInterrupt() {
	rtType := reflect.TypeFor[goja.Runtime]()
	vmField, ok := rtType.FieldByName("vm")
	if !ok || vmField.Type.Kind() != reflect.Pointer {
		interrupt.err = errors.New("gojainternal: goja.Runtime has no pointer field vm (goja changed)")
		return
	}
	f, ok := vmField.Type.Elem().FieldByName("interrupted")
	if !ok || f.Type.Kind() != reflect.Uint32 || f.Offset%4 != 0 {
		interrupt.err = errors.New("gojainternal: goja's vm has no uint32 field interrupted (goja changed)")
		return
	}
	interrupt.offVM, interrupt.offInt = vmField.Offset, f.Offset
	rt := goja.New()
	before := readInterrupted(rt)
	rt.Interrupt("probe")
	during := readInterrupted(rt)
	rt.ClearInterrupt()
	after := readInterrupted(rt)
	if before || !during || after {
		interrupt.err = errors.New("gojainternal: goja's interrupt flag does not follow Interrupt and ClearInterrupt (goja changed)")
	}
}

// Interrupted reports whether rt was interrupted (Runtime.Interrupt) and not cleared since, with ok=false when the
// probe failed. It is one atomic load and may be called from any goroutine.
func Interrupted(rt *goja.Runtime) (interrupted, ok bool) {
	if Interrupt() != nil {
		return false, false
	}
	return readInterrupted(rt), true
}

func readInterrupted(rt *goja.Runtime) bool {
	vm := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(rt), interrupt.offVM))
	if vm == nil {
		return false
	}
	return atomic.LoadUint32((*uint32)(unsafe.Add(vm, interrupt.offInt))) != 0
}

// EndIfInterrupted ends the native call it is called from when rt was asked to stop: it re-enters the VM with an
// empty program, whose first instruction raises goja's own *goja.InterruptedError (with the value Interrupt was
// given and the stack), and passes it on as a panic — uncatchable, as at any instruction. A long builtin of ours
// calls it now and then (after the realm's checkpoint, which may be what interrupts it). When the flag cannot be
// read it re-enters the VM anyway where that is safe: inside a call from JavaScript (a top-level RunProgram would
// run the realm's pending jobs on its way out). Call it only on rt's own goroutine, from a native function.
func EndIfInterrupted(rt *goja.Runtime) {
	stop, ok := Interrupted(rt)
	if !ok {
		depth, known := CallStackDepth(rt)
		stop = known && depth > 0
	}
	if stop {
		if _, err := rt.RunProgram(emptyProgram()); err != nil {
			panic(err)
		}
	}
}

var emptyProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("jsworker:interrupted", "", true)
})
