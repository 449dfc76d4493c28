package console

import (
	"slices"

	"github.com/dop251/goja"
)

// methodNames are the console's methods, in the order Object.keys(console) lists them.
var methodNames = [...]string{"log", "info", "debug", "warn", "error", "dirxml", "dir", "table", "trace", "assert",
	"count", "countReset", "group", "groupCollapsed", "groupEnd", "time", "timeEnd", "timeLog", "clear", "profile",
	"profileEnd", "timeStamp"}

// method returns the Go side of the console method name.
func (c *console) method(name string) func(args []goja.Value) {
	switch name {
	case "log":
		return c.printer("log", LevelLog)
	case "info":
		return c.printer("info", LevelInfo)
	case "debug":
		return c.printer("debug", LevelDebug)
	case "warn":
		return c.printer("warn", LevelWarn)
	case "error":
		return c.printer("error", LevelError)
	case "dirxml":
		return c.printer("dirxml", LevelLog)
	case "dir":
		return c.dir
	case "table":
		return c.table
	case "trace":
		return c.trace
	case "assert":
		return c.assert
	case "count":
		return c.count
	case "countReset":
		return c.countReset
	case "group", "groupCollapsed":
		return c.group(name)
	case "groupEnd":
		return c.groupEnd
	case "time":
		return c.time
	case "timeEnd":
		return c.timeEnd
	case "timeLog":
		return c.timeLog
	}
	return func(args []goja.Value) { c.observe(name, args) } // clear, profile, profileEnd, timeStamp
}

// A methodTable is the console object (a goja dynamic object): its own properties are ordinary data properties
// (writable, enumerable, configurable, as an object literal's) listed in the order they were added, but each method's
// function object is made on the first read. An idle worker's console, never called, costs this struct instead of
// 22 function objects (~19 KiB). Scripts may add, replace and delete properties as on a plain object; symbol-keyed
// properties and non-default attributes (Object.freeze, defineProperty with writable: false) are refused, as goja
// refuses them on every dynamic object.
type methodTable struct {
	c    *console
	keys []string              // own keys in order; methodNames until the first change (copied then)
	vals map[string]goja.Value // what was read or set; a key in keys but not here is a method not made yet
	own  bool                  // keys is this table's own copy
}

// Get implements goja.DynamicObject.
func (m *methodTable) Get(key string) goja.Value {
	if v, ok := m.vals[key]; ok {
		return v
	}
	if !slices.Contains(m.keys, key) {
		return nil
	}
	fn := m.c.method(key)
	rt := m.c.rt
	f := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		fn(call.Arguments)
		return goja.Undefined()
	}).(*goja.Object)
	_ = f.DefineDataProperty("name", rt.ToValue(key), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", rt.ToValue(0), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	m.put(key, f)
	return f
}

func (m *methodTable) put(key string, v goja.Value) {
	if m.vals == nil {
		m.vals = make(map[string]goja.Value)
	}
	m.vals[key] = v
}

// Set implements goja.DynamicObject.
func (m *methodTable) Set(key string, val goja.Value) bool {
	if val == nil {
		val = goja.Undefined()
	}
	if !slices.Contains(m.keys, key) {
		m.ownKeys()
		m.keys = append(m.keys, key)
	}
	m.put(key, val)
	return true
}

// Has implements goja.DynamicObject.
func (m *methodTable) Has(key string) bool { return slices.Contains(m.keys, key) }

// Delete implements goja.DynamicObject.
func (m *methodTable) Delete(key string) bool {
	if i := slices.Index(m.keys, key); i >= 0 {
		m.ownKeys()
		m.keys = slices.Delete(m.keys, i, i+1)
		delete(m.vals, key)
	}
	return true
}

// Keys implements goja.DynamicObject.
func (m *methodTable) Keys() []string { return slices.Clone(m.keys) }

func (m *methodTable) ownKeys() {
	if !m.own {
		m.keys, m.own = slices.Clone(m.keys), true
	}
}
