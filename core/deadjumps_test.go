package core_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// deadJumps are classic scripts of issue 16 (goja compiled a break or continue in code it knows is dead into the
// wrong program) with the completion values node v20 gives them (vm.runInNewContext): constant tests whose dead
// branch or body jumps out, and jumps after a break, which goja compiles in dummy mode when the script's completion
// value is wanted.
var deadJumps = []struct{ src, want string }{
	{`var s = ""; outer: for (let i = 0; i < 2; i++) { for (let j = 0; j < 2; j++) { if (false) continue outer; s += i + "" + j } } s`, "00011011"},
	{`var s = ""; for (let i = 0; i < 3; i++) { { let b = i; if (false) continue; s += b } } s`, "012"},
	{`var s = ""; for (let i = 0; i < 3; i++) { switch (i) { case 1: if (0) continue; s += i } } s`, "1"},
	{`var s = ""; a: { for (let i = 0; i < 3; i++) { if (false) break a; s += i } } s`, "012"},
	{`var s = ""; o: for (let i = -2; i < 10; i++) { for (let j = 0; j < 3; j++) { if (2 === 5) continue o; if (i === 8 && j === 1) break o; if (j > 0) continue; s += i } } s`, "-2-1012345678"},
	{`var s = ""; o: for (let i = 0; i < 3; i++) { { let z = i; while (false) continue o; if (!1) { break o } else s += z } } s`, "012"},
	{`var s = ""; o: for (let i = 0; i < 3; i++) { for (let j = 0; j < 2; j++) { s += j; break; if (i) continue o; var v = 1 } } s + typeof v`, "000undefined"},
	{`o: for (let i = 0; i < 3; i++) { { let z = i; continue; break o; } }`, "undefined"},
	// In a function, a dead branch longer than the code before it: goja's compiler panicked (index out of range).
	{`(function () { var s = ""; o: for (let i = 0; i < 2; i++) { for (let j = 0; j < 2; j++) { if (false) { s += 1; s += 2; s += 3; s += 4; s += 5; s += 6; s += 7; s += 8; s += 9; s += 10; s += 11; s += 12; continue o; } s += j } } return s })()`, "0101"},
}

// Through the Go API the scripts of issue 16 run to node's values: HostRealm.RunScript, plain and inspectable (the
// debugger's instrumented compile), and a web worker's importScripts.
func TestDeadJumpsRunLikeNode(t *testing.T) {
	for _, inspectable := range []bool{false, true} {
		t.Run("inspectable="+strconv.FormatBool(inspectable), func(t *testing.T) {
			_, h := hostRealmFor(t, inspectable)
			for i, c := range deadJumps {
				v, err := h.RunScript("dead"+strconv.Itoa(i)+".js", c.src)
				if err != nil {
					t.Errorf("%s: %v", c.src, err)
					continue
				}
				if got := v.String(); got != c.want {
					t.Errorf("%s: %s, want %s", c.src, got, c.want)
				}
			}
		})
	}

	t.Run("importScripts", func(t *testing.T) {
		dir := t.TempDir()
		var names, want string
		for i, c := range deadJumps[:6] { // those that leave their result in s
			name := "dead" + strconv.Itoa(i) + ".js"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(c.src+"; r.push(s)"), 0o644); err != nil {
				t.Fatal(err)
			}
			names += strconv.Quote(name) + ","
			want += c.want + ","
		}
		file := filepath.Join(dir, "w.js")
		if err := os.WriteFile(file, []byte(`var r = []; importScripts(`+names+`); postMessage(r.join() + ",")`), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := webWorkerAnswer(t, file); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
