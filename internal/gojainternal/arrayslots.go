package gojainternal

import (
	"unsafe"

	"github.com/dop251/goja"
)

// ArraySlots returns how many element slots o holds if o is goja's usual (dense) array: an upper bound of its own
// elements (holes take a slot), which its length is not (`a.length = 2**32 - 1` adds none). false means "not
// known": another kind of array, or the probe failed. It runs no JavaScript.
func ArraySlots(o *goja.Object) (int, bool) {
	if o == nil || loadArrays() != nil || selfOf(o).tab != kinds.arrayTab {
		return 0, false
	}
	return len(*(*[]goja.Value)(unsafe.Add(selfOf(o).data, arrays.values))), true
}
