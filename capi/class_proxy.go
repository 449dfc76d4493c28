package capi

// #include "capi.h"
import "C"

import (
	"strconv"
	"unsafe"

	"github.com/dop251/goja"
)

// The class callbacks as JavaScript reaches them: the frame every callback runs in, the property callbacks asked in
// JavaScriptCore's order, and the proxy whose native traps call them (objects of classes with property or call
// callbacks, class_object.go).

// callback runs one host callback in a frame: a handle scope closed when it returns and the depth count that holds
// finalizers back. A value the callback stored in its exception slot is thrown into JavaScript.
func (c *context) callback(call func(exc *uintptr)) {
	c.x.depth++
	depth := len(c.scopes)
	c.openScope(0)
	defer func() {
		c.closeScopes(depth)
		c.x.depth--
	}()
	var exc uintptr
	call(&exc)
	if exc != 0 {
		val, err := c.value("a class callback", "*exception", exc)
		if err != nil {
			panic(c.errorValue(err))
		}
		panic(val.v)
	}
}

// result resolves a value a callback returned (NULL: nil).
func (c *context) result(cb string, h uintptr) goja.Value {
	if h == 0 {
		return nil
	}
	val, err := c.value(cb, "the result", h)
	if err != nil {
		panic(c.errorValue(err))
	}
	return val.v
}

// withName runs f with a new JSStringRef for name, released afterwards.
func (c *context) withName(name string, f func(h C.jsw_handle)) {
	h := stringFromGo(name, c.tid)
	defer func() {
		if e, ok := handles.get(h); ok {
			e.obj.(*jsString).release()
		}
	}()
	f(C.jsw_handle(h))
}

// excPtr passes an exception slot to C.
func excPtr(exc *uintptr) *C.jsw_handle { return (*C.jsw_handle)(unsafe.Pointer(exc)) }

// callGet runs a JSObjectGetPropertyCallback for name on this; nil when it answers NULL.
func (c *context) callGet(fn uintptr, this goja.Value, name string) (res goja.Value) {
	c.callback(func(exc *uintptr) {
		c.withName(name, func(n C.jsw_handle) {
			r := C.jsw_call_get(c.actor(), C.uintptr_t(fn), C.jsw_handle(c.h), C.jsw_handle(c.newValue(this)), n, excPtr(exc))
			res = c.result("JSObjectGetPropertyCallback", uintptr(r))
		})
	})
	return res
}

// callSet runs a JSObjectSetPropertyCallback; false when it declines.
func (c *context) callSet(fn uintptr, this goja.Value, name string, v goja.Value) (ok bool) {
	c.callback(func(exc *uintptr) {
		c.withName(name, func(n C.jsw_handle) {
			ok = bool(C.jsw_call_set(c.actor(), C.uintptr_t(fn), C.jsw_handle(c.h), C.jsw_handle(c.newValue(this)), n,
				C.jsw_handle(c.newValue(v)), excPtr(exc)))
		})
	})
	return ok
}

// callHas runs a JSObjectHasPropertyCallback.
func (c *context) callHas(fn uintptr, this goja.Value, name string) (ok bool) {
	c.callback(func(exc *uintptr) {
		c.withName(name, func(n C.jsw_handle) {
			ok = bool(C.jsw_call_has(c.actor(), C.uintptr_t(fn), C.jsw_handle(c.h), C.jsw_handle(c.newValue(this)), n))
		})
	})
	return ok
}

// callDelete runs a JSObjectDeletePropertyCallback; false when it declines.
func (c *context) callDelete(fn uintptr, this goja.Value, name string) (ok bool) {
	c.callback(func(exc *uintptr) {
		c.withName(name, func(n C.jsw_handle) {
			ok = bool(C.jsw_call_delete(c.actor(), C.uintptr_t(fn), C.jsw_handle(c.h), C.jsw_handle(c.newValue(this)), n,
				excPtr(exc)))
		})
	})
	return ok
}

// An accumulator is what a JSPropertyNameAccumulatorRef names during a getPropertyNames callback.
type accumulator struct{ names []string }

// The class chain's property callbacks, in JavaScriptCore's order: each class from the most derived, a class's
// hasProperty (if any) deciding whether its getProperty is asked.

// classGet asks the chain's getProperty callbacks for name; nil when all decline.
func (c *context) classGet(k *jsClass, self *goja.Object, name string) goja.Value {
	for _, kk := range k.chain() {
		if kk.hasProperty != 0 && !c.callHas(kk.hasProperty, self, name) {
			continue
		}
		if kk.getProperty != 0 {
			if v := c.callGet(kk.getProperty, self, name); v != nil {
				return v
			}
		}
	}
	return nil
}

