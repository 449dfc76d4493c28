package arraybuiltin

import (
	"sync"

	"github.com/dop251/goja"
)

// MaxStringLength is the longest string Join and ToLocaleString make, in UTF-16 code units: V8's limit, past which
// they throw RangeError "Invalid string length" as node does.
const MaxStringLength = 1<<29 - 24

// unitsPerStep is how many code units written count as one step of a walk.
const unitsPerStep = 256

// A Joining is the receivers whose Join or ToLocaleString is running on one runtime: one met again inside its own
// join (a cycle: `a[0] = a; a.join()`) joins as "", as in goja and V8. One a runtime, used on its goroutine.
type Joining struct {
	stack []*goja.Object
}

// enter pushes o, reporting false (and pushing nothing) when o is already being joined.
func (j *Joining) enter(o *goja.Object) bool {
	for _, p := range j.stack {
		if p == o {
			return false
		}
	}
	j.stack = append(j.stack, o)
	return true
}

// leave pops what enter pushed.
func (j *Joining) leave() {
	j.stack[len(j.stack)-1] = nil
	j.stack = j.stack[:len(j.stack)-1]
}

// Join is Array.prototype.join(separator) on o, whose length n was read (ECMA-262 23.1.3.18): the separator
// ToString'd (step 4, "," when undefined), then per index a Get, the separator before all but the first, and the
// element's ToString unless it is undefined or null. Then, as V8 orders it, the cycle check (j, if not nil): o
// already being joined gives "". Runs of holes of goja's arrays with quiet prototypes are skipped, their separators
// written at once; a result over MaxStringLength is a RangeError before it is written.
func Join(r *Realm, j *Joining, o *goja.Object, n float64, sep goja.Value) goja.Value {
	s := r.RT.ToValue(",").(goja.String)
	if sep != nil && !goja.IsUndefined(sep) {
		s = toStr(r.RT, sep)
	}
	return j.run(r, o, n, s, false)
}

// ToLocaleString is Array.prototype.toLocaleString on o, whose length n was read (ECMA-262 23.1.3.32, without
// ECMA-402): the cycle check as Join's, then per index a Get, "," before all but the first, and for an element
// neither undefined nor null ToString(Invoke(element, "toLocaleString")), goja's TypeError when that is not a
// function. Holes and the length limit as Join's.
func ToLocaleString(r *Realm, j *Joining, o *goja.Object, n float64) goja.Value {
	return j.run(r, o, n, r.RT.ToValue(",").(goja.String), true)
}

// run joins o (n indices) with sep, its elements through toLocaleString when locale, unless j (if not nil) finds o
// already being joined: then "".
func (j *Joining) run(r *Realm, o *goja.Object, n float64, sep goja.String, locale bool) goja.Value {
	if j != nil {
		if !j.enter(o) {
			return r.RT.ToValue("")
		}
		defer j.leave()
	}
	b := &joiner{walker: newWalker(r, o)}
	defer b.release()
	item := b.writeString
	if locale {
		item = b.writeLocaleString
	}
	return b.join(n, sep, item)
}

// A joiner builds a join's result, counting a step every unitsPerStep code units, and each code unit as a byte made
// in the realm's Building until the call returns (release).
type joiner struct {
	*walker
	buf   goja.StringBuilder
	units float64       // code units written
	owed  int           // code units written and not yet counted as steps
	getV  goja.Callable // GetV(v, "toLocaleString") of a primitive v (getVProgram), made when first needed
}

// join is steps 5–7 of join (and 6–7 of toLocaleString) with the separator sep and item, which appends what an
// element neither undefined nor null contributes.
func (b *joiner) join(n float64, sep goja.String, item func(goja.Value)) goja.Value {
	for k := 0.0; k < n; k++ {
		if next := b.skipUp(k, n); next > k { // holes k … next-1: their separators only
			gap := next - k
			if k == 0 {
				gap--
			}
			b.repeat(sep, gap)
			if k = next; k >= n {
				break
			}
		}
		if k > 0 {
			b.write(sep)
		}
		if v := b.value(k); !goja.IsUndefined(v) && !goja.IsNull(v) {
			item(v)
			if _, ok := v.(*goja.Object); ok {
				b.ran() // (its toString ran)
			}
		}
	}
	return b.buf.String()
}

