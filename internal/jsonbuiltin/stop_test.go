package jsonbuiltin

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// stopRealm is a realm whose builtins call poll at every PollEvery steps.
func stopRealm(t *testing.T, poll func(rt *goja.Runtime)) *goja.Runtime {
	t.Helper()
	rt := goja.New()
	r := &Realm{RT: rt}
	r.Poll = func() { poll(rt) }
	if err := Install(r, rt.Get("JSON").(*goja.Object)); err != nil {
		t.Fatal(err)
	}
	return rt
}

// Each long call ends at the first poll after the realm was interrupted, with the realm's own uncatchable
// interruption: neither catch nor finally runs, and the call does not go on to its end.
func TestStop_EndsTheCallAtThePoll(t *testing.T) {
	for name, src := range map[string]string{
		"parse":             `JSON.parse(big)`,
		"parse reviver":     `JSON.parse(big, (k, v) => v)`,
		"stringify":         `JSON.stringify(arr)`,
		"stringify spaced":  `JSON.stringify(arr, null, 10)`,
		"stringify nested":  `JSON.stringify(nested, null, "\t")`,
		"stringify strings": `JSON.stringify(longs)`,
		"replacer list":     `JSON.stringify(objs, ["a", "b"])`,
	} {
		t.Run(name, func(t *testing.T) {
			polls, armed := 0, false
			rt := stopRealm(t, func(rt *goja.Runtime) {
				if polls++; armed && polls == 3 {
					rt.Interrupt("stop")
				}
			})
			if _, err := rt.RunString(`var big = "[" + "1,".repeat(200000) + "1]", arr = JSON.parse(big),
				longs = Array(20).fill("x".repeat(1 << 22)), objs = JSON.parse("[" + '{"a":1,"b":2,"c":3},'.repeat(99999) + "{}]"), nested = [];
				for (let i = 0, n = nested; i < 100; i++) { const next = []; n.push(next, Array(1000).fill(i)); n = next }`); err != nil {
				t.Fatal(err)
			}
			polls, armed = 0, true
			_, err := rt.RunString(`var after = "not run"; try { ` + src + `; after = "returned" } catch (e) { after = "caught" } finally { after += " finally" }`)
			var ie *goja.InterruptedError
			if !errors.As(err, &ie) || ie.Value() != "stop" {
				t.Fatalf("err = %v, want the interruption", err)
			}
			if polls != 3 {
				t.Fatalf("polled %d times, want the call to end at the third poll", polls)
			}
			rt.ClearInterrupt()
			if v := rt.Get("after"); v.String() != "not run" {
				t.Fatalf("after = %s: the script went on", v)
			}
		})
	}
}

// Without an interruption, polls only count: the result is complete.
func TestStop_PollsWithoutStopping(t *testing.T) {
	polls := 0
	rt := stopRealm(t, func(*goja.Runtime) { polls++ })
	v, err := rt.RunString(`JSON.stringify(JSON.parse("[" + "1,".repeat(100000) + "1]")).length`)
	if err != nil {
		t.Fatal(err)
	}
	if v.ToInteger() != 200003 || polls < 2*100000/PollEvery {
		t.Fatalf("length %v after %d polls", v, polls)
	}
}

// The length of the result is checked as it is written: RangeError "Invalid string length", catchable, with the
// buffer never much longer than the limit.
func TestStringify_InvalidStringLength(t *testing.T) {
	defer func(n int) { maxLength = n }(maxLength)
	maxLength = 1 << 16
	rt, _ := newRealm(t)
	v, err := rt.RunString(`var out = [];
		for (const f of [() => JSON.stringify("x".repeat(1 << 16)), () => JSON.stringify(Array(20000).fill("abc")),
			() => JSON.stringify([[[[1]]]], null, "x".repeat(10)), () => JSON.stringify(Array(9000).fill([[[]]]), null, 10),
			() => JSON.stringify("é".repeat(40000)), () => JSON.stringify(["\ud83d\ude00".repeat(40000)])]) {
			try { out.push(f().length) } catch (e) { out.push(e.name + ": " + e.message) }
		}
		out.join("|")`)
	if err != nil {
		t.Fatal(err)
	}
	const e = "RangeError: Invalid string length"
	if want := strings.Join([]string{e, e, "177", e, "40002", e}, "|"); v.String() != want {
		t.Fatalf("got  %s\nwant %s", v, want)
	}
}

