package inspector

import (
	"strconv"

	"github.com/dop251/goja"
)

const msgNoDescriptors = "inspector: properties cannot be read without running the program's code: " +
	"Object.prototype defines a property named like a descriptor field (value, writable, get, set, enumerable, configurable), " +
	"or the realm lacked Reflect.ownKeys or Object.getOwnPropertyDescriptor when the inspector first needed them"

// propDesc is an own property descriptor read without running a getter.
type propDesc struct {
	value                              goja.Value // data properties
	get, set                           goja.Value // accessor properties
	accessor                           bool
	writable, enumerable, configurable bool
}

// ownDescriptor reads o's own property key through the realm's captured
// Object.getOwnPropertyDescriptor. It never runs a getter; o must not be a
// Proxy (its getOwnPropertyDescriptor trap would run). ok is false when the
// property does not exist or cannot be read.
func (c *call) ownDescriptor(o *goja.Object, key goja.Value) (propDesc, bool) {
	if !c.descriptorsReadable() {
		return propDesc{}, false
	}
	r, ok := invoke(c.realm().ownDesc, goja.Undefined(), o, key)
	if !ok {
		return propDesc{}, false
	}
	d, isObj := r.(*goja.Object)
	if !isObj {
		return propDesc{}, false
	}
	// d is a fresh ordinary object whose fields are own data properties:
	// listing and reading them runs no code.
	pd := propDesc{value: goja.Undefined(), get: goja.Undefined(), set: goja.Undefined()}
	for _, k := range d.Keys() {
		v := d.Get(k)
		switch k {
		case "value":
			pd.value = v
		case "get":
			pd.get, pd.accessor = v, true
		case "set":
			pd.set, pd.accessor = v, true
		case "writable":
			pd.writable = v.ToBoolean()
		case "enumerable":
			pd.enumerable = v.ToBoolean()
		case "configurable":
			pd.configurable = v.ToBoolean()
		}
	}
	return pd, true
}

// descriptorFields are the fields of a property descriptor object.
var descriptorFields = []string{"value", "writable", "get", "set", "enumerable", "configurable"}

// descriptorsReadable reports whether descriptor objects can be trusted. goja
// fills the object Object.getOwnPropertyDescriptor returns with [[Set]], not
// CreateDataProperty: when Object.prototype has a property named like a
// descriptor field (an accessor "value", say), that field is missing from the
// descriptor and a setter of the program would run. We then read no
// descriptor at all. Checked once per command with the captured
// Object.prototype.hasOwnProperty, which runs no code of the program.
func (c *call) descriptorsReadable() bool {
	if c.descState == 0 {
		c.descState = 1
		t := c.realm()
		if t.ownDesc == nil || t.hasOwn == nil || t.objectProto == nil {
			c.descState = 2
		}
		for _, f := range descriptorFields {
			if c.descState == 1 {
				if has, ok := invoke(t.hasOwn, t.objectProto, c.rt.ToValue(f)); !ok || has.ToBoolean() {
					c.descState = 2
				}
			}
		}
	}
	return c.descState == 1
}

type getPropertiesParams struct {
	ObjectID                 *string `json:"objectId"`
	OwnProperties            bool    `json:"ownProperties"`
	AccessorPropertiesOnly   bool    `json:"accessorPropertiesOnly"`
	GeneratePreview          bool    `json:"generatePreview"` // accepted, no previews are generated
	NonIndexedPropertiesOnly bool    `json:"nonIndexedPropertiesOnly"`
}

type propertyDescriptor struct {
	Name         string        `json:"name"`
	Value        *remoteObject `json:"value,omitempty"`
	Writable     *bool         `json:"writable,omitempty"`
	Get          *remoteObject `json:"get,omitempty"`
	Set          *remoteObject `json:"set,omitempty"`
	Configurable bool          `json:"configurable"`
	Enumerable   bool          `json:"enumerable"`
	IsOwn        bool          `json:"isOwn"`
	Symbol       *remoteObject `json:"symbol,omitempty"`
}

type internalProperty struct {
	Name  string        `json:"name"`
	Value *remoteObject `json:"value"`
}

type getPropertiesResult struct {
	Result             []propertyDescriptor `json:"result"`
	InternalProperties []internalProperty   `json:"internalProperties,omitempty"`
}

