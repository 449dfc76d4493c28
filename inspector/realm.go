package inspector

import (
	"strconv"
	"sync"

	"github.com/dop251/goja"
)

// realmTools are the realm's own builtins, captured when a session first needs
// them, so that the inspector keeps working when the inspected code later
// replaces JSON.stringify, Reflect.ownKeys, Promise.prototype.then and so on.
// A realm that patched them before the capture can fool the inspector
// (RATIONALE.md, "Inspector"). A nil field is a builtin the realm lacked.
//
// Every function here only reads internal slots of its receiver or its own
// arguments: calling it runs no code of the inspected program, except
// stringify (returnByValue, which is meant to) and then (awaitPromise).
type realmTools struct {
	stringify, parse   goja.Callable
	ownKeys, ownDesc   goja.Callable // Reflect.ownKeys, Object.getOwnPropertyDescriptor
	fnToString         goja.Callable
	dateToString       goja.Callable
	reSource           goja.Callable   // RegExp.prototype.source getter
	reFlags            []regexpFlag    // the individual flag getters, in "dgimsuvy" order
	mapSize, setSize   goja.Callable   // size getters
	mapEach, setEach   goja.Callable   // forEach
	taTag, taLength    goja.Callable   // %TypedArray%.prototype[@@toStringTag] and length getters
	abLength, dvLength goja.Callable   // ArrayBuffer and DataView byteLength getters
	then               goja.Callable   // Promise.prototype.then
	valueOf            []goja.Callable // Number, String, Boolean, BigInt, Symbol .prototype.valueOf
	objectProto        *goja.Object    // Object.prototype
	hasOwn             goja.Callable   // Object.prototype.hasOwnProperty
}

type regexpFlag struct {
	flag   byte
	getter goja.Callable
}

// captureSrc returns the builtins in a fresh object. Each lookup is guarded so
// that a realm missing one builtin still yields the others.
var captureSrc = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("inspector-capture.js", `(function () {
	var gopd = Object.getOwnPropertyDescriptor, gpo = Object.getPrototypeOf;
	function pick(f) { try { return f(); } catch (e) { return undefined; } }
	function getter(o, k) { return pick(function () { var d = gopd(o, k); return d && d.get; }); }
	var TA = pick(function () { return gpo(Int8Array.prototype); });
	var RP = pick(function () { return RegExp.prototype; });
	return {
		stringify: pick(function () { return JSON.stringify; }),
		parse: pick(function () { return JSON.parse; }),
		ownKeys: pick(function () { return Reflect.ownKeys; }),
		ownDesc: gopd,
		fnToString: pick(function () { return Function.prototype.toString; }),
		dateToString: pick(function () { return Date.prototype.toString; }),
		reSource: getter(RP, "source"),
		reFlags: [["d", getter(RP, "hasIndices")], ["g", getter(RP, "global")], ["i", getter(RP, "ignoreCase")],
			["m", getter(RP, "multiline")], ["s", getter(RP, "dotAll")], ["u", getter(RP, "unicode")],
			["v", getter(RP, "unicodeSets")], ["y", getter(RP, "sticky")]],
		mapSize: getter(pick(function () { return Map.prototype; }), "size"),
		setSize: getter(pick(function () { return Set.prototype; }), "size"),
		mapEach: pick(function () { return Map.prototype.forEach; }),
		setEach: pick(function () { return Set.prototype.forEach; }),
		taTag: getter(TA, Symbol.toStringTag),
		taLength: getter(TA, "length"),
		abLength: getter(pick(function () { return ArrayBuffer.prototype; }), "byteLength"),
		dvLength: getter(pick(function () { return DataView.prototype; }), "byteLength"),
		then: pick(function () { return Promise.prototype.then; }),
		objectProto: Object.prototype,
		hasOwn: Object.prototype.hasOwnProperty,
		valueOf: [pick(function () { return Number.prototype.valueOf; }),
			pick(function () { return String.prototype.valueOf; }),
			pick(function () { return Boolean.prototype.valueOf; }),
			pick(function () { return BigInt.prototype.valueOf; }),
			pick(function () { return Symbol.prototype.valueOf; })]
	};
})()`, true)
})

