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
	describe        goja.Callable // describe(o, all, wantKeys): see probeSrc
	begin           goja.Callable // begin(): a new inspection
	numeric         goja.Callable // numeric(o, from, n): items from to n-1 are numbers
	descs           goja.Callable // descs(o, keys): own descriptors, flat
	items           goja.Callable // items(o, max): an array's dense start, flat
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
const probeSrc = `(function (isProxy) {
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
	const customSym = Symbol.for("nodejs.util.inspect.custom");
	// dataOf is o[k] if a data property on the chain (up to a proxy), else undefined.
	const dataOf = (o, k) => {
		for (let p = o, n = 0; p !== null && n < 1000 && !isProxy(p); n++) {
			const d = gopd(p, k);
			if (d !== undefined) return d.get === undefined && d.set === undefined ? d.value : undefined;
			p = getProto(p);
		}
		return undefined;
	};
	// protoInfo(p) is, for an object whose prototype is p and that has no
	// own constructor, tag or custom inspect property: the constructor name
	// Node's getConstructorName finds from p up (undefined if none), the
	// Symbol.toStringTag descriptor and the custom inspect function there.
	const protoCache = new Map(), mapSet = Map.prototype.set, mapClear = Map.prototype.clear;
	const protoInfo = (p) => {
		let info = apply(mapGet, protoCache, [p]);
		if (info !== undefined) return info;
		info = { ctor: undefined, tag: undefined, custom: undefined };
		let ctorDone = false, tagDone = false, customDone = false;
		for (let q = p, n = 0; q !== null && n < 1000 && !isProxy(q); n++) {
			if (!ctorDone) {
				const d = gopd(q, "constructor");
				if (d !== undefined && typeof d.value === "function") {
					const nd = nameOf(d.value);
					if (nd !== "" && instanceOfChain(p, d.value)) { info.ctor = nd; ctorDone = true; }
				}
			}
			if (!tagDone) {
				const d = gopd(q, Symbol.toStringTag);
				if (d !== undefined) { info.tag = d; tagDone = true; }
			}
			if (!customDone) {
				const d = gopd(q, customSym);
				if (d !== undefined) { info.custom = typeof d.value === "function" ? d.value : undefined; customDone = true; }
			}
			if (ctorDone && tagDone && customDone) break;
			q = getProto(q);
		}
		apply(mapSet, protoCache, [p, info]);
		return info;
	};
	// instanceOfChain reports whether fn.prototype is p or on p's chain:
	// whether an object whose prototype is p is an instance of fn.
	const instanceOfChain = (p, fn) => {
		if (isProxy(fn)) return false;
		const pd = gopd(fn, "prototype");
		if (pd === undefined || pd.value === null || (typeof pd.value !== "object" && typeof pd.value !== "function")) return false;
		for (let q = p, n = 0; q !== null && n < 1000; n++) {
			if (q === pd.value) return true;
			q = isProxy(q) ? null : getProto(q);
		}
		return false;
	};
	const nameOf = (fn) => { const n = dataOf(fn, "name"); return n === undefined || n === null ? "" : String(n); };
	const instanceOf = (o, fn) => {
		if (isProxy(fn)) return false;
		const pd = gopd(fn, "prototype");
		if (pd === undefined || pd.value === null || (typeof pd.value !== "object" && typeof pd.value !== "function")) return false;
		for (let p = isProxy(o) ? null : getProto(o), n = 0; p !== null && n < 1000; n++) {
			if (p === pd.value) return true;
			p = isProxy(p) ? null : getProto(p);
		}
		return false;
	};
	const keysOf = (o, all) => {
		const ks = ownKeys(o);
		if (all) return ks;
		const out = [];
		for (let i = 0; i < ks.length; i++) {
			const d = gopd(o, ks[i]);
			if (d !== undefined && d.enumerable) out[out.length] = ks[i];
		}
		return out;
	};
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
			if (typeof dataOf(o, "toString") !== "function") return true; // Node reads o.toString; a getter or a proxy is not run
			if (gopd(o, "toString") !== undefined) return false;
			let p = o;
			do { p = getProto(p); } while (p !== null && !isProxy(p) && gopd(p, "toString") === undefined);
			if (p === null || isProxy(p)) return true;
			const d = gopd(p, "constructor");
			return d !== undefined && typeof d.value === "function" && apply(setHas, builtins, [d.value.name]);
		},
		desc: gopd,
		keys: keysOf,
		// begin starts an inspection: what describe learnt of prototypes is
		// forgotten (a script may change them between inspections).
		begin() { apply(mapClear, protoCache, []); },
		// describe(o, all, wantKeys) is what formatRaw needs of o in one call:
		// [constructor name (null: null prototype; undefined: no constructor
		// on a chain that does not end at once, see constructorName), tag,
		// tag is an own listed key, custom inspect function or undefined,
		// and if wantKeys the keys with their descriptors, flat: [key, state,
		// value, get, set] per key as in descs]. The prototype chain is
		// walked up to a proxy; what is found from o's prototype up is kept
		// for the rest of the inspection.
		describe(o, all, wantKeys) {
			let ctor;
			const own = gopd(o, "constructor");
			if (own !== undefined && typeof own.value === "function") {
				const n = nameOf(own.value);
				if (n !== "" && instanceOf(o, own.value)) ctor = n;
			}
			const proto = isProxy(o) ? null : getProto(o);
			const pi = proto === null ? null : protoInfo(proto);
			if (ctor === undefined) {
				if (proto === null) ctor = null;
				else if (pi.ctor !== undefined) ctor = pi.ctor;
			}
			let tag = "", tagListed = false;
			let td = gopd(o, Symbol.toStringTag);
			if (td !== undefined) {
				tagListed = all || td.enumerable;
			} else if (pi !== null) {
				td = pi.tag;
			}
			if (td !== undefined) {
				const t = td.get !== undefined ? apply(td.get, o, []) : td.value;
				if (typeof t === "string") tag = t;
			}
			if (tag === "") tagListed = false;
			let custom;
			const cd = gopd(o, customSym);
			if (cd !== undefined) custom = typeof cd.value === "function" ? cd.value : undefined;
			else if (pi !== null) custom = pi.custom;
			if (custom !== undefined) {
				const c = dataOf(o, "constructor");
				if ((typeof c === "function" || (typeof c === "object" && c !== null)) && !isProxy(c)) {
					const pd = gopd(c, "prototype");
					if (pd !== undefined && pd.value === o) custom = undefined;
				}
			}
			let keys;
			if (wantKeys) {
				const ks = ownKeys(o);
				keys = [];
				for (let i = 0; i < ks.length; i++) {
					const d = gopd(o, ks[i]);
					if (d === undefined || (!all && !d.enumerable)) continue;
					keys[keys.length] = ks[i];
					keys[keys.length] = d.enumerable ? 2 : 1;
					keys[keys.length] = d.value; keys[keys.length] = d.get; keys[keys.length] = d.set;
				}
			}
			return [ctor, tag, tagListed, custom, keys];
		},
		// descs(o, keys) is the own descriptors of keys, flat:
		// [state, value, get, set] per key, state 0 missing, 1 own, 2 own
		// and enumerable.
		descs(o, ks) {
			const out = [];
			for (let i = 0; i < ks.length; i++) {
				const d = gopd(o, ks[i]);
				if (d === undefined) { out[out.length] = 0; out[out.length] = undefined; out[out.length] = undefined; out[out.length] = undefined; continue; }
				out[out.length] = d.enumerable ? 2 : 1;
				out[out.length] = d.value; out[out.length] = d.get; out[out.length] = d.set;
			}
			return out;
		},
		// items(o, max) is the dense start of an array, flat as in descs:
		// own indices 0, 1, ... up to max or the first hole.
		items(o, max) {
			const out = [];
			for (let i = 0; i < max; i++) {
				const d = gopd(o, i);
				if (d === undefined) break;
				out[out.length] = d.enumerable ? 2 : 1;
				out[out.length] = d.value; out[out.length] = d.get; out[out.length] = d.set;
			}
			return out;
		},
		// numeric(o, from, n): o[from] to o[n-1] are all own numbers or BigInts.
		numeric(o, from, n) {
			for (let i = from; i < n; i++) {
				const d = gopd(o, i), v = d === undefined ? undefined : d.value;
				if (typeof v !== "number" && typeof v !== "bigint") return false;
			}
			return true;
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
	isProxyFn := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		o, ok := call.Argument(0).(*goja.Object)
		if !ok {
			return rt.ToValue(false)
		}
		_, px := isProxy(o)
		return rt.ToValue(px)
	})
	v, err := mk(goja.Undefined(), isProxyFn)
	if err != nil {
		return nil, err
	}
	o := v.ToObject(rt)
	fn := func(name string) goja.Callable {
		c, _ := goja.AssertFunction(o.Get(name))
		return c
	}
	p := &probe{rt: rt, desc: fn("desc"), keys: fn("keys"), extraKeys: fn("extraKeys"), describe: fn("describe"), begin: fn("begin"), numeric: fn("numeric"), descs: fn("descs"), items: fn("items"), brand: fn("brand"),
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
