package inspector

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// TestCompile_RedeclaredParameter: a body that redeclares a parameter with let, const or class fails to compile
// instrumented exactly as it does plain (the function's try block must not make the declaration legal), and a
// redeclaration in a nested block still compiles.
func TestCompile_RedeclaredParameter(t *testing.T) {
	for _, src := range []string{
		`function f(a) { const a = 1; return a }`,
		`(c, {e, bornB}) => { const c = 1; return c }`,
		`var g = function ({x: [y = 1]}, ...z) { let y; return y }`,
		`(a, ...rest) => { class rest {} }`,
		`function h(q = 2) { "use strict"; let q; }`,
		`function k(a) { { const a = 1; return a } }`,
		`(a) => { var a = 2; return a }`,
	} {
		_, plainErr := depthguard.Compile("f.js", src, false)
		d := NewDebugger()
		if err := d.Install(goja.New(), nil); err != nil {
			t.Fatal(err)
		}
		_, instErr := d.Compile("f.js", src)
		if (plainErr == nil) != (instErr == nil) || (plainErr != nil && plainErr.Error() != instErr.Error()) {
			t.Errorf("%s\nplain: %v\ninstrumented: %v", src, plainErr, instErr)
		}
	}
	if _, err := depthguard.Compile("f.js", `function k(a) { { const a = 1; return a } }`, false); err != nil {
		t.Errorf("a nested redeclaration must compile: %v", err)
	}
	if _, err := depthguard.Compile("f.js", `function f(a) { const a = 1 }`, false); err == nil {
		t.Error("goja compiled a body that redeclares a parameter: the test no longer checks anything")
	}
}
