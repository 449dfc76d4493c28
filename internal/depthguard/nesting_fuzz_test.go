package depthguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// nestingSeeds are the adversarial seeds of FuzzNesting: regular expressions told from division, quotes inside
// regular expressions, templates, comments, and every construct that nests without brackets.
var nestingSeeds = []string{
	`x = /[/(]"/g; y = a / b / c; if (x) /re/.test(s)`,
	"a = b\n/c/g.exec(d)", "a\n/b/", "return /\"(/", "x = {} / 2", "{}/\"(/", "function f(){}\n/'/", "(function(){}) / 2",
	"x = y / 2 / z", "a++ / 2", "++/x/.lastIndex", "if (a) /'/.test(b); else /`/.test(c)", "while (x) /x/g.exec(s)",
	"for (x of /a/g[Symbol.split]('')) ;", "typeof /x/", "x = a ? /b/ : /c/", "x = [/a/, /b/]", "`${/}/}`",
	"`a${`b${`c`}`}d`", "a`x`.y`z`", "'\\'(' + \"\\\"[\" + `\\`{`", "x = '\\\n('", "// ((\n/* (( */ x",
	"a: b: c: if (1) x; else y", "do x; while (0)", "do do x; while (0); while (0)", "try {} catch (e) {} finally {}",
	"switch (a) { case 1: case 2: b; default: c }", "a ? b : c ? d : e", "x => y => z", "async x => await x",
	"async function f() { await /x/ }", "function* g() { yield /x/ }", "class A { static x = 1; #p = 2; m() { return this.#p } }",
	"a?.b?.[c]?.(d)", "a ?? b ?? c", "x = 0x1E+1", "x = 1e+5 + .5 + 1_000n", "new new X()()", "!!!~-+x", "a.b.c.d.e",
	"label: { break label }", "var a = 1\nvar b = 2\nif (a) b\nelse a", "let x = function()\n{ return 1 }\n/x/",
	"if (a) {} else if (b) {} else {}", "x = { if: 1, return: /a/ }", "a.if / 2 / 3", "({}) / 1 / 2",
	"var await = 1; await / \"/\" + 1", "var yield = 2; yield / 2 / 1", "async (x) => { await /x/ }",
	"async function f() { var g = function () { return await / 2 / 1 } }", "({ async m() { await /x/ }, *g() { yield /y/ } })",
	"class A { async *m() { yield /a/; await /b/ } }", "async x => await /x/", "function* g() { function h() { yield / 2 } }",
	"f(a)\n(b)", "x = a\n++b", "#!/usr/bin/env x\n1", "'\u2028' + 1", "a\u2028/x/", "`\n${a}\n`",
}

// FuzzNesting proves Nesting against goja's parser on every text goja parses: the scan finds each string, template
// and regular expression literal exactly where goja's tree has one (a misread / or quote is where an under-count
// hides), and its estimate is at least the depth of goja's tree (nestDepth).
func FuzzNesting(f *testing.F) {
	for _, s := range nestingSeeds {
		f.Add(s)
	}
	for _, s := range repoScripts(f, 64<<10) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkNestingInput(t, src)
	})
}

// nestSlack is how far below nestDepth Nesting may be: a constant, the wrapper node goja makes around some leaves (a
// private name's), which no construct nests; an under-count that grows with the input fails.
const nestSlack = 2

// checkNestingInput is one FuzzNesting input.
func checkNestingInput(t *testing.T, src string) {
	t.Helper()
	var got []int
	est := nesting(src, -1, func(kind byte, off int) { got = append(got, int(kind)<<32|off) })
	if est > 4000 {
		return // far deeper than a fuzzer's inputs get: not parsed, to stay fast
	}
	prg, err := parseRecovered(src)
	if err != nil {
		return
	}
	want := literalOffsets(src, prg)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("literals of %q: the scan found %v, goja %v", src, offsets(got), offsets(want))
	}
	if d := nestDepth(prg); est+nestSlack < d {
		t.Fatalf("Nesting(%q) = %d, below the depth of goja's tree, %d", src, est, d)
	}
}

// parseRecovered is goja.Parse, a panic of its parser returned as an error.
func parseRecovered(src string) (prg *ast.Program, err error) {
	defer func() {
		if x := recover(); x != nil {
			prg, err = nil, os.ErrInvalid
		}
	}()
	return goja.Parse("fuzz.js", src)
}

// literalOffsets returns kind<<32|offset of every string, template and regular expression literal of prg, sorted.
func literalOffsets(src string, prg *ast.Program) []int {
	var out []int
	astwalk.Inspect(prg, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.StringLiteral: // goja makes one of an identifier property name too: only quoted ones count
			if i := int(n.Idx) - 1; i >= 0 && i < len(src) && (src[i] == '"' || src[i] == '\'') {
				out = append(out, litString<<32|i)
			}
		case *ast.RegExpLiteral:
			out = append(out, litRegExp<<32|int(n.Idx)-1)
		case *ast.TemplateLiteral:
			out = append(out, litTemplate<<32|int(n.OpenQuote)-1)
		}
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}

func offsets(ks []int) []string {
	var out []string
	for _, k := range ks {
		out = append(out, string(rune(k>>32))+":"+strings.TrimSpace(strings.Repeat(" ", 0))+itoa(k&0xffffffff))
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// nestDepth returns the depth of prg's tree, walked with an explicit stack: the most nodes on a path from the root to
// a leaf, not counting the nodes that only wrap another and that the scan has no token for (the program, an
// expression statement, an arrow's expression body, a function or class declaration around its literal, a
// variable declaration around its bindings) and the leaf.
func nestDepth(prg *ast.Program) int {
	type item struct {
		n ast.Node
		d int
	}
	deepest := 0
	stack := []item{{prg, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d := it.d
		switch it.n.(type) {
		case *ast.Program, *ast.ExpressionStatement, *ast.ExpressionBody, *ast.FunctionDeclaration,
			*ast.ClassDeclaration, *ast.VariableStatement, *ast.LexicalDeclaration:
		default:
			d++
		}
		leaf := true
		astwalk.Children(it.n, func(c astwalk.Child) {
			leaf = false
			if c.List != nil {
				for _, st := range *c.List {
					stack = append(stack, item{st, d})
				}
				return
			}
			stack = append(stack, item{c.Node, d})
		})
		if leaf {
			d-- // the leaf itself
		}
		if d > deepest {
			deepest = d
		}
	}
	return deepest
}

// repoScripts returns the repository's JavaScript files of at most max bytes (tests, samples, the library's own
// sources), for seeds and measurements.
func repoScripts(tb testing.TB, max int64) []string {
	root := filepath.Join("..", "..")
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case "build", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".js") && !strings.HasSuffix(p, ".mjs") && !strings.HasSuffix(p, ".cjs") {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > max {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, string(b))
		}
		return nil
	})
	if len(out) == 0 {
		tb.Fatal("no JavaScript file found under the repository")
	}
	return out
}