// write appends s.
func (b *joiner) write(s goja.String) {
	n := s.Length()
	b.room(n)
	b.buf.WriteString(s)
	b.wrote(n)
}

// room throws RangeError "Invalid string length" unless n more code units fit in MaxStringLength.
func (b *joiner) room(n int) {
	if b.units+float64(n) > MaxStringLength {
		b.rangeError("Invalid string length")
	}
}

// wrote counts n code units appended: as bytes made, and a step every unitsPerStep.
func (b *joiner) wrote(n int) {
	b.units += float64(n)
	b.built += int64(n)
	if b.r.Building != nil {
		*b.r.Building += int64(n)
	}
	if b.owed += n; b.owed >= unitsPerStep {
		b.step(b.owed / unitsPerStep)
		b.owed %= unitsPerStep
	}
}

// writeString appends ToString(v): a String as it is, an object's ToPrimitive with hint string (its toString or
// valueOf) converted alike, a Symbol a TypeError as in goja, any other primitive its ASCII decimal or name.
func (b *joiner) writeString(v goja.Value) {
	if o, ok := v.(*goja.Object); ok {
		v = o.ToString()
	}
	switch p := v.(type) {
	case goja.String:
		b.write(p)
	case *goja.Symbol:
		panic(b.r.RT.NewTypeError("Cannot convert a Symbol value to a string"))
	default:
		s := p.String()
		b.room(len(s))
		b.buf.WriteUTF8String(s)
		b.wrote(len(s))
	}
}

// repeat appends sep count times (the separators of skipped holes), refused at once when too long, written in
// chunks of about PollEvery code units.
func (b *joiner) repeat(sep goja.String, count float64) {
	l := sep.Length()
	if l == 0 || count == 0 {
		return
	}
	if b.units+count*float64(l) > MaxStringLength {
		b.rangeError("Invalid string length")
	}
	per := max(PollEvery/l, 1)
	if float64(per) > count {
		per = int(count)
	}
	var chunk goja.StringBuilder
	for range per {
		chunk.WriteString(sep)
	}
	c := chunk.String()
	for ; count >= float64(per); count -= float64(per) {
		b.write(c)
	}
	for ; count > 0; count-- {
		b.write(sep)
	}
}

// toStr is ToString(v) as a String (goja's Value.ToString gives the primitive ToPrimitive made, with hint string).
func toStr(rt *goja.Runtime, v goja.Value) goja.String {
	switch p := v.ToString().(type) {
	case goja.String:
		return p
	case *goja.Symbol:
		panic(rt.NewTypeError("Cannot convert a Symbol value to a string"))
	default:
		return rt.ToValue(p.String()).(goja.String)
	}
}

// getVProgram makes GetV(v, "toLocaleString") as a function, for a primitive v: the property of ToObject(v) read
// with v itself as the receiver (a getter's this).
var getVProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("jsworker:arraygetv", "(function (v) { return v.toLocaleString; })", true)
})

// writeLocaleString appends ToString(Invoke(v, "toLocaleString")) (step 6.c.i of toLocaleString).
func (b *joiner) writeLocaleString(v goja.Value) {
	var f goja.Value
	if o, ok := v.(*goja.Object); ok {
		f = o.Get("toLocaleString")
	} else {
		if b.getV == nil {
			g, err := b.r.RT.RunProgram(getVProgram())
			if err != nil {
				panic(err)
			}
			b.getV, _ = goja.AssertFunction(g)
		}
		f = call(b.getV, goja.Undefined(), v)
	}
	fn, ok := goja.AssertFunction(f)
	if !ok {
		panic(b.r.RT.NewTypeError("Property 'toLocaleString' of object %s is not a function", v))
	}
	b.writeString(call(fn, v))
	b.ran()
}
