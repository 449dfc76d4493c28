package depthguard

import (
	"github.com/dop251/goja"
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

// wrapJSONParse replaces JSON.parse in rt with a function that refuses text
// nested deeper than MaxJSONDepth with a RangeError, before goja's parser
// recurses into it, and otherwise calls the original with the same
// arguments. The replacement keeps the original's name, length and property
// attributes.
func wrapJSONParse(rt *goja.Runtime, fail func()) error {
	jsonObj, ok := rt.Get("JSON").(*goja.Object)
	if !ok {
		return nil // a realm without JSON has nothing to guard
	}
	orig, ok := goja.AssertFunction(jsonObj.Get("parse"))
	if !ok {
		return nil
	}
	parse := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		if len(args) > 0 {
			text := args[0].String() // ToString once, here: the original gets the string
			if jsonDepth(text, MaxJSONDepth) > MaxJSONDepth {
				fail()
			}
			args = append([]goja.Value{rt.ToValue(text)}, args[1:]...)
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
