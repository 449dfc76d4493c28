//go:build amd64 || arm64

package depthguard

import "unsafe"

// getg returns the running goroutine's runtime g (gostack_*.s).
func getg() unsafe.Pointer

// haveGoStack is true where goStackUsed measures.
const haveGoStack = true

// goStackUsed returns how many bytes of its Go stack the calling goroutine
// uses: the top of the stack (runtime.g.stack.hi, the second word of g, whose
// first field has been the stack's bounds {lo, hi} in every Go release)
// minus the address of a local of this frame. The stack may move when it
// grows, but it moves whole, so the difference stays exact.
//
//go:nosplit
func goStackUsed() uintptr {
	var here byte
	g := getg()
	hi := *(*uintptr)(unsafe.Add(g, unsafe.Sizeof(uintptr(0))))
	return hi - uintptr(unsafe.Pointer(&here))
}
