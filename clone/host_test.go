package clone_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// pointKinds gives rt a host kind "Point" over class Point (x, y as fields, a tag as bytes), made by the realm's
// own script, and returns how many times Read ran.
func pointKinds(t *testing.T, rt *goja.Runtime) *int {
	t.Helper()
	run(t, rt, `class Point { constructor(x, y, tag) { this.x = x; this.y = y; this.tag = tag; } }
		globalThis.Point = Point;`)
	proto := run(t, rt, `Point.prototype`).(*goja.Object)
	ctor, _ := goja.AssertConstructor(run(t, rt, `Point`))
	reads := new(int)
	clone.SetHostKinds(rt, clone.HostKind{Name: "Point", Proto: proto,
		Write: func(o *goja.Object) ([]goja.Value, []byte, bool) {
			if o.Get("x") == nil {
				return nil, nil, false // Object.create(Point.prototype): not one
			}
			return []goja.Value{o.Get("x"), o.Get("y")}, []byte(o.Get("tag").String()), true
		},
		Read: func(f []goja.Value, data []byte) (*goja.Object, error) {
			*reads++
			if len(f) != 2 {
				return nil, &clone.DataCloneError{Message: "bad Point"}
			}
			return ctor(nil, f[0], f[1], rt.ToValue(string(data)))
		}})
	return reads
}

func TestHostKindRoundTrip(t *testing.T) {
	src, dst := goja.New(), goja.New()
	defer clone.SetHostKinds(src)
	defer clone.SetHostKinds(dst)
	pointKinds(t, src)
	reads := pointKinds(t, dst)
	f, err := clone.Serialize(src, run(t, src, `const p = new Point(1, "two", "t\u00e9"); ({a: p, b: p, list: [p]})`), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := f.Bytes(); b[4] != 3 || !bytes.Contains(b, []byte{'H', '"', 5, 'P'}) {
		t.Errorf("frame %q: want version 3 with an 'H' Point", b)
	}
	v, err := clone.Deserialize(dst, f)
	if err != nil {
		t.Fatal(err)
	}
	check(t, dst, v, `v.a instanceof Point && v.a === v.b && v.list[0] === v.a && v.a.x === 1 && v.a.y === "two" && v.a.tag === "t\u00e9"`)
	if *reads != 1 {
		t.Errorf("Read ran %d times, want once (one object, two back-references)", *reads)
	}
}

func TestHostKindVersion2WithoutHostObjects(t *testing.T) {
	rt := goja.New()
	defer clone.SetHostKinds(rt)
	pointKinds(t, rt)
	f, err := clone.Serialize(rt, run(t, rt, `({x: 1, o: Object.create(Point.prototype)})`), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := f.Bytes(); b[4] != 2 {
		t.Errorf("frame without host objects is version %d, want 2 (readable by older readers)", b[4])
	}
	f.Release()
}

func TestHostKindUnknownInReceiver(t *testing.T) {
	src := goja.New()
	defer clone.SetHostKinds(src)
	pointKinds(t, src)
	f, err := clone.Serialize(src, run(t, src, `new Point(1, 2, "")`), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = deserialize(f.Bytes())
	var dce *clone.DataCloneError
	if !errors.As(err, &dce) || !strings.Contains(dce.Message, "Point objects cannot be deserialized in this realm") {
		t.Errorf("got %v, want a DataCloneError naming Point", err)
	}
	f.Release()
}

func TestHostKindReadRejectsObjectFields(t *testing.T) {
	// A forged version-3 frame whose host object has an object field.
	frame := []byte{'J', 'S', 'W', 'C', 0x03, 0x00, 0x00, 0x00, 'H', '"', 0x01, 'X', 0x01, 'o', '{', 0x00}
	_, _, err := deserialize(frame)
	if !errors.Is(err, clone.ErrMalformedFrame) || !strings.Contains(err.Error(), "primitive") {
		t.Errorf("got %v, want a malformed frame (object field)", err)
	}
}

func TestDataCloneErrorHook(t *testing.T) {
	rt := goja.New()
	defer clone.SetDataCloneError(rt, nil)
	run(t, rt, `class DOMExc extends Error { constructor(m, n) { super(m); this.name = n; this.code = 25; } }; globalThis.DOMExc = DOMExc`)
	ctor := run(t, rt, `DOMExc`)
	clone.SetDataCloneError(rt, func(msg string) *goja.Object {
		o, err := rt.New(ctor, rt.ToValue(msg), rt.ToValue("DataCloneError"))
		if err != nil {
			panic(err)
		}
		return o
	})
	_, err := clone.Serialize(rt, run(t, rt, `(function f() {})`), clone.Options{})
	check(t, rt, clone.JSError(rt, err), `v instanceof DOMExc && v.name === "DataCloneError" && /could not be cloned/.test(v.message)`)
}

// TestReadHostKinds: SetReadHostKinds' kinds are asked for once, when the realm first reads a host object; a
// realm that only writes, or reads no host object, never asks; they must not have a prototype.
func TestReadHostKinds(t *testing.T) {
	src, dst := goja.New(), goja.New()
	defer clone.SetHostKinds(src)
	defer clone.SetHostKinds(dst)
	pointKinds(t, src)
	run(t, dst, `class Point { constructor(x, y, tag) { this.x = x; this.y = y; this.tag = tag; } }; globalThis.Point = Point;`)
	ctor, _ := goja.AssertConstructor(run(t, dst, `Point`))
	asked := 0
	clone.SetReadHostKinds(dst, func() []clone.HostKind {
		asked++
		return []clone.HostKind{{Name: "Point", Read: func(f []goja.Value, data []byte) (*goja.Object, error) {
			return ctor(nil, f[0], f[1], dst.ToValue(string(data)))
		}}}
	})
	// dst writes as a realm without kinds: its own Point is an ordinary object to it.
	f, err := clone.Serialize(dst, run(t, dst, `({a: 1, list: [2, {b: 3}], p: new Point(1, 2, "")})`), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clone.Deserialize(dst, f); err != nil {
		t.Fatal(err)
	}
	if asked != 0 {
		t.Fatalf("kinds asked for %d times with no host object read, want 0", asked)
	}
	for i := 0; i < 2; i++ {
		f, err = clone.Serialize(src, run(t, src, `({p: new Point(1, "two", "t")})`), clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := clone.Deserialize(dst, f)
		if err != nil {
			t.Fatal(err)
		}
		check(t, dst, v, `v.p instanceof Point && v.p.x === 1 && v.p.y === "two" && v.p.tag === "t"`)
	}
	if asked != 1 {
		t.Fatalf("kinds asked for %d times, want once", asked)
	}
	bad := goja.New()
	defer clone.SetHostKinds(bad)
	proto := bad.NewObject()
	clone.SetReadHostKinds(bad, func() []clone.HostKind {
		return []clone.HostKind{{Name: "Point", Proto: proto, Write: func(*goja.Object) ([]goja.Value, []byte, bool) { return nil, nil, false },
			Read: func([]goja.Value, []byte) (*goja.Object, error) { return nil, nil }}}
	})
	f, err = clone.Serialize(src, run(t, src, `new Point(1, 2, "")`), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	func() {
		defer func() {
			if x := recover(); x == nil || !strings.Contains(x.(string), "prototype") {
				t.Errorf("a read kind with a prototype: recovered %v, want a panic naming the prototype", x)
			}
		}()
		_, _ = clone.Deserialize(bad, f)
	}()
}
