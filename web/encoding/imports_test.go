package encoding

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLeafImports keeps the package a leaf: the standard library and golang.org/x/text
// only (it knows nothing of goja or workers).
func TestLeafImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.Contains(strings.Split(p, "/")[0], ".") && !strings.HasPrefix(p, "golang.org/x/text/") {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
