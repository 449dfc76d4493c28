package depthguard

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsonbuiltin"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// MaxJSONDepth is the deepest nesting of arrays and objects JSON.parse accepts (jsonbuiltin.MaxParseDepth): deeper
// text throws the guard's RangeError. V8 parses any depth; this is a deviation, chosen far above what real
// documents use. JSON.stringify throws the same RangeError past jsonbuiltin.MaxStringifyDepth, as V8 does about
// there.
const MaxJSONDepth = jsonbuiltin.MaxParseDepth

// guardJSON gives rt's JSON object jsonbuiltin's parse and stringify (linear, bounded in depth, stoppable), which
// throw the guard's RangeError (fail), run the checkpoint cp (nil for none) every jsonbuiltin.PollEvery steps and
// end the call when the realm is interrupted. When lazy (overflowFor) and the realm has not made JSON yet, that
// happens when goja makes it (jsonMade), so that a realm that never touches JSON never makes it (~6 KiB: the object
// and its four functions); otherwise now.
func guardJSON(rt *goja.Runtime, fail func(), lazy bool, cp *Checkpoint) error {
	if g := rt.GlobalObject(); lazy && gojainternal.Pending(g, "JSON") && gojainternal.AfterMake(g, jsonMade, "JSON") {
		if cp != nil {
			jsonCheckpoint.Set(rt, cp)
		}
		return nil
	}
	return installJSON(jsonRealm(rt, fail, cp), rt.Get("JSON"))
}

// jsonCheckpoint holds the checkpoint of a lazily guarded realm until goja makes its JSON object. It holds no goja
// value (realmdata, "Lifetime"), unless the checkpoint's own functions do, and those are core's, which drops the
// realm's state when the realm ends.
var jsonCheckpoint = realmdata.NewKey[*Checkpoint]("depthguard.json")

// jsonMade installs the builtins when goja makes a lazily guarded realm's JSON object (a template hook: it runs
// while goja makes the property, before any script sees it, and runs no JavaScript).
var jsonMade = gojainternal.NewAfterMake(func(rt *goja.Runtime, _ string, v goja.Value) {
	cp, _ := jsonCheckpoint.Get(rt)
	jsonCheckpoint.Delete(rt)
	if err := installJSON(jsonRealm(rt, func() { throwOverflow(rt) }, cp), v); err != nil {
		panic(rt.NewTypeError("jsworker: the depth guard cannot install JSON: %v", err)) // not reached
	}
})

// jsonRealm is what jsonbuiltin needs of rt: the guard's RangeError, the checkpoint, and the Go stack's depth.
func jsonRealm(rt *goja.Runtime, fail func(), cp *Checkpoint) *jsonbuiltin.Realm {
	r := &jsonbuiltin.Realm{RT: rt, Overflow: fail}
	if haveGoStack {
		r.DeepGo = func() bool { return goStackUsed() > MaxGoStack }
	}
	if cp != nil {
		r.Building = &cp.Building
		r.Poll = func() {
			if cp.Poll != nil {
				cp.Poll()
			}
			if cp.Want.Load() {
				cp.Run()
			}
		}
	}
	return r
}

// installJSON installs jsonbuiltin in jsonVal, rt's JSON object (nothing if the realm has none).
func installJSON(r *jsonbuiltin.Realm, jsonVal goja.Value) error {
	jsonObj, ok := jsonVal.(*goja.Object)
	if !ok {
		return nil // a realm without JSON has nothing to guard
	}
	return jsonbuiltin.Install(r, jsonObj)
}
