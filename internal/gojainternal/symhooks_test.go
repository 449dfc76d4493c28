package gojainternal

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

func TestSymbolHooks(t *testing.T) {
	if err := SymbolHooks(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	proto := rt.NewArray().Prototype()
	base, err := DeriveTemplate(proto, nil)
	if err != nil {
		t.Fatal(err)
	}
	var hooked []goja.Value
	tm, err := base.WithSymbolHooks(map[*goja.Symbol]func(*goja.Runtime, goja.Value){
		goja.SymIterator: func(_ *goja.Runtime, v goja.Value) { hooked = append(hooked, v) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if made, ok := SymbolsMade(proto); !ok || made {
		t.Fatalf("SymbolsMade before any lookup = %v, %v", made, ok)
	}
	if _, ok := tm.Install(proto); !ok {
		t.Fatal("Install failed")
	}
	v, err := rt.RunString(`var a = [3, 4]; var n = 0; for (var x of a) n += x; [n, [...a].length, Array.prototype.values === a[Symbol.iterator]].join()`)
	if err != nil || v.String() != "7,2,true" {
		t.Fatalf("%v, %v", v, err)
	}
	if len(hooked) != 1 || hooked[0] != proto.Get("values") {
		t.Fatalf("the hook ran %d times", len(hooked))
	}
	if made, ok := SymbolsMade(proto); !ok || !made {
		t.Fatalf("SymbolsMade after a lookup = %v, %v", made, ok)
	}
	if _, ok := SymbolsMade(rt.NewObject()); ok {
		t.Fatal("SymbolsMade answered for a plain object")
	}
	// A runtime that never looks up a symbol of Array.prototype never runs the hook.
	rt2 := goja.New()
	p2 := rt2.NewArray().Prototype()
	if _, ok := tm.Install(p2); !ok {
		t.Fatal("Install failed")
	}
	if _, err := rt2.RunString(`[1, 2].map(x => x).join()`); err != nil {
		t.Fatal(err)
	}
	if len(hooked) != 1 {
		t.Fatal("the hook ran without a symbol lookup")
	}
}

func TestSymbolHooks_FailClosed(t *testing.T) {
	defer SimulateChange(errors.New("test"))()
	if _, ok := SymbolsMade(goja.New().NewArray().Prototype()); ok {
		t.Fatal("SymbolsMade answered with the probe failed")
	}
	if SymbolHooks() == nil {
		t.Fatal("SymbolHooks reported no error")
	}
}
