package console

import (
	"math/big"
	"reflect"
	"sync"

	"github.com/dop251/goja"
)

// A probe reads a realm's objects the way util.inspect does, through the
// realm's own intrinsics captured when the probe was made (so a later
// Object.getOwnPropertyDescriptor = ... does not change what is printed),
// never through a user getter, and never through a proxy trap: the
// inspector formats a proxy's target, read directly.
type probe struct {
	rt *goja.Runtime

	desc, keys      goja.Callable // desc(o, k), keys(o, all)
	extraKeys       goja.Callable // extraKeys(o, all): an array's own keys that are not indices
	tag             goja.Callable // tag(o): o[Symbol.toStringTag] if a string (a getter runs, as in Node), else ""
	brand           goja.Callable // brand(kind, o): o really is that kind of object
	mapEntries      goja.Callable // mapEntries(m, max): [k0, v0, k1, v1, ...]
	setValues       goja.Callable // setValues(s, max): [v0, v1, ...]
	info            goja.Callable // info(kind, o): kind-specific facts (see probeSrc)
	stringify       goja.Callable // stringify(v): [JSON text] or "[Circular]" or the error thrown
	parseInt        goja.Callable
	parseFloat      goja.Callable
	builtinToString goja.Callable // builtinToString(o): o's toString is a built-in's (Node's hasBuiltInToString)

	objectProto *goja.Object
	custom      goja.Value              // Symbol.for("nodejs.util.inspect.custom")
	special     map[*goja.Object]string // intrinsic prototype → the kind its instances are
}

var probeProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("jsworker:inspect", probeSrc, true)
})

