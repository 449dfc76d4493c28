package gojainternal

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

func TestFirstStackPosition(t *testing.T) {
	stack := "TypeError: x\n\tat parse (native)\n\tat f (lib.js:3:9(12))\n\tat main.js:10:2(4)\n"
	if f, l, c, ok := FirstStackPosition(stack, nil); !ok || f != "lib.js" || l != 3 || c != 9 {
		t.Fatalf("FirstStackPosition = %q %d %d %v", f, l, c, ok)
	}
	if f, l, c, ok := FirstStackPosition(stack, func(f string) bool { return f == "main.js" }); !ok || f != "main.js" || l != 10 || c != 2 {
		t.Fatalf("FirstStackPosition(main.js) = %q %d %d %v", f, l, c, ok)
	}
	if _, _, _, ok := FirstStackPosition("Error: no frames", nil); ok {
		t.Fatal("a stack without positions gave one")
	}
}

// The readers agree with the text this goja really produces.
func TestErrorTextOfThisGoja(t *testing.T) {
	rt := goja.New()
	_, err := rt.RunScript("dir/m.js", "function f() {\n  throw new Error('x');\n}\nf();")
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("%T %v", err, err)
	}
	stack := ex.Value().(*goja.Object).Get("stack").String()
	if f, l, c, ok := FirstStackPosition(stack, nil); !ok || f != "dir/m.js" || l != 2 || c != 9 {
		t.Fatalf("stack %q: %q %d %d %v", stack, f, l, c, ok)
	}
	stripped := StripStackPC(stack)
	if !strings.Contains(stripped, "at f (dir/m.js:2:9)") || !strings.Contains(stripped, "at dir/m.js:4:2\n") {
		t.Fatalf("StripStackPC(%q) = %q", stack, stripped)
	}
	if StripStackPC("a (x.js:1:2) b") != "a (x.js:1:2) b" {
		t.Fatal("StripStackPC changed a position without a pc")
	}

	_, err = goja.Compile("s.js", "var ok = 1;\nvar x = ;\nvar y = ;", false)
	var se *goja.CompilerSyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%T %v", err, err)
	}
	for _, text := range []string{se.Message, err.Error()} {
		if l, c, msg, ok := SyntaxErrorPosition(text); !ok || l != 2 || c != 9 || msg != "Unexpected token ;" {
			t.Fatalf("SyntaxErrorPosition(%q) = %d %d %q %v", text, l, c, msg, ok)
		}
	}
	if _, _, _, ok := SyntaxErrorPosition("TypeError: not a syntax error"); ok {
		t.Fatal("a position out of a message without one")
	}
}
