package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// A regular expression's fast path. goja's RegExp.prototype[Symbol.match] and [Symbol.replace] take one of two
// paths: for a "standard" regular expression (no own property but lastIndex, goja's prototype unchanged) they
// collect every match in one Go call (findAllSubmatchIndex) with no way to stop it or count what it holds; for any
// other they follow the specification's loop, calling the receiver's `exec` once per match. Both give the same
// result; only the second runs code a guard can sit in (a guarded `exec`). RegExpStandard reads the flag and
// SetRegExpStandard writes it, so that a caller can send one call on a long string down the specification's path
// and restore the flag after (core/regexpstop.go). The flag is goja.regexpObject's `standard`, located once per
// process and checked on the probe runtime: true for a literal, false once it has an own `exec`.

var rxStd struct {
	once  sync.Once
	err   error
	tab   unsafe.Pointer // the type word of goja.Object.self for a RegExp
	off   uintptr        // of regexpObject.standard
	ascii reflect.Type   // goja's 8-bit string type
}

// RegExps returns nil when RegExpStandard and SetRegExpStandard work, or the error that makes them answer false.
func RegExps() error {
	rxStd.once.Do(func() {
		if err := loadKinds(); err != nil {
			rxStd.err = err
			return
		}
		if err := withProbeRuntime(probeRegExps); err != nil {
			rxStd.tab = nil
			rxStd.err = probeError("regular expressions", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return rxStd.err
}

func probeRegExps(rt *goja.Runtime) error {
	a, errA := rt.RunString(`"ab".repeat(3)`)
	u, errU := rt.RunString(`"\u00e9b".repeat(3)`)
	if errA != nil || errU != nil {
		return errors.Join(errA, errU)
	}
	if _, ok := a.(goja.String); !ok || reflect.TypeOf(a) == reflect.TypeOf(u) || reflect.TypeOf(a).Kind() != reflect.String {
		return fmt.Errorf("8-bit and 16-bit strings are %T and %T", a, u)
	}
	rxStd.ascii = reflect.TypeOf(a)
	plain, err := sample(rt, `/a/g`)
	if err != nil {
		return err
	}
	t := implType(plain)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("a RegExp is a %v", t)
	}
	off, err := fieldOffset(t.Elem(), "standard", func(t reflect.Type) bool { return t.Kind() == reflect.Bool })
	if err != nil {
		return err
	}
	own, err := sample(rt, `var r = /a/g; r.exec = function () { return null }; r`)
	if err != nil {
		return err
	}
	if implType(own) != t {
		return errors.New("two RegExps have different Go types")
	}
	rxStd.tab, rxStd.off = selfOf(plain).tab, off
	if std, _ := regExpStandard(plain); !std {
		return errors.New("a RegExp literal is not standard")
	}
	if std, _ := regExpStandard(own); std {
		return errors.New("a RegExp with its own exec is standard")
	}
	// The flag decides the path: a standard RegExp marked otherwise calls its prototype's exec for each match.
	if _, err := rt.RunString(`var calls = 0, x = /a/g, e = RegExp.prototype.exec;`); err != nil {
		return err
	}
	x, _ := rt.Get("x").(*goja.Object)
	regExpSetStandard(x, false)
	v, err := rt.RunString(`RegExp.prototype.exec = function (s) { calls++; return e.call(this, s) };
		var m = "aXa".match(x); RegExp.prototype.exec = e; m.join() + "/" + calls`)
	if err != nil {
		return err
	}
	if v.String() != "a,a/3" {
		return fmt.Errorf("a RegExp marked not standard matched %s, want a,a/3", v)
	}
	return nil
}

// RegExpStandard reports whether o is a RegExp goja treats as standard (above); ok is false when o is no RegExp or
// the flag cannot be read.
func RegExpStandard(o *goja.Object) (std, ok bool) {
	if o == nil || RegExps() != nil {
		return false, false
	}
	return regExpStandard(o)
}

func regExpStandard(o *goja.Object) (std, ok bool) {
	p := selfOf(o)
	if p.tab != rxStd.tab || p.data == nil {
		return false, false
	}
	return *(*bool)(unsafe.Add(p.data, rxStd.off)), true
}

// SetRegExpStandard sets o's flag and reports whether o is a RegExp whose flag it could set. Setting it to false
// is always safe (goja takes the specification's path); setting it back to true is only for a caller that set it
// false and knows the object has not changed since in a way that made goja clear it.
func SetRegExpStandard(o *goja.Object, std bool) bool {
	return o != nil && RegExps() == nil && regExpSetStandard(o, std)
}

func regExpSetStandard(o *goja.Object, std bool) bool {
	p := selfOf(o)
	if p.tab != rxStd.tab || p.data == nil {
		return false
	}
	*(*bool)(unsafe.Add(p.data, rxStd.off)) = std
	return true
}

// ASCIIString reports whether s is one of goja's 8-bit strings (every code unit below 0x80). goja's exec compares
// its target with the string it last matched to reuse its decoding: for an 8-bit string a Go string comparison
// (a pointer test when it is the same string), for any other an element-by-element loop — a call of exec per match
// over a long 16-bit string costs the string's length each time (found 2026-12-03: the specification's loop over
// a 2**20-character non-ASCII string took minutes).
func ASCIIString(s goja.String) bool {
	return s != nil && RegExps() == nil && reflect.TypeOf(s) == rxStd.ascii
}
