package depthguard

import (
	"errors"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// The Function constructor and its async and generator forms compile their source with goja's own compiler, out of
// Rewrite's reach, so recursion inside the functions they make would end at goja's uncatchable limit.
// guardConstructors changes goja's own constructors in place (gojainternal.GuardCall and ReplaceConstruct): a call or
// construction builds the same source text goja builds — "(function anonymous(" params "\n) {\n" body "\n})" —,
// parses it, guards it and runs it as global code, as goja's indirect eval of that text would, and gives the result
// the prototype new.target asks for (subclasses of Function). The constructors stay goja's objects, so identity,
// descriptors, toString and prototype.constructor hold by construction; the one change is
// Object.getPrototypeOf(AsyncFunction) === Function (and GeneratorFunction), as in the specification and V8 (goja's
// is Function.prototype). The functions they make are goja's as before: name "anonymous", toString the same text,
// sloppy unless their body says "use strict", scoped to the global object. Text goja's compiler would read
// differently from Go's (a lone surrogate) and every syntax error go to goja's own behaviour, given the strings
// already converted, so that no argument's toString runs twice and the error is goja's own.
//
// Where goja's native functions cannot be changed in place (gojainternal.LazyGuard failed), wrapFunction replaces
// each constructor by a native one doing the same, which takes over the original's own properties, [[Prototype]]
// and prototype.constructor.

// evalName is the script name goja gives eval code, and so the functions the Function constructor makes.
const evalName = "<eval>"

// ctorKind is one of the three constructors: the head of the source text it builds, and goja's flag of its
// prototype's constructor property (writable for Function and AsyncFunction, not for GeneratorFunction, as in the
// specification).
type ctorKind struct {
	head     string
	writable bool
}

var (
	kindFunction  = ctorKind{"(function anonymous(", true}
	kindAsync     = ctorKind{"(async function anonymous(", true}
	kindGenerator = ctorKind{"(function* anonymous(", false}
)

// guardConstructors guards the three constructors of rt, in place where it can. It returns ensure, which guards
// AsyncFunction and GeneratorFunction on its first call and does nothing after: where the Function constructor is
// guarded in place and gojainternal can see that goja has made neither yet, they are left to ensure (ensure.go), so
// that an idle realm makes neither; otherwise they are guarded now and ensure does nothing.
func guardConstructors(rt *goja.Runtime) (ensure func(), err error) {
	noop := func() {}
	fn, ok := rt.Get("Function").(*goja.Object)
	if !ok {
		return nil, errors.New("depthguard: the realm has no Function constructor")
	}
	if gojainternal.LazyGuard() != nil || !guardInPlace(rt, fn, kindFunction) {
		return noop, wrapFunction(rt, fn)
	}
	if async, gen, ok := gojainternal.FunctionKindsMade(rt); ok && !async && !gen {
		done := false
		return func() {
			if !done {
				done = true
				if err := guardAsyncAndGenerator(rt, fn); err != nil {
					panic(err)
				}
			}
		}, nil
	}
	return noop, guardAsyncAndGenerator(rt, fn)
}

// guardAsyncAndGenerator guards AsyncFunction and GeneratorFunction in place (wrapper constructors where it cannot),
// fn being the realm's Function constructor, guarded in place.
func guardAsyncAndGenerator(rt *goja.Runtime, fn *goja.Object) error {
	async, gen, err := asyncAndGenerator(rt)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		ctor *goja.Object
		kind ctorKind
	}{{async, kindAsync}, {gen, kindGenerator}} {
		if !guardInPlace(rt, c.ctor, c.kind) {
			if _, err := wrapCtor(rt, c.ctor, c.kind, fn); err != nil {
				return err
			}
			continue
		}
		if err := c.ctor.SetPrototype(fn); err != nil { // Object.getPrototypeOf(AsyncFunction) === Function
			return err
		}
	}
	return nil
}

// guardInPlace makes goja's constructor ctor compile through the guard, calls and constructions alike; false if
// gojainternal cannot change it (nothing changed then).
func guardInPlace(rt *goja.Runtime, ctor *goja.Object, kind ctorKind) bool {
	defaultProto, _ := ctor.Get("prototype").(*goja.Object)
	if defaultProto == nil {
		return false
	}
	construct := func(orig gojainternal.ConstructFunc, args []goja.Value, newTarget *goja.Object) *goja.Object {
		strs, vals := stringArgs(rt, args)
		f := compileFunction(rt, kind.head, strs, func() { orig([]goja.Value{rt.ToValue("(")}, nil) })
		if f == nil {
			return orig(vals, newTarget) // a syntax error, thrown by goja as it would be
		}
		if newTarget != nil && newTarget != ctor {
			setProto(f, protoFrom(newTarget, defaultProto))
		} else {
			setProto(f, defaultProto)
		}
		return f
	}
	if !gojainternal.ReplaceConstruct(ctor, construct) {
		return false
	}
	return gojainternal.GuardCall(ctor, func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		strs, vals := stringArgs(rt, call.Arguments)
		syntaxError := func() { orig(goja.FunctionCall{This: goja.Undefined(), Arguments: []goja.Value{rt.ToValue("(")}}) }
		if f := compileFunction(rt, kind.head, strs, syntaxError); f != nil {
			setProto(f, defaultProto)
			return f
		}
		return orig(goja.FunctionCall{This: goja.Undefined(), Arguments: vals})
	})
}

