package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runWith runs prog (bin or node) with args and stdin in dir and returns its exit code and output.
func runWith(t *testing.T, dir, prog, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	} else if err != nil {
		t.Fatalf("%s %q: %v", prog, args, err)
	}
	return 0, out.String(), errOut.String()
}

// TestNodeFlags_MatchNode: node's command line (FILE args, -e, -p, -r, --input-type, "-" and a piped program,
// --) gives the same output and exit code under jsworker as under node.
func TestNodeFlags_MatchNode(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("app.js", "console.log(process.argv.slice(2), typeof globalThis.pre, __filename.endsWith('app.js'))\n")
	write("pre.js", "globalThis.pre = (globalThis.pre || 0) + 1; console.log('preload', require('path').basename(__filename))\n")
	write("pre2.js", "globalThis.pre *= 10\n")
	write("exit.js", "process.exitCode = 4\n")
	argv := "console.log(JSON.stringify(process.argv.slice(1)))"
	for _, tc := range []struct {
		name, stdin string
		args        []string
	}{
		{"FILE args", "", []string{"app.js", "a", "--b", "-c"}},
		{"-- FILE", "", []string{"--", "app.js", "x"}},
		{"exit code", "", []string{"exit.js"}},
		{"-e", "", []string{"-e", argv, "x", "y"}},
		{"--eval=", "", []string{"--eval=" + argv}},
		{"-e throws", "", []string{"-e", "process.on('exit', (c) => console.log('exit', c)); null.x"}},
		{"-p object", "", []string{"-p", "({ a: [1, { b: { c: { d: 1 } } }], s: 'x', m: new Map([[1, 2]]) })"}},
		{"-p string", "", []string{"--print", "'s' + 1"}},
		{"-p undefined", "", []string{"-p", "let q = 1"}},
		{"-p then timer", "", []string{"-p", "setTimeout(() => console.log('later'), 1); 42"}},
		{"-r", "", []string{"-r", "./pre.js", "--require", "./pre2.js", "app.js"}},
		{"-r -p", "", []string{"-r", "./pre.js", "-p", "pre"}},
		{"stdin pipe", argv + "; console.log(__filename)", nil},
		{"stdin -", argv, []string{"-", "a", "b"}},
		{"stdin module", "import { sep } from 'node:path'; console.log(typeof import.meta, sep)", []string{"--input-type=module"}},
		{"-e module", "", []string{"--input-type", "module", "-e", "import { basename } from 'node:path'; console.log(basename('/a/b.c'), typeof import.meta.url)"}},
		{"-e module has no require", "", []string{"--input-type=module", "-e", "console.log(typeof require, typeof exports, typeof __filename, import.meta.url.endsWith('/[eval1]'), import.meta.url === new URL('[eval1]', 'file://' + process.cwd() + '/').href, import.meta.filename === process.cwd() + '/[eval1]', import.meta.dirname === process.cwd())"}},
		{"stdin module meta", "console.log(typeof require, import.meta.url === 'file://' + process.cwd() + '/[eval1]', import.meta.filename)", []string{"--input-type=module"}},
		{"-e module meta url", "", []string{"--input-type=module", "-e", "console.log(import.meta.url.slice(import.meta.url.lastIndexOf('/')), new URL('./x.mjs', import.meta.url).pathname === process.cwd() + '/x.mjs')"}},
		{"-e nextTick order", "", []string{"-e", "Promise.resolve().then(() => console.log('then')); process.nextTick(() => console.log('tick')); setImmediate(() => console.log('imm'))"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode, wantOut, wantErr := runWith(t, dir, nodeBin, tc.stdin, tc.args...)
			code, out, errOut := runWith(t, dir, bin, tc.stdin, tc.args...)
			if code != wantCode || out != wantOut {
				t.Errorf("jsworker %q: exit %d\n%s\nstderr: %s\nnode: exit %d\n%s\nstderr: %s", tc.args, code, out, errOut,
					wantCode, wantOut, wantErr)
			}
			if (wantErr == "") != (errOut == "") {
				t.Errorf("jsworker %q: stderr %q, node's %q", tc.args, errOut, wantErr)
			}
		})
	}
}
