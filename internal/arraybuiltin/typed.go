package arraybuiltin

import (
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// TypedJoin is %TypedArray%.prototype.join(separator) on the typed array o, validated and n elements long when the
// call began (ECMA-262 23.2.3.18): the separator ToString'd, then per index the separator before all but the first
// and the element's Number::toString (BigInt::toString) — the empty string for an index the array no longer has
// (the separator's toString may detach or shrink its buffer). The elements are read from the buffer, with no
// JavaScript between two, so the call polls every PollEvery elements and counts what it wrote in the realm's
// Building; goja's join walked a 2**26-element array in 5.5 s with neither (a 2**30 one: a minute and a half that
// nothing could stop). A result over MaxStringLength code units is a RangeError.
func TypedJoin(r *Realm, o *goja.Object, n int, sep goja.Value) goja.Value {
	s := r.RT.ToValue(",").(goja.String)
	if sep != nil && !goja.IsUndefined(sep) {
		s = toStr(r.RT, sep)
	}
	t, ok := gojainternal.TypedArrayOf(o)
	var data []byte
	if ok && !t.Buffer.Detached() {
		data = t.Buffer.Bytes()
	} else {
		t.Length = 0
	}
	j := typedJoiner{stepper: stepper{r: r}, t: t, data: data}
	defer j.release()
	var sepBytes []byte
	ascii := gojainternal.IsASCII(s)
	if ascii {
		sepBytes = []byte(s.String())
	}
	var sb goja.StringBuilder
	sepUnits := float64(s.Length())
	for k := 0; k < n; k++ {
		if k > 0 {
			if j.units+sepUnits > MaxStringLength {
				j.rangeError("Invalid string length")
			}
			j.units += sepUnits
			if ascii {
				j.buf = append(j.buf, sepBytes...)
			} else {
				sb.WriteString(s)
			}
		}
		if k < j.t.Length {
			mark := len(j.buf)
			j.buf = j.element(j.buf, k)
			if j.units += float64(len(j.buf) - mark); j.units > MaxStringLength {
				j.rangeError("Invalid string length")
			}
		}
		if !ascii && len(j.buf) > 0 {
			sb.WriteUTF8String(string(j.buf))
			j.buf = j.buf[:0]
		}
		if k%PollEvery == PollEvery-1 {
			j.account(int64(j.units))
			j.step(PollEvery)
		}
	}
	if !ascii {
		return sb.String()
	}
	if len(j.buf) == 0 {
		return r.RT.ToValue("")
	}
	return r.RT.ToValue(unsafe.String(&j.buf[0], len(j.buf))) // (buf is not written again)
}

// A typedJoiner is a TypedJoin in progress: the array as read after the separator's conversion, and the result's
// bytes (all ASCII; those of elements only, when the separator is not).
type typedJoiner struct {
	stepper
	t     gojainternal.TypedArray
	data  []byte
	buf   []byte
	units float64 // code units of the result so far
}

// account brings the bytes counted as built (the realm's Building) to made.
func (j *typedJoiner) account(made int64) {
	if j.r.Building != nil {
		*j.r.Building += made - j.built
	}
	j.built = made
}

// element appends Number::toString (or BigInt::toString) of element k to b.
func (j *typedJoiner) element(b []byte, k int) []byte {
	size := j.t.Kind.Size()
	at := (j.t.Offset + k) * size
	if at+size > len(j.data) {
		return b
	}
	p := j.data[at : at+size]
	ne := binary.NativeEndian
	switch j.t.Kind {
	case gojainternal.ElemInt8:
		return strconv.AppendInt(b, int64(int8(p[0])), 10)
	case gojainternal.ElemUint8, gojainternal.ElemUint8Clamped:
		return strconv.AppendUint(b, uint64(p[0]), 10)
	case gojainternal.ElemInt16:
		return strconv.AppendInt(b, int64(int16(ne.Uint16(p))), 10)
	case gojainternal.ElemUint16:
		return strconv.AppendUint(b, uint64(ne.Uint16(p)), 10)
	case gojainternal.ElemInt32:
		return strconv.AppendInt(b, int64(int32(ne.Uint32(p))), 10)
	case gojainternal.ElemUint32:
		return strconv.AppendUint(b, uint64(ne.Uint32(p)), 10)
	case gojainternal.ElemBigInt64:
		return strconv.AppendInt(b, int64(ne.Uint64(p)), 10)
	case gojainternal.ElemBigUint64:
		return strconv.AppendUint(b, ne.Uint64(p), 10)
	case gojainternal.ElemFloat32:
		return j.float(b, float64(math.Float32frombits(ne.Uint32(p))))
	case gojainternal.ElemFloat64:
		return j.float(b, math.Float64frombits(ne.Uint64(p)))
	}
	return b
}

// float appends Number::toString(f): an integral value below 2**53 as an integer, anything else as the realm
// writes numbers.
func (j *typedJoiner) float(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.AppendInt(b, int64(f), 10) // (-0 too: "0")
	}
	return append(b, j.r.RT.ToValue(f).String()...)
}

