package jsonbuiltin

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// The fuzz targets compare these builtins with goja's own, in a plain goja runtime, wherever goja follows the
// specification: the same text, or an error in both. Where goja does not (a lone surrogate written as an escape
// in a JSON text, which goja's parser turns into U+FFFD; error messages), the targets leave the input out or
// compare only that both failed.

type pair struct {
	ours, goja *goja.Runtime
}

func newPair(t testing.TB) pair {
	rt, _ := newRealm(t)
	return pair{ours: rt, goja: goja.New()}
}

// eval runs src in rt and returns its string result, or "E:" and the error's name (and the message with msg).
func eval(rt *goja.Runtime, src string, msg bool) string {
	v, err := rt.RunString(src)
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			if o, ok := ex.Value().(*goja.Object); ok {
				if msg {
					return "E:" + o.Get("name").String() + ": " + o.Get("message").String()
				}
				return "E:" + o.Get("name").String()
			}
		}
		return "E:" + err.Error()
	}
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	return "S:" + v.String()
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}],"c":"d"}`, `[1e5, -0, 0.5, "x\n\u00e9", true, false, null]`, ` [ ] `,
		`{"a":1,"a":2}`, `"\\"`, `{"10":1,"2":2,"a":3}`, `[1,]`, `01`, `{"__proto__":1}`, `"\u0000"`, `1 2`, ``, `[[[[[]]]]]`} {
		f.Add(s)
	}
	p := newPair(f)
	f.Fuzz(func(t *testing.T, text string) {
		if low := strings.ToLower(text); strings.Contains(low, `\ud`) || len(text) > 1<<16 {
			t.Skip() // goja reads an escaped surrogate as U+FFFD
		}
		for _, rt := range []*goja.Runtime{p.ours, p.goja} {
			rt.Set("text", text)
		}
		const src = `JSON.stringify(JSON.parse(text)) + "|" + JSON.stringify(Object.keys(JSON.parse("[" + text + "]")[0] || {}))`
		ours, theirs := eval(p.ours, src, false), eval(p.goja, src, false)
		if strings.HasPrefix(theirs, "E:") && strings.HasPrefix(ours, "E:") {
			return
		}
		if ours != theirs {
			t.Fatalf("text %q\n ours %s\n goja %s", text, ours, theirs)
		}
	})
}

// valueSource makes a JavaScript expression of data: nested arrays (with holes) and plain objects (keys that are
// integers, empty, non-ASCII, lone surrogates, toJSON), every primitive, boxed primitives, getters, dates,
// functions and symbols.
func valueSource(data []byte) string {
	i := 0
	next := func() int {
		if i >= len(data) {
			return 0
		}
		i++
		return int(data[i-1])
	}
	strs := []string{`""`, `"a"`, `"é\u2028"`, `"\ud800"`, `"\udc00x\ud83d\ude00"`, `"q\"\\\n\t\u0001\u007f"`, `"𝄞"`, `"10"`}
	keys := []string{`"a"`, `"b"`, `"10"`, `"2"`, `"-1"`, `"01"`, `"é"`, `"\ud800"`, `""`, `"toJSON"`, `"__proto__"`, `"4294967295"`}
	var b strings.Builder
	var val func(depth int)
	// list writes up to four items between open and close.
	list := func(open, close string, item func()) {
		b.WriteString(open)
		for j, n := 0, next()%5; j < n; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			item()
		}
		b.WriteString(close)
	}
	val = func(depth int) {
		k := next() % 17
		if depth > 5 && k >= 10 {
			k %= 10
		}
		switch k {
		case 0:
			b.WriteString("null")
		case 1:
			b.WriteString("true")
		case 2:
			b.WriteString("false")
		case 3:
			b.WriteString(strconv.Itoa(next() - 128))
		case 4:
			b.WriteString("(" + strconv.Itoa(next()<<8|next()) + "/7.3)")
		case 5:
			b.WriteString([]string{"NaN", "Infinity", "-Infinity", "-0", "1e21", "1e-7", "2**53", "5e-324"}[next()%8])
		case 6:
			b.WriteString(strs[next()%len(strs)])
		case 7:
			b.WriteString("undefined")
		case 8:
			b.WriteString([]string{"(function () {})", "(() => 1)", "(function (k) { return 'toJSON:' + k })"}[next()%3])
		case 9:
			b.WriteString("Symbol('s')")
		case 10, 11: // an array, with holes
			list("[", "]", func() {
				if next()%7 != 0 {
					val(depth + 1)
				}
			})
		case 12, 13:
			list("({", "})", func() {
				b.WriteString("[" + keys[next()%len(keys)] + "]:")
				val(depth + 1)
			})
		case 14:
			b.WriteString([]string{"new Number(", "new String(", "new Boolean(", "new Number("}[next()%4]) // not Object(symbol): goja unboxes it, wrongly
			val(depth + 1)
			b.WriteString(")")
		case 15:
			b.WriteString("({get g() { return ")
			val(depth + 1)
			b.WriteString(" }, h: 1})")
		case 16:
			b.WriteString("new Date(" + strconv.Itoa(next()*1e9) + ")")
		}
	}
	val(0)
	return b.String()
}

var indentation = regexp.MustCompile(`\n[ *\t]*`)

func FuzzStringify(f *testing.F) {
	for _, s := range []string{"\x0c\x03\x01\x0b\x06\x02", "\x0a\x04\x03\x05\x0c\x02\x00\x0a\x0e\x08", "\x0d\x04\x09\x0f\x10\x00\x01\x0c"} {
		f.Add([]byte(s), uint8(0))
	}
	p := newPair(f)
	f.Fuzz(func(t *testing.T, data []byte, opts uint8) {
		v := valueSource(data)
		args := []string{"", ", null, " + strconv.Itoa(int(opts%12)), `, null, "*\t"`, `, ["a", "10", 2, "é"]`,
			`, (k, v) => typeof v === "number" ? v + 1 : v`, `, null, new String("* ")`}[opts%6]
		src := "JSON.stringify(" + v + args + ")"
		ours, theirs := eval(p.ours, src, true), eval(p.goja, src, true)
		// goja does not restore the indentation after an empty object ({"a": {}, "b": [1]} indents [1] once too
		// often): compare what is not indentation.
		ours, theirs = indentation.ReplaceAllString(ours, "\n"), indentation.ReplaceAllString(theirs, "\n")
		if ours != theirs {
			t.Fatalf("%s\n ours %s\n goja %s", src, ours, theirs)
		}
	})
}
