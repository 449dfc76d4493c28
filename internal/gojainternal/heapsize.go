package gojainternal

import (
	"math/bits"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// ReachableBytes estimates how many bytes of Go memory a realm holds: the memory reachable from rt through goja's
// own data structures (objects and their property maps, arrays, strings, ArrayBuffer contents, closures' scopes,
// the VM stack, compiled programs), each block counted once. It is what core's memory budgets charge a worker
// (docs/limits.md, "Memory budgets").
//
// The walk follows pointers, slices, maps, strings and interfaces with reflect, and descends only into types of
// goja's own packages: a pointer to any other type (a host value wrapped by ToValue, a Go closure's captured
// variables, which reflect cannot see, a regexp2 program, a channel) is not followed, so host state a realm refers
// to is not charged to it, and nothing another goroutine mutates is read — except the interrupt value, which
// Interrupt writes under its lock from any goroutine and which is therefore skipped by name.
//
// Accuracy: blocks are charged their type's size (slices their capacity), maps an estimate per entry, and Go's
// allocator rounding and map slack are not seen, so the figure is 0.6–1.0 of the Go heap the same objects occupy
// (TestReachableBytes_Accuracy: strings and buffers about 0.95, plain objects and closures about 0.7, Maps about
// 0.6). Memory shared with other realms (a SharedArrayBuffer's contents, a compiled program) is charged to every
// realm that holds it; short strings (under 64 bytes) are charged at every reference.
//
// Cost: linear in the size of the realm's graph: about 50 µs for an idle realm, roughly 2 µs per small object
// (0.2 s of CPU for 100,000 two-field objects), several times more under -race. It must
// run on the realm's own goroutine, with no JavaScript running on it concurrently.
func ReachableBytes(rt *goja.Runtime) int64 {
	if rt == nil {
		return 0
	}
	s := sizer{seen: newPtrSet(1 << 12)}
	s.ref(reflect.ValueOf(rt))
	for len(s.stack) > 0 {
		v := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		s.value(v)
	}
	return s.total
}

// A sizer walks one realm's graph. Heap blocks reached through pointers are queued rather than walked recursively
// (a list a million links long must not grow the Go stack); slices and maps are walked where they are met, which
// nests only as deep as the types do.
type sizer struct {
	seen  ptrSet
	stack []reflect.Value // pointed-to values whose contents are still to be walked
	total int64
	temps map[reflect.Type]reflect.Value // reused map iteration variables
}

// shortString is the length under which a string's bytes are charged at every reference, without looking it up:
// property names and small values are shared by many objects, but charging them again costs at most this much.
const shortString = 64

// ref charges what v refers to (v itself is charged by its container) and walks or queues the referred values.
func (s *sizer) ref(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		t := v.Type().Elem()
		if !ownType(t) || !s.seen.add(v.Pointer()) {
			return
		}
		s.total += int64(t.Size())
		if hasRefs(t) {
			s.stack = append(s.stack, v.Elem())
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() != reflect.Pointer && e.Kind() != reflect.Map {
			s.total += int64(e.Type().Size()) // a boxed value
		}
		if e.Kind() == reflect.Pointer || ownType(e.Type()) || e.Type().PkgPath() == "" {
			s.ref(e)
		}
	case reflect.String:
		if n := v.Len(); n > 0 && (n < shortString || s.seen.add(uintptr(unsafe.Pointer(unsafe.StringData(v.String()))))) {
			s.total += int64(n)
		}
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 || !s.seen.add(v.Pointer()) {
			return
		}
		et := v.Type().Elem()
		s.total += int64(v.Cap()) * int64(et.Size())
		if hasRefs(et) {
			s.value(v)
		}
	case reflect.Map:
		if v.IsNil() || !s.seen.add(v.Pointer()) {
			return
		}
		kt, et := v.Type().Key(), v.Type().Elem()
		s.total += 48 + int64(v.Len())*(int64(kt.Size())+int64(et.Size())+8)*5/4 // buckets at 80 % load
		if hasRefs(kt) || hasRefs(et) {
			s.value(v)
		}
	case reflect.Struct, reflect.Array:
		if hasRefs(v.Type()) {
			s.value(v) // inline: charged by its container
		}
	}
}

// value walks the contents of v: a struct's fields, an array's or a slice's elements, a map's entries.
func (s *sizer) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for _, i := range refFields(v.Type()) {
			s.ref(v.Field(i))
		}
	case reflect.Array, reflect.Slice:
		for i, n := 0, v.Len(); i < n; i++ {
			s.ref(v.Index(i))
		}
	case reflect.Map:
		// Iteration variables are reused (MapIter.Key and Value would allocate a copy per entry). What ref keeps of
		// them — the target of a pointer, the box of an interface — does not live in them.
		// SetIterKey refuses an iterator over a map read through an unexported field: iterate a copy of the map
		// reference made with NewAt instead (the same map).
		mp := v.UnsafePointer()
		m := reflect.NewAt(v.Type(), unsafe.Pointer(&mp)).Elem()
		k, e := s.temp(v.Type().Key()), s.temp(v.Type().Elem())
		it := m.MapRange()
		for it.Next() {
			k.SetIterKey(it)
			e.SetIterValue(it)
			s.ref(k)
			s.ref(e)
		}
		k.SetZero()
		e.SetZero()
	default:
		s.ref(v)
	}
}

