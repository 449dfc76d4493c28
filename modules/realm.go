package modules

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// Options configure a Realm. The zero value has no loader: every import
// that is not a built-in fails as not found.
type Options struct {
	// Loader resolves and loads every import that Builtin does not answer.
	Loader Loader

	// Builtin, if not nil, is consulted before Loader for every static and
	// dynamic import: it returns the exports object of a built-in module
	// ("node:worker_threads", ...) in the realm, or ok=false.
	Builtin func(specifier string) (exports *goja.Object, ok bool)

	// Instrument, if not nil, compiles each module instead of goja (a
	// debugger's instrumentation). Modules compiled this way are not
	// shared through the process-wide cache.
	Instrument Instrumenter

	// Interrupted, if not nil, is asked before each load; when it reports
	// true the graph stops loading (the worker is terminating).
	Interrupted func() bool

	// MetaURL, if not nil, makes a module's import.meta.url from its
	// resolved path; nil keeps the resolved path itself. Programs that load
	// files pass FileURL, so that import.meta.url is a file: URL as in Node
	// and `new URL("./x.js", import.meta.url)` works.
	MetaURL func(resolved string) string
}

// A Realm is the module map of one goja runtime: every module it loaded, by
// resolved path, each instantiated at most once. It is used on the runtime's
// goroutine only, like the runtime.
type Realm struct {
	rt         *goja.Runtime
	opts       Options
	mods       map[string]*record
	errorCtor  *goja.Object // the realm's own Error and SyntaxError, taken before user code runs
	syntaxCtor *goja.Object
}

type state uint8

const (
	linked     state = iota // loaded and compiled with its static imports; not run
	evaluating              // its body is running (a cycle reaches it here)
	evaluated               // its body returned
	failed                  // its body threw: importing it again throws the same
)

// A record is one module of the map.
type record struct {
	path   string
	c      *compiled
	deps   map[string]dep // by specifier: the static imports, then each dynamic one once it loaded
	state  state
	module *goja.Object // the CommonJS module object; module.exports is the namespace
	err    error        // state failed: what the body threw
}

// A dep is what a specifier names: a module of the map or a built-in.
type dep struct {
	rec     *record
	builtin *goja.Object
}

// NewRealm returns the module map of rt. Call it on rt's goroutine before
// user code runs: it keeps the realm's original error constructors.
func NewRealm(rt *goja.Runtime, opts Options) *Realm {
	r := &Realm{rt: rt, opts: opts, mods: make(map[string]*record)}
	_ = depthguard.Ensure(rt) // every module function is guarded (internal/depthguard); cannot fail in a goja realm
	r.errorCtor, _ = rt.Get("Error").(*goja.Object)
	r.syntaxCtor, _ = rt.Get("SyntaxError").(*goja.Object)
	return r
}

// Run loads the graph of the entry module (path, with source), then
// evaluates it: every static import of every module in the graph is loaded,
// transformed and compiled before any module runs. It returns an *Error when
// the graph cannot be loaded — then no module has run — or what evaluation
// returned: nil, or the *goja.Exception a module's body threw (the modules
// evaluated before it did run, as in any ES module graph), or goja's
// *goja.InterruptedError.
func (r *Realm) Run(path, source string) error {
	if _, ok := r.mods[path]; ok {
		return &Error{Name: "Error", Message: "module already loaded in this realm", Path: path}
	}
	c, err := compileModule(path, source, r.opts.Instrument)
	if err != nil {
		return err
	}
	root := r.add(path, c)
	if err := r.link(root); err != nil {
		return err
	}
	_, err = r.evaluate(root)
	return err
}

// Len returns how many modules the realm has loaded.
func (r *Realm) Len() int { return len(r.mods) }

func (r *Realm) add(path string, c *compiled) *record {
	rec := &record{path: path, c: c, deps: make(map[string]dep, len(c.imports))}
	r.mods[path] = rec
	return rec
}

// link loads, breadth first, every static import of the new module root and
// of the new modules they bring. On failure every module added since is
// dropped again, so the map only ever holds complete graphs.
func (r *Realm) link(root *record) error {
	added := []*record{root}
	for i := 0; i < len(added); i++ {
		m := added[i]
		for _, imp := range m.c.imports {
			if _, ok := m.deps[imp.spec]; ok {
				continue
			}
			d, isNew, err := r.resolve(imp.spec, m.path)
			if err != nil {
				var e *Error
				if errors.As(err, &e) && e.Path == m.path && e.Line == 0 {
					e.Line, e.Column = imp.line, imp.column
				}
				for _, a := range added {
					delete(r.mods, a.path)
				}
				return err
			}
			m.deps[imp.spec] = d
			if isNew {
				added = append(added, d.rec)
			}
		}
	}
	return nil
}

// resolve finds what spec names for the module at referrer: a built-in, a
// module already in the map, or a new module it loads and compiles (isNew;
// its own imports are not loaded yet).
func (r *Realm) resolve(spec, referrer string) (d dep, isNew bool, err error) {
	if r.opts.Builtin != nil {
		if o, ok := r.opts.Builtin(spec); ok && o != nil {
			return dep{builtin: o}, false, nil
		}
	}
	if r.opts.Interrupted != nil && r.opts.Interrupted() {
		return dep{}, false, &Error{Name: "Error", Message: "module loading interrupted", Path: referrer}
	}
	path, source, err := r.load(spec, referrer)
	if err != nil {
		return dep{}, false, err
	}
	if rec := r.mods[path]; rec != nil {
		return dep{rec: rec}, false, nil
	}
	c, err := compileModule(path, source, r.opts.Instrument)
	if err != nil {
		return dep{}, false, err
	}
	return dep{rec: r.add(path, c)}, true, nil
}

