package core

import (
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/arraybuiltin"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// Regular expressions over long strings, stoppable and counted. goja's RegExp.prototype[Symbol.match],
// [Symbol.replace] and [Symbol.split] collect every match of a standard regular expression in one Go call
// (findAllSubmatchIndex) before they make anything: `"x".repeat(2**25).match(/x/g)` asked for gigabytes with no
// checkpoint in between, and neither a terminate, a time limit nor a budget could stop it before Go's fatal out of
// memory under an address-space limit (found 2026-12-02; Node 20 finishes it in 2.5 s). So, for a string argument
// of at least longRegExpInput code units, all ASCII (below):
//   - match and replace clear the RegExp's "standard" flag for the call (gojainternal.SetRegExpStandard), which
//     sends goja down the specification's loop: one call of `exec` per match, the same result;
//   - split of a standard RegExp runs the specification's algorithm here (splitLong), finding each separator with
//     a global search instead of a sticky attempt at every position;
//   - RegExp.prototype.exec is guarded in place (the same function object) with a counter: every
//     arraybuiltin.PollEvery calls it runs the realm's checkpoint, with the matches the running call holds counted
//     as built (Checkpoint.Building), and ends the call when the realm was asked to stop;
//   - matchAll's iterator prototype (%RegExpStringIteratorPrototype%.next) is guarded like the array iterator
//     (iterstop.go), for `[...s.matchAll(re)]`.
// `replaceAll` with a string pattern is goja's own loop over the string: its positions and its result are
// measured before it runs (guardReplaceAll). Shorter strings take goja's paths untouched.
//
// The guards are installed when the realm makes its RegExp constructor, or first looks up one of String.prototype's
// methods that take a regular expression (template hooks): an idle realm pays nothing. A realm that makes regular
// expressions only as literals and calls their symbol methods directly (`/x/g[Symbol.replace](s, "y")`) without
// either is not guarded. Nor is a long string with any character outside ASCII: goja's exec costs such a string's
// length at every call (gojainternal.ASCIIString), so the specification's loop over it would be quadratic; it keeps
// goja's fast path, with only the decoding it certainly makes measured before the call (longString), and its
// matches are seen when the call returns.

// longRegExpInput is the shortest string whose matches go through the guarded paths: below it goja's fast path holds
// at most some 100 MB of matches for the length of the call.
const longRegExpInput = 1 << 20

// matchBytes is what the specification's loop keeps per match (the exec result: an array with its index, input and
// groups), a low estimate.
const matchBytes = 128

// regexpGuard is a realm's state of the guards.
type regexpGuard struct {
	ctor, proto, exec *goja.Object // the realm's RegExp, RegExp.prototype and its exec (nil if not guarded)
	collecting        *goja.Object // the RegExp whose matches the guarded call in progress keeps
	taken             int64        // how many exec calls on it since it started
	count             int          // exec calls since the last poll
	r                 *arraybuiltin.Realm
	cp                *depthguard.Checkpoint
}

var regexpGuardKey = realmdata.NewKey[*regexpGuard]("core.regexp")

// regexpMade is the hook of the global RegExp: v is the realm's constructor.
func regexpMade(rt *goja.Runtime, v goja.Value) {
	if g, _ := regexpGuardKey.Get(rt); g != nil {
		return
	}
	ctor, _ := v.(*goja.Object)
	if ctor == nil {
		return
	}
	proto, _ := ctor.Get("prototype").(*goja.Object)
	if proto == nil {
		return
	}
	g := &regexpGuard{ctor: ctor, proto: proto}
	regexpGuardKey.Set(rt, g)
	if exec, _ := proto.Get("exec").(*goja.Object); exec != nil && gojainternal.GuardCallOver(exec, g.guardExec(rt)) {
		g.exec = exec
	}
	for _, s := range []struct {
		sym   *goja.Symbol
		guard func(gojainternal.CallFunc, goja.FunctionCall) goja.Value
	}{{goja.SymMatch, g.collect(rt)}, {goja.SymReplace, g.collect(rt)}, {goja.SymSplit, g.split(rt)}} {
		if fn, _ := proto.GetSymbol(s.sym).(*goja.Object); fn != nil {
			gojainternal.GuardCallOver(fn, s.guard) // (a script's own method, set before: left alone)
		}
	}
}

// regexpUsed is the hook of String.prototype's methods that take a regular expression: it has the realm make its
// RegExp constructor, whose hook guards RegExp.prototype (once).
func regexpUsed(rt *goja.Runtime, _ goja.Value) {
	if g, _ := regexpGuardKey.Get(rt); g != nil {
		return
	}
	if ctor, ok := gojainternal.TemplateValue(rt, rt.GlobalObject(), "RegExp"); ok {
		regexpMade(rt, ctor)
	}
}

// matchAllMade is the hook of String.prototype.matchAll: it guards the next of the iterators it makes.
func matchAllMade(rt *goja.Runtime, v goja.Value) {
	regexpUsed(rt, v)
	if !guardIteratorNext(rt, v, rt.ToValue(""), matchBytes) {
		panic(rt.NewTypeError("jsworker: the allocation guard cannot guard the RegExp string iterator"))
	}
}

// guardExec is RegExp.prototype.exec's guard: a counter, and a poll every arraybuiltin.PollEvery calls.
func (g *regexpGuard) guardExec(rt *goja.Runtime) func(gojainternal.CallFunc, goja.FunctionCall) goja.Value {
	return func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		if g.collecting != nil && call.This == goja.Value(g.collecting) {
			g.taken++
		}
		if g.count++; g.count >= arraybuiltin.PollEvery {
			g.count = 0
			if g.r == nil {
				g.r = walkRealm(rt)
				g.cp, _ = checkpointKey.Get(rt)
			}
			if g.r.Poll != nil {
				pollBuilding(g.r, g.cp, g.taken*matchBytes)
			}
			gojainternal.EndIfInterrupted(rt)
		}
		return orig(call)
	}
}

