package capi

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/jsworker/jsworker/clone"
)

// jsonCorpus is valid JSON that exercises every branch of the two converters.
var jsonCorpus = []string{
	`0`, `-0`, `1`, `-1`, `2147483647`, `-2147483648`, `2147483648`, `-2147483649`, `123456789`, `1234567890`,
	`0.5`, `-0.0`, `1e3`, `1E-7`, `1.5e300`, `1e400`, `-1e400`, `1e-400`, `9007199254740993`, `0.1`, `100e-2`,
	`true`, `false`, `null`, ` "x" `, `""`, `"hello"`, `"\u00e9t\u00e9"`, `"été"`, `"日本語"`, `"😀"`, `"\ud83d\ude00"`,
	`"\ud800"`, `"a\udc00b"`, `"\"\\\/\b\f\n\r\t"`, `"\u0001\u001f\u007f"`, `"ÿ"`, `"\u0100"`, `"\uFFFD"`,
	`{}`, `[]`, `[[]]`, `{"a":{}}`, `{"i":1,"s":"hello"}`, `{"b":1,"a":2,"b":3}`, `{"a":1,"a":2}`,
	`{"x":{"k":1,"k":[1,{"k":2,"k":3}]},"x":5,"y":[1,2]}`, `{"__proto__":{"p":1}}`, `{"1":1,"b":2,"0":3}`, `{"b":0,"10":1,"2":2,"01":3,"4294967295":4,"4294967294":5,"-1":6,"2":7}`,
	`{"é":1,"日":2,"\u0000":3}`, `[1,"two",null,true,false,{"a":[]},[0.5,-0]]`, " \t\r\n[ 1 , 2 ]\n",
	`{"key":"` + strings.Repeat("v", 300) + `"}`, `[` + strings.Repeat(`1,`, 200) + `1]`,
	strings.Repeat(`[`, 256) + strings.Repeat(`]`, 256),
	strings.Repeat(`{"a":`, 200) + `1` + strings.Repeat(`}`, 200),
}

// gojaRefuses is the valid JSON that goja's JSON.parse refuses (it parses numbers with encoding/json, which refuses
// an overflow) but JSON.parse in Node and in the specification accept: they give ±Infinity, and so does jsonToFrame.
// An unpaired surrogate escape is another: goja's JSON.parse makes it U+FFFD, Node and jsonToFrame keep it.
var gojaRefuses = map[string]bool{`1e400`: true, `-1e400`: true, `"\ud800"`: true, `"a\udc00b"`: true}

// invalidJSON is text JSON.parse refuses.
var invalidJSON = []string{
	``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{a:1}`, `'x'`, `01`, `1.`, `.5`, `-`, `+1`, `1e`, `1e+`, `0x10`,
	`NaN`, `Infinity`, `tru`, `nul`, `truex`, `"abc`, `"\x"`, `"\u12"`, `"\u12G4"`, "\"a\tb\"", "\"\n\"", `[1 2]`,
	`{"a" 1}`, `{"a":1 "b":2}`, `1 2`, `[`, `"` + "\xff" + `"`, "\"\xc3\"", "\xef\xbb\xbf1", `/*c*/1`, "\u00a01",
}

