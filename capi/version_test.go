package capi

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// headerPath is include/jsworker.h, relative to this package's directory (where go test runs).
const headerPath = "../include/jsworker.h"

// versionString is versionNumber as "MAJOR.MINOR.PATCH".
func versionString() string {
	return fmt.Sprintf("%d.%d.%d", versionNumber/1_000_000, versionNumber/1_000%1_000, versionNumber%1_000)
}

func readHeader(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(headerPath)
	if err != nil {
		t.Fatalf("reading the public header: %v", err)
	}
	return string(b)
}

// headerMacro returns the replacement text of "#define name text" in header.
func headerMacro(t *testing.T, header, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+` + name + `[ \t]+(.+?)[ \t]*$`).FindStringSubmatch(header)
	if m == nil {
		t.Fatalf("%s: no #define %s", headerPath, name)
	}
	return m[1]
}

func TestVersion_HeaderMacrosMatchGo(t *testing.T) {
	header := readHeader(t)
	wantInts := []struct {
		macro string
		want  int
	}{
		{"JSWORKER_VERSION_MAJOR", versionNumber / 1_000_000},
		{"JSWORKER_VERSION_MINOR", versionNumber / 1_000 % 1_000},
		{"JSWORKER_VERSION_PATCH", versionNumber % 1_000},
		{"JSWORKER_VERSION_NUMBER", versionNumber},
	}
	for _, tc := range wantInts {
		text := headerMacro(t, header, tc.macro)
		got, err := strconv.Atoi(text)
		if err != nil {
			t.Errorf("%s is %q, want an integer literal", tc.macro, text)
			continue
		}
		if got != tc.want {
			t.Errorf("%s = %d, want %d (capi.versionNumber = %d)", tc.macro, got, tc.want, versionNumber)
		}
	}
	text := headerMacro(t, header, "JSWORKER_VERSION_STRING")
	got, err := strconv.Unquote(text)
	if err != nil {
		t.Fatalf("JSWORKER_VERSION_STRING is %s, want a string literal", text)
	}
	if got != versionString() {
		t.Errorf("JSWORKER_VERSION_STRING = %q, want %q (capi.versionNumber = %d)", got, versionString(), versionNumber)
	}
}

func TestZJSGetVersionNumber(t *testing.T) {
	if got := int(ZJSGetVersionNumber()); got != versionNumber {
		t.Errorf("ZJSGetVersionNumber() = %d, want %d", got, versionNumber)
	}
}

func TestZJSGetVersionString(t *testing.T) {
	p := unsafe.Pointer(ZJSGetVersionString())
	if p == nil {
		t.Fatal("ZJSGetVersionString() = NULL")
	}
	n := 0
	for *(*byte)(unsafe.Add(p, n)) != 0 {
		n++
	}
	if got := string(unsafe.Slice((*byte)(p), n)); got != versionString() {
		t.Errorf("ZJSGetVersionString() = %q, want %q (the cgo preamble in version.go disagrees with versionNumber)",
			got, versionString())
	}
}

// TestExports_MatchHeader builds libjsworker.so and checks that the JS*/ZJS* symbols it exports are exactly the
// functions include/jsworker.h declares: nothing declared is missing and nothing undeclared leaks out.
func TestExports_MatchHeader(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("skipping: the go command is not on PATH, so the shared library cannot be built")
	}
	nmTool, err := exec.LookPath("nm")
	if err != nil {
		t.Skip("skipping: nm (binutils) is not on PATH, so the shared library's symbols cannot be listed")
	}

	lib := filepath.Join(t.TempDir(), "libjsworker.so") // the generated header lands beside it and is thrown away
	build := exec.Command(goTool, "build", "-buildmode=c-shared", "-o", lib, "github.com/jsworker/jsworker/cmd/libbuild")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", build, err, out)
	}
	out, err := exec.Command(nmTool, "-D", "--defined-only", lib).Output()
	if err != nil {
		t.Fatalf("nm -D --defined-only %s: %v", lib, err)
	}
	var exported []string
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 3 && isAPIName(f[2]) {
			exported = append(exported, f[2])
		}
	}
	checkResolved(t, nmTool, lib)
	declared := headerFunctions(readHeader(t))
	if len(declared) == 0 {
		t.Fatalf("%s declares no JSWORKER_EXPORT functions; the parser is probably out of date", headerPath)
	}

	for _, name := range declared {
		if !slices.Contains(exported, name) {
			t.Errorf("%s is declared in %s but not exported by libjsworker.so (missing //export in capi?)",
				name, headerPath)
		}
	}
	for _, name := range exported {
		if !slices.Contains(declared, name) {
			t.Errorf("%s is exported by libjsworker.so but not declared with JSWORKER_EXPORT in %s",
				name, headerPath)
		}
	}
}

// checkResolved fails if lib refers to a symbol no library provides. With glibc every symbol the .so takes from libc
// is versioned (free@GLIBC_2.2.5); an unversioned undefined symbol is a reference the link left open, such as a cgo
// reference to a static C variable, and would fail only when a host loads the library.
func checkResolved(t *testing.T, nmTool, lib string) {
	t.Helper()
	out, err := exec.Command(nmTool, "-D", "--undefined-only", lib).Output()
	if err != nil {
		t.Fatalf("nm -D --undefined-only %s: %v", lib, err)
	}
	var versioned bool
	var open []string
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) != 2 || f[0] != "U" { // skip weak ("w") references
			continue
		}
		if strings.Contains(f[1], "@") {
			versioned = true
		} else {
			open = append(open, f[1])
		}
	}
	if versioned && len(open) > 0 { // without any versioned symbol (not glibc) the check cannot tell
		t.Errorf("libjsworker.so has undefined symbols no library provides: %v", open)
	}
}

// isAPIName reports whether a symbol is in the public namespace (JS* or ZJS*).
func isAPIName(s string) bool {
	return strings.HasPrefix(s, "JS") || strings.HasPrefix(s, "ZJS")
}

var (
	cComment     = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	cDirective   = regexp.MustCompile(`(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*$`)
	exportedDecl = regexp.MustCompile(`\bJSWORKER_EXPORT\b[^;{}]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
)

// headerFunctions returns the sorted names of the functions declared with JSWORKER_EXPORT in header. Comments and
// preprocessor directives (such as the definition of JSWORKER_EXPORT itself) are ignored.
func headerFunctions(header string) []string {
	header = cComment.ReplaceAllString(header, " ")
	header = cDirective.ReplaceAllString(header, " ")
	var names []string
	for _, m := range exportedDecl.FindAllStringSubmatch(header, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return slices.Compact(names)
}