// TypedToLocaleString is %TypedArray%.prototype.toLocaleString on the typed array o of n elements (ECMA-262
// 23.2.3.31, without ECMA-402): per index "," before all but the first, then the element's toLocaleString called
// on it and ToString'd; a buffer detached meanwhile (by a script's toLocaleString) is goja's TypeError. goja's loop
// took 26 s over a 2**26-element array with nothing able to stop it; this one polls every PollEvery elements and
// counts what it wrote. A result over MaxStringLength code units is a RangeError.
func TypedToLocaleString(r *Realm, o *goja.Object, n int) goja.Value {
	rt := r.RT
	j := typedJoiner{stepper: stepper{r: r}}
	defer j.release()
	var sb goja.StringBuilder
	for k := 0; k < n; k++ {
		t, ok := gojainternal.TypedArrayOf(o)
		if !ok || t.Buffer.Detached() {
			panic(rt.NewTypeError("ArrayBuffer is detached")) // (goja's message)
		}
		if k > 0 {
			j.units++
			sb.WriteUTF8String(",")
		}
		j.t, j.data = t, t.Buffer.Bytes()
		if k < t.Length {
			item := j.value(k)
			fn, callable := goja.AssertFunction(item.ToObject(rt).Get("toLocaleString"))
			if !callable {
				panic(rt.NewTypeError("Property 'toLocaleString' of object %s is not a function", item))
			}
			s := toStr(rt, call(fn, item))
			if j.units += float64(s.Length()); j.units > MaxStringLength {
				j.rangeError("Invalid string length")
			}
			sb.WriteString(s)
		}
		if k%PollEvery == PollEvery-1 {
			j.account(int64(j.units))
			j.step(PollEvery)
		}
	}
	return sb.String()
}

// value is element k as goja reads it: a Number, or a BigInt for the BigInt kinds.
func (j *typedJoiner) value(k int) goja.Value {
	size := j.t.Kind.Size()
	at := (j.t.Offset + k) * size
	if at+size > len(j.data) {
		return goja.Undefined()
	}
	p := j.data[at : at+size]
	ne := binary.NativeEndian
	rt := j.r.RT
	switch j.t.Kind {
	case gojainternal.ElemInt8:
		return rt.ToValue(int64(int8(p[0])))
	case gojainternal.ElemUint8, gojainternal.ElemUint8Clamped:
		return rt.ToValue(int64(p[0]))
	case gojainternal.ElemInt16:
		return rt.ToValue(int64(int16(ne.Uint16(p))))
	case gojainternal.ElemUint16:
		return rt.ToValue(int64(ne.Uint16(p)))
	case gojainternal.ElemInt32:
		return rt.ToValue(int64(int32(ne.Uint32(p))))
	case gojainternal.ElemUint32:
		return rt.ToValue(int64(ne.Uint32(p)))
	case gojainternal.ElemBigInt64:
		return rt.ToValue(new(big.Int).SetInt64(int64(ne.Uint64(p))))
	case gojainternal.ElemBigUint64:
		return rt.ToValue(new(big.Int).SetUint64(ne.Uint64(p)))
	case gojainternal.ElemFloat32:
		return rt.ToValue(float64(math.Float32frombits(ne.Uint32(p))))
	case gojainternal.ElemFloat64:
		return rt.ToValue(math.Float64frombits(ne.Uint64(p)))
	}
	return goja.Undefined()
}

// Which search TypedSearch is.
const (
	TypedIndexOf = iota
	TypedLastIndexOf
	TypedIncludes
)

