// Command jsworker runs a JavaScript program on the jsworker runtime, as
// `node` does, and serves the Chrome DevTools Protocol with --inspect.
//
//	jsworker [options] [FILE | -] [--] [args...]   as node FILE args (a pipe: the program from stdin)
//	jsworker [options] run FILE [args...]
//	jsworker [options] eval CODE [args...]
//	jsworker [options] repl                        also jsworker alone on a terminal
//	jsworker --help | --version
//
// Options (before FILE; also right after run, eval and repl):
//
//	-e, --eval CODE               run CODE
//	-p, --print CODE              run CODE and print its result
//	-r, --require MODULE          require MODULE first (repeatable)
//	--input-type=module|commonjs  how -e and standard input run
//	--inspect[=[HOST:]PORT]       serve DevTools on HOST:PORT (default 127.0.0.1:9229; loopback only)
//	--inspect-brk[=[HOST:]PORT]   the same, and hold the program before its first statement until a
//	                              debugger sends Runtime.runIfWaitingForDebugger
//
// The exit code is Node's: the program's process.exit code, 0 when it ends
// by itself, 1 after an uncaught error (printed with its stack to standard
// error) or a syntax error (printed with its location), 9 for a bad
// command line, 12 when the inspector cannot listen. See docs/cli.md.
//
// Unless GOGC is set in the environment, the command lets the Go heap grow
// to three times its live size between collections (GOGC=200): message-heavy
// programs spend far less time in the collector, and an idle worker's
// memory hardly changes (see docs/cli.md).
package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the command's garbage-collection target when GOGC is not set.
const gcPercent = 200

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
