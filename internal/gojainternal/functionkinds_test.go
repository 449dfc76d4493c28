package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

func TestFunctionKindsMade(t *testing.T) {
	rt := goja.New()
	if a, g, ok := FunctionKindsMade(rt); !ok || a || g {
		t.Fatalf("fresh runtime: async %v gen %v ok %v (err %v)", a, g, ok, functionKinds.err)
	}
	if _, err := rt.RunString(`function* g() {}`); err != nil {
		t.Fatal(err)
	}
	if a, g, _ := FunctionKindsMade(rt); a || !g {
		t.Fatalf("after a generator: async %v gen %v", a, g)
	}
	if _, err := rt.RunString(`(async () => {})`); err != nil {
		t.Fatal(err)
	}
	if a, g, _ := FunctionKindsMade(rt); !a || !g {
		t.Fatalf("after an async arrow: async %v gen %v", a, g)
	}
}
