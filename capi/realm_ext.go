package capi

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/dop251/goja"
)

// extState is the part of a context that the class, typed-array, promise and BigInt functions use: the realm's
// intrinsics they need, the class prototypes made in the realm, the objects made with a class and the external
// (NoCopy) buffers, with the queue through which the garbage collector reports their death.
type extState struct {
	in     extIntrinsics
	depth  int                       // host callbacks running now: finalizers wait while it is above 0
	protos map[*jsClass]*goja.Object // the realm's prototype of each class used in it
	// objects maps every live object made with a class to its record; the key does not keep the object alive.
	objects map[weak.Pointer[goja.Object]]*instance
	buffers map[*extBuffer]struct{}                  // NoCopy buffers whose deallocator has not run
	extObjs map[weak.Pointer[goja.Object]]*extBuffer // the same, by their ArrayBuffer
	dead    *deathQueue
	global  *instance // the global object's record when the context was made with a class
}

// extIntrinsics are the realm's own functions the extension exports use, captured with the others when the context
// is made (context.go, capture) so that a script replacing a global cannot change what the C API does.
type extIntrinsics struct {
	taCtors                                     [13]*goja.Object // by JSTypedArrayType; nil for ArrayBuffer, None
	taBuffer, taLength, taByteLength, taByteOff goja.Callable    // %TypedArray%.prototype getters
	taTag                                       goja.Callable    // get %TypedArray%.prototype[Symbol.toStringTag]
	dateCtor, regexpCtor                        *goja.Object
	deferred, symbol, bigInt, toInt64           goja.Callable
	getProto, setProto, ownKeys, getOwnProperty goja.Callable
	rGet, rSet, rHas, rDel                      goja.Callable // Reflect.get, set, has, deleteProperty
	objectProto                                 *goja.Object
	toPrimitive, toStringTag, hasInstance       *goja.Symbol
	defineAccessor, ordinaryToPrimitive         goja.Callable
}

// extSource returns the intrinsics extIntrinsics holds, from a fresh realm's global object. It is sloppy code run
// once per context.
const extSource = `(function (g) {
	var O = g.Object, R = g.Reflect, TA = O.getPrototypeOf(g.Uint8Array.prototype);
	var getter = function (o, k) { return O.getOwnPropertyDescriptor(o, k).get; };
	var P = g.Promise, B = g.BigInt;
	return {
		ctors: [g.Int8Array, g.Int16Array, g.Int32Array, g.Uint8Array, g.Uint8ClampedArray, g.Uint16Array,
			g.Uint32Array, g.Float32Array, g.Float64Array, null, null, g.BigInt64Array, g.BigUint64Array],
		buffer: getter(TA, 'buffer'), length: getter(TA, 'length'), byteLength: getter(TA, 'byteLength'),
		byteOffset: getter(TA, 'byteOffset'), tag: getter(TA, g.Symbol.toStringTag),
		date: g.Date, regexp: g.RegExp,
		deferred: function () {
			var res, rej, p = new P(function (a, b) { res = a; rej = b; });
			return [p, res, rej];
		},
		symbol: function (d) { return d === undefined ? g.Symbol() : g.Symbol(d); },
		bigInt: function (x) { return B(x); },
		toInt64: function (x, unsigned) {
			var n = -(-x); // ToNumeric, once
			if (typeof n !== 'bigint') {
				n = (n === n && n !== Infinity && n !== -Infinity) ? B(g.Math.trunc(n)) : B(0);
			}
			return unsigned ? B.asUintN(64, n) : B.asIntN(64, n);
		},
		getProto: O.getPrototypeOf, setProto: R.setPrototypeOf, ownKeys: R.ownKeys,
		rGet: R.get, rSet: R.set, rHas: R.has, rDel: R.deleteProperty,
		getOwnProperty: O.getOwnPropertyDescriptor,
		objectProto: O.prototype,
		toPrimitive: g.Symbol.toPrimitive, toStringTag: g.Symbol.toStringTag, hasInstance: g.Symbol.hasInstance,
		defineAccessor: function (o, k, get, set, e, c) {
			O.defineProperty(o, k, {get: get, set: set, enumerable: e, configurable: c});
		},
		ordinaryToPrimitive: function (o, hint) {
			var order = hint === 'string' ? ['toString', 'valueOf'] : ['valueOf', 'toString'];
			for (var i = 0; i < 2; i++) {
				var f = o[order[i]];
				if (typeof f === 'function') {
					var r = R.apply(f, o, []);
					if (r === null || (typeof r !== 'object' && typeof r !== 'function')) return r;
				}
			}
			throw new g.TypeError('Cannot convert object to primitive value');
		}
	};
})`

var extProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("jsworker-capi-ext.js", extSource, false)
})