// classHas asks the chain whether it has name (hasProperty, or a non-NULL getProperty).
func (c *context) classHas(k *jsClass, self *goja.Object, name string) bool {
	for _, kk := range k.chain() {
		switch {
		case kk.hasProperty != 0:
			if c.callHas(kk.hasProperty, self, name) {
				return true
			}
		case kk.getProperty != 0:
			if c.callGet(kk.getProperty, self, name) != nil {
				return true
			}
		}
	}
	return false
}

// classSet offers the assignment to the chain's setProperty callbacks; false when all decline.
func (c *context) classSet(k *jsClass, self *goja.Object, name string, v goja.Value) bool {
	for _, kk := range k.chain() {
		if kk.setProperty != 0 && c.callSet(kk.setProperty, self, name, v) {
			return true
		}
	}
	return false
}

// classDelete offers the deletion to the chain's deleteProperty callbacks; false when all decline.
func (c *context) classDelete(k *jsClass, self *goja.Object, name string) bool {
	for _, kk := range k.chain() {
		if kk.deleteProperty != 0 && c.callDelete(kk.deleteProperty, self, name) {
			return true
		}
	}
	return false
}

// classNames collects the names the chain's getPropertyNames callbacks add.
func (c *context) classNames(k *jsClass, self *goja.Object) []string {
	acc := &accumulator{}
	for _, kk := range k.chain() {
		if kk.getPropertyNames == 0 {
			continue
		}
		c.callback(func(exc *uintptr) {
			h := handles.add(kindAccumulator, c.tid, acc)
			defer handles.remove(h)
			C.jsw_call_names(c.actor(), C.uintptr_t(kk.getPropertyNames), C.jsw_handle(c.h), C.jsw_handle(c.newValue(self)),
				C.jsw_handle(h))
		})
	}
	return acc.names
}

// must returns v or throws err into the running JavaScript.
func (c *context) must(v goja.Value, err error) goja.Value {
	if err != nil {
		panic(c.errorValue(err))
	}
	return v
}

// descriptorOf converts a JavaScript property descriptor to goja's.
func descriptorOf(d *goja.Object) goja.PropertyDescriptor {
	var pd goja.PropertyDescriptor
	flag := func(k string) goja.Flag {
		v := d.Get(k)
		if v == nil {
			return goja.FLAG_NOT_SET
		}
		if v.ToBoolean() {
			return goja.FLAG_TRUE
		}
		return goja.FLAG_FALSE
	}
	pd.Enumerable, pd.Configurable = flag("enumerable"), flag("configurable")
	if g, s := d.Get("get"), d.Get("set"); g != nil || s != nil {
		pd.Getter, pd.Setter = g, s
		return pd
	}
	pd.Value, pd.Writable = d.Get("value"), flag("writable")
	return pd
}

