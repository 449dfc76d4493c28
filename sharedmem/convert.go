package sharedmem

import (
	"math"
	"math/big"
	"reflect"

	"github.com/dop251/goja"
)

// The spec's abstract conversions, on goja values. goja's own conversions
// throw the right TypeErrors for Symbols and BigInts (ToNumber) and call
// valueOf/toString on objects; what goja does not export (ToIndex, ToBigInt,
// the modular integer conversions) is written here.

const maxSafeInteger = 1<<53 - 1

// toIndex is ToIndex: undefined → 0, RangeError outside [0, 2^53-1].
func (r *realm) toIndex(v goja.Value, what string) int64 {
	n := v.ToInteger() // truncates; NaN → 0; ±Infinity clamp and fail below
	if n < 0 || n > maxSafeInteger {
		panic(r.rangeError("%s: %s is not a valid index", what, v.String()))
	}
	return n
}

// toIntegerOrInfinity is ToIntegerOrInfinity: NaN → +0, -0 → +0, ±∞ kept,
// other values truncated towards zero.
func toIntegerOrInfinity(v goja.Value) float64 {
	f := v.ToFloat()
	if f != f {
		return 0
	}
	t := math.Trunc(f)
	if t == 0 {
		return 0 // +0 for -0
	}
	return t
}

const two64 = 18446744073709551616.0

// rawFromInteger converts an integral Number (or ±∞) to its 64 low bits, two's
// complement: ToInt8 … ToUint32 are the low 8, 16 or 32 bits of it.
func rawFromInteger(f float64) uint64 {
	if math.IsInf(f, 0) || f != f {
		return 0
	}
	if f > -9.2e18 && f < 9.2e18 {
		return uint64(int64(f))
	}
	m := math.Mod(f, two64) // exact
	if m < 0 {
		m += two64 // exact: m is a multiple of 2^11
	}
	return uint64(m)
}

// toRawNumber is ToIntegerOrInfinity followed by the element conversion;
// it returns the raw bits and the Number the spec returns from store.
func toRawNumber(v goja.Value) (uint64, float64) {
	f := toIntegerOrInfinity(v)
	return rawFromInteger(f), f
}

var boolType = reflect.TypeFor[bool]()

// toBigInt is ToBigInt: BigInts as they are, booleans and strings as
// BigInt() converts them (SyntaxError for a bad string); undefined, null,
// Numbers and Symbols throw a TypeError; objects are first converted with
// ToPrimitive(hint number).
func (r *realm) toBigInt(v goja.Value) *big.Int {
	if goja.IsBigInt(v) {
		return v.Export().(*big.Int)
	}
	prim := v
	if o, ok := v.(*goja.Object); ok {
		prim = r.toPrimitiveNumber(o)
		if goja.IsBigInt(prim) {
			return prim.Export().(*big.Int)
		}
	}
	_, isSym := prim.(*goja.Symbol)
	if !isSym && (goja.IsString(prim) || prim.ExportType() == boolType) {
		res, err := r.bigint(goja.Undefined(), prim)
		if err != nil {
			panic(err)
		}
		return res.Export().(*big.Int)
	}
	desc := "a Symbol"
	if !isSym {
		desc = prim.String()
	}
	panic(r.typeError("Cannot convert %s to a BigInt", desc))
}

// rawFromBigInt is the low 64 bits of n, two's complement (BigInt64 and
// BigUint64 conversions).
func rawFromBigInt(n *big.Int) uint64 {
	if n.IsInt64() {
		return uint64(n.Int64())
	}
	if n.IsUint64() {
		return n.Uint64()
	}
	return new(big.Int).And(n, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
}

// toPrimitiveNumber is ToPrimitive(o, number): @@toPrimitive, else valueOf
// then toString.
func (r *realm) toPrimitiveNumber(o *goja.Object) goja.Value {
	if ex := o.GetSymbol(goja.SymToPrimitive); ex != nil && !goja.IsUndefined(ex) && !goja.IsNull(ex) {
		f, ok := goja.AssertFunction(ex)
		if !ok {
			panic(r.typeError("Symbol.toPrimitive is not a function"))
		}
		res, err := f(o, r.rt.ToValue("number"))
		if err != nil {
			panic(err)
		}
		if _, isObj := res.(*goja.Object); isObj {
			panic(r.typeError("Cannot convert object to primitive value"))
		}
		return res
	}
	for _, name := range [...]string{"valueOf", "toString"} {
		if f, ok := goja.AssertFunction(o.Get(name)); ok {
			res, err := f(o)
			if err != nil {
				panic(err)
			}
			if _, isObj := res.(*goja.Object); !isObj {
				return res
			}
		}
	}
	panic(r.typeError("Cannot convert object to primitive value"))
}

// relativeIndex clamps a relative start/end (ToIntegerOrInfinity result)
// into [0, length], counting negative values from the end.
func relativeIndex(rel float64, length int64) int64 {
	if rel < 0 {
		return int64(max(float64(length)+rel, 0))
	}
	return int64(min(rel, float64(length)))
}
