package web

import (
	"os"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/web/console"
)

// installConsole defines the realm's console (package web/console: Node's console and util.inspect formatting),
// made on first use: until a script touches it, globalThis.console is an accessor (jsutil.DefineLazyGlobal), and an
// idle worker does not pay for its 22 methods (about 17 KiB).
// Each message is offered to c.ConsoleWrite first, if set; unless it takes it, log/info/debug go to c.Stdout and
// warn/error to c.Stderr, one message and a newline per write. Every call is also passed to c.Console, if set,
// with its method and arguments.
func installConsole(rt *goja.Runtime, g *goja.Object, c Config) error {
	stdout, stderr := c.Stdout, c.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	write := func(level console.Level, text string) {
		if c.ConsoleWrite != nil && c.ConsoleWrite(level.String(), text) {
			return // the host took the line
		}
		out := stdout
		if level == console.LevelWarn || level == console.LevelError {
			out = stderr
		}
		b := make([]byte, 0, len(text)+1)
		b = append(append(b, text...), '\n')
		_, _ = out.Write(b)
	}
	var observe func(string, []goja.Value)
	if c.Console != nil {
		observe = c.Console
	}
	cfg := console.Config{Write: write, Observe: observe}
	if g != rt.GlobalObject() {
		return console.Install(rt, g, cfg)
	}
	return jsutil.DefineLazyGlobal(rt, "console", func() goja.Value {
		obj, err := console.New(rt, cfg)
		if err != nil {
			panic(rt.NewGoError(err))
		}
		return obj
	})
}