// proxyInstance makes the object of a class with property or call callbacks.
func (c *context) proxyInstance(k *jsClass, proto *goja.Object) *goja.Object {
	var target *goja.Object
	switch {
	case k.ctorCall != 0:
		target = c.rt.ToValue(func(goja.ConstructorCall) *goja.Object { return nil }).(*goja.Object)
	case k.fnCall != 0:
		target = c.rt.ToValue(func(goja.FunctionCall) goja.Value { return goja.Undefined() }).(*goja.Object)
	default:
		target = c.rt.CreateObject(proto)
	}
	if k.callable {
		_ = target.SetPrototype(proto)
		_ = target.Delete("name")
		_ = target.Delete("length")
		_ = target.Delete("prototype")
	}
	in := &c.x.in
	var self *goja.Object
	cfg := &goja.ProxyTrapConfig{}
	if k.dynamic {
		get := func(t *goja.Object, name string, recv goja.Value) goja.Value {
			if v := c.classGet(k, self, name); v != nil {
				return v
			}
			return c.must(in.rGet(goja.Undefined(), t, c.rt.ToValue(name), recv))
		}
		set := func(t *goja.Object, name string, v, recv goja.Value) bool {
			if c.classSet(k, self, name, v) {
				return true
			}
			return c.must(in.rSet(goja.Undefined(), t, c.rt.ToValue(name), v, recv)).ToBoolean()
		}
		has := func(t *goja.Object, name string) bool {
			return c.classHas(k, self, name) || c.must(in.rHas(goja.Undefined(), t, c.rt.ToValue(name))).ToBoolean()
		}
		del := func(t *goja.Object, name string) bool {
			return c.classDelete(k, self, name) || c.must(in.rDel(goja.Undefined(), t, c.rt.ToValue(name))).ToBoolean()
		}
		cfg.Get, cfg.Set, cfg.Has, cfg.DeleteProperty = get, set, has, del
		cfg.GetIdx = func(t *goja.Object, i int, recv goja.Value) goja.Value { return get(t, strconv.Itoa(i), recv) }
		cfg.SetIdx = func(t *goja.Object, i int, v, recv goja.Value) bool { return set(t, strconv.Itoa(i), v, recv) }
		cfg.HasIdx = func(t *goja.Object, i int) bool { return has(t, strconv.Itoa(i)) }
		cfg.DeletePropertyIdx = func(t *goja.Object, i int) bool { return del(t, strconv.Itoa(i)) }
	}
	if k.names {
		cfg.OwnKeys = func(t *goja.Object) *goja.Object {
			keys := c.must(in.ownKeys(goja.Undefined(), t)).(*goja.Object)
			seen := map[string]bool{}
			var out []any
			for _, v := range keys.Export().([]any) {
				if s, ok := v.(string); ok {
					seen[s] = true
				}
				out = append(out, v)
			}
			for _, n := range c.classNames(k, self) {
				if !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
			return c.rt.NewArray(out...)
		}
		own := func(t *goja.Object, name string) goja.PropertyDescriptor {
			d := c.must(in.getOwnProperty(goja.Undefined(), t, c.rt.ToValue(name)))
			if dObj, ok := d.(*goja.Object); ok {
				return descriptorOf(dObj)
			}
			if c.classHas(k, self, name) {
				v := c.classGet(k, self, name)
				if v == nil {
					v = goja.Undefined()
				}
				return goja.PropertyDescriptor{Value: v, Writable: goja.FLAG_TRUE, Enumerable: goja.FLAG_TRUE,
					Configurable: goja.FLAG_TRUE}
			}
			return goja.PropertyDescriptor{}
		}
		cfg.GetOwnPropertyDescriptor = own
		cfg.GetOwnPropertyDescriptorIdx = func(t *goja.Object, i int) goja.PropertyDescriptor { return own(t, strconv.Itoa(i)) }
	}
	if k.callable {
		cfg.Apply = func(t *goja.Object, this goja.Value, args []goja.Value) goja.Value {
			if k.fnCall == 0 {
				panic(c.rt.NewTypeError("object is not a function"))
			}
			var res goja.Value
			c.callback(func(exc *uintptr) {
				argv := c.handlesOf(args)
				r := C.jsw_call_host_fn(c.actor(), C.uintptr_t(k.fnCall), C.jsw_handle(c.h), C.jsw_handle(c.newValue(self)),
					C.jsw_handle(c.newValue(this)), C.size_t(len(args)), (*C.jsw_handle)(unsafe.Pointer(&argv[0])),
					excPtr(exc))
				res = c.result("JSObjectCallAsFunctionCallback", uintptr(r))
			})
			if res == nil {
				return goja.Undefined()
			}
			return res
		}
	}
	if k.ctorCall != 0 {
		cfg.Construct = func(t *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			return c.construction(k.ctorCall, self, args)
		}
	}
	self = c.rt.ToValue(c.rt.NewProxy(target, cfg)).(*goja.Object)
	return self
}

// handlesOf registers args as values of the current scope; the slice is never empty, so &out[0] is valid.
func (c *context) handlesOf(args []goja.Value) []uintptr {
	out := make([]uintptr, len(args)+1)
	for i, a := range args {
		out[i] = c.newValue(a)
	}
	return out
}

// construction runs a JSObjectCallAsConstructorCallback for `new ctor(...args)`.
func (c *context) construction(fn uintptr, ctor *goja.Object, args []goja.Value) *goja.Object {
	var res goja.Value
	c.callback(func(exc *uintptr) {
		argv := c.handlesOf(args)
		r := C.jsw_call_construct(c.actor(), C.uintptr_t(fn), C.jsw_handle(c.h), C.jsw_handle(c.newValue(ctor)),
			C.size_t(len(args)), (*C.jsw_handle)(unsafe.Pointer(&argv[0])), excPtr(exc))
		res = c.result("JSObjectCallAsConstructorCallback", uintptr(r))
	})
	o, ok := res.(*goja.Object)
	if !ok {
		panic(c.rt.NewTypeError("JSObjectCallAsConstructorCallback returned no object"))
	}
	return o
}
