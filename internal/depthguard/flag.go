package depthguard

import (
	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// A Flag is the value every call of a realm's guard returns: undefined until
// Set(true), true after. Plain code discards it; the inspector's instrumented
// code tests it at each function's entry instead of looking up its global hook
// flag, so the native call every guarded function makes anyway also answers
// "is a debugger listening?" (docs/inspector.md, "Hook forms"). Install makes
// one per realm (off); FlagOf finds it.
//
// A Flag belongs to its realm's goroutine: Set and the guard's read are not
// synchronized.
type Flag struct {
	v, yes goja.Value // the value returned; goja's true (ToValue(true) is a value of no realm)
}

// Set sets the value the realm's guard returns: true when on, undefined when
// not (as before any Set).
func (f *Flag) Set(on bool) {
	if on {
		f.v = f.yes
	} else {
		f.v = goja.Undefined()
	}
}

// On reports whether the guard returns true.
func (f *Flag) On() bool { return f.v == f.yes }

// flagKey holds each guarded realm's Flag. The Flag holds no goja object, so a
// realm its owner never drops is still collected (realmdata, "Lifetime").
var flagKey = realmdata.NewKey[*Flag]("depthguard.flag")

// FlagOf returns the Flag of rt's guard, or nil when rt has none (Install was
// not called, or the realm's owner dropped its per-realm state). Callers look
// it up once, when they start to use the realm, and keep it.
func FlagOf(rt *goja.Runtime) *Flag {
	f, _ := flagKey.Get(rt)
	return f
}

// Call returns a call of the guard with every position at at, for code that
// uses the guard's value (Flag) and places the call itself: in a function's
// first statement after its directive prologue, as `Call()` (an expression
// statement), `x = Call()` (an expression statement assigning an identifier),
// or as the test of an if statement in either form. Rewrite recognizes these
// and adds no second call; anywhere else the function gets its own.
func Call(at file.Idx) *ast.CallExpression { return guardCall(at) }

// IsCall reports whether e is a call of the guard (Call).
func IsCall(e ast.Expression) bool { return isGuardExpr(e) }
