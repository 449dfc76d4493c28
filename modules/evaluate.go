package modules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// Evaluation. A module graph without top-level await evaluates synchronously, dependencies first, each module's
// in the order of its imports. With top-level await the ES specification's order holds: a module starts once
// every dependency it imports has finished; a dependency that has to wait (its own await, or one below it) does
// not hold up its siblings, which start at once; the importer waits for all of them. start runs that order: it
// returns nil when rec finished synchronously, or a promise that settles when rec's evaluation does.

// start evaluates rec after its static dependencies, and returns nil once it has evaluated, or a promise of its
// asynchronous evaluation.
func (r *Realm) start(rec *record) (*goja.Object, error) {
	switch rec.state {
	case evaluated, evaluating: // evaluating: a cycle reaches it; its importer goes on, as in any ES graph
		return nil, nil
	case failed:
		return nil, rec.err
	case pending:
		return rec.promise, nil
	}
	if rec.format != FormatModule {
		_, err := r.evaluate(rec)
		return nil, err
	}
	rec.state = evaluating
	rec.module = r.rt.NewObject()
	_ = rec.module.Set("exports", r.rt.NewObject())
	if !isAsync(rec) {
		// No top-level await anywhere below: the body runs now and its own require calls evaluate its
		// dependencies as it reaches them, in import order, after its exports' getters are defined (so that a
		// cycle back to it finds its hoisted functions).
		if _, err := r.evaluateESM(rec); err != nil {
			rec.state, rec.err = failed, err
			return nil, err
		}
		rec.state = evaluated
		r.fixDefaultName(rec)
		return nil, nil
	}
	var waits []goja.Value
	for _, imp := range rec.imports() {
		d := rec.deps[imp.spec]
		if d.rec == nil {
			continue
		}
		p, err := r.start(d.rec)
		if err != nil {
			rec.state, rec.err = failed, err
			return nil, err
		}
		if p != nil {
			waits = append(waits, p)
		}
	}
	if len(waits) == 0 && !rec.c.async {
		if _, err := r.evaluateESM(rec); err != nil {
			rec.state, rec.err = failed, err
			return nil, err
		}
		rec.state = evaluated
		return nil, nil
	}
	rec.state = pending
	body := func(goja.FunctionCall) goja.Value {
		v, err := r.evaluateESM(rec)
		if err != nil {
			panic(r.throwable(err))
		}
		return v // the async wrapper's promise, which the chain adopts
	}
	done := func(goja.FunctionCall) goja.Value {
		rec.state = evaluated
		r.fixDefaultName(rec)
		return goja.Undefined()
	}
	fail := func(c goja.FunctionCall) goja.Value {
		rec.state, rec.err = failed, &rejection{c.Argument(0)}
		panic(c.Argument(0))
	}
	var p *goja.Object
	var err error
	if len(waits) == 0 {
		// Nothing to wait for: the body starts now, as the specification's ExecuteAsyncModule does, and runs
		// up to its first await before the next module starts.
		var v goja.Value
		if v, err = r.evaluateESM(rec); err == nil {
			p, err = r.call(r.promise, "resolve", v)
		}
	} else {
		p, err = r.call(r.promise, "all", r.rt.NewArray(toAny(waits)...))
		if err == nil {
			p, err = r.call(p, "then", r.rt.ToValue(body))
		}
	}
	if err == nil {
		p, err = r.call(p, "then", r.rt.ToValue(done), r.rt.ToValue(fail))
	}
	if err != nil {
		rec.state, rec.err = failed, err
		return nil, err
	}
	rec.promise = p
	return p, nil
}

// evaluate runs rec (and for an ES module its dependencies, through start) once and returns its exports
// (module.exports). A module being evaluated (a cycle) returns its exports as they are: an ES module's getters
// exist before the body runs, so hoisted functions already answer. An ES module whose evaluation is
// asynchronous (its promise is not settled) returns its exports as they are too: callers that must wait
// (import(), require) check isAsync or start first.
func (r *Realm) evaluate(rec *record) (goja.Value, error) {
	switch rec.state {
	case evaluating, evaluated, pending:
		return rec.module.Get("exports"), nil
	case failed:
		return nil, rec.err
	}
	if rec.format == FormatModule {
		if _, err := r.start(rec); err != nil {
			return nil, err
		}
		return rec.module.Get("exports"), nil
	}
	rec.state = evaluating
	var err error
	if rec.format == FormatCommonJS {
		err = r.evaluateCJS(rec)
	} else {
		err = r.evaluateJSON(rec)
	}
	if err != nil {
		rec.state, rec.err = failed, err
		return nil, err
	}
	rec.state = evaluated
	return rec.module.Get("exports"), nil
}

