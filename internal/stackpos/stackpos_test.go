package stackpos

import "testing"

func TestFirst(t *testing.T) {
	stack := "TypeError: x\n\tat parse (native)\n\tat f (lib.js:3:9(12))\n\tat main.js:10:2(4)\n"
	if f, l, c, ok := First(stack, nil); !ok || f != "lib.js" || l != 3 || c != 9 {
		t.Fatalf("First = %q %d %d %v", f, l, c, ok)
	}
	if f, l, c, ok := First(stack, func(f string) bool { return f == "main.js" }); !ok || f != "main.js" || l != 10 || c != 2 {
		t.Fatalf("First(main.js) = %q %d %d %v", f, l, c, ok)
	}
	if _, _, _, ok := First("Error: no frames", nil); ok {
		t.Fatal("a stack without positions gave one")
	}
}