// probeSrc captures the intrinsics the inspector needs. Each function is
// called only with objects that are not proxies, and calls nothing a
// script could have replaced since (no method lookups on built-in
// prototypes at call time: apply of captured functions only).
const probeSrc = `(function () {
	"use strict";
	const R = Reflect, gopd = R.getOwnPropertyDescriptor, ownKeys = R.ownKeys, apply = R.apply, getProto = R.getPrototypeOf;
	const getter = (o, k) => gopd(o, k).get;
	const TA = getProto(Uint8Array.prototype);
	const taTag = getter(TA, Symbol.toStringTag), taLen = getter(TA, "length");
	const taByteLen = getter(TA, "byteLength"), taOff = getter(TA, "byteOffset"), taBuf = getter(TA, "buffer");
	const bpe = new Map([Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
		Float32Array, Float64Array, BigInt64Array, BigUint64Array].map((C) => [C.name, C.BYTES_PER_ELEMENT]));
	const mapGet = Map.prototype.get, setHas = Set.prototype.has;
	const mapSize = getter(Map.prototype, "size"), setSize = getter(Set.prototype, "size");
	const mapIter = Map.prototype.entries, setIter = Set.prototype.values;
	const mapNext = getProto(new Map().entries()).next, setNext = getProto(new Set().values()).next;
	const wmHas = WeakMap.prototype.has, wsHas = WeakSet.prototype.has;
	const dvLen = getter(DataView.prototype, "byteLength"), dvOff = getter(DataView.prototype, "byteOffset"), dvBuf = getter(DataView.prototype, "buffer");
	const abLen = getter(ArrayBuffer.prototype, "byteLength");
	const SAB = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer.prototype : null;
	const sabLen = SAB && gopd(SAB, "byteLength") ? gopd(SAB, "byteLength").get : null;
	const reSource = getter(RegExp.prototype, "source"), reFlags = getter(RegExp.prototype, "flags");
	const dateTime = Date.prototype.getTime, dateISO = Date.prototype.toISOString;
	const fnString = Function.prototype.toString;
	const valueOf = { Number: Number.prototype.valueOf, String: String.prototype.valueOf, Boolean: Boolean.prototype.valueOf,
		Symbol: Symbol.prototype.valueOf, BigInt: BigInt.prototype.valueOf };
	const asyncFn = getProto(async function () {}), genFn = getProto(function* () {});
	const JSONStringify = JSON.stringify, NumberParseInt = parseInt, NumberParseFloat = parseFloat;
	const builtins = new Set(R.ownKeys(globalThis).filter((k) => typeof k === "string" && /^[A-Z][a-zA-Z0-9]+$/.test(k) &&
		typeof gopd(globalThis, k).value === "function"));
	const isIndex = (k) => {
		const n = k.length;
		if (n === 0 || n > 10) return false;
		for (let i = 0; i < n; i++) {
			const c = k.charCodeAt(i);
			if (c < 48 || c > 57 || (i === 0 && c === 48 && n > 1)) return false;
		}
		return +k < 4294967295;
	};
	const brands = {
		WeakMap: (o) => { apply(wmHas, o, [{}]); },
		WeakSet: (o) => { apply(wsHas, o, [{}]); },
		DataView: (o) => { apply(dvLen, o, []); },
		SharedArrayBuffer: (o) => { apply(abLen, o, []); },
	};
	return {
		protos: [WeakMap.prototype, "WeakMap", WeakSet.prototype, "WeakSet", DataView.prototype, "DataView",
			asyncFn, "AsyncFunction", genFn, "GeneratorFunction"].concat(SAB ? [SAB, "SharedArrayBuffer"] : []),
		objectProto: Object.prototype,
		custom: Symbol.for("nodejs.util.inspect.custom"),
		stringify(v) {
			try { return [JSONStringify(v)]; } catch (e) {
				let circular = false;
				try { const a = {}; a.a = a; JSONStringify(a); } catch (c) { circular = e instanceof TypeError && String(e.message) === String(c.message); }
				return circular ? "[Circular]" : e;
			}
		},
		parseInt: NumberParseInt, parseFloat: NumberParseFloat,
		builtinToString(o) {
			if (typeof o.toString !== "function") return true;
			if (gopd(o, "toString") !== undefined) return false;
			let p = o;
			do { p = getProto(p); } while (p !== null && gopd(p, "toString") === undefined);
			if (p === null) return true;
			const d = gopd(p, "constructor");
			return d !== undefined && typeof d.value === "function" && apply(setHas, builtins, [d.value.name]);
		},
		desc: gopd,
		keys(o, all) {
			const ks = ownKeys(o);
			if (all) return ks;
			const out = [];
			for (let i = 0; i < ks.length; i++) {
				const d = gopd(o, ks[i]);
				if (d !== undefined && d.enumerable) out[out.length] = ks[i];
			}
			return out;
		},
		tag(o) {
			for (let p = o; p !== null; p = getProto(p)) {
				const d = gopd(p, Symbol.toStringTag);
				if (d === undefined) continue;
				const t = d.get !== undefined ? apply(d.get, o, []) : d.value;
				return typeof t === "string" ? t : "";
			}
			return "";
		},
		extraKeys(o, all) {
			// An array's or typed array's own keys list its indices first,
			// in ascending order: the other keys are found from the end.
			const ks = ownKeys(o), out = [];
			let i = ks.length - 1;
			for (; i >= 0; i--) {
				const k = ks[i];
				if (typeof k === "string" && isIndex(k)) break;
			}
			for (i++; i < ks.length; i++) {
				if (all) { out[out.length] = ks[i]; continue; }
				const d = gopd(o, ks[i]);
				if (d !== undefined && d.enumerable) out[out.length] = ks[i];
			}
			return out;
		},
		brand(kind, o) {
			const b = brands[kind];
			if (b === undefined) return true;
			try { b(o); return true; } catch (e) { return false; }
		},
		mapEntries(m, max) {
			const it = apply(mapIter, m, []), out = [];
			for (let i = 0; i < max; i++) {
				const r = apply(mapNext, it, []);
				if (r.done) break;
				out[out.length] = r.value[0];
				out[out.length] = r.value[1];
			}
			return out;
		},
		setValues(s, max) {
			const it = apply(setIter, s, []), out = [];
			for (let i = 0; i < max; i++) {
				const r = apply(setNext, it, []);
				if (r.done) break;
				out[out.length] = r.value;
			}
			return out;
		},
		info(kind, o) {
			switch (kind) {
			case "Map": return apply(mapSize, o, []);
			case "Set": return apply(setSize, o, []);
			case "TypedArray": return [apply(taTag, o, []), apply(taLen, o, []), apply(mapGet, bpe, [apply(taTag, o, [])]),
				apply(taLen, o, []), apply(taByteLen, o, []), apply(taOff, o, []), apply(taBuf, o, [])];
			case "DataView": return [apply(dvLen, o, []), apply(dvOff, o, []), apply(dvBuf, o, [])];
			case "ArrayBuffer": return apply(abLen, o, []);
			case "SharedArrayBuffer": return sabLen ? apply(sabLen, o, []) : apply(abLen, o, []);
			case "RegExp": return "/" + apply(reSource, o, []) + "/" + apply(reFlags, o, []);
			case "Date": { const t = apply(dateTime, o, []); return t !== t ? "Invalid Date" : apply(dateISO, o, []); }
			case "Function": return apply(fnString, o, []);
			default: return apply(valueOf[kind], o, []);
			}
		},
	};
})`

