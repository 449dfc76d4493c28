package jsonbuiltin

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

var update = flag.Bool("update", false, "rewrite testdata/cases.node.txt with what node prints for testdata/cases.js")

// corpusScript makes of cases.js a script whose completion value is an array: for each line, what show makes of
// evaluating it ("S:" and the string, or its type and String(value), or "E:" and the error's name and message).
// toText(v) is how each result is printed, one per line.
func corpusScript(t *testing.T) (src string, n int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "cases.js"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`var show = function (f) { try { var v = f(); return typeof v === "string" ? "S:" + v : typeof v + ":" + String(v) } catch (e) { return "E:" + (e && e.name) + ": " + (e && e.message) } };
var out = [];
`)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			b.WriteString("out.push(show(function () { return (" + line + ") }));\n")
			n++
		}
	}
	return b.String(), n
}

// newRealm is a goja runtime whose JSON object has the builtins of this package; orig is goja's own
// JSON.stringify, kept aside to print results with.
func newRealm(t testing.TB) (rt *goja.Runtime, orig goja.Callable) {
	rt = goja.New()
	json := rt.Get("JSON").(*goja.Object)
	// goja's own stringify, as a separate function object: the one in json is changed in place.
	v, err := rt.RunString(`(function () { var s = JSON.stringify; return function (x) { return s(x) } })()`)
	if err != nil {
		t.Fatal(err)
	}
	orig, _ = goja.AssertFunction(v)
	if err := Install(&Realm{RT: rt}, json); err != nil {
		t.Fatal(err)
	}
	return rt, orig
}

// TestCorpus_MatchesNode runs testdata/cases.js with these builtins and compares every result with what node
// prints for it (testdata/cases.node.txt; go test -update rewrites it with node).
func TestCorpus_MatchesNode(t *testing.T) {
	src, n := corpusScript(t)
	golden := filepath.Join("testdata", "cases.node.txt")
	if *update {
		cmd := exec.Command("node", "-e", src+`for (const r of out) console.log(JSON.stringify(r))`)
		text, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		if err := os.WriteFile(golden, text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	got := runCorpus(t, src)
	if len(got) != n || len(wantLines) != n {
		t.Fatalf("%d results, %d expected lines, %d cases", len(got), len(wantLines), n)
	}
	cases := caseLines(t)
	for i := range got {
		if got[i] != wantLines[i] {
			t.Errorf("case %d: %s\n got  %s\n want %s", i+1, cases[i], got[i], wantLines[i])
		}
	}
}

func caseLines(t *testing.T) []string {
	data, err := os.ReadFile(filepath.Join("testdata", "cases.js"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// runCorpus runs the corpus script in a realm with these builtins and prints each result with goja's own
// stringify (well-formed, as node's).
func runCorpus(t *testing.T, src string) []string {
	rt, orig := newRealm(t)
	v, err := rt.RunString(src + "out")
	if err != nil {
		t.Fatal(err)
	}
	arr := v.(*goja.Object)
	n := int(arr.Get("length").ToInteger())
	res := make([]string, n)
	for i := range res {
		s, err := orig(goja.Undefined(), arr.Get(itoa(i)))
		if err != nil {
			t.Fatal(err)
		}
		res[i] = s.String()
	}
	return res
}

func itoa(i int) string { return strconv.Itoa(i) }
