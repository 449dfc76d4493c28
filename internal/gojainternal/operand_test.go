package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

// Operand sees the callee of the call whose argument calls it, and answers false for a frame that is not the VM's.
func TestOperand(t *testing.T) {
	if err := Operands(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	var seen []goja.Value
	fn := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		v, ok := Operand(rt, call, 1)
		if !ok {
			v = nil
		}
		seen = append(seen, v)
		return goja.Undefined()
	})
	rt.Set("probe", fn)
	v, err := rt.RunString(`var f = function () {}; f(probe(0)); probe.call(null, 1); Reflect.apply(probe, null, [2]); f`)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || seen[0] == nil || !seen[0].StrictEquals(v) {
		t.Fatalf("seen %v, want f first", seen)
	}
	call, _ := goja.AssertFunction(fn)
	if _, err := call(goja.Undefined(), rt.ToValue(3)); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 4 || seen[3] != nil {
		t.Fatalf("a call from Go saw %v", seen[3])
	}
	t.Logf("through Function.prototype.call and Reflect.apply: %v, %v", seen[1], seen[2])
}
