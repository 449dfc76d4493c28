package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/node"
	"github.com/jsworker/jsworker/web/console"
)

// The REPL (jsworker repl, or jsworker alone on a terminal): the main program's realm, kept alive while input
// comes, evaluates each complete input as global code on its own thread (so let, const and functions persist) and
// prints the result as node's REPL does, with util.inspect's formatting, or "Uncaught " and what was thrown. An
// input that ends too early (an open brace, say) continues on the next line after a "... " prompt. .exit or the
// end of input (Ctrl-D) ends it; the program then ends as node's does, once nothing ref'd is left.

// replBanner is what the REPL prints first, as node.
const replBanner = "Welcome to jsworker v" + version + ".\n" +
	"Type \".help\" for more information.\n"

const replHelp = `.exit     Exit the REPL
.help     Print this help message

Press Ctrl+D to exit the REPL
`

// repl is one REPL session.
type repl struct {
	p      *node.Program
	out    io.Writer
	keep   goja.Value // the interval that keeps the loop alive while the REPL reads (loop thread only)
	inspec *console.Inspector
}

func runREPL(c command, exe string, stdin io.Reader, stdout, stderr io.Writer) int {
	r := &repl{out: stdout}
	po := node.ProgramOptions{
		Filename: "[repl]",
		Source:   "",
		Argv:     append([]string{exe}, c.args...),
		Env:      os.Environ(),
		Options:  core.Options{Stdout: stdout, Stderr: stderr, Filename: "[repl]"},
	}
	pre := setup(c.preload, nil)
	po.Options.Setup = func(w *core.Worker, rt *goja.Runtime) error {
		if pre != nil {
			if err := pre(w, rt); err != nil {
				return err
			}
		}
		in, err := console.NewInspector(rt)
		if err != nil {
			return err
		}
		r.inspec = in
		si, ok := goja.AssertFunction(rt.GlobalObject().Get("setInterval"))
		if !ok {
			return errors.New("jsworker repl: no setInterval")
		}
		r.keep, err = si(goja.Undefined(), rt.ToValue(func() {}), rt.ToValue(1<<30))
		return err
	}
	p, err := node.StartProgram(po)
	if err != nil {
		printStartError(stderr, err, po.Filename, po.Source)
		return exitUncaught
	}
	r.p = p
	fmt.Fprint(stdout, replBanner)
	r.read(stdin)
	return p.Wait()
}

// read reads inputs until .exit, the end of input, or the program's end.
func (r *repl) read(stdin io.Reader) {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var buf strings.Builder
	prompt := "> "
	for {
		fmt.Fprint(r.out, prompt)
		if !sc.Scan() {
			r.onLoop(func(rt *goja.Runtime) { r.release(rt) }) // Ctrl-D: the program ends once idle
			return
		}
		line := sc.Text()
		if buf.Len() == 0 {
			switch strings.TrimSpace(line) {
			case ".exit":
				r.onLoop(func(rt *goja.Runtime) { _, _ = rt.RunString("process.exit()") })
				return
			case ".help":
				fmt.Fprint(r.out, replHelp)
				continue
			case "":
				continue
			}
		}
		buf.WriteString(line)
		buf.WriteString("\n")
		src := buf.String()
		if incomplete(src) {
			prompt = "... "
			continue
		}
		buf.Reset()
		prompt = "> "
		if !r.onLoop(func(rt *goja.Runtime) { r.eval(rt, src) }) {
			return // the program ended (process.exit)
		}
	}
}

// onLoop runs fn on the program's thread and waits for it; false means the program has ended.
func (r *repl) onLoop(fn func(rt *goja.Runtime)) bool {
	done := make(chan struct{})
	w := r.p.Worker()
	if !w.RunOnLoop(func(rt *goja.Runtime) { defer close(done); fn(rt) }) {
		return false
	}
	select {
	case <-done:
		return true
	case <-w.Done():
		return false
	}
}

// eval runs one input as global code and prints its result or what it threw.
func (r *repl) eval(rt *goja.Runtime, src string) {
	v, err := core.RunUncompiled(rt, "REPL", src) // goja's parser panics on some text: a SyntaxError here
	if err == nil {
		fmt.Fprintln(r.out, r.inspec.Inspect(v, console.DefaultInspectOptions()))
		return
	}
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		fmt.Fprintf(r.out, "Uncaught %v\n", err)
		return
	}
	thrown := ex.Value()
	if o, ok := thrown.(*goja.Object); ok {
		if name, msg := o.Get("name"), o.Get("message"); name != nil && msg != nil && o.Get("stack") != nil {
			fmt.Fprintf(r.out, "Uncaught %s: %s\n", name.String(), msg.String())
			return
		}
	}
	fmt.Fprintf(r.out, "Uncaught %s\n", r.inspec.Inspect(thrown, console.DefaultInspectOptions()))
}

// release clears the interval that kept the loop alive.
func (r *repl) release(rt *goja.Runtime) {
	if ci, ok := goja.AssertFunction(rt.GlobalObject().Get("clearInterval")); ok && r.keep != nil {
		_, _ = ci(goja.Undefined(), r.keep)
	}
}

// incomplete reports whether src ends before its statement does: it fails to compile with an error of the
// input's end (an unclosed brace, bracket, parenthesis, string or template), so the REPL asks for more.
func incomplete(src string) bool {
	_, err := core.CompileScript("REPL", src, false) // goja.Compile panics on some text
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "Unexpected end of input") || strings.Contains(msg, "Unexpected token EOF") ||
		strings.Contains(msg, "Unterminated template")
}
