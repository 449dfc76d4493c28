package arraybuiltin

import (
	"math"

	"github.com/dop251/goja"
)

// lengthOf is LengthOfArrayLike(o): ToLength(Get(o, "length")).
func lengthOf(o *goja.Object) float64 {
	v := o.Get("length")
	if v == nil {
		return 0
	}
	return math.Min(math.Max(toInteger(v), 0), maxSafeLength)
}

// copyInto copies the walker's receiver's indices [from, end) into a from index to on, as slice, splice and concat
// do (ECMA-262 23.1.3.28 step 15, 23.1.3.31 step 11, 23.1.3.1 step 5.b.iv): per index HasProperty, then Get and
// CreateDataPropertyOrThrow of a present one. Runs of holes of goja's arrays with quiet prototypes are skipped.
// It returns to moved on by end − from.
func (w *walker) copyInto(a *goja.Object, from, end, to float64) float64 {
	w.eachPresent(from, end, func(k float64, v goja.Value) bool {
		w.define(a, to+k-from, v)
		w.ran() // (a's setter or Proxy trap, a getter)
		return true
	})
	return to + end - from
}

// Slice is Array.prototype.slice(start, end) on o, whose length n was read (ECMA-262 23.1.3.28): the indices in
// [start, end) copied into ArraySpeciesCreate(o, count), whose length is then set to count.
// `new Array(2**32 - 1).slice()` answers at once (node v20: two and a half minutes).
func Slice(r *Realm, o *goja.Object, n float64, args []goja.Value) goja.Value {
	k := relativeIndex(arg(args, 0), n)
	final := n
	if end := arg(args, 1); !goja.IsUndefined(end) {
		final = relativeIndex(end, n)
	}
	w := newWalker(r, o)
	defer w.release()
	return w.copyOut(k, math.Max(final-k, 0))
}

// copyOut is ArraySpeciesCreate(o, count) with o's indices [from, from + count) copied into it and its length then
// set to count: slice's result, and splice's.
func (w *walker) copyOut(from, count float64) *goja.Object {
	a := w.speciesCreate(w.o, count)
	w.ran()
	w.copyInto(a, from, from+count, 0)
	w.setLengthOf(a, count)
	return a
}

// move is one step of splice's moves: HasProperty(o, from), then Set(o, to, Get(o, from)) or
// DeletePropertyOrThrow(o, to).
func (w *walker) move(from, to float64) {
	if v, ok := w.at(from); ok {
		w.set(to, v)
	} else {
		w.del(to)
	}
	w.ran()
}

// Splice is Array.prototype.splice(start, deleteCount, ...items) on o, whose length n was read (ECMA-262
// 23.1.3.31): the deleted indices copied into ArraySpeciesCreate(o, deleteCount), the rest moved down (then the
// top deleted) or up to make room for the items, the items set, the length set. Runs of holes on both sides of a
// move, and of the deleted top, are skipped where nothing can observe them, as Shift's.
func Splice(r *Realm, o *goja.Object, n float64, args []goja.Value) goja.Value {
	start := relativeIndex(arg(args, 0), n)
	var items []goja.Value
	if len(args) > 2 {
		items = args[2:]
	}
	var dc float64
	switch len(args) {
	case 0:
	case 1:
		dc = n - start
	default:
		dc = math.Min(math.Max(toInteger(args[1]), 0), n-start)
	}
	ic := float64(len(items))
	if n+ic-dc > maxSafeLength {
		panic(r.RT.NewTypeError("Invalid array length"))
	}
	w := newWalker(r, o)
	defer w.release()
	a := w.copyOut(start, dc)
	switch {
	case ic < dc:
		for k := start; k < n-dc; k++ {
			if skip := math.Min(w.skipUp(k+dc, n)-(k+dc), w.skipUp(k+ic, n-dc+ic)-(k+ic)); skip > 0 {
				if k += skip; k >= n-dc {
					break
				}
			}
			w.move(k+dc, k+ic)
		}
		for k := n; k > n-dc+ic; k-- {
			if d := w.skipDown(k - 1); d < k-1 {
				if k = d + 1; k <= n-dc+ic {
					break
				}
			}
			w.step(1)
			w.del(k - 1)
			w.ran()
		}
	case ic > dc:
		for k := n - dc; k > start; k-- {
			if skip := math.Min(k+dc-1-w.skipDown(k+dc-1), k+ic-1-w.skipDown(k+ic-1)); skip > 0 {
				if k -= skip; k <= start {
					break
				}
			}
			w.move(k+dc-1, k+ic-1)
		}
	}
	for i, item := range items {
		w.set(start+float64(i), item)
	}
	w.setLength(n - dc + ic)
	return a
}

// spreadable is IsConcatSpreadable(o): its Symbol.isConcatSpreadable as a boolean when defined, else IsArray(o).
func (w *walker) spreadable(o *goja.Object) bool {
	if v := o.GetSymbol(goja.SymIsConcatSpreadable); v != nil && !goja.IsUndefined(v) {
		return v.ToBoolean()
	}
	return w.isArray(o)
}

// Concat is Array.prototype.concat(...items) on o (ECMA-262 23.1.3.1): into ArraySpeciesCreate(o, 0), o and each
// item in turn, a spreadable one's indices copied (HasProperty, Get, CreateDataPropertyOrThrow), any other value
// defined as one element; then the length set. `[].concat(new Array(2**32 - 1))` answers at once, as in node.
func Concat(r *Realm, o *goja.Object, items []goja.Value) goja.Value {
	w := newWalker(r, o)
	defer w.release()
	a := w.speciesCreate(o, 0)
	w.ran()
	n := 0.0
	for i := -1; i < len(items); i++ {
		e := goja.Value(o)
		if i >= 0 {
			e = items[i]
		}
		if eo, _ := e.(*goja.Object); eo != nil && w.spreadable(eo) {
			l := lengthOf(eo)
			if n+l > maxSafeLength {
				panic(r.RT.NewTypeError("Invalid array length"))
			}
			w.o, w.loud = eo, false
			n = w.copyInto(a, 0, l, n)
			continue
		}
		if n >= maxSafeLength {
			panic(r.RT.NewTypeError("Invalid array length"))
		}
		w.step(1)
		w.define(a, n, e)
		w.ran()
		n++
	}
	w.setLengthOf(a, n)
	return a
}
