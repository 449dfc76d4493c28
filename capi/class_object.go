package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
	"weak"

	"github.com/dop251/goja"
)

// Objects made with a class. An object of a class without property or call callbacks is an ordinary object whose
// prototype is the class's (class.go); with them it is a goja Proxy whose native traps ask the class chain's callbacks
// first and fall through to an ordinary target object (or function, for callAsFunction/callAsConstructor).
//
// Private data and finalizers: each object has an instance record in c.x.objects, keyed by a weak pointer, so that the
// record never keeps the object alive. A runtime cleanup on the object queues the record when the collector finds
// the object unreachable; the finalize callbacks then run on the owner thread at the next safe point (realm_ext.go),
// or at the latest in the last JSGlobalContextRelease. The record's done flag makes that exactly once.

// An instance is the record of one object made with a class.
type instance struct {
	cls     *jsClass
	priv    uintptr // JSObjectGetPrivate / JSObjectSetPrivate
	done    bool    // owner thread only
	key     weak.Pointer[goja.Object]
	dq      *deathQueue
	cleanup runtime.Cleanup
}

// queue is where the record goes when the collector finds the object unreachable.
func (in *instance) queue() *deathQueue { return in.dq }

// finalize runs the finalize callbacks of the object's class chain, most derived first, with a handle that
// JSObjectGetPrivate and JSObjectSetPrivate accept during the calls.
func (in *instance) finalize(c *context) {
	if in.done {
		return
	}
	in.done = true
	in.cleanup.Stop()
	delete(c.x.objects, in.key)
	var h uintptr
	for _, k := range in.cls.chain() {
		if k.finalize == 0 {
			continue
		}
		if h == 0 {
			h = handles.add(kindFinalizing, c.tid, in)
		}
		C.jsw_call_finalize(c.actor(), C.uintptr_t(k.finalize), C.jsw_handle(h))
	}
	if h != 0 {
		handles.remove(h)
	}
}

// instanceOf returns o's record if o was made with a class in c.
func (c *context) instanceOf(o *goja.Object) *instance {
	if o == nil || len(c.x.objects) == 0 {
		return nil
	}
	return c.x.objects[weak.Make(o)]
}

// makeInstance makes an object of class k with private data priv and runs the initialize callbacks, least derived
// first.
func (c *context) makeInstance(k *jsClass, priv unsafe.Pointer) (*goja.Object, error) {
	proto := c.classProto(k)
	var o *goja.Object
	if k.dynamic || k.callable {
		o = c.proxyInstance(k, proto)
	} else {
		o = c.rt.CreateObject(proto)
	}
	for _, kk := range k.chain() {
		if kk.attrs&classNoAutomaticPrototype != 0 {
			c.defineStatics(o, kk)
		}
	}
	c.register(o, k, uintptr(priv))
	c.initialize(k, o)
	return o, nil
}

// register records o as an object of k.
func (c *context) register(o *goja.Object, k *jsClass, priv uintptr) *instance {
	in := &instance{cls: k, priv: priv, dq: c.x.dead, key: weak.Make(o)}
	c.x.objects[in.key] = in
	in.cleanup = c.watch(o, in)
	return in
}

// initialize runs the initialize callbacks of k's chain on o, least derived first.
func (c *context) initialize(k *jsClass, o *goja.Object) {
	chain := k.chain()
	for i := len(chain) - 1; i >= 0; i-- {
		if fn := chain[i].initialize; fn != 0 {
			c.callback(func(exc *uintptr) {
				C.jsw_call_initialize(c.actor(), C.uintptr_t(fn), C.jsw_handle(c.h), C.jsw_handle(c.newValue(o)))
			})
		}
	}
}

// applyGlobalClass makes the global object of a new context an object of k: its prototype becomes the class's
// (static functions and values, name, hasInstance, convertToType), initialize runs and finalize will run when the
// context is destroyed. The global object stays an ordinary object: k's property and call callbacks do not apply
// to it.
func (c *context) applyGlobalClass(k *jsClass) {
	g := c.in.global
	_ = g.SetPrototype(c.classProto(k))
	for _, kk := range k.chain() {
		if kk.attrs&classNoAutomaticPrototype != 0 {
			c.defineStatics(g, kk)
		}
	}
	c.x.global = &instance{cls: k, dq: c.x.dead}
	c.initialize(k, g)
}

