package capi

/*
#include "capi.h"
*/
import "C"

import (
	"slices"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/dop251/goja"
)

// A jsString is what a JSStringRef names: an immutable sequence of UTF-16 code units, reference counted (Create
// Rule), owned by the thread that made it.
type jsString struct {
	h     uintptr
	units []uint16
	refs  int
	cbuf  unsafe.Pointer // a C copy of units for JSStringGetCharactersPtr, made on first use; freed with the string
}

// newString registers a string of units owned by thread tid, with one reference.
func newString(units []uint16, tid int) uintptr {
	s := &jsString{units: units, refs: 1}
	s.h = handles.add(kindString, tid, s)
	return s.h
}

// stringFromGo registers the UTF-16 form of a Go string.
func stringFromGo(s string, tid int) uintptr { return newString(utf16.Encode([]rune(s)), tid) }

// stringFromJS registers the code units of a JavaScript string value (lone surrogates kept).
func stringFromJS(s goja.String, tid int) uintptr {
	units := make([]uint16, s.Length())
	for i := range units {
		units[i] = s.CharAt(i)
	}
	return newString(units, tid)
}

// getString resolves a JSStringRef parameter.
func getString(fn, param string, h uintptr, tid int) (*jsString, error) {
	o, err := resolve(fn, param, h, kindString, tid)
	if err != nil {
		return nil, err
	}
	return o.(*jsString), nil
}

// goString decodes s; a lone surrogate becomes U+FFFD.
func (s *jsString) goString() string {
	ascii := true
	for _, u := range s.units {
		if u >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		b := make([]byte, len(s.units))
		for i, u := range s.units {
			b[i] = byte(u)
		}
		return string(b)
	}
	return string(utf16.Decode(s.units))
}

// jsValue returns s as a JavaScript string, code unit for code unit.
func (s *jsString) jsValue() goja.Value { return goja.StringFromUTF16(s.units) }

func (s *jsString) release() {
	if s.refs--; s.refs > 0 {
		return
	}
	handles.remove(s.h)
	if s.cbuf != nil {
		C.free(s.cbuf)
		s.cbuf = nil
	}
}

// cString reads a NUL-terminated C string; NULL reads as "".
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	return C.GoString((*C.char)(unsafe.Pointer(p)))
}

//export JSStringCreateWithUTF8CString
func JSStringCreateWithUTF8CString(str *byte) (result uintptr) {
	defer fence("JSStringCreateWithUTF8CString", 0, nil)
	return stringFromGo(cString(str), gettid())
}

//export JSStringCreateWithCharacters
func JSStringCreateWithCharacters(chars *uint16, numChars uintptr) (result uintptr) {
	defer fence("JSStringCreateWithCharacters", 0, nil)
	if chars == nil && numChars != 0 {
		return 0
	}
	var units []uint16
	if numChars > 0 {
		units = append([]uint16(nil), unsafeSlice(chars, numChars)...)
	}
	return newString(units, gettid())
}

//export JSStringRetain
func JSStringRetain(str uintptr) (result uintptr) {
	defer fence("JSStringRetain", 0, nil)
	s, err := getString("JSStringRetain", "string", str, gettid())
	if err != nil {
		return 0
	}
	s.refs++
	return str
}

//export JSStringRelease
func JSStringRelease(str uintptr) {
	defer fence("JSStringRelease", 0, nil)
	if s, err := getString("JSStringRelease", "string", str, gettid()); err == nil {
		s.release()
	}
}

//export JSStringGetLength
func JSStringGetLength(str uintptr) (result uintptr) {
	defer fence("JSStringGetLength", 0, nil)
	s, err := getString("JSStringGetLength", "string", str, gettid())
	if err != nil {
		return 0
	}
	return uintptr(len(s.units))
}

//export JSStringGetCharactersPtr
func JSStringGetCharactersPtr(str uintptr) (result *uint16) {
	defer fence("JSStringGetCharactersPtr", 0, nil)
	s, err := getString("JSStringGetCharactersPtr", "string", str, gettid())
	if err != nil {
		return nil
	}
	if s.cbuf == nil {
		n := max(len(s.units), 1)
		s.cbuf = C.malloc(C.size_t(n * 2))
		if s.cbuf == nil {
			return nil
		}
		copy(unsafe.Slice((*uint16)(s.cbuf), n), s.units)
	}
	return (*uint16)(s.cbuf)
}

//export JSStringGetMaximumUTF8CStringSize
func JSStringGetMaximumUTF8CStringSize(str uintptr) (result uintptr) {
	defer fence("JSStringGetMaximumUTF8CStringSize", 0, nil)
	s, err := getString("JSStringGetMaximumUTF8CStringSize", "string", str, gettid())
	if err != nil {
		return 0
	}
	return uintptr(len(s.units))*3 + 1
}

//export JSStringGetUTF8CString
func JSStringGetUTF8CString(str uintptr, buffer *byte, bufferSize uintptr) (result uintptr) {
	defer fence("JSStringGetUTF8CString", 0, nil)
	s, err := getString("JSStringGetUTF8CString", "string", str, gettid())
	if err != nil || buffer == nil || bufferSize == 0 {
		return 0
	}
	return uintptr(encodeUTF8(unsafeSlice(buffer, bufferSize), s.units))
}

// encodeUTF8 writes units as UTF-8 into buf, as many whole characters as fit before a terminating NUL, and returns
// the bytes written including the NUL. Lone surrogates become U+FFFD. len(buf) must be at least 1.
func encodeUTF8(buf []byte, units []uint16) int {
	n := 0
	var tmp [utf8.UTFMax]byte
	for i := 0; i < len(units); i++ {
		r := rune(units[i])
		if utf16.IsSurrogate(r) {
			if i+1 < len(units) {
				if d := utf16.DecodeRune(r, rune(units[i+1])); d != utf8.RuneError {
					r = d
					i++
				} else {
					r = utf8.RuneError
				}
			} else {
				r = utf8.RuneError
			}
		}
		w := utf8.EncodeRune(tmp[:], r)
		if n+w > len(buf)-1 {
			break
		}
		copy(buf[n:], tmp[:w])
		n += w
	}
	buf[n] = 0
	return n + 1
}

//export JSStringIsEqual
func JSStringIsEqual(a, b uintptr) (result bool) {
	defer fence("JSStringIsEqual", 0, nil)
	tid := gettid()
	sa, err := getString("JSStringIsEqual", "a", a, tid)
	if err != nil {
		return false
	}
	sb, err := getString("JSStringIsEqual", "b", b, tid)
	if err != nil {
		return false
	}
	return slices.Equal(sa.units, sb.units)
}

//export JSStringIsEqualToUTF8CString
func JSStringIsEqualToUTF8CString(a uintptr, b *byte) (result bool) {
	defer fence("JSStringIsEqualToUTF8CString", 0, nil)
	sa, err := getString("JSStringIsEqualToUTF8CString", "a", a, gettid())
	if err != nil || b == nil {
		return false
	}
	return slices.Equal(sa.units, utf16.Encode([]rune(cString(b))))
}