// Nesting past the bounds throws the RangeError the depth guard throws (here the realm's, no guard installed),
// and the realm goes on.
func TestDepth_Bounds(t *testing.T) {
	rt, _ := newRealm(t)
	rt.Set("deepText", strings.Repeat("[", MaxParseDepth+1)+strings.Repeat("]", MaxParseDepth+1))
	rt.Set("okText", strings.Repeat("[", MaxParseDepth)+strings.Repeat("]", MaxParseDepth))
	rt.Set("max", MaxStringifyDepth)
	v, err := rt.RunString(`var out = [];
		const chain = n => { let o = {}; for (let i = 1; i < n; i++) o = {o}; return o };
		for (const f of [() => JSON.parse(deepText), () => JSON.parse(okText).length, () => JSON.stringify(chain(max)).length,
			() => JSON.stringify(chain(max + 1)), () => JSON.parse(okText, (k, v) => v).length,
			() => JSON.parse("[1, 2]", function (k, v) { if (k === "0") this[1] = [JSON.parse(okText)]; return v })]) {
			try { out.push(f()) } catch (e) { out.push(e instanceof RangeError && e.message) }
		}
		out.join("|")`)
	if err != nil {
		t.Fatal(err)
	}
	m := "Maximum call stack size exceeded"
	if want := strings.Join([]string{m, "1", itoa(MaxStringifyDepth*6 - 4), m, "1", m}, "|"); v.String() != want {
		t.Fatalf("got  %s\nwant %s", v, want)
	}
}

// What a call has made so far is in Realm.Building at its polls, growing, and taken back as it ends: by returning,
// by throwing (a syntax error at the end of the text) and by being interrupted.
func TestStop_BuildingIsCountedAndTakenBack(t *testing.T) {
	rt := goja.New()
	var building int64
	var seen []int64
	stop := false
	r := &Realm{RT: rt, Building: &building}
	r.Poll = func() {
		seen = append(seen, building)
		if stop && len(seen) == 3 {
			rt.Interrupt("stop")
		}
	}
	if err := Install(r, rt.Get("JSON").(*goja.Object)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, src string
		stop      bool
		min       int64 // what the third poll must at least see
	}{
		{"parse", `JSON.parse("[" + '{"a":"xxxxxxxx"},'.repeat(20000) + "1]").length`, false, 2 * PollEvery * valueBytes},
		{"parse throws", `try { JSON.parse("[" + "[1],".repeat(20000) + "1,") } catch (e) { e.name }`, false, 2 * PollEvery * valueBytes},
		{"parse stopped", `JSON.parse("[" + "[1],".repeat(20000) + "1]")`, true, 2 * PollEvery * valueBytes},
		{"stringify", `JSON.stringify(new Array(50000), null, 4).length`, false, 2 * PollEvery * 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			seen, stop = nil, c.stop
			_, err := rt.RunString(c.src)
			if c.stop {
				var ie *goja.InterruptedError
				if !errors.As(err, &ie) {
					t.Fatalf("err = %v, want the interruption", err)
				}
				rt.ClearInterrupt()
			} else if err != nil {
				t.Fatal(err)
			}
			if len(seen) < 3 || seen[2] < c.min || seen[1] > seen[2] {
				t.Fatalf("Building at the polls = %v, want it growing, at least %d at the third", seen, c.min)
			}
			if building != 0 {
				t.Fatalf("Building = %d after the call, want 0", building)
			}
		})
	}
}
