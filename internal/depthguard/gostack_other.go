//go:build !amd64 && !arm64

package depthguard

// haveGoStack is false where goStackUsed cannot measure: only the call-stack
// depth is bounded there.
const haveGoStack = false

func goStackUsed() uintptr { return 0 }
