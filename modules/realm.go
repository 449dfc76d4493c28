package modules

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// Options configure a Realm. The zero value has no loader: every import
// that is not a built-in fails as not found.
type Options struct {
	// Loader resolves and loads every import that Builtin does not answer.
	Loader Loader

	// RequireLoader, if not nil, resolves and loads what a CommonJS
	// module's require (and Require's functions) ask for; nil uses Loader.
	// Node's resolution differs only in the conditions of package.json
	// "exports" (Resolver.Loader(RequireConditions)).
	RequireLoader Loader

	// Format, if not nil, says how the module at a resolved path runs
	// (Resolver.Format: Node's rules by extension and package.json
	// "type"); nil means by extension alone: .cjs and .cts are CommonJS,
	// .json JSON, anything else an ES module.
	Format func(resolved string) Format

	// Builtin, if not nil, is consulted before Loader for every static and
	// dynamic import: it returns the exports object of a built-in module
	// ("node:worker_threads", ...) in the realm, or ok=false.
	Builtin func(specifier string) (exports *goja.Object, ok bool)

	// MissingHint, if not nil, is asked for a sentence to add to the "Cannot find module" error of a bare
	// specifier nothing resolved (the Node layer names the built-in modules it has when a program asks for one of
	// Node's it does not provide); "" adds nothing.
	MissingHint func(specifier string) string

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
	cacheObj   *goja.Object // require.cache: the CommonJS module objects by path
	main       goja.Value   // require.main, once SetMain is called
	promise    *goja.Object // the realm's original Promise constructor
	root       *record      // Run's entry
}

type state uint8

const (
	linked     state = iota // loaded and compiled with its static imports; not run
	evaluating              // its body is running (a cycle reaches it here)
	evaluated               // its body returned
	failed                  // its body threw: importing it again throws the same
	pending                 // its evaluation is asynchronous (top-level await in it or below) and has not settled
)

// A record is one module of the map.
type record struct {
	path    string
	format  Format         // never FormatDetect
	source  string         // CommonJS and JSON: the source (named exports, parsing)
	c       *compiled      // nil for JSON
	view    *goja.Object   // CommonJS and JSON: what an ES module's import gets (cjsView)
	deps    map[string]dep // by specifier: the static imports, then each dynamic one once it loaded
	state   state
	module  *goja.Object // the CommonJS module object; module.exports is the namespace
	err     error        // state failed: what the body threw
	promise *goja.Object // state pending (and after): settles when its evaluation does
	async   int8         // isAsync's answer: 0 not known yet, 1 yes, 2 no
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
	r.promise, _ = rt.Get("Promise").(*goja.Object)
	return r
}

// Run loads the graph of the entry module (path, with source), then
// evaluates it: every static import of every module in the graph is loaded,
// transformed and compiled before any module runs. It returns an *Error when
// the graph cannot be loaded — then no module has run — or what evaluation
// returned: nil, or the *goja.Exception a module's body threw (the modules
// evaluated before it did run, as in any ES module graph), or goja's
// *goja.InterruptedError.
//
// When a module of the graph uses top-level await, evaluation goes on
// asynchronously after Run returned nil (Pending reports it): modules run
// in the order the ES specification gives, each after its dependencies
// settled; a failure then is a rejected promise nobody handles, which the
// runtime reports as an unhandled rejection.
func (r *Realm) Run(path, source string) error {
	if _, ok := r.mods[path]; ok {
		return &Error{Name: "Error", Message: "module already loaded in this realm", Path: path}
	}
	root, err := r.newRecord(path, source)
	if err != nil {
		return err
	}
	r.root = root
	if err := r.link(root); err != nil {
		r.root = nil
		return err
	}
	return r.startEntry(root)
}

