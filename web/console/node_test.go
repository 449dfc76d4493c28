package console

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// A nodeCase is one expression printed by Node and by this package. kind is
// "inspect" (util.inspect(value, opts)), "format" (util.format(...args):
// src is the argument list) or "log" (what console.log prints for args).
type nodeCase struct {
	kind, src, opts string
}

// runNode evaluates every case in one node process and returns its outputs
// in order; it skips the test when node is not installed.
func runNode(t *testing.T, prelude string, cases []nodeCase) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the side-by-side comparison with Node needs it")
	}
	var sb strings.Builder
	sb.WriteString("const util = require('util');\n" + prelude + "\nconst out = [];\n")
	for _, c := range cases {
		switch c.kind {
		case "inspect":
			opts := c.opts
			if opts == "" {
				opts = "{}"
			}
			sb.WriteString("out.push((() => { try { return util.inspect((" + c.src + "), " + opts + "); } catch (e) { return 'THREW ' + e; } })());\n")
		default:
			sb.WriteString("out.push((() => { try { return util.format(...[" + c.src + "]); } catch (e) { return 'THREW ' + e; } })());\n")
		}
	}
	sb.WriteString("process.stdout.write(JSON.stringify(out));\n")
	cmd := exec.Command(node, "-e", sb.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var out []string
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("node output: %v\n%s", err, b)
	}
	return out
}

// runGoja evaluates every case in one goja runtime with this package.
func runGoja(t *testing.T, prelude string, cases []nodeCase) []string {
	t.Helper()
	rt := goja.New()
	if _, err := rt.RunString(prelude); err != nil {
		t.Fatalf("prelude: %v", err)
	}
	var out []string
	for _, c := range cases {
		switch c.kind {
		case "inspect":
			v, err := rt.RunString("(" + c.src + ")")
			if err != nil {
				out = append(out, "THREW "+err.Error())
				continue
			}
			opts := DefaultInspectOptions()
			if c.opts != "" {
				ov, err := rt.RunString("(" + c.opts + ")")
				if err != nil {
					t.Fatalf("%s: opts: %v", c.src, err)
				}
				opts = OptionsFromJS(rt, ov.(*goja.Object), opts)
			}
			out = append(out, Inspect(rt, v, opts))
		default:
			v, err := rt.RunString("[" + c.src + "]")
			if err != nil {
				out = append(out, "THREW "+err.Error())
				continue
			}
			arr := v.(*goja.Object)
			var args []goja.Value
			for i := 0; i < int(arr.Get("length").ToInteger()); i++ {
				args = append(args, arr.Get(itoa(i)))
			}
			out = append(out, Format(rt, args))
		}
	}
	return out
}

func compareWithNode(t *testing.T, prelude string, cases []nodeCase) {
	t.Helper()
	want := runNode(t, prelude, cases)
	got := runGoja(t, prelude, cases)
	if len(want) != len(got) {
		t.Fatalf("node gave %d results, goja %d", len(want), len(got))
	}
	fails := 0
	for i, c := range cases {
		if want[i] != got[i] {
			fails++
			t.Errorf("%s %s %s\n--- node:\n%s\n--- jsworker:\n%s", c.kind, c.src, c.opts, want[i], got[i])
		}
	}
	t.Logf("%d cases, %d differ", len(cases), fails)
}

func ins(src string) nodeCase        { return nodeCase{kind: "inspect", src: src} }
func inso(src, opts string) nodeCase { return nodeCase{kind: "inspect", src: src, opts: opts} }
func fmtc(src string) nodeCase       { return nodeCase{kind: "format", src: src} }