// newProbe captures rt's intrinsics. It runs on rt's goroutine.
func newProbe(rt *goja.Runtime) (*probe, error) {
	f, err := rt.RunProgram(probeProgram())
	if err != nil {
		return nil, err
	}
	mk, _ := goja.AssertFunction(f)
	v, err := mk(goja.Undefined())
	if err != nil {
		return nil, err
	}
	o := v.ToObject(rt)
	fn := func(name string) goja.Callable {
		c, _ := goja.AssertFunction(o.Get(name))
		return c
	}
	p := &probe{rt: rt, desc: fn("desc"), tag: fn("tag"), keys: fn("keys"), extraKeys: fn("extraKeys"), brand: fn("brand"),
		mapEntries: fn("mapEntries"), setValues: fn("setValues"), info: fn("info"),
		stringify: fn("stringify"), parseInt: fn("parseInt"), parseFloat: fn("parseFloat"), builtinToString: fn("builtinToString"),
		objectProto: o.Get("objectProto").(*goja.Object), custom: o.Get("custom"), special: map[*goja.Object]string{}}
	protos := o.Get("protos").(*goja.Object)
	for i, n := 0, int(protos.Get("length").ToInteger()); i+1 < n; i += 2 {
		p.special[protos.Get(itoa(i)).(*goja.Object)] = protos.Get(itoa(i + 1)).String()
	}
	return p, nil
}

// Go types goja exports its built-in objects as: the kinds an object's
// ExportType tells without running anything.
var (
	typeProxy       = reflect.TypeOf(goja.Proxy{})
	typePromise     = reflect.TypeOf((*goja.Promise)(nil))
	typeArrayBuffer = reflect.TypeOf(goja.ArrayBuffer{})
	typeBigInt      = reflect.TypeOf((*big.Int)(nil))
	typeMap         = reflect.TypeOf([][2]interface{}{})
	typeSlice       = reflect.TypeOf([]interface{}{})
	typeString      = reflect.TypeOf("")
	typedArrayTypes = map[reflect.Type]bool{
		reflect.TypeOf([]uint8{}): true, reflect.TypeOf([]int8{}): true, reflect.TypeOf([]uint16{}): true,
		reflect.TypeOf([]int16{}): true, reflect.TypeOf([]uint32{}): true, reflect.TypeOf([]int32{}): true,
		reflect.TypeOf([]float32{}): true, reflect.TypeOf([]float64{}): true, reflect.TypeOf([]int64{}): true,
		reflect.TypeOf([]uint64{}): true,
	}
)

// isProxy reports whether o is a proxy, and its target (nil when revoked).
func isProxy(o *goja.Object) (target *goja.Object, ok bool) {
	if o.ExportType() != typeProxy {
		return nil, false
	}
	px, _ := o.Export().(goja.Proxy)
	return px.Target(), true
}

// kindOf classifies o (not a proxy) by the built-in object it is: "Array",
// "Function", "Error", "Date", "RegExp", "Map", "Set", "WeakMap",
// "WeakSet", "Promise", "TypedArray", "ArrayBuffer", "SharedArrayBuffer",
// "DataView", "Number", "String", "Boolean", "Symbol", "BigInt",
// "Arguments", or "" for an ordinary object.
func (p *probe) kindOf(o *goja.Object) string {
	switch o.ClassName() {
	case "Array":
		return "Array"
	case "Function":
		return "Function"
	case "Error":
		return "Error"
	case "Date":
		return "Date"
	case "RegExp":
		return "RegExp"
	case "Number", "String", "Boolean", "Arguments":
		return o.ClassName()
	}
	t := o.ExportType()
	switch {
	case t == typePromise:
		return "Promise"
	case t == typeMap:
		return "Map"
	case t == typeSlice:
		return "Set"
	case t == typeBigInt:
		return "BigInt"
	case t == typeString:
		return "Symbol"
	case typedArrayTypes[t]:
		return "TypedArray"
	case t == typeArrayBuffer:
		if k := p.specialKind(o); k == "SharedArrayBuffer" {
			return k
		}
		return "ArrayBuffer"
	}
	switch k := p.specialKind(o); k {
	case "WeakMap", "WeakSet", "DataView":
		return k
	}
	return ""
}

// specialKind finds the first intrinsic prototype of interest on o's
// prototype chain and confirms that o is of that kind.
func (p *probe) specialKind(o *goja.Object) string {
	for proto, n := p.protoOf(o), 0; proto != nil && n < 1000; proto, n = p.protoOf(proto), n+1 {
		if k, ok := p.special[proto]; ok {
			v, err := p.brand(goja.Undefined(), p.rt.ToValue(k), o)
			if err == nil && v.ToBoolean() {
				return k
			}
			return ""
		}
	}
	return ""
}

// protoOf is o's prototype, nil at the end of the chain or at a proxy (whose
// getPrototypeOf trap is not run).
func (p *probe) protoOf(o *goja.Object) *goja.Object {
	if _, px := isProxy(o); px {
		return nil
	}
	return o.Prototype()
}
