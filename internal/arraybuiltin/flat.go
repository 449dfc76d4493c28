package arraybuiltin

import (
	"math"

	"github.com/dop251/goja"
)

// MaxFlatDepth is the most arrays FlattenIntoArray walks inside one another (the receiver included); one more is
// a RangeError "Maximum call stack size exceeded", as node's recursion overflows (at about 6,262 in node v20). It
// also ends a cycle flattened to an infinite depth.
const MaxFlatDepth = 10000

// Flat is Array.prototype.flat(depth) on o, whose length n was read (ECMA-262 23.1.3.13): depthNum 1 when depth
// is undefined, else ToIntegerOrInfinity(depth) and 0 when negative; A = ArraySpeciesCreate(o, 0); then
// FlattenIntoArray(A, o, n, 0, depthNum).
func Flat(r *Realm, o *goja.Object, n float64, depth goja.Value) goja.Value {
	d := 1.0
	if depth != nil && !goja.IsUndefined(depth) {
		d = math.Max(toInteger(depth), 0)
	}
	w := newWalker(r, o)
	defer w.release()
	a := w.speciesCreate(o, 0)
	w.flatten(a, n, d, nil, nil)
	return a
}

// FlatMap is Array.prototype.flatMap(mapper, thisArg) on o, whose length n was read, with the callable mapper
// (the caller checked it, with goja's TypeError otherwise) (ECMA-262 23.1.3.14): A = ArraySpeciesCreate(o, 0);
// then FlattenIntoArray(A, o, n, 0, 1, mapper, thisArg).
func FlatMap(r *Realm, o *goja.Object, n float64, mapper goja.Callable, thisArg goja.Value) goja.Value {
	w := newWalker(r, o)
	defer w.release()
	a := w.speciesCreate(o, 0)
	w.flatten(a, n, 1, mapper, thisArg)
	return a
}

// A flatFrame is one source FlattenIntoArray walks: the receiver, or an element array being flattened into target.
type flatFrame struct {
	o      *goja.Object
	n, k   float64 // its length, its next index
	depth  float64
	mapped bool // the receiver of flatMap: its elements go through the mapper
}

// flatten is FlattenIntoArray(target, w.o, n, 0, depth, mapper, thisArg) (ECMA-262 23.1.3.13.1) with an explicit
// stack of sources for its recursion: per index of the source on top, HasProperty and Get (and the mapper's call
// with the element, the index and the source); an element that IsArray while the depth is over 0 pushed as a
// source of its length (ToLength(Get(element, "length"))) and one less depth, any other defined at the next
// target index (a TypeError at 2**53 − 1). The walker follows the top source (w.o), so its runs of holes are
// skipped.
func (w *walker) flatten(target *goja.Object, n, depth float64, mapper goja.Callable, thisArg goja.Value) {
	stack := []flatFrame{{o: w.o, n: n, depth: depth, mapped: mapper != nil}}
	targetIndex := 0.0
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.k < f.n {
			f.k = w.skipUp(f.k, f.n)
		}
		if f.k >= f.n {
			if stack = stack[:len(stack)-1]; len(stack) > 0 {
				w.o, w.loud = stack[len(stack)-1].o, false
			}
			continue
		}
		k := f.k
		f.k++
		v, ok := w.at(k)
		if !ok {
			continue
		}
		if f.mapped {
			v = call(mapper, thisArg, v, index(w.r.RT, k), f.o)
			w.ran()
		}
		if f.depth > 0 && w.isArray(v) {
			e := v.(*goja.Object)
			next := flatFrame{o: e, n: lengthOf(e), depth: f.depth - 1}
			if len(stack) >= MaxFlatDepth {
				w.rangeError("Maximum call stack size exceeded")
			}
			stack = append(stack, next)
			w.o, w.loud = e, false
			continue
		}
		if targetIndex >= maxSafeLength {
			panic(w.r.RT.NewTypeError("Invalid array length"))
		}
		w.define(target, targetIndex, v)
		w.ran() // (target's setter or Proxy trap)
		targetIndex++
	}
}