// getProperties lists an object's own properties: data properties with their
// values, accessors with their getter and setter functions, never calling
// them. Values are held in the inspected object's group. Proxies are not
// looked through (their traps would run): they show [[Handler]], [[Target]]
// and [[IsRevoked]]. With ownProperties false a [[Prototype]] internal
// property is added instead of walking the prototype chain.
func getProperties(c *call) {
	var p getPropertiesParams
	if !c.decode(&p) {
		return
	}
	if p.ObjectID == nil {
		c.missing("objectId")
		return
	}
	h, ok := c.s.lookup(*p.ObjectID)
	if !ok {
		c.failServer(msgNoObject)
		return
	}
	res := getPropertiesResult{Result: []propertyDescriptor{}}
	o, isObj := h.v.(*goja.Object)
	if !isObj { // a symbol: no properties of its own
		c.reply(res)
		return
	}
	k := classify(o)
	if k.kind == kindProxy {
		res.InternalProperties = c.proxyInternals(o, h.group)
		c.reply(res)
		return
	}
	t := c.realm()
	if t.ownKeys == nil || !c.descriptorsReadable() {
		c.failServer(msgNoDescriptors)
		return
	}
	kv, ok := invoke(t.ownKeys, goja.Undefined(), o)
	keys, isArr := kv.(*goja.Object)
	if !ok || !isArr {
		c.failServer("inspector: the object's keys cannot be listed")
		return
	}
	n := keys.Get("length").ToInteger() // a fresh array: no getter
	for i := int64(0); i < n; i++ {
		key := keys.Get(strconv.FormatInt(i, 10))
		sym, isSym := key.(*goja.Symbol)
		if p.NonIndexedPropertiesOnly && !isSym && isArrayIndex(key.String()) {
			continue
		}
		d, ok := c.ownDescriptor(o, key)
		if !ok || (p.AccessorPropertiesOnly && !d.accessor) {
			continue
		}
		pd := propertyDescriptor{Configurable: d.configurable, Enumerable: d.enumerable, IsOwn: true}
		if isSym {
			pd.Name = symbolDescription(sym)
			pd.Symbol = c.remote(sym, h.group)
		} else {
			pd.Name = key.String()
		}
		if d.accessor {
			pd.Get = c.remote(d.get, h.group)
			pd.Set = c.remote(d.set, h.group)
		} else {
			w := d.writable
			pd.Value, pd.Writable = c.remote(d.value, h.group), &w
		}
		res.Result = append(res.Result, pd)
	}
	if !p.AccessorPropertiesOnly {
		res.InternalProperties = c.internals(o, k, h.group)
		if !p.OwnProperties {
			if proto := o.Prototype(); proto != nil {
				res.InternalProperties = append(res.InternalProperties, internalProperty{"[[Prototype]]", c.remote(proto, h.group)})
			}
		}
	}
	c.reply(res)
}

// internals returns the internal properties that are cheap to read: the
// entries of a Map or Set, the state and result of a Promise, the primitive
// of a wrapper object.
func (c *call) internals(o *goja.Object, k kindEntry, group string) []internalProperty {
	t := c.realm()
	switch k.kind {
	case kindMap, kindSet:
		var entries []any
		each, isMap := t.setEach, k.kind == kindMap
		if isMap {
			each = t.mapEach
		}
		collect := c.rt.ToValue(func(fc goja.FunctionCall) goja.Value {
			if !isMap {
				entries = append(entries, fc.Argument(0))
				return goja.Undefined()
			}
			e := c.rt.NewObject() // DefineDataProperty: no setter on Object.prototype runs
			e.DefineDataProperty("key", fc.Argument(1), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
			e.DefineDataProperty("value", fc.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
			entries = append(entries, e)
			return goja.Undefined()
		})
		if _, ok := invoke(each, o, collect); !ok {
			return nil
		}
		return []internalProperty{{"[[Entries]]", c.remote(c.rt.NewArray(entries...), group)}}
	case kindPromise:
		p, ok := o.Export().(*goja.Promise)
		if !ok {
			return nil
		}
		state := map[goja.PromiseState]string{
			goja.PromiseStatePending:   "pending",
			goja.PromiseStateFulfilled: "fulfilled",
			goja.PromiseStateRejected:  "rejected",
		}[p.State()]
		out := []internalProperty{{"[[PromiseState]]", primitive(c.rt.ToValue(state))}}
		if p.State() != goja.PromiseStatePending {
			out = append(out, internalProperty{"[[PromiseResult]]", c.remote(p.Result(), group)})
		}
		return out
	case kindWrapper:
		for _, valueOf := range t.valueOf {
			if v, ok := invoke(valueOf, o); ok {
				return []internalProperty{{"[[PrimitiveValue]]", c.remote(v, group)}}
			}
		}
	}
	return nil
}

// proxyInternals shows a proxy's handler and target, read from goja's side
// without running a trap.
func (c *call) proxyInternals(o *goja.Object, group string) []internalProperty {
	px, ok := o.Export().(goja.Proxy)
	if !ok {
		return nil
	}
	handler := goja.Value(goja.Null())
	if h := px.Handler(); h != nil {
		handler = h
	}
	target := goja.Value(goja.Null())
	if t := px.Target(); t != nil {
		target = t
	}
	return []internalProperty{
		{"[[Handler]]", c.remote(handler, group)},
		{"[[Target]]", c.remote(target, group)},
		{"[[IsRevoked]]", primitive(c.rt.ToValue(px.Handler() == nil))},
	}
}

// isArrayIndex reports whether a property key is an array index
// (a canonical decimal below 2^32-1).
func isArrayIndex(s string) bool {
	if s == "" || len(s) > 10 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return err == nil && n < 1<<32-1
}
