package layers_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsworker/jsworker/internal/layers"
)

// layerOf returns the layer of a package path relative to the module, or -1.
func layerOf(rel string) int {
	for i, l := range layers.Table {
		for _, p := range l {
			if base, ok := strings.CutSuffix(p, "/..."); ok {
				if rel == base || strings.HasPrefix(rel, base+"/") {
					return i
				}
			} else if rel == p {
				return i
			}
		}
	}
	return -1
}

// TestImportsPointDown lists every package of the module with its (non-test) imports and checks that each import
// of a project package points to a lower layer.
func TestImportsPointDown(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	n := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		rel, ok := strings.CutPrefix(f[0], layers.Module+"/")
		if !ok {
			continue
		}
		n++
		from := layerOf(rel)
		if from < 0 {
			t.Errorf("package %s is not in layers.Table: give it its layer", rel)
			continue
		}
		for _, imp := range f[1:] {
			irel, ok := strings.CutPrefix(imp, layers.Module+"/")
			if !ok {
				continue
			}
			to := layerOf(irel)
			if to < 0 {
				t.Errorf("%s imports %s, which is not in layers.Table", rel, irel)
			} else if to >= from {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports must point to a lower layer", rel, from, irel, to)
			}
		}
	}
	if n < 10 {
		t.Fatalf("go list found only %d packages of the module", n)
	}
}
