package core

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/modules"
)

// ErrNoEntryPath is returned by SpawnModule for an empty entry path.
var ErrNoEntryPath = errors.New("jsworker: a module worker needs an entry path")

// A moduleEntry is what a module worker starts from.
type moduleEntry struct {
	path, source string
	loader       modules.Loader
	realm        *modules.Realm // the worker's module map, made on its thread
}

// SpawnModule starts a module worker (Kind()==KindModule) from the entry module.
//
// entryPath names the entry module: its URL for the inspector, its name in
// stack traces and error records, its import.meta.url, and the referrer of
// its imports; Options.Filename is not used. entrySource is its source (a
// .ts or .mts path is taken as TypeScript, .json as JSON). loader resolves
// every import that is not a built-in (builtinModule), on the worker's
// thread; nil means that every such import is not found. See package modules
// for what is supported.
//
// SpawnModule returns at once, with ErrNoEntryPath as its only error: the
// graph is loaded on the worker's thread. Every static import of every
// module is loaded, transformed and compiled before any module runs. If the
// graph cannot be loaded (a module not found, a loader error, a syntax
// error), no module runs; if a module's body throws while
// the graph evaluates, the modules after it do not run. Either way the
// error goes to the worker's error API (Options.OnError or Stderr) as an
// ErrorUncaught record whose Filename is the module's path and whose Line
// and Column are the original source's (for a module not found, those of
// the import in the importing module), then the worker ends: it runs no
// handler, its outbox closes after any message posted before the error,
// and Join returns that ErrorRecord. Errors after the graph has evaluated
// (in handlers, timers, dynamic import()) do not end it, as in a script
// worker.
func SpawnModule(entryPath, entrySource string, loader modules.Loader, opts Options) (*Worker, error) {
	if entryPath == "" {
		return nil, ErrNoEntryPath
	}
	var dbg *inspector.Debugger
	if opts.Inspectable || inspectDefault {
		dbg = inspector.NewDebugger()
	}
	w := newWorker(lastWorkerID.Add(1), KindModule, entryPath, opts, dbg, opts.Inbox.withDefaults(), opts.Outbox.withDefaults())
	w.entry = &moduleEntry{path: entryPath, source: entrySource, loader: loader}
	w.start()
	return w, nil
}

// runModules loads and evaluates the graph of a module worker as its first
// macrotask. It reports false when the worker must end: the graph failed
// (reported, and kept for Join), the engine failed, or the worker is being
// terminated.
func (w *Worker) runModules() bool {
	ok := false
	w.macrotask(func() error {
		opts := modules.Options{Loader: w.entry.loader, Builtin: w.builtinModule, Interrupted: w.isTerminating,
			MetaURL: w.opts.ImportMetaURL}
		if w.dbg != nil {
			opts.Instrument = w.dbg.CompileModule
		}
		if mr, ok := w.ext.(interface {
			ModuleRealm(modules.Options) *modules.Realm
		}); ok {
			w.entry.realm = mr.ModuleRealm(opts) // the Node layer's one map for require and import
		} else {
			w.entry.realm = modules.NewRealm(w.rt, opts)
		}
		err := w.entry.realm.Run(w.entry.path, w.entry.source)
		switch {
		case err == nil:
			ok = true
		case w.isTerminating(): // a Terminate during loading or evaluation is no failure
		default:
			w.fatal = w.moduleFailure(err)
		}
		return nil
	})
	return ok && w.fatal == nil && !w.isTerminating()
}

// moduleFailure reports why the graph failed and returns the error Join
// will return: the ErrorRecord itself, for the failures of the graph.
func (w *Worker) moduleFailure(err error) error {
	var me *modules.Error
	var ex *goja.Exception
	var rec ErrorRecord
	switch {
	case errors.As(err, &me):
		rec = ErrorRecord{Kind: ErrorUncaught, Name: me.Name, Message: me.Message, Filename: me.Path, Line: me.Line, Column: me.Column}
		ctor := w.errorClass()
		if me.Name == "SyntaxError" || me.Name == "RangeError" { // RangeError: a source nested too deeply
			ctor, _ = w.rt.Get(me.Name).(*goja.Object)
		}
		if ctor != nil {
			rec.thrown = w.newError(ctor, "", me.Message)
		}
		if rec.Line > 0 {
			rec.Stack = fmt.Sprintf("%s: %s\n\tat %s:%d:%d", me.Name, me.Message, me.Path, me.Line, me.Column)
		}
	case errors.As(err, &ex):
		rec = w.recordFromException(ex)
	default:
		w.reportErr(err)
		return err
	}
	rec.WorkerID = w.id
	w.report(rec)
	return rec
}

// builtinModule resolves a specifier to a built-in module's exports: the Extension's, if any. core itself has no
// built-in modules.
func (w *Worker) builtinModule(specifier string) (*goja.Object, bool) {
	if w.ext != nil {
		return w.ext.Builtin(specifier)
	}
	return nil, false
}

// spawnFileModule starts a module worker whose imports are files
// (modules.FileLoader) and whose import.meta.url is a file: URL unless opts
// says otherwise: what `jsworker run` and worker_threads start.
func spawnFileModule(path, source string, opts Options) (*Worker, error) {
	return SpawnFileModule(path, source, opts)
}

// SpawnFileModule is SpawnModule for an entry file whose imports are files (modules.FileLoader), with file:
// import.meta.url unless opts.ImportMetaURL says otherwise, and the channel limits opts gives.
func SpawnFileModule(path, source string, opts Options) (*Worker, error) {
	if opts.ImportMetaURL == nil {
		opts.ImportMetaURL = modules.FileURL
	}
	return SpawnModule(path, source, modules.FileLoader(), opts)
}