// startEntry starts the evaluation of root from inside one call into the runtime: goja runs promise jobs
// whenever a call from Go returns to Go, and a graph's modules must all start before any job runs (a module
// waiting on an await resumes only after its siblings started, as the ES specification orders it).
// A native function called straight from Go is such a call too, so the native function that starts the graph
// is called through a JavaScript function (callThrough), whose frame keeps the runtime's call stack non-empty.
func (r *Realm) startEntry(root *record) error {
	var err error
	native := r.rt.ToValue(func(goja.FunctionCall) goja.Value {
		_, err = r.start(root)
		return goja.Undefined()
	})
	through, callErr := r.rt.RunProgram(callThrough())
	if callErr == nil {
		fn, _ := goja.AssertFunction(through)
		_, callErr = fn(goja.Undefined(), native)
	}
	if err == nil {
		err = callErr
	}
	return err
}

// callThrough evaluates to a function that calls its argument.
var callThrough = sync.OnceValue(func() *goja.Program { // compiled on first use, not while the library loads
	return goja.MustCompile("jsworker:modules/call", "(function (f) { f(); })", true)
})

// Pending reports whether the entry's asynchronous evaluation (top-level
// await) has not settled yet, and the path of the first module still
// waiting.
func (r *Realm) Pending() (path string, ok bool) {
	if r.root == nil || r.root.state != pending {
		return "", false
	}
	seen := map[*record]bool{}
	for rec := r.root; ; {
		seen[rec] = true
		next := (*record)(nil)
		for _, imp := range rec.imports() {
			if d := rec.deps[imp.spec]; d.rec != nil && d.rec.state == pending && !seen[d.rec] {
				next = d.rec
				break
			}
		}
		if next == nil {
			return rec.path, true
		}
		rec = next
	}
}

// Len returns how many modules the realm has loaded.
func (r *Realm) Len() int { return len(r.mods) }

// newRecord compiles the module at path (in the format Options.Format
// gives it) and adds it to the map, not linked yet.
func (r *Realm) newRecord(path, source string) (*record, error) {
	f := formatByExtension(path)
	if r.opts.Format != nil {
		f = r.opts.Format(path)
	}
	f = decide(f, source)
	rec := &record{path: path, format: f, deps: make(map[string]dep)}
	switch f {
	case FormatJSON:
		rec.source = source
	case FormatCommonJS:
		rec.source = source
		fallthrough
	default:
		c, err := compileModule(path, source, f, r.opts.Instrument)
		if err != nil {
			return nil, err
		}
		rec.c = c
	}
	r.mods[path] = rec
	return rec, nil
}

// imports returns the static imports of rec (none for CommonJS and JSON).
func (rec *record) imports() []staticImport {
	if rec.c == nil {
		return nil
	}
	return rec.c.imports
}