func TestJSONToFrame_SameBytesAsTheClonesWriter(t *testing.T) {
	rt := goja.New()
	parse, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	for _, text := range jsonCorpus {
		v, err := parse(nil, rt.ToValue(text))
		if err != nil {
			if gojaRefuses[text] {
				continue // compared with Node in TestJSONRoundTrip_SameAsNode
			}
			t.Fatalf("JSON.parse(%q): %v", text, err)
		}
		if gojaRefuses[text] {
			continue
		}
		want, err := clone.Serialize(rt, v, clone.Options{})
		if err != nil {
			t.Fatalf("clone.Serialize(JSON.parse(%q)): %v", text, err)
		}
		got, err := jsonToFrame([]byte(text), 1<<30)
		if err != nil {
			t.Fatalf("jsonToFrame(%q): %v", text, err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("jsonToFrame(%q)\n got % x\nwant % x", text, got.Bytes(), want.Bytes())
		}
		got.Release()
		want.Release()
	}
}

func TestJSONToFrame_RefusesWhatJSONParseRefuses(t *testing.T) {
	rt := goja.New()
	parse, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	for _, text := range invalidJSON {
		_, err := jsonToFrame([]byte(text), 1<<30)
		var se *jsonSyntaxError
		if !errors.As(err, &se) {
			t.Errorf("jsonToFrame(%q) = %v, want a syntax error", text, err)
		}
		if strings.ToValidUTF8(text, "") == text { // goja's JSON.parse takes a string: only valid UTF-8 compares
			if _, err := parse(nil, rt.ToValue(text)); err == nil {
				t.Errorf("goja's JSON.parse accepts %q, which jsonToFrame refuses", text)
			}
		}
	}
}

func TestJSONToFrame_Limits(t *testing.T) {
	var dce *clone.DataCloneError
	if _, err := jsonToFrame([]byte(strings.Repeat(`[`, 258)+strings.Repeat(`]`, 258)), 1<<30); !errors.As(err, &dce) {
		t.Errorf("nesting 258 deep: %v, want a DataCloneError", err)
	}
	if _, err := jsonToFrame([]byte(`{"\ud800":1}`), 1<<30); !errors.As(err, &dce) {
		t.Errorf("a lone surrogate in a name: %v, want a DataCloneError", err)
	}
	big := `["` + strings.Repeat("x", 4000) + `"]`
	if _, err := jsonToFrame([]byte(big), 1000); !errors.Is(err, clone.ErrFrameTooLarge) {
		t.Errorf("4 KB into a 1000-byte limit: %v, want ErrFrameTooLarge", err)
	}
}

// valueCorpus is JavaScript values, each with whether frameJSON converts it without the full path.
var valueCorpus = []struct {
	src  string
	fast bool
}{
	{`({i: 1, s: "hello"})`, true}, {`[1, , 3]`, true}, {`[undefined, null]`, true}, {`({a: undefined, b: 1})`, true},
	{`({a: undefined})`, true}, {`({b: 1, a: undefined})`, true}, {`[NaN, Infinity, -Infinity, -0, 0.1, 1e21, 1e-7]`, true},
	{`"\ud800x\udbff\udfff"`, true}, {`"\u2028\u2029\u007f\u0000"`, true}, {`({"\u00e9": "\u00ff", "k\u0100": [1.5]})`, true},
	{`[123456789012, -2147483648, 5e-324, 1.7976931348623157e308]`, true}, {`"` + strings.Repeat("é", 70) + `"`, true},
	{`new Map([[1, 2]])`, false}, {`new Date(0)`, false}, {`({d: new Date(86400000)})`, false}, {`new Uint8Array(3)`, false},
	{`(() => { const o = {}; return [o, o]; })()`, false}, {`Object.assign([1], {x: 2})`, false}, {`/re/g`, false},
	{`new Set([1])`, false}, {`new Error("e")`, false}, {`new Number(3)`, false}, {`new String("s")`, false},
}

func TestFrameJSON_SameTextAsJSONStringify(t *testing.T) {
	rt := goja.New()
	stringify, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify"))
	for _, c := range valueCorpus {
		v, err := rt.RunString(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		want, err := stringify(nil, v)
		if err != nil {
			t.Fatalf("JSON.stringify(%s): %v", c.src, err)
		}
		f, err := clone.Serialize(rt, v, clone.Options{})
		if err != nil {
			t.Fatalf("clone.Serialize(%s): %v", c.src, err)
		}
		got, undefined, fast := frameJSON(f.Bytes(), nil)
		f.Release()
		if fast != c.fast {
			t.Errorf("%s: fast path %v, want %v", c.src, fast, c.fast)
		}
		if fast && (undefined || string(got) != want.String()) {
			t.Errorf("%s: frameJSON = %q (undefined %v), JSON.stringify = %q", c.src, got, undefined, want.String())
		}
	}
	f, _ := clone.Serialize(rt, goja.Undefined(), clone.Options{})
	defer f.Release()
	if _, undefined, fast := frameJSON(f.Bytes(), nil); !fast || !undefined {
		t.Errorf("undefined: fast %v undefined %v, want both", fast, undefined)
	}
	for _, bad := range [][]byte{nil, []byte("JSWC"), append(frameHeader[:], 'o'), append(frameHeader[:], 'A', 5, '0'),
		append(frameHeader[:], '"', 9, 'a'), append(frameHeader[:], '0', '0'), append(frameHeader[:], 'I')} {
		if _, _, fast := frameJSON(bad, nil); fast {
			t.Errorf("frameJSON(% x) read a truncated or malformed frame", bad)
		}
	}
}

// TestJSONRoundTrip_SameAsNode compares text → frame → text with Node's JSON.stringify(JSON.parse(text)).
func TestJSONRoundTrip_SameAsNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	in, _ := json.Marshal(jsonCorpus)
	cmd := exec.Command(node, "-e", `let s = ""; process.stdin.on("data", d => s += d).on("end", () =>
		process.stdout.write(JSON.stringify(JSON.parse(s).map(t => JSON.stringify(JSON.parse(t))))));`)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("node's output: %v", err)
	}
	for i, text := range jsonCorpus {
		f, err := jsonToFrame([]byte(text), 1<<30)
		if err != nil {
			t.Fatalf("jsonToFrame(%q): %v", text, err)
		}
		got, _, fast := frameJSON(f.Bytes(), nil)
		f.Release()
		if !fast {
			t.Fatalf("%q: not on the fast path", text)
		}
		if string(got) != want[i] {
			t.Errorf("%q: jsworker %s, node %s", text, got, want[i])
		}
	}
}
