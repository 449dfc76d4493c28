package node

import (
	"sync"

	"github.com/jsworker/jsworker/core"
)

// ProgramOptions configure the main program of a process (what `jsworker
// run` runs).
type ProgramOptions struct {
	Filename string       // the entry's path as shown in stacks and process.argv[1]; "[eval]" for jsworker eval
	Source   string       // the entry's source
	Module   bool         // run Source as an ES module graph (.mjs/.mts/.ts entries)
	Argv     []string     // the whole process.argv, e.g. {"/usr/local/bin/jsworker", "/abs/app.js", "a", "b"}
	Env      []string     // "K=V" pairs for process.env (os.Environ() from the CLI)
	Options  core.Options // worker options of the main program: Stdout, Stderr, Inspectable, Name …
}

// A Program is a running main program: a Node-style core Worker (see
// worker.go) with process, require('worker_threads'), module, exports,
// __filename and __dirname, whose loop ends once nothing ref'd is left (no
// ref'd timer, worker, port or channel), as Node's main thread does.
//
// A Program may be used from any goroutine.
type Program struct {
	w    *core.Worker
	node *nodeState

	once sync.Once
	code int
}

// StartProgram compiles and starts the main program. A syntax error is
// returned at once (a *goja.CompilerSyntaxError) and nothing runs. With
// Module, Source is the entry of an ES module graph whose imports are
// files (modules.FileLoader) or built-ins such as worker_threads; the
// graph loads on the program's thread, so its errors (a module not found,
// a syntax error) are the program's uncaught exception: printed, exit code 1.
//
// The main program's Options.Setup, if any, runs after Node's globals are
// installed. Options.OnError, if set, receives the uncaught exception or
// unhandled rejection that ends the program instead of Stderr.
func StartProgram(opts ProgramOptions) (*Program, error) {
	o := opts.Options
	if opts.Filename != "" {
		o.Filename = opts.Filename
	}
	argv := opts.Argv
	if len(argv) == 0 {
		argv = []string{execPath(), o.Filename}
	}
	ns := &nodeState{
		main:     true,
		filename: o.Filename,
		source:   opts.Source,
		argv:     append([]string(nil), argv...),
		env:      append([]string(nil), opts.Env...),
		stderr:   o.Stderr,
		onError:  o.OnError,

		moduleEntry: opts.Module,
	}
	o.Extension = ns
	var w *core.Worker
	var err error
	if opts.Module {
		w, err = core.SpawnFileModule(o.Filename, opts.Source, o)
	} else {
		w, err = core.Spawn(opts.Source, o)
	}
	if err != nil {
		return nil, err
	}
	return &Program{w: w, node: ns}, nil
}

// Worker returns the worker the main program runs as: inspector sessions,
// Terminate and the registry see it like any other worker.
func (p *Program) Worker() *core.Worker { return p.w }

// Wait blocks until the program ends and returns its exit code as Node
// would: 0 when the loop ran dry, process.exitCode if the program set it, 1
// after an uncaught exception or unhandled rejection (printed to Stderr
// with its stack, as Node prints it) or when the program was terminated or
// failed to start, n for process.exit(n). Workers the program created are
// terminated and gone when Wait returns. Wait may be called any number of
// times, from any goroutine.
func (p *Program) Wait() int {
	p.once.Do(func() {
		<-p.w.Done()
		p.code = 1
		if p.node.codeSet {
			p.code = p.node.code
		}
		p.w.Release()
	})
	return p.code
}
