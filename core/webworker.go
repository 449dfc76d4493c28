package core

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// The web Worker every realm has: new Worker(url, {type, name}) starts a worker with the web worker globals, whose
// uncaught errors become 'error' events (ErrorEvents) of the Worker object and which lives until it calls close()
// or is terminated.

// A webChild holds the error records of a web worker until its parent's loop dispatches them.
type webChild struct {
	mu    sync.Mutex
	errs  []ErrorRecord
	child *Child
}

// push is the worker's OnError: it runs on the worker's thread.
func (wc *webChild) push(rec ErrorRecord) {
	wc.mu.Lock()
	wc.errs = append(wc.errs, rec)
	c := wc.child
	wc.mu.Unlock()
	if c != nil {
		c.Schedule()
	}
}

func (wc *webChild) take() []ErrorRecord {
	wc.mu.Lock()
	defer wc.mu.Unlock()
	e := wc.errs
	wc.errs = nil
	return e
}

func (wc *webChild) BeforeMessages(c *Child) bool { return wc.dispatchErrors(c) }
func (wc *webChild) Exited(c *Child)              { wc.dispatchErrors(c) }

// dispatchErrors dispatches the worker's error records as ErrorEvents; it tells whether the drain must stop.
func (wc *webChild) dispatchErrors(c *Child) bool {
	r := c.realm
	for _, rec := range wc.take() {
		msg := rec.Message
		if rec.Name != "" {
			msg = rec.Name + ": " + rec.Message
		}
		if r.errorEvFn == nil {
			r.errorEvFn, _ = goja.AssertFunction(r.Export("errorEvent"))
		}
		ev, err := r.errorEvFn(goja.Undefined(), r.rt.ToValue("Uncaught "+msg), r.rt.ToValue(rec.Filename),
			r.rt.ToValue(rec.Line), r.rt.ToValue(rec.Column), goja.Null())
		if err == nil {
			err = r.Emit(c.obj, "error", ev)
		}
		if r.Report(err) {
			return true
		}
	}
	return false
}

// webWorkerPath resolves a web Worker's URL: a file: URL or a path (relative to the current directory).
func webWorkerPath(s string) (string, error) {
	if strings.HasPrefix(s, "file:") {
		u, err := url.Parse(s)
		if err != nil {
			return "", err
		}
		return u.Path, nil
	}
	if strings.Contains(s, "://") || strings.HasPrefix(s, "data:") || strings.HasPrefix(s, "blob:") {
		return "", fmt.Errorf("jsworker: worker URL %q is not supported (only file: URLs and paths)", s)
	}
	return filepath.Abs(s)
}

// spawnWeb starts a web Worker behind obj.
func (r *Realm) spawnWeb(obj *goja.Object, u string, spec *goja.Object) {
	module := spec.Get("type").String() == "module"
	p, err := webWorkerPath(u)
	if err != nil {
		panic(r.NewError("TypeError", "", err.Error()))
	}
	b, err := os.ReadFile(p)
	if err != nil {
		panic(r.NewError("Error", "NetworkError", "Worker: cannot load "+u+": "+err.Error()))
	}
	wc := &webChild{}
	opts := r.ChildOptions(spec.Get("name").String(), p)
	opts.OnError = wc.push
	if !module {
		hooked := opts.Setup // a ChildHook's
		opts.Setup = func(w *Worker, rt *goja.Runtime) error {
			installImportScripts(w, filepath.Dir(p))
			if hooked != nil {
				return hooked(w, rt)
			}
			return nil
		}
	}
	w, err := SpawnFile(p, string(b), module, opts)
	if err != nil {
		var syn *goja.CompilerSyntaxError
		if errors.As(err, &syn) {
			panic(r.CompileError(err))
		}
		r.Throw("Worker", err)
	}
	c := r.AddChild(obj, w, wc)
	wc.mu.Lock()
	wc.child = c
	wc.mu.Unlock()
	c.Schedule() // errors reported before the child was known
}

// runClassic runs src as a classic script with its functions guarded (CompileScript); a syntax error is goja's own
// exception, also for a text goja's parser panics on (RunUncompiled).
func runClassic(rt *goja.Runtime, name, src string) (goja.Value, error) {
	prg, err := CompileScript(name, src, false)
	if err != nil {
		return RunUncompiled(rt, name, src)
	}
	return rt.RunProgram(prg)
}

// installImportScripts defines importScripts(...urls) for a classic web worker: each script is read (relative to
// dir) and run in the global scope, in order, its functions guarded (runClassic).
func installImportScripts(w *Worker, dir string) {
	jsutil.DefineFunc(w.rt, w.rt.GlobalObject(), "importScripts", 0, func(c goja.FunctionCall) goja.Value {
		for _, a := range c.Arguments {
			s := a.String()
			p := s
			if strings.HasPrefix(s, "file:") {
				if u, err := url.Parse(s); err == nil {
					p = u.Path
				}
			} else if !filepath.IsAbs(s) {
				p = filepath.Join(dir, s)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				panic(w.newError(w.errorClass(), "NetworkError", "importScripts: cannot load "+s+": "+err.Error()))
			}
			if _, err := runClassic(w.rt, p, string(b)); err != nil {
				var ex *goja.Exception
				if errors.As(err, &ex) {
					panic(ex.Value())
				}
				panic(w.newError(w.errorClass(), "SyntaxError", err.Error()))
			}
		}
		return goja.Undefined()
	})
}