// pollBuilding runs the realm's poll with built bytes counted as made by the native call in progress.
func pollBuilding(r *arraybuiltin.Realm, cp *depthguard.Checkpoint, built int64) {
	if cp == nil || built <= 0 {
		r.Poll()
		return
	}
	cp.Building += built
	defer func() { cp.Building -= built }()
	r.Poll()
}

// longString returns call's first argument when it is a primitive 8-bit string of at least longRegExpInput code
// units (a 16-bit one would cost goja's exec its length at every call: gojainternal.ASCIIString). A long 16-bit
// string goes goja's fast path, which decodes it first, into at least 4 bytes a code unit (runes, or a position
// map): that much is measured as made before the call (chargeAhead), so that a budget below it ends the worker
// before the call, not in Go's fatal out of memory during it.
func longString(rt *goja.Runtime, call goja.FunctionCall) goja.String {
	s, ok := call.Argument(0).(goja.String)
	if !ok || s.Length() < longRegExpInput {
		return nil
	}
	if !gojainternal.ASCIIString(s) {
		chargeAhead(rt, 4*int64(s.Length()))
		return nil
	}
	return s
}

// collect guards Symbol.match and Symbol.replace: on a long string, the RegExp goes the specification's way, its
// exec calls counted as the matches the call keeps.
func (g *regexpGuard) collect(rt *goja.Runtime) func(gojainternal.CallFunc, goja.FunctionCall) goja.Value {
	return func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		return g.collectLong(rt, orig, call)
	}
}

func (g *regexpGuard) collectLong(rt *goja.Runtime, orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
	rx, _ := call.This.(*goja.Object)
	if rx == nil || longString(rt, call) == nil {
		return orig(call)
	}
	std, _ := gojainternal.RegExpStandard(rx)
	if std {
		gojainternal.SetRegExpStandard(rx, false)
	}
	prev, prevTaken := g.collecting, g.taken
	g.collecting, g.taken = rx, 0
	defer func() {
		g.collecting, g.taken = prev, prevTaken
		if std && g.unchanged(rx) {
			gojainternal.SetRegExpStandard(rx, true)
		}
	}()
	return orig(call)
}

// unchanged reports whether rx is still a RegExp goja would call standard: no own property but lastIndex, the
// realm's prototype (what the call's callbacks, a replacer function, could have changed).
func (g *regexpGuard) unchanged(rx *goja.Object) bool {
	names := rx.GetOwnPropertyNames()
	return len(names) == 1 && names[0] == "lastIndex" && len(rx.Symbols()) == 0 && rx.Prototype() == g.proto
}

// split guards Symbol.split: a long string split by a standard RegExp of the realm's own constructor (the
// splitter the specification makes is then a RegExp too) goes through splitLong.
func (g *regexpGuard) split(rt *goja.Runtime) func(gojainternal.CallFunc, goja.FunctionCall) goja.Value {
	return func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		rx, _ := call.This.(*goja.Object)
		if rx == nil {
			return fencedSplit(rt, orig, call)
		}
		s := longString(rt, call)
		if s == nil || g.exec == nil {
			return fencedSplit(rt, orig, call)
		}
		if std, _ := gojainternal.RegExpStandard(rx); !std || rx.Prototype() != g.proto ||
			g.proto.Get("exec") != goja.Value(g.exec) || rx.Get("constructor") != goja.Value(g.ctor) ||
			g.ctor.GetSymbol(goja.SymSpecies) != goja.Value(g.ctor) {
			return fencedSplit(rt, orig, call) // the specification's path, each exec call polled
		}
		return g.splitLong(rt, rx, s, call.Argument(1))
	}
}

// fencedSplit is goja's RegExp.prototype[Symbol.split]. goja calls the splitter's exec without looking whether it is
// callable, where the specification would use the builtin exec: a species constructor making a RegExp whose exec is
// undefined (`class R extends RegExp { constructor(...a) { super(...a); this.exec = undefined } }`,
// `"a,b".split(new R(","))`) was a Go nil dereference, which ended a worker with an internal error. A Go runtime
// error out of goja's split is a TypeError here (the fault is at the call of exec, before anything else ran).
func fencedSplit(rt *goja.Runtime, orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(runtime.Error); ok {
				panic(rt.NewTypeError("RegExp exec method is not callable"))
			}
			panic(p)
		}
	}()
	return orig(call)
}

