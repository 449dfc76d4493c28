package arraybuiltin

import (
	"math"

	"github.com/dop251/goja"
)

// Reverse is Array.prototype.reverse on o, whose length n was read (ECMA-262 23.1.3.26): for each pair of
// indices from the ends inwards, HasProperty and Get of the lower, then of the upper, then the Sets and deletes
// the two answers call for. Pairs of holes of goja's dense or sparse arrays with quiet prototypes are skipped
// (nothing can observe them): `new Array(2**32 - 1).reverse()`, two billion pairs in goja's loop, answers at once.
func Reverse(r *Realm, o *goja.Object, n float64) goja.Value {
	w := newWalker(r, o)
	middle := math.Floor(n / 2)
	for lower := 0.0; lower < middle; lower++ {
		if a, b := w.skipUp(lower, middle), w.skipDown(n-lower-1); a > lower && n-1-b > lower {
			if lower = math.Min(a, n-1-b); lower >= middle {
				break
			}
		}
		upper := n - lower - 1
		lv, lok := w.at(lower)
		uv, uok := w.at(upper)
		switch {
		case lok && uok:
			w.set(lower, uv)
			w.set(upper, lv)
		case uok:
			w.set(lower, uv)
			w.del(upper)
		case lok:
			w.del(lower)
			w.set(upper, lv)
		default:
			continue
		}
		w.ran() // (a setter may have run)
	}
	return o
}

// set is Set(o, k, v, true).
func (w *walker) set(k float64, v goja.Value) {
	if err := w.o.Set(keyName(k), v); err != nil {
		panic(err)
	}
}

// del is DeletePropertyOrThrow(o, k).
func (w *walker) del(k float64) {
	if err := w.o.Delete(keyName(k)); err != nil {
		panic(err)
	}
}

// relativeIndex is a relative index argument of copyWithin: ToIntegerOrInfinity, negative from the end, clamped
// to [0, n].
func relativeIndex(v goja.Value, n float64) float64 {
	k := toInteger(v)
	if k < 0 {
		return math.Max(n+k, 0)
	}
	return math.Min(k, n)
}

// CopyWithin is Array.prototype.copyWithin(target, start, end) on o, whose length n was read (ECMA-262
// 23.1.3.4): per index, HasProperty of the source, then its Get and a Set of the target or a delete of the target;
// backwards when the ranges overlap with the target after the source. Runs where source and target are both holes
// of goja's arrays with quiet prototypes are skipped, as Reverse's pairs.
func CopyWithin(r *Realm, o *goja.Object, n float64, args []goja.Value) goja.Value {
	to := relativeIndex(arg(args, 0), n)
	from := relativeIndex(arg(args, 1), n)
	final := n
	if end := arg(args, 2); !goja.IsUndefined(end) {
		final = relativeIndex(end, n)
	}
	count := math.Min(final-from, n-to)
	dir := 1.0
	if from < to && to < from+count {
		dir, from, to = -1, from+count-1, to+count-1
	}
	w := newWalker(r, o)
	for count > 0 {
		var skip float64
		if dir > 0 {
			skip = math.Min(w.skipUp(from, from+count)-from, w.skipUp(to, to+count)-to)
		} else {
			skip = math.Min(from-math.Max(w.skipDown(from), from-count), to-math.Max(w.skipDown(to), to-count))
		}
		if skip > 0 {
			from, to, count = from+dir*skip, to+dir*skip, count-skip
			continue
		}
		if v, ok := w.at(from); ok {
			w.set(to, v)
		} else {
			w.del(to)
		}
		w.ran()
		from, to, count = from+dir, to+dir, count-1
	}
	return o
}

// setLength is Set(o, "length", n, true).
func (w *walker) setLength(n float64) {
	if err := w.o.Set("length", w.r.RT.ToValue(n)); err != nil {
		panic(err)
	}
}

// Shift is Array.prototype.shift on o, whose length n was read (ECMA-262 23.1.3.27): Get of index 0, each later
// index moved down one (HasProperty, Get, Set or a delete of the index below), the last deleted, the length set.
// Runs of holes on both sides of a move are skipped, as Reverse's pairs.
func Shift(r *Realm, o *goja.Object, n float64) goja.Value {
	w := newWalker(r, o)
	if n == 0 {
		w.setLength(0)
		return goja.Undefined()
	}
	first := w.value(0)
	w.ran()
	for k := 1.0; k < n; k++ {
		if skip := math.Min(w.skipUp(k, n)-k, w.skipUp(k-1, n-1)-(k-1)); skip > 0 {
			if k += skip; k >= n {
				break
			}
		}
		if v, ok := w.at(k); ok {
			w.set(k-1, v)
		} else {
			w.del(k - 1)
		}
		w.ran()
	}
	w.del(n - 1)
	w.setLength(n - 1)
	return first
}

// Unshift is Array.prototype.unshift(...items) on o, whose length n was read (ECMA-262 23.1.3.32): each index
// from the top moved up by the number of items, then the items set from index 0, then the length.
func Unshift(r *Realm, o *goja.Object, n float64, items []goja.Value) goja.Value {
	w := newWalker(r, o)
	c := float64(len(items))
	if c > 0 {
		if n+c > 1<<53-1 {
			panic(r.RT.NewTypeError("Invalid array length"))
		}
		for k := n; k > 0; k-- {
			if skip := math.Min(k-1-w.skipDown(k-1), k+c-1-w.skipDown(k+c-1)); skip > 0 {
				if k -= skip; k <= 0 {
					break
				}
			}
			if v, ok := w.at(k - 1); ok {
				w.set(k+c-1, v)
			} else {
				w.del(k + c - 1)
			}
			w.ran()
		}
		for j, item := range items {
			w.set(float64(j), item)
		}
	}
	w.setLength(n + c)
	return r.RT.ToValue(n + c)
}
