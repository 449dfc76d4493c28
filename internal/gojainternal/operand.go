package gojainternal

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// The values a native function's caller pushed on goja's VM stack before the call: what internal/depthguard needs
// to see the callee of a direct eval (`eval(a, b)`) from inside a native call it splices into that call's last
// argument, without evaluating the identifier `eval` a second time.
//
// goja's VM keeps one value stack (vm.stack, a []Value) and, while a native function runs, vm.sb is the index of its
// first argument: the call's this and callee are the two slots below it, and below them the operands the enclosing
// expression had already pushed (for an argument of a call: the outer call's earlier arguments, then its callee and
// this). The fields are found by name with reflect once and confirmed on a private runtime; a goja upgrade that
// renames, retypes or reorders them makes Operand answer false.
var operand struct {
	once     sync.Once
	err      error
	offVM    uintptr // goja.Runtime.vm
	offStack uintptr // vm.stack
	offSB    uintptr // vm.sb
}

// Operands returns the error of the probe, nil when Operand can be trusted.
func Operands() error {
	operand.once.Do(probeOperand)
	return operand.err
}

func probeOperand() {
	rtType := reflect.TypeFor[goja.Runtime]()
	vmField, ok := rtType.FieldByName("vm")
	if !ok || vmField.Type.Kind() != reflect.Pointer {
		operand.err = errors.New("gojainternal: goja.Runtime has no pointer field vm (goja changed)")
		return
	}
	vmType := vmField.Type.Elem()
	st, ok := vmType.FieldByName("stack")
	if !ok || st.Type.Kind() != reflect.Slice || st.Type.Elem() != reflect.TypeFor[goja.Value]() {
		operand.err = errors.New("gojainternal: goja's vm has no field stack of Values (goja changed)")
		return
	}
	sb, ok := vmType.FieldByName("sb")
	if !ok || sb.Type.Kind() != reflect.Int {
		operand.err = errors.New("gojainternal: goja's vm has no int field sb (goja changed)")
		return
	}
	operand.offVM, operand.offStack, operand.offSB = vmField.Offset, st.Offset, sb.Offset
	operand.err = confirmOperand()
}

// confirmOperand checks readOperand on samples: plain, strict, in a with block, among spread arguments and inside a
// nested call.
func confirmOperand() error {
	rt := goja.New()
	var got []goja.Value
	_ = rt.Set("probe", func(call goja.FunctionCall) goja.Value {
		for back := 1; back <= 2; back++ {
			v, ok := readOperand(rt, call, back)
			if !ok {
				v = nil
			}
			got = append(got, v)
		}
		return call.Argument(0)
	})
	v, err := rt.RunString(`
		var m = function m() {}, n = function n() {}, o = {m: m};
		(function () { m("a", probe(1)); })();
		(function () { "use strict"; n(probe(1)); })();
		with (o) { m("b", probe(1)); }
		m(...["x"], "c", probe(1));
		m(n("d", probe(1)));
		[m, n, o]`)
	if err != nil {
		return errors.New("gojainternal: the operand probe did not run: " + err.Error())
	}
	ms, _ := v.(*goja.Object)
	if ms == nil {
		return errors.New("gojainternal: the operand probe returned no array")
	}
	m, n := ms.Get("0"), ms.Get("1")
	want := []goja.Value{rt.ToValue("a"), m, n, nil, rt.ToValue("b"), m, rt.ToValue("c"), rt.ToValue("x"), rt.ToValue("d"), n}
	if len(got) != len(want) {
		return errors.New("gojainternal: the operand probe saw the wrong number of calls")
	}
	for i := range want {
		if i == 3 {
			continue // below n's callee: whatever the function's frame holds there
		}
		if got[i] == nil || !got[i].StrictEquals(want[i]) {
			return errors.New("gojainternal: goja's VM stack is not laid out as expected (goja changed)")
		}
	}
	return nil
}

// Operand returns, inside the native function called with call, the value back slots below the call's this on
// goja's VM stack (back 1: the operand pushed last before the call's this and callee; for a call that is the
// argument of an outer call, the outer call's previous argument, or its callee when there is none). ok is false when
// the probe failed, when call is not the frame goja's VM is running now (a native function called from Go, or
// through Function.prototype.call: its arguments are not the stack's), or when the stack holds fewer values. It
// reads the VM without synchronisation: call it only on the runtime's goroutine, before the native function calls
// anything else.
func Operand(rt *goja.Runtime, call goja.FunctionCall, back int) (goja.Value, bool) {
	if Operands() != nil {
		return nil, false
	}
	return readOperand(rt, call, back)
}

func readOperand(rt *goja.Runtime, call goja.FunctionCall, back int) (goja.Value, bool) {
	if back < 1 || len(call.Arguments) == 0 {
		return nil, false
	}
	vm := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(rt), operand.offVM))
	if vm == nil {
		return nil, false
	}
	stack := *(*[]goja.Value)(unsafe.Add(vm, operand.offStack))
	sb := *(*int)(unsafe.Add(vm, operand.offSB))
	i := sb - 2 - back
	if sb < 0 || sb >= len(stack) || i < 0 || &stack[sb] != &call.Arguments[0] {
		return nil, false // not the VM's current native frame: the arguments are some other slice
	}
	return stack[i], stack[i] != nil
}
