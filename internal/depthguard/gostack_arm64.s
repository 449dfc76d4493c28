#include "textflag.h"

// func getg() unsafe.Pointer: the current goroutine's g; Go code keeps it in R28
// (g) on arm64.
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
