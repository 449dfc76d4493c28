package node_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/node"
)

// wptNodeCases are the cases of the web-platform-tests structured clone battery (clone/testdata/wpt, ported in
// clone/wpt_test.go) that need Blob or File: a bare realm skips them, a Node realm runs them. Keep in step with
// wptNodeRealm there.
var wptNodeCases = func() []string {
	var cs []string
	for _, b := range []string{"Blob basic", "Blob unpaired high surrogate (invalid utf-8)",
		"Blob unpaired low surrogate (invalid utf-8)", "Blob paired surrogates (invalid utf-8)", "Blob empty", "Blob NUL"} {
		cs = append(cs, b, "Array Blob object, "+b, "Object Blob object, "+b)
	}
	return append(cs, "Array Blob object, two Blobs",
		"An object whose interface is deleted from the global must still deserialize",
		"Transferring a non-transferable platform object fails",
		"File basic", "A subclass instance will deserialize as its closest serializable superclass")
}()

// wptEngineFailing are the cases that fail because of goja (see wptFailing in clone/wpt_test.go for the reasons).
var wptEngineFailing = map[string]bool{
	"RegExp slash": true, "Array RegExp object, RegExp slash": true, "Object RegExp object, RegExp slash": true,
	"Resizable ArrayBuffer": true, "Length-tracking TypedArray": true, "Length-tracking DataView": true,
	"Serializing OOB TypedArray throws": true, "Serializing OOB DataView throws": true,
}

// TestWPTBatteryNodeRealm runs the whole battery as a main program of the Node layer, where Blob and File are host
// kinds of structured clone and DataCloneError is a DOMException: the Blob and File cases must run and pass, and
// every other case must do what it does in a bare realm.
func TestWPTBatteryNodeRealm(t *testing.T) {
	var src strings.Builder
	for _, f := range []string{"../clone/testdata/wpt/harness.js", "../clone/testdata/wpt/battery.js"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	src.WriteString("\nprocess.on('exit', () => console.log(JSON.stringify(results)));\n")
	var out, errOut testsupport.SyncBuffer
	p, err := node.StartProgram(node.ProgramOptions{
		Filename: "/wpt/structured-clone.js", Source: src.String(),
		Options: core.Options{Stdout: &out, Stderr: &errOut},
	})
	if err != nil {
		t.Fatal(err)
	}
	if code, _, _ := waitProgram(t, p, "the battery", &out, &errOut); code != 0 {
		t.Fatalf("exit code %d; stderr %s", code, errOut.String())
	}
	var results [][2]string
	if err := json.Unmarshal([]byte(strings.TrimSpace(out.String())), &results); err != nil {
		t.Fatalf("results %q: %v", out.String(), err)
	}
	seen := map[string]bool{}
	for _, r := range results {
		desc, errMsg := r[0], r[1]
		seen[desc] = true
		switch {
		case wptEngineFailing[desc] && errMsg == "":
			t.Errorf("%s: passes now: remove it from the failing lists", desc)
		case !wptEngineFailing[desc] && errMsg != "":
			t.Errorf("%s: %s", desc, errMsg)
		}
	}
	for _, desc := range wptNodeCases {
		if !seen[desc] {
			t.Errorf("case %q (needs Blob or File) was not run in the Node realm", desc)
		}
	}
	t.Logf("%d cases run in a Node realm, %d of them need Blob or File", len(results), len(wptNodeCases))
}
