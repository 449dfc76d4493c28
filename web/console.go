package web

import (
	"bytes"
	"io"
	"os"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/util"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// installConsole defines console.log/info/debug (to stdout) and console.warn/error (to stderr), formatted like
// Node's util.format. Each call is also passed to observe, if not nil, with its level ("log", "info", "debug",
// "warn", "error") and arguments. Each formatted line is offered to write first, if not nil (Config.ConsoleWrite).
func installConsole(rt *goja.Runtime, g *goja.Object, stdout, stderr io.Writer, observe func(string, []goja.Value),
	write func(level, line string) bool) {
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	u := util.New(rt)
	printer := func(level string, out io.Writer) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			if observe != nil {
				observe(level, call.Arguments)
			}
			var b bytes.Buffer
			var format string
			var args []goja.Value
			if len(call.Arguments) > 0 {
				format, args = call.Arguments[0].String(), call.Arguments[1:]
			}
			u.Format(&b, format, args...)
			if write != nil && write(level, b.String()) {
				return goja.Undefined()
			}
			b.WriteByte('\n')
			_, _ = out.Write(b.Bytes())
			return goja.Undefined()
		}
	}
	console := rt.NewObject()
	for _, name := range []string{"log", "info", "debug"} {
		jsutil.DefineFunc(rt, console, name, 0, printer(name, stdout))
	}
	for _, name := range []string{"warn", "error"} {
		jsutil.DefineFunc(rt, console, name, 0, printer(name, stderr))
	}
	_ = g.Set("console", console)
}
