package depthguard

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/dop251/goja"
)

// The one place this package reads goja's internals: the length of the VM's
// call stack (goja.Runtime.vm.callStack), the depth goja itself compares with
// its limit in vm.pushCtx. The offsets are found by name with reflect once,
// so a goja upgrade that renames or retypes the fields fails at init (and in
// TestStackDepthMatchesGoja) instead of reading the wrong memory.
var (
	offVM        uintptr // offset of Runtime.vm (a *vm)
	offCallStack uintptr // offset of vm.callStack (a slice)
)

func init() {
	rtType := reflect.TypeFor[goja.Runtime]()
	vmField, ok := rtType.FieldByName("vm")
	if !ok || vmField.Type.Kind() != reflect.Pointer {
		panic(fmt.Sprintf("depthguard: goja.Runtime has no pointer field vm (goja changed): %v", vmField.Type))
	}
	cs, ok := vmField.Type.Elem().FieldByName("callStack")
	if !ok || cs.Type.Kind() != reflect.Slice {
		panic(fmt.Sprintf("depthguard: goja's vm has no slice field callStack (goja changed): %v", cs.Type))
	}
	offVM, offCallStack = vmField.Offset, cs.Offset
}

// depth returns how many JavaScript frames rt's VM holds now. It reads the
// VM without synchronisation: only on the runtime's own goroutine.
func depth(rt *goja.Runtime) int {
	vm := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(rt), offVM))
	if vm == nil {
		return 0
	}
	// A slice header is {data, len, cap}: the length is the second word.
	return *(*int)(unsafe.Add(vm, offCallStack+unsafe.Sizeof(uintptr(0))))
}
