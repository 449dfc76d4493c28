package core

import (
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// guardSplit is String.prototype.split(separator, limit) with a string separator: goja makes every piece in one Go
// loop, so `"x".repeat(2**27).split("")` — a 128 MB string — asked for 2**27 strings, some 6 GB, with no checkpoint
// between (found 2026-12-02: Go's fatal out of memory under a memory limit; Node 20 aborts the process too, "Fatal
// JavaScript invalid size error 134217728"). The pieces of a string separator are counted first — the string's
// length for "", its occurrences otherwise, at most limit — and more than maxListLength, or more than the cap holds
// at 48 bytes a piece, is a RangeError "Invalid array length". Only strings long enough to reach either bound are
// counted, so ordinary calls pay one length test. A separator that is an object (a RegExp, anything with
// Symbol.split) is goja's: its method decides what to make.
func guardSplit(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	s, ok := call.This.(goja.String)
	sep, sepOK := call.Argument(0).(goja.String)
	if !ok || !sepOK {
		return orig(call)
	}
	most := min(float64(maxListLength), float64(MaxAllocationBytes)/48)
	if float64(s.Length())+1 <= most {
		return orig(call)
	}
	limit := float64(1<<32 - 1)
	if l := call.Argument(1); !goja.IsUndefined(l) {
		limit = float64(uint32(int64(toInteger(l)))) // ToUint32, as goja converts it after the separator
	}
	pieces := float64(s.Length())
	if sep.Length() > 0 {
		pieces = float64(strings.Count(s.String(), sep.String()) + 1)
	}
	if min(pieces, limit) > most {
		panic(rangeError(rt, "Invalid array length"))
	}
	return orig(call)
}