// TypedSearch is %TypedArray%.prototype.indexOf, lastIndexOf or includes (which) on the typed array o, validated
// and n elements long when the call began (ECMA-262 23.2.3.17, .20, .16): fromIndex converted first, then the
// buffer read again (its valueOf may detach or shrink it) and the elements compared with the search element in
// the buffer — strict equality, or SameValueZero for includes, whose undefined matches an index the array no longer
// has — polling every PollEvery elements. goja's loop (3 ns an element, 3 s over a 2**30-element array) could not be
// stopped.
func TypedSearch(r *Realm, o *goja.Object, n int, which int, args []goja.Value) goja.Value {
	rt := r.RT
	notFound := rt.ToValue(-1)
	if which == TypedIncludes {
		notFound = rt.ToValue(false)
	}
	if n == 0 {
		return notFound
	}
	var from, end, dir int
	if which == TypedLastIndexOf {
		k := float64(n - 1)
		if len(args) > 1 {
			k = toInteger(args[1])
		}
		if k < 0 {
			k += float64(n)
		}
		if k < 0 {
			return notFound
		}
		from, end, dir = int(math.Min(k, float64(n-1))), -1, -1
	} else {
		k, ok := startIndex(arg(args, 1), float64(n))
		if !ok {
			return notFound
		}
		from, end, dir = int(k), n, 1
	}
	t, ok := gojainternal.TypedArrayOf(o)
	j := typedJoiner{stepper: stepper{r: r}, t: t}
	if ok && !t.Buffer.Detached() {
		j.data = t.Buffer.Bytes()
	} else {
		j.t.Length = 0
	}
	search := arg(args, 0)
	found := func(k int) goja.Value {
		if which == TypedIncludes {
			return rt.ToValue(true)
		}
		return rt.ToValue(k)
	}
	if which == TypedIncludes && goja.IsUndefined(search) && n > j.t.Length && max(from, j.t.Length) < n {
		return found(0) // (an index past the shrunk array reads as undefined)
	}
	match := j.matcher(search, which == TypedIncludes)
	if match == nil {
		return notFound
	}
	count := 0
	for k := from; k != end; k += dir {
		if k < j.t.Length && match(k) {
			return found(k)
		}
		if count++; count == PollEvery {
			count = 0
			j.step(PollEvery)
		}
	}
	return notFound
}

// matcher returns the test of element k against search (sameValueZero: NaN matches NaN), or nil when no element of
// the array's kind can match it.
func (j *typedJoiner) matcher(search goja.Value, sameValueZero bool) func(k int) bool {
	size := j.t.Kind.Size()
	ne := binary.NativeEndian
	at := func(k int) []byte {
		i := (j.t.Offset + k) * size
		if i+size > len(j.data) {
			return nil
		}
		return j.data[i : i+size]
	}
	switch j.t.Kind {
	case gojainternal.ElemBigInt64, gojainternal.ElemBigUint64:
		b, ok := search.Export().(*big.Int)
		if !ok {
			return nil
		}
		signed := j.t.Kind == gojainternal.ElemBigInt64
		if signed && !b.IsInt64() || !signed && !b.IsUint64() {
			return nil
		}
		want := b.Uint64()
		if signed {
			want = uint64(b.Int64())
		}
		return func(k int) bool { p := at(k); return p != nil && ne.Uint64(p) == want }
	}
	var f float64
	switch v := search.Export().(type) {
	case int64:
		f = float64(v)
	case float64:
		f = v
	default:
		return nil // (not a Number: never strictly equal, nor SameValueZero, to an element)
	}
	nan := math.IsNaN(f)
	if nan && !sameValueZero {
		return nil
	}
	return func(k int) bool {
		e, ok := j.numberAt(at(k))
		return ok && (e == f || nan && math.IsNaN(e))
	}
}

// numberAt is the Number value of an element of a non-BigInt kind from its bytes p (nil: not in the buffer).
func (j *typedJoiner) numberAt(p []byte) (float64, bool) {
	if p == nil {
		return 0, false
	}
	ne := binary.NativeEndian
	switch j.t.Kind {
	case gojainternal.ElemInt8:
		return float64(int8(p[0])), true
	case gojainternal.ElemUint8, gojainternal.ElemUint8Clamped:
		return float64(p[0]), true
	case gojainternal.ElemInt16:
		return float64(int16(ne.Uint16(p))), true
	case gojainternal.ElemUint16:
		return float64(ne.Uint16(p)), true
	case gojainternal.ElemInt32:
		return float64(int32(ne.Uint32(p))), true
	case gojainternal.ElemUint32:
		return float64(ne.Uint32(p)), true
	case gojainternal.ElemFloat32:
		return float64(math.Float32frombits(ne.Uint32(p))), true
	case gojainternal.ElemFloat64:
		return math.Float64frombits(ne.Uint64(p)), true
	}
	return 0, false
}