// stringArgs converts the constructor's arguments to strings, in order and once each, as goja does: as goja values
// (for goja's own behaviour) and as Go strings (for compileFunction). The arguments may be goja's VM stack, which
// compiling and running code reuses: both are copies.
func stringArgs(rt *goja.Runtime, args []goja.Value) ([]string, []goja.Value) {
	vals := make([]goja.Value, len(args))
	strs := make([]string, len(args))
	for i, a := range args {
		if _, ok := a.(*goja.Symbol); ok {
			panic(rt.NewTypeError("Cannot convert a Symbol value to a string")) // goja's ToString of a Symbol
		}
		vals[i] = a.ToString()
		strs[i] = vals[i].String()
	}
	return strs, vals
}

// protoFrom is GetPrototypeFromConstructor: newTarget's prototype if it is an object, otherwise (or with no
// new.target) def.
func protoFrom(newTarget, def *goja.Object) *goja.Object {
	if newTarget != nil {
		if p, ok := newTarget.Get("prototype").(*goja.Object); ok {
			return p
		}
	}
	return def
}

// setProto gives the function f the prototype want, if it has another.
func setProto(f, want *goja.Object) {
	if want != nil && f.Prototype() != want {
		if err := f.SetPrototype(want); err != nil {
			panic(err)
		}
	}
}

// asyncAndGenerator returns AsyncFunction and GeneratorFunction, which are no globals but the constructors of their
// functions' prototypes.
func asyncAndGenerator(rt *goja.Runtime) (async, gen *goja.Object, err error) {
	p, err := ctorsProgram()
	if err != nil {
		return nil, nil, err
	}
	v, err := rt.RunProgram(p)
	if err != nil {
		return nil, nil, err
	}
	pair, _ := v.(*goja.Object)
	if pair != nil {
		async, _ = pair.Get("0").(*goja.Object)
		gen, _ = pair.Get("1").(*goja.Object)
	}
	if async == nil || gen == nil {
		return nil, nil, errors.New("depthguard: no AsyncFunction and GeneratorFunction")
	}
	return async, gen, nil
}

// wrapFunction installs wrapper constructors in rt, where goja's cannot be changed in place.
func wrapFunction(rt *goja.Runtime, fn *goja.Object) error {
	wrapped, err := wrapCtor(rt, fn, kindFunction, nil)
	if err != nil {
		return err
	}
	if err := rt.GlobalObject().DefineDataProperty("Function", wrapped, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	async, gen, err := asyncAndGenerator(rt)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		ctor *goja.Object
		kind ctorKind
	}{{async, kindAsync}, {gen, kindGenerator}} {
		if _, err := wrapCtor(rt, c.ctor, c.kind, wrapped); err != nil {
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

// wrapCtor makes the guarded form of orig, a new native constructor, and points orig.prototype.constructor at it
// (with goja's flag). proto, if not nil, becomes its [[Prototype]] (the Function constructor, for the async and
// generator forms); otherwise it keeps orig's.
func wrapCtor(rt *goja.Runtime, orig *goja.Object, kind ctorKind, proto *goja.Object) (*goja.Object, error) {
	origCall, ok := goja.AssertFunction(orig)
	if !ok {
		return nil, errors.New("depthguard: the constructor " + kind.head + " is not callable")
	}
	defaultProto, _ := orig.Get("prototype").(*goja.Object)
	if defaultProto == nil {
		return nil, errors.New("depthguard: the constructor " + kind.head + " has no prototype")
	}
	w := rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		strs, args := stringArgs(rt, call.Arguments)
		f := compileFunction(rt, kind.head, strs, func() {
			if _, err := origCall(goja.Undefined(), rt.ToValue("(")); err != nil {
				panic(err)
			}
		})
		if f == nil {
			v, err := origCall(goja.Undefined(), args...) // a syntax error, thrown by goja as it would be
			if err != nil {
				panic(err)
			}
			f, _ = v.(*goja.Object)
		}
		if f != nil {
			setProto(f, protoFrom(call.NewTarget, defaultProto))
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
	if err := defaultProto.DefineDataProperty("constructor", w, flag(kind.writable), goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return nil, err
	}
	return w, nil
}

// compileFunction builds, guards and runs the source the constructor's arguments make (the last is the body, the
// others the parameters) and returns the function, or nil when the text must go to goja's own constructor: a syntax
// error, or text holding U+FFFD, which may stand for a lone surrogate Go's strings cannot carry.
//
// syntaxError throws goja's own SyntaxError for a text that is one; compileFunction uses it, with its message
// replaced, when goja's parser panics on the text (throwParserFailure).
func compileFunction(rt *goja.Runtime, head string, args []string, syntaxError func()) *goja.Object {
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
	prg, err := Parse(evalName, src, parser.WithDisableSourceMaps)
	if IsTooDeep(err) {
		panic(TooDeepException(rt)) // V8's RangeError; goja's constructor would overflow the Go stack on the text
	}
	if err != nil && strings.Contains(err.Error(), parserFailed) {
		throwParserFailure(err.Error(), syntaxError) // goja's constructor would hand the text to the same parser, and panic
	}
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

// throwParserFailure throws, as the constructor's SyntaxError, that goja's parser failed on a text: the SyntaxError
// syntaxError throws (goja's own constructor given a text that is one), its message replaced by msg. The text itself
// never reaches goja's constructor, whose parser would panic with it again and end the realm's thread.
func throwParserFailure(msg string, syntaxError func()) {
	defer func() {
		x := recover()
		var o *goja.Object
		switch v := x.(type) {
		case *goja.Object:
			o = v
		case *goja.Exception:
			o, _ = v.Value().(*goja.Object)
		}
		if o != nil {
			_ = o.Set("message", msg)
		}
		if x == nil {
			x = errors.New("depthguard: " + msg) // not reached: "(" is a syntax error for goja too
		}
		panic(x)
	}()
	syntaxError()
}
