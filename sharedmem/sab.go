package sharedmem

import (
	"errors"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"math"
	"sync"

	"github.com/dop251/goja"
)

// The constructor is a one-line JavaScript class around a Go maker, because
// a Go constructor cannot tell `new F()` from `F()` in goja (NewTarget is nil
// in both). The class is derived from null so that it does not create a
// `this` object (and read new.target.prototype) before the maker has
// validated its arguments, as the spec orders; its prototype's [[Prototype]]
// is then set back to Object.prototype. Everything else is defined from Go
// (the species getter too: naming Symbol in the script would make goja
// build the whole Symbol constructor in every realm).
var sabClass = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("sharedmem:SharedArrayBuffer", `(function (make) {
	return class SharedArrayBuffer extends null {
		constructor(length) { return make(new.target, length, arguments[1]); }
	};
})`, true)
})

// installSharedArrayBuffer defines globalThis.SharedArrayBuffer: made on first touch where goja's object templates
// allow it (gojainternal.DefineLazy: an ordinary data property from the start), else now.
func (r *realm) installSharedArrayBuffer() error {
	if gojainternal.DefineLazy(r.rt.GlobalObject(), lazyGlobals, "SharedArrayBuffer") {
		return nil
	}
	if err := r.makeSharedArrayBuffer(); err != nil {
		return err
	}
	return r.rt.GlobalObject().DefineDataProperty("SharedArrayBuffer", r.ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// sabProto returns %SharedArrayBuffer.prototype%, making the constructor first if no script has touched it yet.
func (r *realm) sabProto() *goja.Object {
	if r.proto == nil {
		if err := r.makeSharedArrayBuffer(); err != nil {
			panic(r.rt.NewGoError(err))
		}
	}
	return r.proto
}

// makeSharedArrayBuffer makes the realm's %SharedArrayBuffer% and its prototype (once).
func (r *realm) makeSharedArrayBuffer() error {
	if r.ctor != nil {
		return nil
	}
	prog, err := sabClass()
	if err != nil {
		return err
	}
	rt := r.rt
	factory, err := rt.RunProgram(prog)
	if err != nil {
		return err
	}
	mk, _ := goja.AssertFunction(factory)
	cv, err := mk(goja.Undefined(), rt.ToValue(r.construct))
	if err != nil {
		return err
	}
	ctor := cv.(*goja.Object)
	proto := ctor.Get("prototype").(*goja.Object)
	if err := proto.SetPrototype(rt.NewObject().Prototype()); err != nil { // %Object.prototype%
		return err
	}
	r.ctor, r.proto = ctor, proto
	species := r.newFunc("get [Symbol.species]", 0, func(call goja.FunctionCall) goja.Value { return call.This })
	r.ctor.DefineAccessorPropertySymbol(goja.SymSpecies, species, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
	getter := func(name string, fn func(goja.FunctionCall) goja.Value) {
		r.proto.DefineAccessorProperty(name, r.newFunc("get "+name, 0, fn), nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	getter("byteLength", func(call goja.FunctionCall) goja.Value {
		return r.rt.ToValue(r.thisBlock(call.This, "byteLength").ByteLength())
	})
	getter("growable", func(call goja.FunctionCall) goja.Value {
		return r.rt.ToValue(r.thisBlock(call.This, "growable").Growable())
	})
	getter("maxByteLength", func(call goja.FunctionCall) goja.Value {
		b := r.thisBlock(call.This, "maxByteLength")
		if b.grows {
			return r.rt.ToValue(b.max)
		}
		return r.rt.ToValue(b.ByteLength())
	})
	r.defineFunc(r.proto, "grow", 1, r.grow)
	r.defineFunc(r.proto, "slice", 2, r.slice)
	r.proto.DefineDataPropertySymbol(goja.SymToStringTag, rt.ToValue("SharedArrayBuffer"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return nil
}

// construct is SharedArrayBuffer(length [, options]) once `new` was checked:
// ToIndex(length), then options.maxByteLength, then the length check, then
// new.target.prototype, then the allocation — the spec's order.
func (r *realm) construct(call goja.FunctionCall) goja.Value {
	newTarget, _ := call.Argument(0).(*goja.Object)
	if max := r.opts.MaxAllocation; max > 0 {
		if n := call.Argument(1).ToFloat(); n == n && math.Trunc(n) > float64(max) { // ToIntegerOrInfinity > max
			panic(r.rangeError("Array buffer allocation failed"))
		}
	}
	byteLength := r.toIndex(call.Argument(1), "SharedArrayBuffer length")
	maxLen := int64(-1)
	if opts, ok := call.Argument(2).(*goja.Object); ok {
		if mv := opts.Get("maxByteLength"); mv != nil && !goja.IsUndefined(mv) {
			maxLen = r.toIndex(mv, "maxByteLength")
		}
	}
	if maxLen >= 0 && byteLength > maxLen {
		panic(r.rangeError("SharedArrayBuffer length %d exceeds maxByteLength %d", byteLength, maxLen))
	}
	proto := r.proto
	if newTarget != nil {
		if p, ok := newTarget.Get("prototype").(*goja.Object); ok {
			proto = p
		}
	}
	if byteLength > MaxByteLength || maxLen > MaxByteLength {
		panic(r.rangeError("SharedArrayBuffer: cannot allocate more than %d bytes", MaxByteLength))
	}
	b, err := NewBlock(int(byteLength), int(maxLen))
	if err != nil {
		panic(r.rangeError("SharedArrayBuffer: %v", err))
	}
	return r.wrap(b, proto)
}

// thisBlock is the receiver check of the prototype methods.
func (r *realm) thisBlock(this goja.Value, method string) *Block {
	if o, ok := this.(*goja.Object); ok {
		if b := blockOf(o); b != nil {
			r.refresh()
			return b
		}
	}
	panic(r.typeError("Method SharedArrayBuffer.prototype.%s called on incompatible receiver %s", method, describe(this)))
}

func describe(v goja.Value) string {
	if _, ok := v.(*goja.Symbol); ok {
		return "a Symbol"
	}
	if o, ok := v.(*goja.Object); ok {
		return "#<" + o.ClassName() + ">"
	}
	return v.String()
}

// grow is SharedArrayBuffer.prototype.grow(newLength).
func (r *realm) grow(call goja.FunctionCall) goja.Value {
	b := r.thisBlock(call.This, "grow")
	if !b.grows {
		panic(r.typeError("SharedArrayBuffer.prototype.grow: the SharedArrayBuffer is not growable"))
	}
	n := r.toIndex(call.Argument(0), "SharedArrayBuffer.prototype.grow")
	if n > int64(b.max) {
		panic(r.rangeError("SharedArrayBuffer.prototype.grow: %d exceeds maxByteLength %d", n, b.max))
	}
	if err := b.Grow(int(n)); err != nil {
		panic(r.rangeError("SharedArrayBuffer.prototype.grow: %v", errors.Unwrap(err)))
	}
	r.refresh()
	return goja.Undefined()
}

// slice is SharedArrayBuffer.prototype.slice(start, end): a copy into a new
// SharedArrayBuffer made by the species constructor.
func (r *realm) slice(call goja.FunctionCall) goja.Value {
	o, _ := call.This.(*goja.Object)
	b := r.thisBlock(call.This, "slice")
	length := int64(b.ByteLength())
	first := relativeIndex(toIntegerOrInfinity(call.Argument(0)), length)
	final := length
	if end := call.Argument(1); !goja.IsUndefined(end) {
		final = relativeIndex(toIntegerOrInfinity(end), length)
	}
	newLen := max(final-first, 0)
	ctor := r.speciesConstructor(o)
	nv, err := r.rt.New(ctor, r.rt.ToValue(newLen))
	if err != nil {
		panic(err)
	}
	nb := blockOf(nv)
	if nb == nil {
		panic(r.typeError("SharedArrayBuffer.prototype.slice: the species constructor did not return a SharedArrayBuffer"))
	}
	if nb == b {
		panic(r.typeError("SharedArrayBuffer.prototype.slice: the species constructor returned the same SharedArrayBuffer"))
	}
	if int64(nb.ByteLength()) < newLen {
		panic(r.typeError("SharedArrayBuffer.prototype.slice: the species constructor returned a SharedArrayBuffer that is too small"))
	}
	if cur := int64(b.ByteLength()); first < cur {
		count := min(newLen, cur-first)
		copy(nb.mem[:count], b.mem[first:first+count])
	}
	return nv
}

// speciesConstructor is SpeciesConstructor(o, %SharedArrayBuffer%).
func (r *realm) speciesConstructor(o *goja.Object) goja.Value {
	c := o.Get("constructor")
	if c == nil || goja.IsUndefined(c) {
		return r.ctor
	}
	co, ok := c.(*goja.Object)
	if !ok {
		panic(r.typeError("SharedArrayBuffer.prototype.slice: the constructor property is not an object"))
	}
	s := co.GetSymbol(goja.SymSpecies)
	if s == nil || goja.IsUndefined(s) || goja.IsNull(s) {
		return r.ctor
	}
	if _, ok := goja.AssertConstructor(s); ok {
		return s
	}
	panic(r.typeError("SharedArrayBuffer.prototype.slice: Symbol.species is not a constructor"))
}
