package core_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/jsworker/jsworker/internal/depthguard/deadjumps"
)

// Through the Go API the scripts of issue 16 run to node's values: HostRealm.RunScript, plain and inspectable (the
// debugger's instrumented compile), and a web worker's importScripts.
func TestDeadJumpsRunLikeNode(t *testing.T) {
	for _, inspectable := range []bool{false, true} {
		t.Run("inspectable="+strconv.FormatBool(inspectable), func(t *testing.T) {
			_, h := hostRealmFor(t, inspectable)
			for i, c := range deadjumps.Cases {
				v, err := h.RunScript("dead"+strconv.Itoa(i)+".js", c.Src)
				if err != nil {
					t.Errorf("%s: %v", c.Src, err)
					continue
				}
				if got := v.String(); got != c.Want {
					t.Errorf("%s: %s, want %s", c.Src, got, c.Want)
				}
			}
		})
	}

	t.Run("importScripts", func(t *testing.T) {
		dir := t.TempDir()
		var names, want string
		for i, c := range deadjumps.Cases[:6] { // those that leave their result in s
			name := "dead" + strconv.Itoa(i) + ".js"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(c.Src+"; r.push(s)"), 0o644); err != nil {
				t.Fatal(err)
			}
			names += strconv.Quote(name) + ","
			want += c.Want + ","
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