// evaluateESM runs an ES module's wrapper with its module object, require, import.meta and import() hook, and
// returns what the wrapper returned (a promise for a module with top-level await).
func (r *Realm) evaluateESM(rec *record) (goja.Value, error) {
	rt := r.rt
	fnv, err := rt.RunProgram(rec.c.prg)
	if err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return nil, fmt.Errorf("modules: the wrapper of %s is not a function", rec.path)
	}
	return fn(goja.Undefined(), rec.module, r.requireFn(rec), r.importMeta(rec), r.importFn(rec))
}

// fixDefaultName names an anonymous default export "default", as Node does: esbuild gives its binding a name of
// its own (m_default).
func (r *Realm) fixDefaultName(rec *record) {
	if !rec.c.anonDefault {
		return
	}
	ex, ok := rec.module.Get("exports").(*goja.Object)
	if !ok {
		return
	}
	fn, ok := ex.Get("default").(*goja.Object)
	if !ok {
		return
	}
	if _, isFn := goja.AssertFunction(fn); !isFn || !strings.HasSuffix(fn.Get("name").String(), "_default") {
		return
	}
	_ = fn.DefineDataProperty("name", r.rt.ToValue("default"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// isAsync reports whether rec, or an ES module it imports statically (directly or below), has top-level await:
// then rec's evaluation is asynchronous. The answer is kept: when it is no, it is no for every module below too.
func isAsync(rec *record) bool {
	if rec.async == 0 {
		seen := map[*record]bool{}
		if asyncGraph(rec, seen) {
			rec.async = 1
		} else {
			for m := range seen {
				m.async = 2
			}
		}
	}
	return rec.async == 1
}

func asyncGraph(rec *record, seen map[*record]bool) bool {
	if rec.format != FormatModule || seen[rec] || rec.async == 2 {
		return false
	}
	seen[rec] = true
	if rec.async == 1 || rec.c.async {
		return true
	}
	for _, imp := range rec.imports() {
		if d := rec.deps[imp.spec]; d.rec != nil && asyncGraph(d.rec, seen) {
			return true
		}
	}
	return false
}

// importFn is the import() hook of m's body: compile.go rewrites esbuild's lowering of import(x),
// Promise.resolve().then(() => __toESM(require(x))), to start with it instead of Promise.resolve(). It loads
// and links x's graph and evaluates it, and resolves once that evaluation settled; the require that follows
// then finds x evaluated. Failures reject it.
func (r *Realm) importFn(m *record) goja.Value {
	f := r.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		p, resolve, reject := r.rt.NewPromise()
		settle := func() error {
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
					return err
				}
				m.deps[spec] = d
			}
			if d.builtin != nil {
				return resolve(goja.Undefined())
			}
			w, err := r.start(d.rec)
			if err != nil {
				return err
			}
			if w == nil {
				return resolve(goja.Undefined())
			}
			return resolve(w)
		}
		if err := settle(); err != nil {
			var intr *goja.InterruptedError
			if errors.As(err, &intr) {
				panic(err)
			}
			_ = reject(r.rejectionValue(err))
		}
		return r.rt.ToValue(p)
	}).(*goja.Object)
	_ = f.DefineDataProperty("name", r.rt.ToValue("import"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// rejectionValue is what a promise rejects with for err.
func (r *Realm) rejectionValue(err error) goja.Value {
	switch t := r.throwable(err).(type) {
	case goja.Value:
		return t
	case *goja.Exception:
		return t.Value()
	}
	return r.rt.NewGoError(err)
}

// A rejection is an asynchronous evaluation's failure: the value its promise rejected with.
type rejection struct{ v goja.Value }

func (e *rejection) Error() string { return "module evaluation rejected: " + e.v.String() }

// call calls o[method](args...) and returns the result as an object.
func (r *Realm) call(o *goja.Object, method string, args ...goja.Value) (*goja.Object, error) {
	fn, ok := goja.AssertFunction(o.Get(method))
	if !ok {
		return nil, fmt.Errorf("modules: %s is not a function", method)
	}
	v, err := fn(o, args...)
	if err != nil {
		return nil, err
	}
	res, ok := v.(*goja.Object)
	if !ok {
		return nil, fmt.Errorf("modules: %s did not return an object", method)
	}
	return res, nil
}

func toAny(vs []goja.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}
