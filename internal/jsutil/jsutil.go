// Package jsutil holds the small helpers every layer that builds JavaScript objects from Go shares: native
// functions with their JavaScript name and length, lazily settled globals, and JavaScript sources compiled once per
// process on first use.
package jsutil

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// DefineFunc defines obj[name] as a native function whose JavaScript name and length are the given ones (goja
// would otherwise name it after the Go function). On the realm's global object, a new name is a lazy global
// (DefineLazyValue): the function object is made when a script first touches it.
func DefineFunc(rt *goja.Runtime, obj *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	if obj == rt.GlobalObject() && defineLazy(rt, lazyEntry{name: name, data: true, enumerable: true,
		value: func() goja.Value { return NewFunc(rt, name, length, fn) }}) {
		return
	}
	_ = obj.Set(name, NewFunc(rt, name, length, fn))
}

// NewFunc returns a native function whose JavaScript name and length are the given ones.
func NewFunc(rt *goja.Runtime, name string, length int, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := rt.ToValue(fn).(*goja.Object)
	// goja's order is writable, configurable, enumerable: a function's name and length are read-only,
	// configurable and not enumerable.
	_ = f.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// DefineLazyValue defines globalThis[name] as an ordinary data property (writable, configurable, enumerable if
// enumerable) whose value make makes when the property is first touched: looked up, changed, deleted, read with its
// descriptor, or enumerated with the others (for-in and Object.keys over globalThis make every property; listing
// names makes nothing). make runs in the middle of whatever touched it, so it must not depend on when that is: plain
// Go, or JavaScript of the library's own that only makes a value. Where lazy properties are not available (see
// gojainternal.DefineLazy), or the global already has the name, the value is made and defined at once.
func DefineLazyValue(rt *goja.Runtime, name string, enumerable bool, make func() goja.Value) error {
	if defineLazy(rt, lazyEntry{name: name, value: make, data: true, enumerable: enumerable}) {
		return nil
	}
	return gojainternal.Prop{Value: make(), Writable: true, Enumerable: enumerable, Configurable: true}.Define(rt.GlobalObject(), name)
}

// DefineLazyGlobal defines globalThis[name] as an accessor that makes the value on first access and then replaces
// itself with an ordinary data property (writable, configurable, not enumerable, like the standard constructors);
// assigning to it first also settles it. A realm that never touches the global pays nothing but its name and value
// in a per-realm table: the accessor itself (two native functions) is made when the property is first touched
// (looked up, listed with its descriptor, changed or deleted; listing names makes nothing), through goja's own
// object templates (gojainternal.DefineLazy). Where that is not available it is made at once, as before.
func DefineLazyGlobal(rt *goja.Runtime, name string, value func() goja.Value) error {
	if defineLazy(rt, lazyEntry{name: name, value: value}) {
		return nil
	}
	get, set := lazyAccessor(rt, name, value)
	return rt.GlobalObject().DefineAccessorProperty(name, get, set, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// RedefineLazyValue re-points globalThis[name], a lazy global of DefineFunc or DefineLazyValue that nothing has
// touched yet, to make: the global keeps its place and attributes, and make (given the value function it replaces)
// runs on first touch instead. It returns the value function it replaced, or false, changing nothing, when the name
// was made already or is not such a lazy global; the caller then replaces the value itself.
func RedefineLazyValue(rt *goja.Runtime, name string, make func(prev func() goja.Value) goja.Value) (prev func() goja.Value, ok bool) {
	tbl, _ := lazyValues.Get(rt)
	if tbl == nil || !gojainternal.Pending(rt.GlobalObject(), name) {
		return nil, false
	}
	for i := len(tbl.entries) - 1; i >= 0; i-- {
		if e := tbl.entries[i]; e.name == name && e.data {
			prev = e.value
			e.value = func() goja.Value { return make(prev) }
			tbl.entries = append(tbl.entries, e) // the factory takes a name's last entry
			tbl.grew()
			return prev, true
		}
	}
	return nil, false
}

// defineLazy adds e to the realm's lazy globals; false if the global object cannot have it as a lazy property.
func defineLazy(rt *goja.Runtime, e lazyEntry) bool {
	tbl, ok := lazyValues.Get(rt)
	if !ok || tbl == nil {
		tbl = &lazyTable{entries: make([]lazyEntry, 0, lazyTableCap.Load())}
	}
	if !gojainternal.DefineLazy(rt.GlobalObject(), lazyGlobal, e.name) {
		return false
	}
	tbl.entries = append(tbl.entries, e)
	tbl.grew()
	if !ok {
		lazyValues.Set(rt, tbl)
	}
	return true
}

// lazyTable holds a realm's lazy globals not made yet (a realm has a few dozen).
type lazyTable struct{ entries []lazyEntry }

// lazyTableCap is the most lazy globals a realm's table has held: a new table is made that large at once (growing
// it one global at a time left twice its size in garbage per realm).
var lazyTableCap atomic.Int32

// grew notes the table's length in lazyTableCap.
func (t *lazyTable) grew() {
	if n := int32(len(t.entries)); n > lazyTableCap.Load() {
		lazyTableCap.Store(n) // a race only makes a later table grow once more
	}
}

// A lazyEntry is one lazy global: its value function, and whether it is a data property from the start (else an
// accessor that settles into one).
type lazyEntry struct {
	name             string
	value            func() goja.Value
	data, enumerable bool
}

var lazyValues = realmdata.NewKey[*lazyTable]("jsutil.lazyGlobals")

// lazyGlobal makes a lazy global's accessor when goja first materializes the property.
var lazyGlobal = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	var e lazyEntry
	if tbl, _ := lazyValues.Get(rt); tbl != nil {
		for i := len(tbl.entries) - 1; i >= 0; i-- {
			if tbl.entries[i].name == name {
				e = tbl.entries[i]
				break
			}
		}
	}
	if e.value == nil { // the realm's state was dropped (the realm ended): nothing to make
		return gojainternal.Prop{Value: goja.Undefined(), Writable: true, Configurable: true}
	}
	if e.data {
		return gojainternal.Prop{Value: e.value(), Writable: true, Enumerable: e.enumerable, Configurable: true}
	}
	get, set := lazyAccessor(rt, name, e.value)
	return gojainternal.Prop{Accessor: true, Getter: get, Setter: set, Configurable: true}
})

// lazyAccessor returns the getter and setter of a lazy global: each settles the global as a data property.
func lazyAccessor(rt *goja.Runtime, name string, value func() goja.Value) (get, set goja.Value) {
	g := rt.GlobalObject()
	settle := func(v goja.Value) {
		_ = g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	get = rt.ToValue(func(goja.FunctionCall) goja.Value {
		v := value()
		settle(v)
		return v
	})
	set = rt.ToValue(func(c goja.FunctionCall) goja.Value {
		settle(c.Argument(0))
		return goja.Undefined()
	})
	return get, set
}

// A Source is a JavaScript source of the library (embedded from a .js file) that evaluates to a factory function.
// It is compiled once per process, the first time a realm needs it, and the compiled program is shared by every
// runtime: loading the library costs nothing until then.
//
// The sources are compiled unguarded (no depthguard.Rewrite): a source that contains an async function or a
// generator has the realm's guard guard AsyncFunction and GeneratorFunction (depthguard.EnsureFunctionKinds) before
// it runs, since the functions it makes may reach scripts and, through their prototypes, the constructors.
type Source struct {
	name string
	prg  func() compiled
}

// compiled is a Source's program and whether it makes async functions or generators.
type compiled struct {
	prg   *goja.Program
	kinds bool
}

// NewSource returns the Source of src, shown as name in stack traces. It does not compile anything.
func NewSource(name, src string) *Source {
	return &Source{name: name, prg: sync.OnceValue(func() compiled {
		// The library's own sources: a syntax error is a build bug.
		tree, err := goja.Parse(name, src)
		if err != nil {
			panic(err)
		}
		prg, err := goja.CompileAST(tree, true)
		if err != nil {
			panic(err)
		}
		return compiled{prg: prg, kinds: depthguard.MakesFunctionKinds(tree)}
	})}
}

// Name is the name the source's functions show in stack traces.
func (s *Source) Name() string { return s.name }

// Program returns the compiled program, compiling it on first use. A caller that runs it itself calls Prepare
// first.
func (s *Source) Program() *goja.Program { return s.prg().prg }

// Prepare readies rt to run the source: if it contains an async function or a generator, it has rt's guard guard
// AsyncFunction and GeneratorFunction now (depthguard.EnsureFunctionKinds); otherwise it does nothing.
func (s *Source) Prepare(rt *goja.Runtime) error {
	if s.prg().kinds {
		return depthguard.EnsureFunctionKinds(rt)
	}
	return nil
}

// Call runs the source in rt (Prepare first) and calls the factory it evaluates to with args.
func (s *Source) Call(rt *goja.Runtime, args ...goja.Value) (goja.Value, error) {
	if err := s.Prepare(rt); err != nil {
		return nil, err
	}
	mk, err := rt.RunProgram(s.Program())
	if err != nil {
		return nil, err
	}
	factory, ok := goja.AssertFunction(mk)
	if !ok {
		return nil, errors.New("jsworker: " + s.name + " does not evaluate to a function")
	}
	return factory(goja.Undefined(), args...)
}
