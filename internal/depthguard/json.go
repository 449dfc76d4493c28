package depthguard

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// MaxJSONDepth is the deepest nesting of arrays and objects JSON.parse
// accepts. goja's parser recurses on the Go stack once per level (a text of
// ten million "[" ends the process with a Go stack overflow); V8 parses any
// depth, so this is a deviation, chosen far above what real documents use
// and far below what the Go stack holds (about 100 MB at this depth).
const MaxJSONDepth = 100_000

// jsonDepth returns the deepest nesting of [ and { in text outside string
// literals, stopping as soon as it passes limit. It does not validate: the
// real parser does that next.
func jsonDepth(text string, limit int) int {
	depth, deepest := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return deepest
				}
			}
		case ']', '}':
			depth--
		}
	}
	return deepest
}

// guardJSONParse makes JSON.parse in rt refuse text nested deeper than MaxJSONDepth with the guard's RangeError
// (fail), before goja's parser recurses into it. When lazy (overflowFor) and the realm has not made JSON yet, that
// happens when goja makes it (jsonMade), so that a realm that never touches JSON never makes it (~6 KiB: the object
// and its four functions); otherwise now.
func guardJSONParse(rt *goja.Runtime, fail func(), lazy bool) error {
	if g := rt.GlobalObject(); lazy && gojainternal.Pending(g, "JSON") && gojainternal.AfterMake(g, jsonMade, "JSON") {
		return nil
	}
	return guardParse(rt, rt.Get("JSON"), fail)
}

// jsonMade guards JSON.parse when goja makes a lazily guarded realm's JSON object (a template hook: it runs while
// goja makes the property, before any script sees it, and runs no JavaScript).
var jsonMade = gojainternal.NewAfterMake(func(rt *goja.Runtime, _ string, v goja.Value) {
	if err := guardParse(rt, v, func() { throwOverflow(rt) }); err != nil {
		panic(rt.NewTypeError("jsworker: the depth guard cannot guard JSON.parse: %v", err)) // not reached
	}
})

// guardParse guards the parse function of jsonVal, rt's JSON object, in place (gojainternal.GuardCallOver: the same
// function object, with its name, length and attributes) or, where goja's internals cannot be read or parse is not
// goja's, by replacing it with a function that checks and calls the original with the same arguments, keeping the
// original's name, length and property attributes. Either way the text is converted to a string once, here, and
// the original gets the string.
func guardParse(rt *goja.Runtime, jsonVal goja.Value, fail func()) error {
	jsonObj, ok := jsonVal.(*goja.Object)
	if !ok {
		return nil // a realm without JSON has nothing to guard
	}
	parseVal := jsonObj.Get("parse")
	orig, ok := goja.AssertFunction(parseVal)
	if !ok {
		return nil
	}
	if gojainternal.GuardCallOver(parseVal.(*goja.Object), func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		if len(call.Arguments) > 0 {
			call = goja.FunctionCall{This: call.This, Arguments: checkJSONText(rt, call.Arguments, fail)}
		}
		return orig(call)
	}) {
		return nil
	}
	parse := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		if len(args) > 0 {
			args = checkJSONText(rt, args, fail)
		}
		v, err := orig(call.This, args...)
		if err != nil {
			panic(err) // the SyntaxError (a *goja.Exception), or an uncatchable error, passes on unchanged
		}
		return v
	}).(*goja.Object)
	if err := parse.DefineDataProperty("name", rt.ToValue("parse"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if err := parse.DefineDataProperty("length", rt.ToValue(2), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	return jsonObj.DefineDataProperty("parse", parse, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// checkJSONText converts JSON.parse's text, args[0], to a string (ToString once), throws with fail if it nests
// deeper than MaxJSONDepth, and returns the arguments for goja's parse: the string, then the rest. It never changes
// args, which may be goja's VM stack.
func checkJSONText(rt *goja.Runtime, args []goja.Value, fail func()) []goja.Value {
	text := args[0].String()
	if jsonDepth(text, MaxJSONDepth) > MaxJSONDepth {
		fail()
	}
	return append([]goja.Value{rt.ToValue(text)}, args[1:]...)
}
