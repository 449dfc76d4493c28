package depthguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// nestingForms are the constructs that recurse in goja's parser or compiler, n levels deep.
var nestingForms = map[string]func(n int) string{
	"paren":  func(n int) string { return strings.Repeat("(", n) + "1" + strings.Repeat(")", n) },
	"array":  func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) },
	"object": func(n int) string { return strings.Repeat("({a:", n) + "1" + strings.Repeat("})", n) },
	"call":   func(n int) string { return strings.Repeat("f(", n) + strings.Repeat(")", n) },
	"tmpl":   func(n int) string { return strings.Repeat("`${", n) + "1" + strings.Repeat("}`", n) },
	"assign": func(n int) string { return "var a;" + strings.Repeat("a=", n) + "1" },
	"unary":  func(n int) string { return strings.Repeat("!", n) + "1" },
	"cond":   func(n int) string { return strings.Repeat("1?1:", n) + "1" },
	"exp":    func(n int) string { return strings.Repeat("2**", n) + "1" },
	"arrow":  func(n int) string { return strings.Repeat("x=>", n) + "1" },
	"ifs":    func(n int) string { return strings.Repeat("if(1)", n) + ";" },
	"blocks": func(n int) string { return strings.Repeat("{", n) + strings.Repeat("}", n) },
	"fns":    func(n int) string { return strings.Repeat("function f(){", n) + strings.Repeat("}", n) },
	"plus":   func(n int) string { return strings.Repeat("1+", n) + "1" },
	"member": func(n int) string { return "a" + strings.Repeat(".b", n) },
	"newnew": func(n int) string { return strings.Repeat("new ", n) + "Object" },
	"elseif": func(n int) string { return strings.Repeat("if(a)b;else ", n) + "c" },
	"arrfn":  func(n int) string { return strings.Repeat("[function(){return ", n) + strings.Repeat("}]", n) },
	"trycatch": func(n int) string {
		return strings.Repeat("try{}catch(e){", n) + strings.Repeat("}", n)
	},
}

// TestNestingStackPerLevel (JSWORKER_NESTING_MEASURE=1) prints, for every form at the deepest text Parse accepts,
// the Go stack goja's parser plus compiler take (the goroutine's stack after both ran, rounded up to a power of two by
// Go's stack growth) and its time. It is a measurement for docs/limits.md, not a check.
func TestNestingStackPerLevel(t *testing.T) {
	if os.Getenv("JSWORKER_NESTING_MEASURE") == "" {
		t.Skip("set JSWORKER_NESTING_MEASURE=1 to measure")
	}
	for name, form := range nestingForms {
		n := 1
		for Nesting(form(n*2)) <= MaxNesting {
			n *= 2
		}
		for step := n / 2; step > 0; step /= 2 { // the largest n whose text is accepted
			if Nesting(form(n+step)) <= MaxNesting {
				n += step
			}
		}
		src := form(n)
		type result struct {
			stack uint64
			d     time.Duration
			err   error
		}
		ch := make(chan result)
		go func() {
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			prg, err := Parse("m.js", src)
			if err == nil {
				_, err = goja.CompileAST(prg, false)
			}
			d := time.Since(start)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			ch <- result{after.StackInuse - before.StackInuse, d, err}
		}()
		r := <-ch
		t.Logf("%-9s levels %6d  estimate %5d  stack %8d KiB (%5.0f B/level)  parse+compile %v  err %v", name, n,
			Nesting(src), r.stack>>10, float64(r.stack)/float64(n), r.d.Round(time.Millisecond), r.err)
	}
}

// TestNestingRealCode (JSWORKER_NESTING_DIR=dir) runs FuzzNesting's checks on every .js file under dir and prints the
// largest estimate, the files Parse would refuse, and the scan's cost beside the parse's.
func TestNestingRealCode(t *testing.T) {
	dir := os.Getenv("JSWORKER_NESTING_DIR")
	if dir == "" {
		t.Skip("set JSWORKER_NESTING_DIR to a directory of JavaScript")
	}
	var files, bytes, maxEst int
	var maxFile string
	var scan, parse time.Duration
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		src := string(b)
		start := time.Now()
		est := Nesting(src)
		scan += time.Since(start)
		start = time.Now()
		_, perr := goja.Parse(p, src)
		parse += time.Since(start)
		if perr != nil {
			return nil // not a script goja parses (an ES module, say)
		}
		files++
		bytes += len(src)
		if est > maxEst {
			maxEst, maxFile = est, p
		}
		if est > MaxNesting {
			t.Errorf("%s: estimate %d, refused", p, est)
		}
		t.Run(filepath.Base(p), func(t *testing.T) { checkNestingInput(t, src) })
		return nil
	})
	t.Logf("%d files, %d bytes; largest estimate %d (%s); scan %v (%.1f ns/byte), goja.Parse %v (%.1f ns/byte)",
		files, bytes, maxEst, maxFile, scan, float64(scan)/float64(bytes), parse, float64(parse)/float64(bytes))
}

// BenchmarkNesting is the scan on the repository's own JavaScript (node/lib and the rest), per byte; BenchmarkParse
// is goja's parser on the same text.
func BenchmarkNesting(b *testing.B) {
	src := strings.Join(repoScripts(b, 1<<20), "\n;\n")
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Nesting(src)
	}
}

func BenchmarkParse(b *testing.B) {
	srcs := repoScripts(b, 1<<20)
	n := 0
	for _, s := range srcs {
		n += len(s)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, s := range srcs {
			_, _ = goja.Parse("b.js", s)
		}
	}
}
