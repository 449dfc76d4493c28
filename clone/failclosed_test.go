package clone

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// If internal/gojainternal cannot read goja, every entry point refuses with
// its error instead of guessing what an object is.
func TestFailClosedWithoutGojaInternals(t *testing.T) {
	rt := goja.New()
	v, err := rt.RunString(`({a: [1, new Map()]})`)
	if err != nil {
		t.Fatal(err)
	}
	good, err := Serialize(rt, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer gojainternal.SimulateChange(errors.New("test: simulated goja upgrade"))()
	check := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "goja's internals changed") {
			t.Errorf("%s: %v, want the gojainternal error", what, err)
		}
	}
	_, err = Serialize(rt, v, Options{})
	check("Serialize", err)
	_, err = Deserialize(goja.New(), good)
	check("Deserialize", err)
	check("CaptureBuiltins", CaptureBuiltins(goja.New()))
}
