package main

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/jsworker/jsworker/node"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want command
		err  error
	}{
		{[]string{"run", "app.js"}, command{mode: modeFile, target: "app.js", inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"run", "app.js", "-x", "--inspect"}, command{mode: modeFile, target: "app.js",
			args: []string{"-x", "--inspect"}, inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"--inspect", "run", "app.mjs", "a"}, command{mode: modeFile, target: "app.mjs", args: []string{"a"},
			inspect: true, inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"run", "--inspect-brk=9230", "app.js"}, command{mode: modeFile, target: "app.js", inspect: true,
			brk: true, inspectAddr: "127.0.0.1:9230"}, nil},
		{[]string{"--inspect=localhost:0", "eval", "1"}, command{mode: modeEval, target: "1", inspect: true,
			inspectAddr: "localhost:0"}, nil},
		{[]string{"eval", "--", "-1"}, command{mode: modeEval, target: "-1", inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"--help"}, command{help: true, inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"-v"}, command{version: true, inspectAddr: "127.0.0.1:9229"}, nil},
		{nil, command{inspectAddr: "127.0.0.1:9229"}, nil}, // standard input, or the REPL on a terminal
		{[]string{"app.js", "a", "--x"}, command{mode: modeFile, target: "app.js", args: []string{"a", "--x"},
			inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"--", "-app.js", "a"}, command{mode: modeFile, target: "-app.js", args: []string{"a"},
			inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"-", "a"}, command{mode: modeStdin, dash: true, args: []string{"a"},
			inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"-e", "1", "x", "y"}, command{mode: modeEval, target: "1", args: []string{"x", "y"},
			inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"--print=1+1"}, command{mode: modePrint, target: "1+1", inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"-r", "a", "--require=b", "-p", "2"}, command{mode: modePrint, target: "2",
			preload: []string{"a", "b"}, inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"--input-type", "module", "-e", "1"}, command{mode: modeEval, target: "1", module: true,
			inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"repl"}, command{mode: modeREPL, inspectAddr: "127.0.0.1:9229"}, nil},
		{[]string{"run"}, command{}, errUsage},
		{[]string{"eval"}, command{}, errUsage},
		{[]string{"-e"}, command{}, errUsage},
		{[]string{"-r"}, command{}, errUsage},
		{[]string{"--input-type=wasm", "-e", "1"}, command{}, errUsage},
		{[]string{"--input-type=module", "app.js"}, command{}, errUsage},
		{[]string{"repl", "-e", "1"}, command{}, errUsage},
		{[]string{"--bogus", "run", "x.js"}, command{}, errUsage},
		{[]string{"--inspect=80", "run", "x.js"}, command{}, errInspectAddr},
		{[]string{"--inspect=127.0.0.1:70000", "run", "x.js"}, command{}, errInspectAddr},
	} {
		got, err := parseArgs(tc.args)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("parseArgs(%q) error %v, want %v", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseArgs(%q): %v", tc.args, err)
			continue
		}
		if got.mode != tc.want.mode || got.target != tc.want.target || !slices.Equal(got.args, tc.want.args) ||
			got.dash != tc.want.dash || !slices.Equal(got.preload, tc.want.preload) || got.module != tc.want.module ||
			got.inspect != tc.want.inspect || got.brk != tc.want.brk || got.inspectAddr != tc.want.inspectAddr ||
			got.help != tc.want.help || got.version != tc.want.version {
			t.Errorf("parseArgs(%q) = %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

func TestInspectAddress(t *testing.T) {
	for in, want := range map[string]string{
		"9230":           "127.0.0.1:9230",
		"0":              "127.0.0.1:0",
		"127.0.0.1:9231": "127.0.0.1:9231",
		"localhost":      "localhost:9229",
		":9232":          "127.0.0.1:9232",
		"[::1]:9233":     "[::1]:9233",
		"0.0.0.0:9229":   "0.0.0.0:9229", // accepted here, refused by devtools.Listen (exit 12)
	} {
		if got, err := inspectAddress(in); err != nil || got != want {
			t.Errorf("inspectAddress(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"80", "65536", "host:x", "127.0.0.1:-1"} {
		if _, err := inspectAddress(in); err == nil {
			t.Errorf("inspectAddress(%q) accepted", in)
		}
	}
}

// TestVersionMatchesHeader: the command reports the library's version.
func TestVersionMatchesHeader(t *testing.T) {
	h, err := os.ReadFile("../../include/jsworker.h")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`#define JSWORKER_VERSION_STRING "([^"]+)"`).FindSubmatch(h)
	if m == nil || string(m[1]) != version {
		t.Fatalf("version %q, include/jsworker.h has %q", version, m)
	}
}

// TestIsModule: the entry runs as an ES module by Node's rules (node.IsModuleFile): the extension, the
// package.json "type", ES module syntax under no "type"; TypeScript through the module map.
func TestIsModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tm"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tm", "package.json"), []byte(`{"type": "module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"a.js": false, "a.cjs": false, "a.mjs": true, "a.ts": true,
		"a.mts": true, "A.MJS": true, "tm/a.js": true, "tm/a.cjs": false} {
		if got := node.IsModuleFile(filepath.Join(dir, name), "console.log(1);"); got != want {
			t.Errorf("IsModuleFile(%q) = %v, want %v", name, got, want)
		}
	}
	if !node.IsModuleFile(filepath.Join(dir, "detect.js"), `import "./x.js";`) {
		t.Error("a .js file with an import declaration under no \"type\" is not an ES module")
	}
}