// privateOf returns the record behind an object handle given without a context (JSObjectGetPrivate and
// JSObjectSetPrivate): a value of the calling thread made with a class, or the object a finalizer is finalizing.
func privateOf(object uintptr) *instance {
	e, ok := handles.get(object)
	if !ok || e.tid != gettid() {
		return nil
	}
	switch e.kind {
	case kindFinalizing:
		return e.obj.(*instance)
	case kindValue:
		val := e.obj.(*valueBlock).at(object) // the calling thread owns the block
		if val == nil {
			return nil
		}
		o, isObj := val.v.(*goja.Object)
		if !isObj {
			return nil
		}
		if o == val.c.in.global && val.c.x.global != nil {
			return val.c.x.global
		}
		return val.c.instanceOf(o)
	}
	return nil
}

//export JSObjectGetPrivate
func JSObjectGetPrivate(object uintptr) (result uintptr) {
	defer fence("JSObjectGetPrivate", 0, nil)
	if in := privateOf(object); in != nil {
		return in.priv // host memory, kept as an integer (void * in the header)
	}
	return 0
}

//export JSObjectSetPrivate
func JSObjectSetPrivate(object, data uintptr) (result bool) {
	defer fence("JSObjectSetPrivate", 0, nil)
	if in := privateOf(object); in != nil {
		in.priv = data
		return true
	}
	return false
}

//export JSValueIsObjectOfClass
func JSValueIsObjectOfClass(ctx, value, class uintptr) (result bool) {
	const fn = "JSValueIsObjectOfClass"
	defer fence(fn, ctx, nil)
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		return false
	}
	k, err := getClass(fn, "jsClass", class)
	if err != nil {
		return false
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		return false
	}
	in := c.instanceOf(o)
	if o == c.in.global {
		in = c.x.global
	}
	if in == nil {
		return false
	}
	for kk := in.cls; kk != nil; kk = kk.parent {
		if kk == k {
			return true
		}
	}
	return false
}

//export JSObjectMakeConstructor
func JSObjectMakeConstructor(ctx, class, callAsConstructor uintptr) (result uintptr) {
	const fn = "JSObjectMakeConstructor"
	defer fence(fn, ctx, nil)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	var k *jsClass
	if class != 0 {
		if k, err = getClass(fn, "jsClass", class); err != nil {
			return 0
		}
	}
	var self *goja.Object
	self = c.rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		if callAsConstructor != 0 {
			return c.construction(callAsConstructor, self, call.Arguments)
		}
		if k == nil {
			return c.rt.NewObject()
		}
		o, _ := c.makeInstance(k, nil)
		return o
	}).(*goja.Object)
	_ = self.Set("prototype", c.classProto(k))
	_ = self.DefineDataProperty("prototype", c.classProto(k), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	return c.newValue(self)
}

//export JSObjectIsConstructor
func JSObjectIsConstructor(ctx, object uintptr) (result bool) {
	defer fence("JSObjectIsConstructor", ctx, nil)
	_, v, ok := valueOf("JSObjectIsConstructor", ctx, object)
	if !ok {
		return false
	}
	_, isCtor := goja.AssertConstructor(v)
	return isCtor
}

//export JSObjectCallAsConstructor
func JSObjectCallAsConstructor(ctx, object, argumentCount uintptr, arguments *uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectCallAsConstructor"
	defer fence(fn, ctx, exception)
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return 0
	}
	if _, isCtor := goja.AssertConstructor(o); !isCtor {
		c.throw(exception, errors.New(fn+": object is not a constructor"))
		return 0
	}
	args, err := c.valueArray(fn, "arguments", argumentCount, arguments)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	v, err := c.construct(o, args...)
	c.flushInspector()
	if c.closed {
		return 0
	}
	return c.finish(v, err, exception)
}

//export JSPropertyNameAccumulatorAddName
func JSPropertyNameAccumulatorAddName(acc, propertyName uintptr) {
	const fn = "JSPropertyNameAccumulatorAddName"
	defer fence(fn, 0, nil)
	tid := gettid()
	o, err := resolve(fn, "accumulator", acc, kindAccumulator, tid)
	if err != nil {
		return
	}
	s, err := getString(fn, "propertyName", propertyName, tid)
	if err != nil {
		return
	}
	a := o.(*accumulator)
	a.names = append(a.names, s.goString())
}
