package modules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// benchGraph returns a graph of n modules of about lines lines each: module
// i imports module i+1 and re-exports a sum through it, the rest is ordinary
// code (functions, a class, object literals, loops).
func benchGraph(n, lines int) map[string]string {
	files := make(map[string]string, n)
	for i := range n {
		var b strings.Builder
		if i+1 < n {
			fmt.Fprintf(&b, "import { total as next } from \"./m%d.js\";\n", i+1)
		} else {
			b.WriteString("const next = 0;\n")
		}
		fn := 0
		for l := 1; l < lines-12; l += 8 {
			fmt.Fprintf(&b, "export function f%d(a, b = %d) {\n  const o = { a, b, k: \"f%d\" };\n", fn, fn, fn)
			b.WriteString("  let s = 0;\n  for (let j = 0; j < o.a; j++) s += j * o.b;\n")
			b.WriteString("  if (s > 1e9) throw new RangeError(`too big: ${s}`);\n  return s + o.k.length;\n}\n\n")
			fn++
		}
		b.WriteString("export class Acc {\n  constructor() { this.v = 0; }\n  add(x) { this.v += x; return this; }\n}\n")
		fmt.Fprintf(&b, "const acc = new Acc();\nfor (const f of [f0, f1, f2]) acc.add(f(3));\nexport const total = next + acc.v;\n")
		files[fmt.Sprintf("/bench/m%d.js", i)] = b.String()
	}
	return files
}

func benchRun(b *testing.B, cold bool) {
	files := benchGraph(10, 1000)
	loader := mapLoader(files, nil)
	size := 0
	for _, s := range files {
		size += len(s)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		if cold {
			ResetCache()
		}
		r := NewRealm(goja.New(), Options{Loader: loader})
		if err := r.Run("/bench/m0.js", files["/bench/m0.js"]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGraph10x1000Cold loads, transforms, compiles and evaluates a
// 10-module graph of about 1000 lines per module in a new runtime, with an
// empty cache every time: a first start.
func BenchmarkGraph10x1000Cold(b *testing.B) { benchRun(b, true) }

// BenchmarkGraph10x1000Cached is the same with the process-wide cache of
// compiled modules warm: every start after the first.
func BenchmarkGraph10x1000Cached(b *testing.B) { benchRun(b, false) }

func TestBenchGraph_Runs(t *testing.T) {
	files := benchGraph(10, 1000)
	for p, s := range files {
		if n := strings.Count(s, "\n"); n < 950 || n > 1050 {
			t.Fatalf("%s has %d lines", p, n)
		}
	}
	rt := goja.New()
	r := NewRealm(rt, Options{Loader: mapLoader(files, nil)})
	if err := r.Run("/bench/m0.js", files["/bench/m0.js"]); err != nil {
		t.Fatal(err)
	}
	if r.Len() != 10 {
		t.Fatalf("Len = %d", r.Len())
	}
}
