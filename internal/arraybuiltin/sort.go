package arraybuiltin

import (
	"math"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// What Sort counts as made per element, for the realm's memory accounting: its entry in the list and, at most, in the
// merge's buffer.
const sortEntryBytes = 64

// Sort is Array.prototype.sort(comparefn) on o, whose length n was read, with cmp nil (comparefn undefined) or
// callable (ECMA-262 23.1.3.30): SortIndexedProperties with holes skipped — the present elements read in order
// (HasProperty, Get) —, sorted, then written back from index 0 (Set), undefined ones last, and the indices after them
// deleted. The sort is a stable merge sort with a poll every PollEvery comparisons; the default order compares the
// elements' strings, made once for a primitive (ToString of one is unobservable) and at each comparison for an
// object (its toString is a script's). goja's sort.Stable made n log² n comparisons, converting both elements to
// strings at each, with nothing between two that could stop it: 2**18 numbers took 1 s (node: 0.1 s), 2**24 more
// than a minute. A comparefn that throws leaves o as it was.
func Sort(r *Realm, o *goja.Object, n float64, cmp goja.Callable) goja.Value {
	w := newWalker(r, o)
	defer w.release()
	l := sortList{items: make([]sortEntry, 0, int(min(n, Threshold)))}
	w.eachPresent(0, n, func(_ float64, v goja.Value) bool {
		l.add(w, v, cmp)
		return true
	})
	items, undefs := (&sorter{w: w, cmp: cmp}).sort(l.items), float64(l.undefs)
	j := 0.0
	for _, e := range items {
		w.step(1)
		if cur, ok := gojainternal.ArrayPlainElement(o, uint32(min(j, math.MaxUint32))); !ok || !cur.SameAs(e.v) {
			w.set(j, e.v) // (a plain slot holding the same value: its Set is unobservable, and skipped)
			w.ran()
		}
		j++
	}
	for ; undefs > 0; undefs-- {
		w.step(1)
		w.set(j, goja.Undefined())
		w.ran()
		j++
	}
	for ; j < n; j++ {
		if next := w.skipUp(j, n); next > j {
			if j = next; j >= n {
				break
			}
		}
		w.step(1)
		w.del(j)
		w.ran()
	}
	return o
}

// ToSorted is Array.prototype.toSorted(comparefn) on o, whose length n was read (at most what the caller lets an
// array hold), with cmp nil or callable (ECMA-262 23.1.3.34): every index read (Get: a hole reads as undefined), the
// values sorted as Sort sorts them, undefined last, into a new Array of length n.
func ToSorted(r *Realm, o *goja.Object, n float64, cmp goja.Callable) goja.Value {
	w := newWalker(r, o)
	defer w.release()
	l := sortList{items: make([]sortEntry, 0, int(min(n, Threshold)))}
	for k := 0.0; k < n; k++ {
		if next := w.skipUp(k, n); next > k { // (holes of a quiet array: undefined, read without a script)
			l.undefs += int(min(next, n) - k)
			if k = next; k >= n {
				break
			}
		}
		l.add(w, w.value(k), cmp)
		w.ran()
	}
	items, undefs := (&sorter{w: w, cmp: cmp}).sort(l.items), l.undefs
	values := make([]any, 0, len(items)+undefs)
	for _, e := range items {
		values = append(values, e.v)
	}
	for range undefs {
		values = append(values, goja.Undefined())
	}
	return r.RT.NewArray(values...)
}

// A sortList is what SortIndexedProperties collects: the defined values, and how many undefined ones (they sort
// last).
type sortList struct {
	items  []sortEntry
	undefs int
}

// add collects v: an undefined one counted, any other as its sortEntry (its string made now when v is a primitive
// and the order the default), counted as made.
func (l *sortList) add(w *walker, v goja.Value, cmp goja.Callable) {
	if goja.IsUndefined(v) {
		l.undefs++
		return
	}
	e := sortEntry{v: v}
	if _, obj := v.(*goja.Object); !obj && cmp == nil {
		e.key = toStr(w.r.RT, v)
	}
	l.items = append(l.items, e)
	w.built += sortEntryBytes
	if w.r.Building != nil {
		*w.r.Building += sortEntryBytes
	}
}

// A sortEntry is an element being sorted and, for a primitive under the default order, its string.
type sortEntry struct {
	v   goja.Value
	key goja.String
}

// A sorter compares as SortCompare does, a step a comparison.
type sorter struct {
	w   *walker
	cmp goja.Callable
}

// compare is SortCompare(a, b) (ECMA-262 23.1.3.30.2) for defined a and b: comparefn's answer as a Number (NaN:
// 0), or the order of their strings' code units.
func (s *sorter) compare(a, b *sortEntry) float64 {
	s.w.step(1)
	if s.cmp != nil {
		f := call(s.cmp, goja.Undefined(), a.v, b.v).ToFloat()
		s.w.ran()
		if math.IsNaN(f) {
			return 0
		}
		return f
	}
	ka, kb := a.key, b.key
	if ka == nil {
		ka = toStr(s.w.r.RT, a.v)
		s.w.ran()
	}
	if kb == nil {
		kb = toStr(s.w.r.RT, b.v)
		s.w.ran()
	}
	return float64(ka.CompareTo(kb))
}

// sort sorts items stably, in place: runs of sortRun by insertion, then merged pairwise, a pair already in order
// (one comparison) left as it is, the left one of any other copied out and merged back.
func (s *sorter) sort(items []sortEntry) []sortEntry {
	const sortRun = 16
	n := len(items)
	for lo := 0; lo < n; lo += sortRun {
		hi := min(lo+sortRun, n)
		for i := lo + 1; i < hi; i++ {
			for k := i; k > lo && s.compare(&items[k], &items[k-1]) < 0; k-- {
				items[k], items[k-1] = items[k-1], items[k]
			}
		}
	}
	var left []sortEntry
	for width := sortRun; width < n; width *= 2 {
		for lo := 0; lo+width < n; lo += 2 * width {
			mid, hi := lo+width, min(lo+2*width, n)
			if s.compare(&items[mid], &items[mid-1]) >= 0 {
				continue
			}
			left = append(left[:0], items[lo:mid]...)
			i, j, out := 0, mid, lo
			for i < len(left) && j < hi {
				if s.compare(&items[j], &left[i]) < 0 { // (ties from the left: stable)
					items[out] = items[j]
					j++
				} else {
					items[out] = left[i]
					i++
				}
				out++
			}
			copy(items[out:], left[i:])
		}
	}
	clear(left[:cap(left)])
	return items
}
