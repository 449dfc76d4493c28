package arraybuiltin

import (
	"math"
	"strconv"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// A walker reads one receiver's indices in the specification's terms (HasProperty, Get), counting a step an index.
type walker struct {
	stepper
	o   *goja.Object
	has goja.Callable // `k in o`: the one exact HasProperty the public API has (a Proxy's has trap, prototypes)
	// loud: the last look found o's prototypes not quiet; not asked again until a callback ran (ran). A getter
	// can make them quiet again unseen: that costs only the skip, never correctness.
	loud bool
}

// ran tells the walker a callback ran: what it knew of o's prototypes may have changed.
func (w *walker) ran() { w.loud = false }

// hasProgram makes the realm's `in` as a function; made at most once per walk.
var hasProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("jsworker:arrayhas", "(function (o, k) { return k in o; })", true)
})

func newWalker(r *Realm, o *goja.Object) *walker {
	return &walker{stepper: stepper{r: r}, o: o}
}

// hasProperty is HasProperty(o, name), through the realm's `in` (made on the walk's first need of it: a walk of
// goja's arrays, or one that copies no index, never needs it).
func (w *walker) hasProperty(name string) bool {
	if w.has == nil {
		v, err := w.r.RT.RunProgram(hasProgram())
		if err != nil {
			panic(err)
		}
		w.has, _ = goja.AssertFunction(v)
	}
	return call(w.has, goja.Undefined(), w.o, w.r.RT.ToValue(name)).ToBoolean()
}

func call(fn goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := fn(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

func keyName(k float64) string {
	if k >= 0 && k < 1<<53 {
		return strconv.FormatUint(uint64(k), 10) // (an index: an integer)
	}
	return strconv.FormatFloat(k, 'f', -1, 64)
}

// own returns o's own data element k when o is goja's usual array and k one of its stored elements: then
// HasProperty is true and Get is that value, and nothing can observe that neither was asked.
func (w *walker) own(k float64) goja.Value {
	if k >= math.MaxUint32 {
		return nil
	}
	if v, ok := gojainternal.ArrayElement(w.o, uint32(k)); ok {
		return v
	}
	return nil
}

// at is HasProperty(o, k) and, when true, Get(o, k).
func (w *walker) at(k float64) (goja.Value, bool) {
	w.step(1)
	if v := w.own(k); v != nil {
		return v, true
	}
	name := keyName(k)
	if !w.hasProperty(name) {
		return nil, false
	}
	return w.get(name), true
}

// eachPresent visits, in order, the indices in [from, end) that o has (HasProperty, then Get), runs of holes of
// goja's arrays with quiet prototypes skipped, until visit answers false.
func (w *walker) eachPresent(from, end float64, visit func(k float64, v goja.Value) bool) {
	for k := from; k < end; k++ {
		if k = w.skipUp(k, end); k >= end {
			return
		}
		if v, ok := w.at(k); ok && !visit(k, v) {
			return
		}
	}
}

// value is Get(o, k).
func (w *walker) value(k float64) goja.Value {
	w.step(1)
	if v := w.own(k); v != nil {
		return v
	}
	return w.get(keyName(k))
}

func (w *walker) get(name string) goja.Value {
	if v := w.o.Get(name); v != nil {
		return v
	}
	return goja.Undefined()
}

// quiet reports whether o's prototypes are quiet (quietPrototypes), remembering a no until a callback ran.
func (w *walker) quiet() bool {
	if w.loud {
		return false
	}
	if !quietPrototypes(w.o) {
		w.loud = true
		return false
	}
	return true
}

// quietPrototypes reports whether o's prototypes are ordinary objects (no Proxy, no exotic object) none of which
// has an index key, so that an index o does not have is not in the chain and reading it runs nothing.
func quietPrototypes(o *goja.Object) bool {
	for p := o.Prototype(); p != nil; p = p.Prototype() {
		switch gojainternal.ObjectKind(p) {
		case gojainternal.KindPlain, gojainternal.KindOrdinary:
		case gojainternal.KindArray: // (Array.prototype: an array's length is a data property, read without a script)
			if p.Get("length").ToFloat() != 0 {
				return false
			}
		default:
			return false
		}
		for _, name := range p.GetOwnPropertyNames() {
			if isIndex(name) {
				return false
			}
		}
	}
	return true
}

// isIndex reports whether name is an array index: the canonical decimal form of an integer below 2**32 − 1.
func isIndex(name string) bool {
	if name == "" || name[0] < '0' || name[0] > '9' {
		return false
	}
	v, err := strconv.ParseUint(name, 10, 32)
	return err == nil && v != math.MaxUint32 && strconv.FormatUint(v, 10) == name
}

// skipUp returns the least index at or after k (below n) that o may have, n when there is none: k itself unless
// o is goja's usual or sparse array, k is a hole of it, and its prototypes are quiet. It runs no JavaScript.
func (w *walker) skipUp(k, n float64) float64 {
	if k >= math.MaxUint32 {
		return k
	}
	if s, ok := gojainternal.ArrayStored(w.o); ok {
		if k < float64(s) || !w.quiet() {
			return k // (cheap: most calls)
		}
		return n
	}
	if i, found, ok := gojainternal.SparseNext(w.o, uint32(k)); ok && (!found || float64(i) > k) && w.quiet() {
		if !found {
			return n
		}
		return math.Min(float64(i), n)
	}
	return k
}

// skipDown returns the greatest index at or before k that o may have (-1 when none), as skipUp does upwards.
func (w *walker) skipDown(k float64) float64 {
	if k >= math.MaxUint32 || k < 0 {
		return k
	}
	if s, ok := gojainternal.ArrayStored(w.o); ok {
		if k < float64(s) || !w.quiet() {
			return k
		}
		return float64(s) - 1
	}
	if i, found, ok := gojainternal.SparsePrev(w.o, uint32(k)); ok && (!found || float64(i) < k) && w.quiet() {
		if !found {
			return -1
		}
		return float64(i)
	}
	return k
}

// toInteger is ToIntegerOrInfinity.
func toInteger(v goja.Value) float64 {
	f := v.ToFloat()
	if math.IsNaN(f) {
		return 0
	}
	return math.Trunc(f)
}
