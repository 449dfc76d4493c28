package web

import (
	_ "embed"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/web/encoding"
)

// TextEncoder and TextDecoder in every realm (the WHATWG Encoding standard: UTF-8 encoding; decoding of every
// encoding Node supports without ICU and the CJK ones, through package web/encoding),
// lazy globals like URL: a realm that never uses them pays two accessor properties. The classes are small
// JavaScript wrappers around Go functions that do the byte work.

// installTextGlobals defines the lazy TextEncoder and TextDecoder globals of rt.
func installTextGlobals(rt *goja.Runtime) error {
	var classes *goja.Object // made on first use, on the realm's goroutine
	build := func() *goja.Object {
		if classes == nil {
			v, err := textSource.Call(rt,
				rt.ToValue(func(s string) goja.Value { return newUint8Array(rt, []byte(s)) }),
				rt.ToValue(func(s string, dest goja.Value) goja.Value { return encodeInto(rt, s, dest) }),
				rt.ToValue(func(label string, fatal, ignoreBOM bool) goja.Value { return newDecoder(rt, label, fatal, ignoreBOM) }))
			if err != nil {
				panic(err)
			}
			classes = v.(*goja.Object)
		}
		return classes
	}
	for _, name := range []string{"TextEncoder", "TextDecoder"} {
		if err := jsutil.DefineLazyGlobal(rt, name, func() goja.Value { return build().Get(name) }); err != nil {
			return err
		}
	}
	return nil
}

//go:embed js/encoding.js
var encodingJS string

// textSource builds the TextEncoder and TextDecoder classes of a realm.
var textSource = jsutil.NewSource("jsworker:encoding", encodingJS)

// newUint8Array returns a new Uint8Array of rt holding a copy of b.
func newUint8Array(rt *goja.Runtime, b []byte) goja.Value {
	ctor := rt.GlobalObject().Get("Uint8Array").(*goja.Object)
	v, err := rt.New(ctor, rt.ToValue(rt.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return v
}

// bufferBytes returns the bytes an ArrayBuffer, a SharedArrayBuffer or a view of one covers (the live memory, not
// a copy), or false.
func bufferBytes(v goja.Value) ([]byte, bool) {
	if ab, ok := v.Export().(goja.ArrayBuffer); ok {
		return ab.Bytes(), true
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	buf, ok := o.Get("buffer").(*goja.Object)
	if !ok {
		return nil, false
	}
	ab, ok := buf.Export().(goja.ArrayBuffer)
	if !ok {
		return nil, false
	}
	all := ab.Bytes()
	off, n := o.Get("byteOffset").ToInteger(), o.Get("byteLength").ToInteger()
	if off < 0 || n < 0 || off+n > int64(len(all)) {
		return nil, false
	}
	return all[off : off+n], true
}

// encodeInto writes the UTF-8 of s into dest (a Uint8Array), whole code points only, and reports how many UTF-16
// units it read and bytes it wrote.
func encodeInto(rt *goja.Runtime, s string, dest goja.Value) goja.Value {
	b, ok := bufferBytes(dest)
	if !ok {
		panic(rt.NewTypeError("TextEncoder.encodeInto: the destination must be a Uint8Array"))
	}
	read, written := 0, 0
	for _, r := range s {
		n := utf8.RuneLen(r)
		if n < 0 {
			r, n = utf8.RuneError, 3
		}
		if written+n > len(b) {
			break
		}
		utf8.EncodeRune(b[written:], r)
		written += n
		read += utf16.RuneLen(r)
	}
	res := rt.NewObject()
	_ = res.Set("read", read)
	_ = res.Set("written", written)
	return res
}

// newDecoder makes a TextDecoder's Go side: {encoding, decode(input, stream)} over package web/encoding. An unknown
// label is a RangeError, malformed input in fatal mode a TypeError, each with Node's code.
func newDecoder(rt *goja.Runtime, label string, fatal, ignoreBOM bool) goja.Value {
	d, err := encoding.NewDecoder(label, fatal, ignoreBOM)
	if err != nil {
		panic(codedError(rt, "RangeError", "ERR_ENCODING_NOT_SUPPORTED", err.Error()))
	}
	o := rt.NewObject()
	_ = o.Set("encoding", d.Encoding())
	_ = o.Set("decode", func(input goja.Value, stream bool) string {
		var b []byte
		if input != nil && !goja.IsUndefined(input) {
			var ok bool
			if b, ok = bufferBytes(input); !ok {
				panic(rt.NewTypeError("TextDecoder.decode: the input must be an ArrayBuffer, a SharedArrayBuffer or a view of one"))
			}
		}
		s, err := d.Decode(b, stream)
		if err != nil {
			panic(codedError(rt, "TypeError", "ERR_ENCODING_INVALID_ENCODED_DATA", err.Error()))
		}
		return s
	})
	return o
}

// codedError makes an error of the realm's constructor ctor with Node's code property.
func codedError(rt *goja.Runtime, ctor, code, msg string) goja.Value {
	c, _ := rt.GlobalObject().Get(ctor).(*goja.Object)
	var e *goja.Object
	if c != nil {
		e, _ = rt.New(c, rt.ToValue(msg))
	}
	if e == nil {
		return rt.NewTypeError(msg)
	}
	_ = e.Set("code", code)
	return e
}
