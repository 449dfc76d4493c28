package sharedmem

import (
	"math"
	"math/big"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// The Atomics namespace object.
func (r *realm) installAtomics() {
	if gojainternal.DefineLazy(r.rt.GlobalObject(), lazyGlobals, "Atomics") {
		return
	}
	r.rt.GlobalObject().DefineDataProperty("Atomics", r.makeAtomics(), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// lazyGlobals makes SharedArrayBuffer and Atomics when a script first touches them: ordinary data properties
// (writable, configurable, not enumerable), as the standard constructors and namespaces are.
var lazyGlobals = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	r := realmOf(rt)
	if r == nil { // uninstalled: the globals stay, as they would have been made at Install
		panic(rt.NewTypeError("sharedmem: %s is no longer available in this realm", name))
	}
	var v goja.Value
	switch name {
	case "SharedArrayBuffer":
		if err := r.makeSharedArrayBuffer(); err != nil {
			panic(rt.NewGoError(err))
		}
		v = r.ctor
	case "Atomics":
		v = r.makeAtomics()
	}
	return gojainternal.Prop{Value: v, Writable: true, Configurable: true}
})

// makeAtomics makes the realm's Atomics namespace.
func (r *realm) makeAtomics() *goja.Object {
	rt := r.rt
	a := rt.NewObject()
	rmw := func(name string, op rmwOp) {
		r.defineFunc(a, name, 3, func(call goja.FunctionCall) goja.Value { return r.readModifyWrite(call, op, name) })
	}
	rmw("add", opAdd)
	rmw("and", opAnd)
	r.defineFunc(a, "compareExchange", 4, r.compareExchange)
	rmw("exchange", opExchange)
	r.defineFunc(a, "isLockFree", 1, r.isLockFree)
	r.defineFunc(a, "load", 2, r.load)
	r.defineFunc(a, "notify", 3, r.notify)
	rmw("or", opOr)
	r.defineFunc(a, "pause", 0, r.pause)
	r.defineFunc(a, "store", 3, r.store)
	rmw("sub", opSub)
	r.defineFunc(a, "wait", 4, r.wait)
	r.defineFunc(a, "waitAsync", 4, r.waitAsync)
	rmw("xor", opXor)
	a.DefineDataPropertySymbol(goja.SymToStringTag, rt.ToValue("Atomics"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return a
}

// view is a validated integer typed array.
type view struct {
	buf    gojainternal.Buffer
	kind   elemKind
	offset int // in elements
	length int
}

// validateView is ValidateIntegerTypedArray(ta, waitable): a typed array
// whose buffer is not detached, of an integer kind (Int32 or BigInt64 only,
// when waitable). It runs before any argument is coerced.
func (r *realm) validateView(v goja.Value, waitable bool, fn string) view {
	if growEpoch.Load() != r.seenEpoch {
		r.refresh()
	}
	if o, ok := v.(*goja.Object); ok {
		if ta, ok := gojainternal.TypedArrayOf(o); ok {
			k := ta.Kind
			if ta.Buffer.Detached() {
				panic(r.typeError("Atomics.%s: the typed array's buffer is detached", fn))
			}
			if waitable {
				if k != kindInt32 && k != kindBigInt64 {
					panic(r.typeError("Atomics.%s: %s is not an Int32Array or BigInt64Array", fn, k))
				}
			} else if !isInteger(k) {
				panic(r.typeError("Atomics.%s: %s is not an integer typed array", fn, k))
			}
			return view{ta.Buffer, k, ta.Offset, ta.Length}
		}
	}
	panic(r.typeError("Atomics.%s: %s is not a typed array", fn, describe(v)))
}

// index is ValidateAtomicAccess: ToIndex(index) within the view's length
// (read before the coercion, which may run user code). It returns the
// element index.
func (r *realm) index(vw view, idx goja.Value, fn string) int {
	length := vw.length
	i := idx.ToInteger() // ToIndex, with the message built only on failure
	if i < 0 || i > maxSafeInteger {
		panic(r.rangeError("Atomics.%s: %s is not a valid index", fn, idx.String()))
	}
	if i >= int64(length) {
		panic(r.rangeError("Atomics.%s: index %d is out of range (length %d)", fn, i, length))
	}
	return int(i)
}

// memory is RevalidateAtomicAccess (after value coercion, which may have run
// user code that detached the buffer) and returns the bytes and the
// element's byte index in them.
func (r *realm) memory(vw view, i int, fn string) ([]byte, int) {
	if vw.buf.Detached() {
		panic(r.typeError("Atomics.%s: the typed array's buffer is detached", fn))
	}
	return vw.buf.Bytes(), (vw.offset + i) * vw.kind.Size()
}

// operand coerces an Atomics value argument to raw bits: ToBigInt for
// BigInt arrays, ToIntegerOrInfinity otherwise.
func (r *realm) operand(k elemKind, v goja.Value) uint64 {
	if isBigInt(k) {
		return rawFromBigInt(r.toBigInt(v))
	}
	raw, _ := toRawNumber(v)
	return raw
}

// value converts raw bits read from an element of kind k to a JS value.
func (r *realm) value(k elemKind, raw uint64) goja.Value {
	switch k {
	case kindInt8:
		return r.intValue(int64(int8(raw)))
	case kindUint8:
		return r.intValue(int64(uint8(raw)))
	case kindInt16:
		return r.intValue(int64(int16(raw)))
	case kindUint16:
		return r.intValue(int64(uint16(raw)))
	case kindInt32:
		return r.intValue(int64(int32(raw)))
	case kindUint32:
		return r.intValue(int64(uint32(raw)))
	case kindBigInt64:
		return r.rt.ToValue(big.NewInt(int64(raw)))
	default:
		return r.rt.ToValue(new(big.Int).SetUint64(raw))
	}
}

// intValue returns x as a goja Number without the two small allocations of
// Runtime.ToValue (boxing into an interface, then into a Value): the int64
// lives in a slab of 128 handed out one by one, and the Value is assembled
// by gojainternal.NewInt from goja's type word for integers (learned and
// checked by its probe). Allocation is what makes a tight Atomics loop slow: goja's
// interpreter writes pointers constantly, and every GC cycle turns on the
// write barrier for all of them. A slab stays alive while any of its values
// does (1 KiB).
func (r *realm) intValue(x int64) goja.Value {
	if x >= 0 && x < 256 {
		return r.rt.ToValue(x) // no allocation for these
	}
	if r.intsUsed == len(r.ints) {
		r.ints, r.intsUsed = make([]int64, 128), 0
	}
	p := &r.ints[r.intsUsed] // an index, not a re-slice: no pointer write, no write barrier
	r.intsUsed++
	*p = x
	if v := gojainternal.NewInt(p); v != nil {
		return v
	}
	return r.rt.ToValue(x) // gojainternal cannot read goja's integers
}

// readModifyWrite is add, sub, and, or, xor and exchange.
func (r *realm) readModifyWrite(call goja.FunctionCall, op rmwOp, fn string) goja.Value {
	vw := r.validateView(call.Argument(0), false, fn)
	i := r.index(vw, call.Argument(1), fn)
	raw := r.operand(vw.kind, call.Argument(2))
	data, bi := r.memory(vw, i, fn)
	size := vw.kind.Size()
	return r.value(vw.kind, memRMW(data, bi, size, op, truncate(raw, size)))
}

func (r *realm) load(call goja.FunctionCall) goja.Value {
	vw := r.validateView(call.Argument(0), false, "load")
	i := r.index(vw, call.Argument(1), "load")
	data, bi := r.memory(vw, i, "load")
	return r.value(vw.kind, memLoad(data, bi, vw.kind.Size()))
}

// store returns the coerced value (ToIntegerOrInfinity, or ToBigInt), not the
// stored bits.
func (r *realm) store(call goja.FunctionCall) goja.Value {
	vw := r.validateView(call.Argument(0), false, "store")
	i := r.index(vw, call.Argument(1), "store")
	var raw uint64
	var ret goja.Value
	if isBigInt(vw.kind) {
		n := r.toBigInt(call.Argument(2))
		raw, ret = rawFromBigInt(n), r.rt.ToValue(n)
	} else {
		var f float64
		raw, f = toRawNumber(call.Argument(2))
		if math.Abs(f) <= maxSafeInteger { // f is integral or infinite
			ret = r.intValue(int64(f))
		} else {
			ret = r.rt.ToValue(f)
		}
	}
	data, bi := r.memory(vw, i, "store")
	memStore(data, bi, vw.kind.Size(), raw)
	return ret
}

func (r *realm) compareExchange(call goja.FunctionCall) goja.Value {
	vw := r.validateView(call.Argument(0), false, "compareExchange")
	i := r.index(vw, call.Argument(1), "compareExchange")
	expected := r.operand(vw.kind, call.Argument(2))
	repl := r.operand(vw.kind, call.Argument(3))
	data, bi := r.memory(vw, i, "compareExchange")
	size := vw.kind.Size()
	return r.value(vw.kind, memCAS(data, bi, size, truncate(expected, size), truncate(repl, size)))
}

// isLockFree: every size we implement (1, 2, 4, 8) is lock-free — 8- and
// 16-bit operations are a compare-and-swap loop on a 32-bit word, which never
// blocks another agent.
func (r *realm) isLockFree(call goja.FunctionCall) goja.Value {
	switch toIntegerOrInfinity(call.Argument(0)) {
	case 1, 2, 4, 8:
		return r.rt.ToValue(true)
	}
	return r.rt.ToValue(false)
}

// pause is a spin-wait hint. It validates its argument (undefined or an
// integral Number) and returns at once: a goroutine has no cheaper pause
// than returning to the interpreter.
func (r *realm) pause(call goja.FunctionCall) goja.Value {
	if n := call.Argument(0); !goja.IsUndefined(n) {
		if !goja.IsNumber(n) {
			panic(r.typeError("Atomics.pause: the iteration number must be an integral Number"))
		}
		if f := n.ToFloat(); math.IsInf(f, 0) || f != math.Trunc(f) {
			panic(r.typeError("Atomics.pause: the iteration number must be an integral Number"))
		}
	}
	return goja.Undefined()
}