// splitLong is RegExp.prototype[Symbol.split] (ECMA-262 22.2.6.14) for a standard RegExp. Where the specification
// tries a sticky match at each position q in turn, a global search from q finds the first position at or after q
// where one succeeds, and the same match there: the result is the same, with one exec call per separator instead
// of one per position.
func (g *regexpGuard) splitLong(rt *goja.Runtime, rx *goja.Object, s goja.String, limit goja.Value) goja.Value {
	flags := rx.Get("flags").String()
	unicode := strings.ContainsAny(flags, "uv")
	search := strings.ReplaceAll(flags, "y", "")
	if !strings.Contains(search, "g") {
		search += "g"
	}
	splitter, err := rt.New(g.ctor, rx, rt.ToValue(search))
	if err != nil {
		panic(err)
	}
	lim := uint32(math.MaxUint32)
	if !goja.IsUndefined(limit) {
		lim = toUint32(limit)
	}
	if lim == 0 {
		return rt.NewArray()
	}
	exec, _ := goja.AssertFunction(g.exec)
	prev, prevTaken := g.collecting, g.taken
	g.collecting, g.taken = splitter, 0
	defer func() { g.collecting, g.taken = prev, prevTaken }()
	size := int64(s.Length())
	var pieces []any
	p, q := int64(0), int64(0)
	for q < size {
		if err := splitter.Set("lastIndex", q); err != nil {
			panic(err)
		}
		z, err := exec(splitter, s)
		if err != nil {
			panic(err)
		}
		zo, _ := z.(*goja.Object)
		if zo == nil {
			break
		}
		start := zo.Get("index").ToInteger()
		if start >= size {
			break
		}
		e := min(splitter.Get("lastIndex").ToInteger(), size)
		if e == p { // an empty match where the last piece ended: try from the next position
			q = advanceStringIndex(s, start, unicode)
			continue
		}
		pieces = append(pieces, s.Substring(int(p), int(start)))
		if uint32(len(pieces)) == lim {
			return rt.NewArray(pieces...)
		}
		p = e
		for i := int64(1); i < zo.Get("length").ToInteger(); i++ {
			pieces = append(pieces, zo.Get(strconv.FormatInt(i, 10)))
			if uint32(len(pieces)) == lim {
				return rt.NewArray(pieces...)
			}
		}
		q = p
	}
	pieces = append(pieces, s.Substring(int(p), int(size)))
	return rt.NewArray(pieces...)
}

// advanceStringIndex is the specification's AdvanceStringIndex.
func advanceStringIndex(s goja.String, i int64, unicode bool) int64 {
	if !unicode || i+1 >= int64(s.Length()) {
		return i + 1
	}
	if c := s.CharAt(int(i)); c >= 0xD800 && c <= 0xDBFF {
		if d := s.CharAt(int(i + 1)); d >= 0xDC00 && d <= 0xDFFF {
			return i + 2
		}
	}
	return i + 1
}

// toUint32 is the specification's ToUint32.
func toUint32(v goja.Value) uint32 {
	f := v.ToFloat()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	m := math.Mod(math.Trunc(f), 1<<32)
	if m < 0 {
		m += 1 << 32
	}
	return uint32(m)
}

// guardReplaceAll is String.prototype.replaceAll(pattern, replacement) with a string pattern, which goja finds in
// one Go loop (every position, then the result): over a long string the positions and the result are counted first
// — more than the longest string is a RangeError "Invalid string length", and the rest is measured as made before
// goja makes it (chargeAhead), so that a budget ends the worker before, not after.
func guardReplaceAll(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	s, ok := call.This.(goja.String)
	pat, patOK := call.Argument(0).(goja.String)
	if !ok || !patOK || s.Length() < longRegExpInput {
		return orig(call)
	}
	n := int64(s.Length()) + 1
	if pat.Length() > 0 {
		n = int64(strings.Count(s.String(), pat.String()))
	}
	length := int64(s.Length())
	if rep, ok := call.Argument(1).(goja.String); ok && !strings.Contains(rep.String(), "$") {
		length += n * int64(rep.Length()-pat.Length())
		if length > maxStringLength {
			panic(rangeError(rt, "Invalid string length"))
		}
	}
	chargeAhead(rt, n*48+2*length) // a position (a slice of two ints) per occurrence, and the result
	return orig(call)
}

// chargeAhead measures the realm now with built bytes counted as made (when it has a measurement and built is
// worth one): the budget ends the worker, or the process's cap its largest contributor, before the call makes them.
func chargeAhead(rt *goja.Runtime, built int64) {
	if built < 1<<20 {
		return
	}
	cp, _ := checkpointKey.Get(rt)
	if cp == nil || cp.Run == nil || (cp.Limited != nil && !cp.Limited()) {
		return // (no limit could act: no measurement, whose graph walk would be paid on every such call)
	}
	cp.Building += built
	cp.Want.Store(true)
	cp.Run()
	cp.Building -= built
	gojainternal.EndIfInterrupted(rt)
}
