package gojainternal

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// verifiedGoja is the goja version (go.mod's pseudo-version) every probe of
// this package was verified against. After a goja upgrade, read the goja
// sources this package relies on again (goja.Object.self, typedArrayObject,
// arrayBufferObject, baseObject.propNames, valueInt, asciiString,
// objectTemplate, templatedObject.tmpl, nativeFuncObject.f/construct,
// valueProperty, the
// parser's and Error.stack's text), run these tests, and only then update
// this constant.
const verifiedGoja = "v0.0.0-20260917113740-793a2a65c13b"

func TestGojaVersion(t *testing.T) {
	// Test binaries carry no dependency list in their build info, so the
	// version is read from the module's go.mod (the test runs in this
	// package's directory).
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?github\.com/dop251/goja\s+(\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod does not require github.com/dop251/goja")
	}
	if regexp.MustCompile(`(?m)^\s*(?:replace\s+)?github\.com/dop251/goja(?:\s+\S+)?\s+=>`).Match(mod) {
		t.Fatal("go.mod replaces github.com/dop251/goja: verify the probes against the replacement and teach this test its version")
	}
	if v := string(m[1]); v != verifiedGoja {
		t.Fatalf("go.mod requires goja %s but internal/gojainternal was verified against %s: re-verify the probes "+
			"(see verifiedGoja) before shipping this goja", v, verifiedGoja)
	}
}

// Every probe matches the goja this module builds with. If this fails after
// a goja upgrade, the packages that depend on a failing probe refuse to
// work (clone, sharedmem) or degrade (the inspector) until it is fixed.
func TestProbesMatch(t *testing.T) {
	if err := Verify(); err != nil {
		t.Fatalf("goja's internals are not what internal/gojainternal reads (goja %s verified): %v", verifiedGoja, err)
	}
}
