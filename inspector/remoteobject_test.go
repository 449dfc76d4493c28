package inspector

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// TestRemoteObject checks the mirror of every type and subtype.
func TestRemoteObject(t *testing.T) {
	if err := gojainternal.Kinds(); err != nil {
		t.Fatal(err)
	}
	st := newSyncTarget()
	s := st.attach()
	defer func() { s.Close(); requireReleased(t, s) }()
	next(t, s)
	date, _ := st.rt.RunString(`String(new Date(0))`)

	tests := []struct {
		expr string
		want remoteObject // ObjectID: "x" means "an objectId is present"
	}{
		{`undefined`, remoteObject{Type: "undefined"}},
		{`null`, remoteObject{Type: "object", Subtype: "null", Value: json.RawMessage(`null`)}},
		{`true`, remoteObject{Type: "boolean", Value: json.RawMessage(`true`)}},
		{`42`, remoteObject{Type: "number", Value: json.RawMessage(`42`), Description: "42"}},
		{`-1.5e-7`, remoteObject{Type: "number", Value: json.RawMessage(`-1.5e-7`), Description: "-1.5e-7"}},
		{`1e21`, remoteObject{Type: "number", Value: json.RawMessage(`1e+21`), Description: "1e+21"}},
		{`NaN`, remoteObject{Type: "number", UnserializableValue: "NaN", Description: "NaN"}},
		{`Infinity`, remoteObject{Type: "number", UnserializableValue: "Infinity", Description: "Infinity"}},
		{`-Infinity`, remoteObject{Type: "number", UnserializableValue: "-Infinity", Description: "-Infinity"}},
		{`-0`, remoteObject{Type: "number", UnserializableValue: "-0", Description: "-0"}},
		{`"str\n"`, remoteObject{Type: "string", Value: json.RawMessage(`"str\n"`)}},
		{`"\uD800x\uD83D\uDE00"`, remoteObject{Type: "string", Value: json.RawMessage(`"\ud800x😀"`)}},
		{`-123n`, remoteObject{Type: "bigint", UnserializableValue: "-123n", Description: "-123n"}},
		{`Symbol("q")`, remoteObject{Type: "symbol", Description: "Symbol(q)", ObjectID: "x"}},
		{`Symbol.iterator`, remoteObject{Type: "symbol", Description: "Symbol(Symbol.iterator)", ObjectID: "x"}},
		{`(function foo(a) { return a; })`, remoteObject{Type: "function", ClassName: "Function", Description: "function foo(a) { return a; }", ObjectID: "x"}},
		{`(class K {})`, remoteObject{Type: "function", ClassName: "Function", Description: "class K {}", ObjectID: "x"}},
		{`(async () => 1)`, remoteObject{Type: "function", ClassName: "Function", Description: "async () => 1", ObjectID: "x"}},
		{`Math.max`, remoteObject{Type: "function", ClassName: "Function", Description: "function max() { [native code] }", ObjectID: "x"}},
		{`({})`, remoteObject{Type: "object", ClassName: "Object", Description: "Object", ObjectID: "x"}},
		{`Object.create(null)`, remoteObject{Type: "object", ClassName: "Object", Description: "Object", ObjectID: "x"}},
		{`new (class Point { get x() { throw 1; } })`, remoteObject{Type: "object", ClassName: "Point", Description: "Point", ObjectID: "x"}},
		{`({ constructor: 5 })`, remoteObject{Type: "object", ClassName: "Object", Description: "Object", ObjectID: "x"}},
		{`globalThis`, remoteObject{Type: "object", ClassName: "Object", Description: "Object", ObjectID: "x"}},
		{`[1, 2, 3]`, remoteObject{Type: "object", Subtype: "array", ClassName: "Array", Description: "Array(3)", ObjectID: "x"}},
		{`(function () { var a = []; a[1e6] = 1; return a; })()`, remoteObject{Type: "object", Subtype: "array", ClassName: "Array", Description: "Array(1000001)", ObjectID: "x"}},
		{`new (class Stack extends Array {})`, remoteObject{Type: "object", Subtype: "array", ClassName: "Stack", Description: "Stack(0)", ObjectID: "x"}},
		{`(function () { return arguments; })(1, 2)`, remoteObject{Type: "object", Subtype: "array", ClassName: "Arguments", Description: "Arguments(2)", ObjectID: "x"}},
		{`/a+b/gi`, remoteObject{Type: "object", Subtype: "regexp", ClassName: "RegExp", Description: "/a+b/gi", ObjectID: "x"}},
		{`new Date(0)`, remoteObject{Type: "object", Subtype: "date", ClassName: "Date", Description: date.String(), ObjectID: "x"}},
		{`new Map([[1, 2], [3, 4]])`, remoteObject{Type: "object", Subtype: "map", ClassName: "Map", Description: "Map(2)", ObjectID: "x"}},
		{`new Set([1])`, remoteObject{Type: "object", Subtype: "set", ClassName: "Set", Description: "Set(1)", ObjectID: "x"}},
		{`new WeakMap()`, remoteObject{Type: "object", Subtype: "weakmap", ClassName: "WeakMap", Description: "WeakMap", ObjectID: "x"}},
		{`new WeakSet()`, remoteObject{Type: "object", Subtype: "weakset", ClassName: "WeakSet", Description: "WeakSet", ObjectID: "x"}},
		{`new TypeError("boom")`, remoteObject{Type: "object", Subtype: "error", ClassName: "TypeError", Description: "TypeError: boom\n\tat <eval>:1:1(2)", ObjectID: "x"}},
		{`Promise.resolve(1)`, remoteObject{Type: "object", Subtype: "promise", ClassName: "Promise", Description: "Promise", ObjectID: "x"}},
		{`new Proxy({}, { get() { throw 1; } })`, remoteObject{Type: "object", Subtype: "proxy", ClassName: "Object", Description: "Proxy(Object)", ObjectID: "x"}},
		{`new Proxy(function () {}, {})`, remoteObject{Type: "function", Subtype: "proxy", ClassName: "Function", Description: "Proxy(Function)", ObjectID: "x"}},
		{`new Uint8Array(3)`, remoteObject{Type: "object", Subtype: "typedarray", ClassName: "Uint8Array", Description: "Uint8Array(3)", ObjectID: "x"}},
		{`new Float64Array(2)`, remoteObject{Type: "object", Subtype: "typedarray", ClassName: "Float64Array", Description: "Float64Array(2)", ObjectID: "x"}},
		{`new ArrayBuffer(8)`, remoteObject{Type: "object", Subtype: "arraybuffer", ClassName: "ArrayBuffer", Description: "ArrayBuffer(8)", ObjectID: "x"}},
		{`new DataView(new ArrayBuffer(4))`, remoteObject{Type: "object", Subtype: "dataview", ClassName: "DataView", Description: "DataView(4)", ObjectID: "x"}},
		{`[].values()`, remoteObject{Type: "object", Subtype: "iterator", ClassName: "Array Iterator", Description: "Array Iterator", ObjectID: "x"}},
		{`new Map().entries()`, remoteObject{Type: "object", Subtype: "iterator", ClassName: "Map Iterator", Description: "Map Iterator", ObjectID: "x"}},
		{`new Set().values()`, remoteObject{Type: "object", Subtype: "iterator", ClassName: "Set Iterator", Description: "Set Iterator", ObjectID: "x"}},
		{`""[Symbol.iterator]()`, remoteObject{Type: "object", Subtype: "iterator", ClassName: "String Iterator", Description: "String Iterator", ObjectID: "x"}},
		{`"a".matchAll(/a/g)`, remoteObject{Type: "object", Subtype: "iterator", ClassName: "RegExp String Iterator", Description: "RegExp String Iterator", ObjectID: "x"}},
		{`(function* () {})()`, remoteObject{Type: "object", Subtype: "generator", ClassName: "Generator", Description: "Generator", ObjectID: "x"}},
		{`new Number(1)`, remoteObject{Type: "object", ClassName: "Number", Description: "Number", ObjectID: "x"}},
		{`new String("s")`, remoteObject{Type: "object", ClassName: "String", Description: "String", ObjectID: "x"}},
	}
	for i, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			dispatch(t, s, `{"id":%d,"method":"Runtime.evaluate","params":{"expression":%q}}`, i, tc.expr)
			msg, r := s.Next(0) // a synchronous target answered before Dispatch returned
			if r != PumpMessage {
				t.Fatalf("Next = %v", r)
			}
			var reply struct {
				Result struct{ Result remoteObject }
			}
			if err := json.Unmarshal(msg, &reply); err != nil {
				t.Fatalf("%v: %s", err, msg)
			}
			got := reply.Result.Result
			if got.ObjectID != "" {
				got.ObjectID = "x"
			}
			if string(got.Value) != string(tc.want.Value) { // compare the JSON texts
				t.Errorf("value = %s, want %s", got.Value, tc.want.Value)
			}
			got.Value, tc.want.Value = nil, nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestJSONString(t *testing.T) {
	rt := goja.New()
	for src, want := range map[string]string{
		`"plain"`:                  `"plain"`,
		`"q\"b\\ \n\r\t\u0001"`:    `"q\"b\\ \n\r\t\u0001"`,
		`"\u2028\u2029"`:           `"\u2028\u2029"`,
		`"é€😀"`:                    `"é€😀"`,
		`"\uD800"`:                 `"\ud800"`,
		`"\uDC00\uD800"`:           `"\udc00\ud800"`,
		`"<script>&"`:              `"<script>&"`,
		`"\uD83D\uDE00\uD83D"`:     `"😀\ud83d"`,
		`String.fromCharCode(0)`:   `"\u0000"`,
		`"x".repeat(3) + "\u00ff"`: `"xxxÿ"`,
	} {
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		got := jsonString(v.(goja.String))
		if string(got) != want {
			t.Errorf("%s: got %s, want %s", src, got, want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: %s is not valid JSON", src, got)
		}
	}
}
