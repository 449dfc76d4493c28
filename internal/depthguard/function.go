package depthguard

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// The Function constructor and its async and generator forms compile their source with goja's own compiler, out of
// Rewrite's reach, so recursion inside the functions they make would end at goja's uncatchable limit. wrapFunction
// replaces each constructor by a native one that builds the same source text goja builds —
// "(function anonymous(" params "\n) {\n" body "\n})" — parses it, guards it and runs it as global code, as goja's
// indirect eval of that text would, and then gives the result the prototype new.target asks for. It takes over the
// original's own properties and [[Prototype]], and the prototype's constructor points at it, so identity holds:
// (function(){}).constructor === Function, new Function() instanceof Function, Object.getPrototypeOf of an async
// function's constructor is Function, and subclasses of Function construct through it. The functions it makes are
// goja's as before: name "anonymous", toString the same text, sloppy unless their body says "use strict", scoped
// to the global object. Text goja's compiler would read differently from Go's (a lone surrogate) and every syntax
// error go to the original constructor, given the strings already converted, so that no argument's toString runs
// twice and the error is goja's own.

// evalName is the script name goja gives eval code, and so the functions the Function constructor makes.
const evalName = "<eval>"

// wrapFunction installs the guarded constructors in rt.
func wrapFunction(rt *goja.Runtime) error {
	fn, ok := rt.Get("Function").(*goja.Object)
	if !ok {
		return errors.New("depthguard: the realm has no Function constructor")
	}
	wrapped, err := wrapCtor(rt, fn, "function", nil, true)
	if err != nil {
		return err
	}
	if err := rt.GlobalObject().DefineDataProperty("Function", wrapped, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	// AsyncFunction and GeneratorFunction are no globals: they are the constructors of their functions' prototypes.
	// goja's flags of their prototypes' constructor properties: writable for AsyncFunction, not for
	// GeneratorFunction (as in the specification).
	p, err := ctorsProgram()
	if err != nil {
		return err
	}
	v, err := rt.RunProgram(p)
	if err != nil {
		return err
	}
	pair, ok := v.(*goja.Object)
	if !ok {
		return errors.New("depthguard: no AsyncFunction and GeneratorFunction")
	}
	for i, c := range []struct {
		kind     string
		writable bool
	}{{"async function", true}, {"function*", false}} {
		ctor, ok := pair.Get(strconv.Itoa(i)).(*goja.Object)
		if !ok {
			return errors.New("depthguard: no constructor for " + c.kind)
		}
		// Object.getPrototypeOf(AsyncFunction) === Function, as in the specification and V8 (goja's is
		// Function.prototype).
		if _, err := wrapCtor(rt, ctor, c.kind, wrapped, c.writable); err != nil {
			return err
		}
	}
	return nil
}

// ctorsProgram finds AsyncFunction and GeneratorFunction, which are no globals but the constructors of their
// functions' prototypes; compiled once per process.
var ctorsProgram = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("jsworker:depthguard",
		"[Object.getPrototypeOf(async function () {}).constructor, Object.getPrototypeOf(function* () {}).constructor]", true)
})

// wrapCtor makes the guarded form of orig, which makes functions of the given kind ("function", "async function",
// "function*"), and points orig.prototype.constructor at it (writable as given: goja's flag). proto, if not nil,
// becomes its [[Prototype]] (the wrapped Function, for the async and generator forms); otherwise it keeps orig's.
func wrapCtor(rt *goja.Runtime, orig *goja.Object, kind string, proto *goja.Object, writable bool) (*goja.Object, error) {
	origCall, ok := goja.AssertFunction(orig)
	if !ok {
		return nil, errors.New("depthguard: the " + kind + " constructor is not callable")
	}
	defaultProto, _ := orig.Get("prototype").(*goja.Object)
	if defaultProto == nil {
		return nil, errors.New("depthguard: the " + kind + " constructor has no prototype")
	}
	head := "(" + kind + " anonymous("
	w := rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		args := make([]goja.Value, len(call.Arguments))
		strs := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			if _, ok := a.(*goja.Symbol); ok {
				panic(rt.NewTypeError("Cannot convert a Symbol value to a string")) // goja's ToString of a Symbol
			}
			args[i] = a.ToString() // in order, as goja does
			strs[i] = args[i].String()
		}
		f := compileFunction(rt, head, strs)
		if f == nil {
			v, err := origCall(goja.Undefined(), args...) // a syntax error, thrown by goja as it would be
			if err != nil {
				panic(err)
			}
			f, _ = v.(*goja.Object)
		}
		want := defaultProto
		if call.NewTarget != nil {
			want = call.This.Prototype() // new.target's prototype, as the object goja made for this call has it
		}
		if f != nil && want != nil && f.Prototype() != want {
			if err := f.SetPrototype(want); err != nil {
				panic(err)
			}
		}
		return f
	}).(*goja.Object)
	for _, k := range orig.Keys() { // no enumerable own properties on the originals; kept should goja add some
		if err := w.Set(k, orig.Get(k)); err != nil {
			return nil, err
		}
	}
	for _, k := range []string{"name", "length"} {
		if err := w.DefineDataProperty(k, orig.Get(k), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return nil, err
		}
	}
	if err := w.DefineDataProperty("prototype", defaultProto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return nil, err
	}
	if proto == nil {
		proto = orig.Prototype()
	}
	if err := w.SetPrototype(proto); err != nil {
		return nil, err
	}
	if err := defaultProto.DefineDataProperty("constructor", w, flag(writable), goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return nil, err
	}
	return w, nil
}

// compileFunction builds, guards and runs the source the constructor's arguments make (the last is the body, the
// others the parameters) and returns the function, or nil when the text must go to goja's own constructor: a syntax
// error, or text holding U+FFFD, which may stand for a lone surrogate Go's strings cannot carry.
func compileFunction(rt *goja.Runtime, head string, args []string) *goja.Object {
	var sb strings.Builder
	sb.WriteString(head)
	body := ""
	if n := len(args); n > 0 {
		sb.WriteString(strings.Join(args[:n-1], ","))
		body = args[n-1]
	}
	sb.WriteString("\n) {\n")
	sb.WriteString(body)
	sb.WriteString("\n})")
	src := sb.String()
	if strings.ContainsRune(src, '\uFFFD') {
		return nil
	}
	prg, err := goja.Parse(evalName, src, parser.WithDisableSourceMaps)
	if err != nil || len(prg.Body) != 1 {
		return nil // "a){}; (function(" and the like: not one function expression, a syntax error for goja too
	}
	Rewrite(prg)
	p, err := goja.CompileAST(prg, false)
	if err != nil {
		return nil
	}
	v, err := rt.RunProgram(p)
	if err != nil {
		panic(err) // an interrupt (termination) at its one instruction: it goes on unwinding
	}
	f, _ := v.(*goja.Object)
	return f
}

func flag(b bool) goja.Flag {
	if b {
		return goja.FLAG_TRUE
	}
	return goja.FLAG_FALSE
}