// link loads, breadth first, every static import of the new module root and
// of the new modules they bring. On failure every module added since is
// dropped again, so the map only ever holds complete graphs.
func (r *Realm) link(root *record) error {
	added := []*record{root}
	for i := 0; i < len(added); i++ {
		m := added[i]
		for _, imp := range m.imports() {
			if _, ok := m.deps[imp.spec]; ok {
				continue
			}
			d, isNew, err := r.resolve(imp.spec, m.path, false)
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
// its own imports are not loaded yet). require says whether a CommonJS
// require asks (RequireLoader) or an import.
func (r *Realm) resolve(spec, referrer string, require bool) (d dep, isNew bool, err error) {
	if r.opts.Builtin != nil {
		if o, ok := r.opts.Builtin(spec); ok && o != nil {
			return dep{builtin: o}, false, nil
		}
	}
	if r.opts.Interrupted != nil && r.opts.Interrupted() {
		return dep{}, false, &Error{Name: "Error", Message: "module loading interrupted", Path: referrer}
	}
	loader := r.opts.Loader
	if require && r.opts.RequireLoader != nil {
		loader = r.opts.RequireLoader
	}
	path, source, err := r.load(loader, spec, referrer)
	if err != nil {
		return dep{}, false, err
	}
	if rec := r.mods[path]; rec != nil {
		return dep{rec: rec}, false, nil
	}
	rec, err := r.newRecord(path, source)
	if err != nil {
		return dep{}, false, err
	}
	return dep{rec: rec}, true, nil
}

// load calls the loader, turning its failures (a panic included) into an
// *Error located in the referrer.
func (r *Realm) load(loader Loader, spec, referrer string) (path, source string, err error) {
	notFound := func(cause error) *Error {
		return &Error{Name: "Error", Code: "ERR_MODULE_NOT_FOUND", Path: referrer, Err: cause,
			Message: fmt.Sprintf("Cannot find module '%s' imported from %s", spec, referrer)}
	}
	if loader == nil {
		return "", "", notFound(ErrNotFound)
	}
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Name: "Error", Path: referrer, Err: fmt.Errorf("loader panicked: %v", p),
				Message: fmt.Sprintf("Cannot load module '%s' imported from %s: the loader panicked: %v", spec, referrer, p)}
		}
	}()
	path, source, err = loader(spec, referrer)
	var ne *notExported
	switch {
	case errors.As(err, &ne):
		return "", "", &Error{Name: "Error", Code: "ERR_PACKAGE_PATH_NOT_EXPORTED", Path: referrer, Err: err,
			Message: fmt.Sprintf("%s imported from %s", ne.Error(), referrer)}
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

// importMeta returns rec's import.meta: url, and for a module at an
// absolute path filename and dirname, as in Node.
func (r *Realm) importMeta(rec *record) *goja.Object {
	meta := r.rt.NewObject()
	_ = meta.SetPrototype(nil)
	_ = meta.Set("url", r.metaURL(rec.path))
	if filepath.IsAbs(rec.path) {
		_ = meta.Set("filename", rec.path)
		_ = meta.Set("dirname", filepath.Dir(rec.path))
	}
	_ = meta.Set("resolve", r.metaResolve(rec))
	return meta
}

// metaResolve is import.meta.resolve of rec: the URL (import.meta.url's form) the specifier resolves to as an
// import of rec, "node:x" for a built-in; it throws when nothing answers. It loads the module's source through
// the loader (which returns both) but neither compiles nor adds it.
func (r *Realm) metaResolve(rec *record) goja.Value {
	return r.rt.ToValue(func(spec string) string {
		if r.opts.Builtin != nil {
			if o, ok := r.opts.Builtin(spec); ok && o != nil {
				if strings.HasPrefix(spec, "node:") {
					return spec
				}
				return "node:" + spec
			}
		}
		if d, ok := rec.deps[spec]; ok && d.rec != nil {
			return r.metaURL(d.rec.path)
		}
		p, _, err := r.load(r.opts.Loader, spec, rec.path)
		if err != nil {
			panic(r.throwable(err))
		}
		return r.metaURL(p)
	})
}

// metaURL is import.meta.url of the module at path.
func (r *Realm) metaURL(path string) string {
	if r.opts.MetaURL != nil {
		return r.opts.MetaURL(path)
	}
	return path
}

// requireFn is the require function of an ES module's body: the static
// imports it linked, and dynamic import() (esbuild lowers it to a require
// in a promise reaction), which loads and links the new module's graph
// then. A CommonJS or JSON dependency answers with its cjsView.
func (r *Realm) requireFn(m *record) goja.Value {
	f := r.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		spec := call.Argument(0).String()
		d, ok := m.deps[spec]
		if !ok {
			var isNew bool
			var err error
			d, isNew, err = r.resolve(spec, m.path, false)
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
		if d.rec.format == FormatModule {
			return v
		}
		if d.rec.view == nil || d.rec.state != evaluated {
			view := r.cjsView(d.rec)
			if d.rec.state != evaluated {
				return view // a cycle: not final yet
			}
			d.rec.view = view
		}
		return d.rec.view
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
	case errors.As(err, new(*rejection)):
		var rj *rejection
		errors.As(err, &rj)
		return rj.v
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
	} else if e.Name == "RangeError" { // a source nested too deeply (compileModule)
		ctor, _ = r.rt.Get("RangeError").(*goja.Object)
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
