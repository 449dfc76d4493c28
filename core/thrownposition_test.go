package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// An inspectable worker reports an uncaught value that is not an Error object where a plain worker does: at the
// throw statement, with its function's frame. The instrumentation's guards catch and rethrow every exception, and
// goja gives such a value the stack of the instruction that throws it; before the guards' rethrow kept the first
// throw's stack, `throw 1` in f was reported at the top-level call of f (FuzzInstrument's try { throw 1 } finally {}).
func TestInspectable_ThrownValuePosition(t *testing.T) {
	for _, src := range []string{
		"if (1) { throw 1 }",
		"function f() {\n  try { throw 1 } finally { }\n}\nf()",
		"function g() { throw { code: 7 } }\nfunction f() { return g() }\nf()",
		"function f() {\n  try { throw 'x' } catch (e) { throw e + 'y' }\n}\nf()",
		"function f() { throw new TypeError('t') }\ntry { f() } finally { }",
	} {
		report := func(inspectable bool) core.ErrorRecord {
			recs := make(chan core.ErrorRecord, 4)
			w, err := core.Spawn(src, core.Options{Inspectable: inspectable, OnError: func(r core.ErrorRecord) { recs <- r }})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Release()
			select {
			case r := <-recs:
				r.Filename, r.Stack = "", gojainternal.StripStackPC(strings.ReplaceAll(r.Stack, r.Filename, "f.js"))
				return r
			case <-time.After(20 * time.Second):
				t.Fatalf("%q (inspectable %v): no error record", src, inspectable)
				return core.ErrorRecord{}
			}
		}
		plain, inst := report(false), report(true)
		if plain.Line == 0 || plain.Line != inst.Line || plain.Column != inst.Column ||
			plain.Message != inst.Message || plain.Stack != inst.Stack {
			t.Errorf("%q:\nplain        %d:%d %q %q\ninspectable  %d:%d %q %q", src,
				plain.Line, plain.Column, plain.Message, plain.Stack, inst.Line, inst.Column, inst.Message, inst.Stack)
		}
	}
}