// captureExt fills c.x from the fresh realm; newContext calls it after capture.
func (c *context) captureExt() error {
	factory, err := c.rt.RunProgram(extProgram())
	if err != nil {
		return err
	}
	f, _ := goja.AssertFunction(factory)
	v, err := f(goja.Undefined(), c.in.global)
	if err != nil {
		return err
	}
	o := v.(*goja.Object)
	fn := func(k string) goja.Callable { f, _ := goja.AssertFunction(o.Get(k)); return f }
	obj := func(k string) *goja.Object { r, _ := o.Get(k).(*goja.Object); return r }
	sym := func(k string) *goja.Symbol { s, _ := o.Get(k).(*goja.Symbol); return s }
	in := &c.x.in
	ctors := obj("ctors")
	for i := range in.taCtors {
		in.taCtors[i], _ = ctors.Get(strconv.Itoa(i)).(*goja.Object)
	}
	in.taBuffer, in.taLength, in.taByteLength = fn("buffer"), fn("length"), fn("byteLength")
	in.taByteOff, in.taTag = fn("byteOffset"), fn("tag")
	in.dateCtor, in.regexpCtor = obj("date"), obj("regexp")
	in.deferred, in.symbol, in.bigInt = fn("deferred"), fn("symbol"), fn("bigInt")
	in.toInt64 = fn("toInt64")
	in.getProto, in.setProto, in.ownKeys, in.getOwnProperty = fn("getProto"), fn("setProto"), fn("ownKeys"),
		fn("getOwnProperty")
	in.rGet, in.rSet, in.rHas, in.rDel = fn("rGet"), fn("rSet"), fn("rHas"), fn("rDel")
	in.objectProto = obj("objectProto")
	in.toPrimitive, in.toStringTag, in.hasInstance = sym("toPrimitive"), sym("toStringTag"), sym("hasInstance")
	in.defineAccessor, in.ordinaryToPrimitive = fn("defineAccessor"), fn("ordinaryToPrimitive")
	c.x.protos = make(map[*jsClass]*goja.Object)
	c.x.objects = make(map[weak.Pointer[goja.Object]]*instance)
	c.x.buffers = make(map[*extBuffer]struct{})
	c.x.extObjs = make(map[weak.Pointer[goja.Object]]*extBuffer)
	c.x.dead = &deathQueue{}
	return nil
}

// A deathQueue receives, from the runtime's cleanup goroutine, the records of objects and buffers the garbage
// collector found unreachable. It holds no reference to the context, its runtime or any JavaScript object, so that
// a pending cleanup never keeps a realm alive.
type deathQueue struct {
	mu      sync.Mutex
	items   []finalizable
	pending atomic.Bool
}

// A finalizable is an instance or an external buffer: something whose host callback must run exactly once.
type finalizable interface {
	// finalize runs the host callback if it has not run yet, on the owner thread of c.
	finalize(c *context)
	// queue is where the garbage collector's cleanup reports it.
	queue() *deathQueue
}

// push queues f; it runs on the runtime's cleanup goroutine.
func (q *deathQueue) push(f finalizable) {
	q.mu.Lock()
	q.items = append(q.items, f)
	q.pending.Store(true)
	q.mu.Unlock()
}

// take empties the queue, on the owner thread.
func (q *deathQueue) take() []finalizable {
	q.mu.Lock()
	items := q.items
	q.items = nil
	q.pending.Store(false)
	q.mu.Unlock()
	return items
}

// watch arranges for f to be queued when o becomes unreachable. The cleanup captures only the queue.
func (c *context) watch(o *goja.Object, f finalizable) runtime.Cleanup {
	return runtime.AddCleanup(o, func(f finalizable) { f.queue().push(f) }, f)
}

// runDeaths runs the finalizers and deallocators of what the collector reported, at a safe point: on the owner
// thread, inside an API call on c that no host callback is running under (enter), or in JSGarbageCollect.
func (c *context) runDeaths() {
	if c.x.dead == nil || !c.x.dead.pending.Load() || c.x.depth > 0 {
		return
	}
	c.x.depth++
	defer func() { c.x.depth-- }()
	for _, f := range c.x.dead.take() {
		f.finalize(c)
	}
}

// finalizeAll runs every finalizer and deallocator not run yet: the context is being destroyed (the last
// JSGlobalContextRelease), no JavaScript runs in it any more.
func (c *context) finalizeAll() {
	if c.x.dead == nil {
		return
	}
	c.x.depth++
	defer func() { c.x.depth-- }()
	c.x.dead.take()
	if c.x.global != nil {
		c.x.global.finalize(c)
	}
	for _, inst := range c.x.objects {
		inst.finalize(c)
	}
	for b := range c.x.buffers {
		b.finalize(c)
	}
	clear(c.x.objects)
	clear(c.x.buffers)
	clear(c.x.extObjs)
	clear(c.x.protos)
}