// load calls the loader, turning its failures (a panic included) into an
// *Error located in the referrer.
func (r *Realm) load(spec, referrer string) (path, source string, err error) {
	notFound := func(cause error) *Error {
		return &Error{Name: "Error", Code: "ERR_MODULE_NOT_FOUND", Path: referrer, Err: cause,
			Message: fmt.Sprintf("Cannot find module '%s' imported from %s", spec, referrer)}
	}
	if r.opts.Loader == nil {
		return "", "", notFound(ErrNotFound)
	}
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Name: "Error", Path: referrer, Err: fmt.Errorf("loader panicked: %v", p),
				Message: fmt.Sprintf("Cannot load module '%s' imported from %s: the loader panicked: %v", spec, referrer, p)}
		}
	}()
	path, source, err = r.opts.Loader(spec, referrer)
	switch {
	case errors.Is(err, ErrNotFound):
		return "", "", notFound(err)
	case err != nil:
		return "", "", &Error{Name: "Error", Path: referrer, Err: err,
			Message: fmt.Sprintf("Cannot load module '%s' imported from %s: %v", spec, referrer, err)}
	case path == "":
		return "", "", &Error{Name: "Error", Path: referrer,
			Message: fmt.Sprintf("Cannot load module '%s' imported from %s: the loader returned an empty path", spec, referrer)}
	}
	return path, source, nil
}

// evaluate runs rec's body once and returns its exports. A module being
// evaluated (an import cycle) returns its exports as they are: the getters
// exist before the body runs, so hoisted functions already answer.
func (r *Realm) evaluate(rec *record) (goja.Value, error) {
	switch rec.state {
	case evaluating, evaluated:
		return rec.module.Get("exports"), nil
	case failed:
		return nil, rec.err
	}
	rec.state = evaluating
	rt := r.rt
	rec.module = rt.NewObject()
	_ = rec.module.Set("exports", rt.NewObject())
	meta := rt.NewObject()
	_ = meta.SetPrototype(nil)
	metaURL := rec.path
	if r.opts.MetaURL != nil {
		metaURL = r.opts.MetaURL(rec.path)
	}
	_ = meta.Set("url", metaURL)
	fnv, err := rt.RunProgram(rec.c.prg)
	if err == nil {
		fn, ok := goja.AssertFunction(fnv)
		if !ok {
			err = fmt.Errorf("modules: the wrapper of %s is not a function", rec.path)
		} else {
			_, err = fn(goja.Undefined(), rec.module, r.requireFn(rec), meta)
		}
	}
	if err != nil {
		rec.state, rec.err = failed, err
		return nil, err
	}
	rec.state = evaluated
	return rec.module.Get("exports"), nil
}

// requireFn is the require function of m's body: the static imports it
// linked, and dynamic import() (esbuild lowers it to a require in a promise
// reaction), which loads and links the new module's graph then.
func (r *Realm) requireFn(m *record) goja.Value {
	f := r.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		spec := call.Argument(0).String()
		d, ok := m.deps[spec]
		if !ok {
			var isNew bool
			var err error
			d, isNew, err = r.resolve(spec, m.path)
			if err == nil && isNew {
				err = r.link(d.rec)
			}
			if err != nil {
				panic(r.throwable(err))
			}
			m.deps[spec] = d
		}
		if d.builtin != nil {
			return d.builtin
		}
		v, err := r.evaluate(d.rec)
		if err != nil {
			panic(r.throwable(err))
		}
		return v
	}).(*goja.Object)
	// Stack traces name the frame "require (native)", not the Go closure.
	_ = f.DefineDataProperty("name", r.rt.ToValue("require"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// throwable converts err into what a native function panics with to throw
// it in JavaScript: exceptions and interruptions as they are, an *Error as
// an Error or SyntaxError of the realm.
func (r *Realm) throwable(err error) any {
	var ex *goja.Exception
	var e *Error
	switch {
	case errors.As(err, &ex):
		return ex
	case errors.As(err, &e):
		return r.jsError(e)
	}
	var intr *goja.InterruptedError
	var so *goja.StackOverflowError
	if errors.As(err, &intr) || errors.As(err, &so) {
		return err // uncatchable: goja lets it through every try
	}
	return r.rt.NewGoError(err)
}

// jsError makes e a JavaScript error of the realm. Its message names the
// position, since the error is thrown from wherever the import was.
func (r *Realm) jsError(e *Error) goja.Value {
	ctor := r.errorCtor
	if e.Name == "SyntaxError" {
		ctor = r.syntaxCtor
	}
	msg := e.Message
	if e.Line > 0 {
		msg = fmt.Sprintf("%s (%s:%d:%d)", e.Message, e.Path, e.Line, e.Column)
	}
	if ctor == nil {
		return r.rt.NewGoError(errors.New(msg))
	}
	o, err := r.rt.New(ctor, r.rt.ToValue(msg))
	if err != nil {
		return r.rt.NewGoError(errors.New(msg))
	}
	if e.Code != "" {
		_ = o.Set("code", e.Code)
	}
	return o
}
