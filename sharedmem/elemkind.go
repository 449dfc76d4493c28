package sharedmem

import "github.com/jsworker/jsworker/internal/gojainternal"

// Typed arrays are read through internal/gojainternal (TypedArrayOf), the
// one package that knows goja's layout; Install fails (closed) if that
// package cannot read this goja's typed arrays.

type elemKind = gojainternal.ElemKind

const (
	kindInt8         = gojainternal.ElemInt8
	kindUint8        = gojainternal.ElemUint8
	kindUint8Clamped = gojainternal.ElemUint8Clamped
	kindInt16        = gojainternal.ElemInt16
	kindUint16       = gojainternal.ElemUint16
	kindInt32        = gojainternal.ElemInt32
	kindUint32       = gojainternal.ElemUint32
	kindFloat32      = gojainternal.ElemFloat32
	kindFloat64      = gojainternal.ElemFloat64
	kindBigInt64     = gojainternal.ElemBigInt64
	kindBigUint64    = gojainternal.ElemBigUint64
)

// isInteger reports whether Atomics accepts the kind (Uint8Clamped and the
// float kinds are refused).
func isInteger(k elemKind) bool {
	return k != gojainternal.ElemNone && k != kindUint8Clamped && k != kindFloat32 && k != kindFloat64
}

func isBigInt(k elemKind) bool { return k == kindBigInt64 || k == kindBigUint64 }
