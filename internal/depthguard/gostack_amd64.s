#include "textflag.h"

// func getg() unsafe.Pointer: the current goroutine's g (its first field is the
// stack's bounds, [lo, hi)). Go code keeps g in TLS on amd64.
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