// temp returns a settable variable of type t for map iteration. Maps nest only inside other values' types, so one
// variable per type is enough only if a map's entries never contain a map of the same type inline: a nested map
// of the same key or value type gets its own variable.
func (s *sizer) temp(t reflect.Type) reflect.Value {
	if s.temps == nil {
		s.temps = make(map[reflect.Type]reflect.Value)
	}
	if v, ok := s.temps[t]; ok && v.IsZero() {
		return v
	}
	v := reflect.New(t).Elem()
	s.temps[t] = v
	return v
}

// A ptrSet is a set of addresses: open addressing with linear probing, kept at most half full.
type ptrSet struct {
	slots []uintptr
	n     int
	shift uint // 64 − log2(len(slots)): the hash is the top bits of a Fibonacci product
}

func newPtrSet(size int) ptrSet {
	return ptrSet{slots: make([]uintptr, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

// add reports whether p was not in the set, and adds it.
func (p *ptrSet) add(x uintptr) bool {
	if 2*(p.n+1) > len(p.slots) {
		p.grow()
	}
	mask := uintptr(len(p.slots) - 1)
	for i := uintptr(uint64(x)*0x9E3779B97F4A7C15>>p.shift) & mask; ; i = (i + 1) & mask {
		switch p.slots[i] {
		case x:
			return false
		case 0:
			p.slots[i] = x
			p.n++
			return true
		}
	}
}

func (p *ptrSet) grow() {
	old := p.slots
	p.slots, p.n, p.shift = make([]uintptr, 2*len(old)), 0, p.shift-1
	for _, x := range old {
		if x != 0 {
			p.add(x)
		}
	}
}

// ownType tells whether the walk descends into values of type t: goja's own types and unnamed composites of them.
func ownType(t reflect.Type) bool { return info(t).own }

func isOwnType(t reflect.Type) bool {
	if t.Name() == "" {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			return isOwnType(t.Elem())
		case reflect.Struct:
			return false // an anonymous struct of some other package's
		}
		return true
	}
	if t.PkgPath() == "" {
		return true // a predeclared type: string, int, …
	}
	return t.PkgPath() == gojaPkg || strings.HasPrefix(t.PkgPath(), gojaPkg+"/")
}

var gojaPkg = reflect.TypeFor[goja.Runtime]().PkgPath()

// skippedFields are fields the walk must not read: Interrupt writes vm.interruptVal from any goroutine.
var skippedFields = map[string]bool{"interruptVal": true, "interruptLock": true}

var typeInfo sync.Map // reflect.Type → *refInfo

type refInfo struct {
	own    bool // ownType
	has    bool
	fields []int // a struct's fields that may hold references
}

func info(t reflect.Type) *refInfo {
	if i, ok := typeInfo.Load(t); ok {
		return i.(*refInfo)
	}
	// No provisional entry is needed: a type can refer to itself only through a pointer, slice or map, which are
	// answered without looking further.
	i := &refInfo{own: isOwnType(t)}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.String, reflect.Slice, reflect.Map:
		i.has = true
	case reflect.Array:
		i.has = t.Len() > 0 && hasRefs(t.Elem())
	case reflect.Struct:
		for f := range t.NumField() {
			sf := t.Field(f)
			if skippedFields[sf.Name] && i.own {
				continue
			}
			if sf.Type.Kind() == reflect.Struct && !isOwnType(sf.Type) && sf.Type.PkgPath() != "" {
				continue // an inline struct of another package's (a sync.Mutex, a reflect.Value)
			}
			if hasRefs(sf.Type) {
				i.fields = append(i.fields, f)
			}
		}
		i.has = len(i.fields) > 0
	}
	got, _ := typeInfo.LoadOrStore(t, i)
	return got.(*refInfo)
}

func hasRefs(t reflect.Type) bool    { return info(t).has }
func refFields(t reflect.Type) []int { return info(t).fields }
