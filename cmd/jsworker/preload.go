package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/web/console"
)

// printName is the hidden global through which -p hands its result to the command; it deletes itself on use.
const printName = "__jsworkerPrintResult"

// A printer prints -p's result as node does, as console.log would: a string as it is, anything else with
// util.inspect's formatting.
type printer struct{ out io.Writer }

// wrap makes the program -p runs ("[eval]-wrapper", as node names it): the printer's global runs code as the
// script "[eval]" and prints its completion value.
func (p *printer) wrap(code string) string {
	return printName + "(" + strconv.Quote(code) + ")"
}

// install defines the printer's hidden global in rt.
func (p *printer) install(rt *goja.Runtime) error {
	in, err := console.NewInspector(rt)
	if err != nil {
		return err
	}
	g := rt.GlobalObject()
	fn := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		_ = g.Delete(printName)
		v, err := core.RunUncompiled(rt, "[eval]", c.Argument(0).String()) // a parser panic is a SyntaxError
		if err != nil {
			var ex *goja.Exception
			if errors.As(err, &ex) {
				panic(ex)
			}
			panic(rt.NewGoError(err))
		}
		fmt.Fprintln(p.out, in.Format([]goja.Value{v}, console.DefaultInspectOptions())) // console.log's formatting, as node
		return goja.Undefined()
	})
	return g.DefineDataProperty(printName, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// setup is the main program's core.Options.Setup: it runs after Node's globals are installed and before the
// program, installs -p's printer and requires each -r module in order, as node's --require does.
func setup(preload []string, p *printer) func(w *core.Worker, rt *goja.Runtime) error {
	if len(preload) == 0 && p == nil {
		return nil
	}
	return func(_ *core.Worker, rt *goja.Runtime) error {
		if p != nil {
			if err := p.install(rt); err != nil {
				return err
			}
		}
		if len(preload) == 0 {
			return nil
		}
		req, ok := goja.AssertFunction(rt.GlobalObject().Get("require"))
		if !ok {
			return errors.New("jsworker: -r/--require: require is not available to an ES module program")
		}
		for _, m := range preload {
			if _, err := req(goja.Undefined(), rt.ToValue(preloadPath(m))); err != nil {
				return err
			}
		}
		return nil
	}
}

// preloadPath resolves a -r module as node does: a path (./x, ../x, /x) from the working directory, anything
// else as a module name.
func preloadPath(m string) string {
	if strings.HasPrefix(m, "./") || strings.HasPrefix(m, "../") || m == "." || m == ".." {
		if abs, err := filepath.Abs(m); err == nil {
			return abs
		}
	}
	return m
}

// isTerminal reports whether r is a terminal (a character device), as node's process.stdin.isTTY.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