// capture runs captureSrc in rt. The result object and its arrays are fresh
// and have every field as an own data property, so reading them runs no code.
func capture(rt *goja.Runtime) (*realmTools, error) {
	v, err := rt.RunProgram(captureSrc())
	if err != nil {
		return nil, err
	}
	o := v.(*goja.Object)
	fn := func(name string) goja.Callable {
		f, _ := goja.AssertFunction(o.Get(name))
		return f
	}
	t := &realmTools{
		stringify: fn("stringify"), parse: fn("parse"),
		ownKeys: fn("ownKeys"), ownDesc: fn("ownDesc"),
		fnToString: fn("fnToString"), dateToString: fn("dateToString"),
		reSource: fn("reSource"),
		mapSize:  fn("mapSize"), setSize: fn("setSize"),
		mapEach: fn("mapEach"), setEach: fn("setEach"),
		taTag: fn("taTag"), taLength: fn("taLength"),
		abLength: fn("abLength"), dvLength: fn("dvLength"),
		then: fn("then"), hasOwn: fn("hasOwn"),
	}
	t.objectProto, _ = o.Get("objectProto").(*goja.Object)
	flags := o.Get("reFlags").(*goja.Object)
	for i := 0; i < 8; i++ {
		pair := flags.Get(strconv.Itoa(i)).(*goja.Object)
		if g, ok := goja.AssertFunction(pair.Get("1")); ok {
			t.reFlags = append(t.reFlags, regexpFlag{flag: pair.Get("0").String()[0], getter: g})
		}
	}
	vo := o.Get("valueOf").(*goja.Object)
	for i := 0; i < 5; i++ {
		if g, ok := goja.AssertFunction(vo.Get(strconv.Itoa(i))); ok {
			t.valueOf = append(t.valueOf, g)
		}
	}
	return t, nil
}

// The tools of a realm are shared by the sessions attached to it at the same
// time: captured by the first that needs them, dropped with the last.
var tools struct {
	mu sync.Mutex
	m  map[*goja.Runtime]*toolsEntry
}

type toolsEntry struct {
	t    *realmTools
	refs int
}

// acquireTools returns rt's tools, capturing them if no session holds them.
// Called on rt's thread.
func acquireTools(rt *goja.Runtime) (*realmTools, error) {
	tools.mu.Lock()
	if e := tools.m[rt]; e != nil {
		e.refs++
		tools.mu.Unlock()
		return e.t, nil
	}
	tools.mu.Unlock()
	// Capture outside the lock: it runs JavaScript. Only rt's thread captures
	// for rt, so no other capture for rt can race with this one.
	t, err := capture(rt)
	if err != nil {
		return nil, err
	}
	tools.mu.Lock()
	defer tools.mu.Unlock()
	if tools.m == nil {
		tools.m = make(map[*goja.Runtime]*toolsEntry)
	}
	if e := tools.m[rt]; e != nil { // a nested capture (sync target) got there first
		e.refs++
		return e.t, nil
	}
	tools.m[rt] = &toolsEntry{t: t, refs: 1}
	return t, nil
}

// releaseTools drops one reference to rt's tools. Any goroutine.
func releaseTools(rt *goja.Runtime) {
	tools.mu.Lock()
	defer tools.mu.Unlock()
	if e := tools.m[rt]; e != nil {
		if e.refs--; e.refs == 0 {
			delete(tools.m, rt)
		}
	}
}

// toolsHeld reports how many realms have captured tools (for leak checks).
func toolsHeld() int {
	tools.mu.Lock()
	defer tools.mu.Unlock()
	return len(tools.m)
}
