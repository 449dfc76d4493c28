package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector/devtools"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/workertargets"
	"github.com/jsworker/jsworker/node"
)

// run is the whole command: argv is os.Args; it returns the exit code.
func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseArgs(argv[1:])
	switch {
	case errors.Is(err, errInspectAddr):
		fmt.Fprintf(stderr, "jsworker: %v\n", err)
		return exitInspectorArg
	case err != nil:
		fmt.Fprintf(stderr, "jsworker: %v\n", err)
		return exitInvalidArg
	case c.help:
		fmt.Fprint(stdout, usage)
		return exitOK
	case c.version:
		fmt.Fprintf(stdout, "v%s\n", version)
		return exitOK
	}

	if c.mode == "" {
		c.mode = modeStdin
		if isTerminal(stdin) {
			c.mode = modeREPL
		}
	}
	exe := executable(argv[0])
	po := node.ProgramOptions{
		Env: os.Environ(),
		Options: core.Options{Stdout: stdout, Stderr: stderr, Inspectable: c.inspect, WaitForDebugger: c.brk,
			WaitForDisconnect: c.inspect},
	}
	var printed *printer
	switch c.mode {
	case modeREPL:
		return runREPL(c, exe, stdin, stdout, stderr)
	case modeFile:
		path, err := filepath.Abs(c.target)
		if err != nil {
			fmt.Fprintf(stderr, "jsworker: %v\n", err)
			return exitUncaught
		}
		src, err := os.ReadFile(path)
		if err != nil {
			// Node's words for a missing entry point.
			fmt.Fprintf(stderr, "Error: Cannot find module '%s'\n", path)
			if !errors.Is(err, os.ErrNotExist) {
				fmt.Fprintf(stderr, "    %v\n", err)
			}
			return exitUncaught
		}
		po.Filename, po.Source = path, string(src)
		po.Module = node.IsModuleFile(path, po.Source)
		po.Argv = append([]string{exe, path}, c.args...)
	case modeEval, modePrint:
		po.Filename, po.Source = "[eval]", c.target
		po.Argv = append([]string{exe}, c.args...)
		if c.mode == modePrint && !c.module {
			if _, err := core.CompileScript(po.Filename, c.target, false); err != nil { // goja.Compile panics on some text
				printStartError(stderr, err, po.Filename, c.target)
				return exitUncaught
			}
			printed = &printer{out: stdout}
			po.Filename, po.Source = "[eval]-wrapper", printed.wrap(c.target)
		}
	case modeStdin:
		src, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "jsworker: reading standard input: %v\n", err)
			return exitUncaught
		}
		po.Filename, po.Source = "[stdin]", string(src)
		po.Argv = append([]string{exe}, c.args...)
		if c.dash {
			po.Argv = append([]string{exe, "-"}, c.args...)
		}
	}
	if c.module && (c.mode == modeEval || c.mode == modePrint || c.mode == modeStdin) {
		po.Module = true
		if c.mode == modePrint {
			fmt.Fprintln(stderr, "jsworker: --print cannot be used with ESM input")
			return exitInvalidArg
		}
		if cwd, err := os.Getwd(); err == nil {
			// Node names ES module input "[eval1]" in the current directory, from -e and standard input alike.
			po.Filename = cwd + "/[eval1]" // as Node: "//[eval1]" in the root directory

		}
	}
	po.Options.Filename = po.Filename
	po.Options.Setup = setup(c.preload, printed)

	// The endpoint listens before the program starts, so that a busy port
	// fails the command (exit 12, as Node) before any of the program runs.
	var main atomic.Uint64
	var srv *devtools.Server
	if c.inspect {
		srv, err = devtools.Listen(devtools.Config{
			Addr:     c.inspectAddr,
			Provider: mainProvider{&main},
			Browser:  "jsworker/v" + version,
			Methods:  workertargets.ChildMethods,
			Events:   workertargets.ChildEvents,
		})
		if err != nil {
			fmt.Fprintf(stderr, "Starting inspector on %s failed: %v\n", c.inspectAddr, err)
			return exitInspectorArg
		}
		defer srv.Close()
	}

	p, err := node.StartProgram(po)
	if err != nil {
		printStartError(stderr, err, po.Filename, po.Source)
		return exitUncaught
	}
	id := p.Worker().ID()
	main.Store(id)
	if srv != nil {
		fmt.Fprintf(stderr, "Debugger listening on %s\nFor help, see: https://nodejs.org/en/docs/inspector\n",
			srv.WebSocketURL(workertargets.Key(id)))
	}
	code := p.Wait()
	if srv != nil {
		// Every target has ended: let each client receive its last messages
		// (Inspector.detached) and the close frame before the process exits.
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		_ = srv.Shutdown(ctx)
		cancel()
	}
	return code
}

// shutdownGrace bounds how long the command waits, once the program ended,
// for debugger clients to receive the end of their sessions.
const shutdownGrace = 2 * time.Second

// mainProvider lists the program's workers once the main one is known.
type mainProvider struct{ main *atomic.Uint64 }

func (m mainProvider) Targets() []devtools.Target {
	return workertargets.Provider{Main: m.main.Load()}.Targets()
}

func (m mainProvider) Attach(key string) (devtools.Session, error) {
	return workertargets.Provider{Main: m.main.Load()}.Attach(key)
}

// executable returns process.argv[0]: the absolute path of this binary.
func executable(arg0 string) string {
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	if abs, err := filepath.Abs(arg0); err == nil {
		return abs
	}
	return arg0
}

// printStartError prints why the program could not start: a syntax error
// as Node prints it (FILE:LINE, the source line, a caret under the column,
// then SyntaxError: message), or the error as it is.
func printStartError(w io.Writer, err error, filename, src string) {
	var se *goja.CompilerSyntaxError
	if !errors.As(err, &se) {
		fmt.Fprintln(w, err)
		return
	}
	if depthguard.IsTooDeep(err) { // refused before goja's parser, as V8 refuses it
		fmt.Fprintf(w, "RangeError: %s\n", depthguard.Message)
		return
	}
	msg, line, col := se.Message, 0, 0
	if se.File != nil { // a compile-time error: the position is structured
		pos := se.File.Position(se.Offset)
		line, col = pos.Line, pos.Column
	} else if l, c, m, ok := gojainternal.SyntaxErrorPosition(se.Message); ok { // the parser's "FILE: Line L:C msg"
		line, col, msg = l, c, m
	}
	if line > 0 {
		fmt.Fprintf(w, "%s:%d\n", filename, line)
		if text, ok := sourceLine(src, line); ok {
			fmt.Fprintf(w, "%s\n%s^\n\n", text, strings.Repeat(" ", min(max(col-1, 0), len(text))))
		}
	}
	fmt.Fprintf(w, "SyntaxError: %s\n", msg)
}

// sourceLine returns line n (1-based) of src.
func sourceLine(src string, n int) (string, bool) {
	for i := 1; ; i++ {
		line, rest, more := strings.Cut(src, "\n")
		if i == n {
			return strings.TrimSuffix(line, "\r"), true
		}
		if !more {
			return "", false
		}
		src = rest
	}
}
