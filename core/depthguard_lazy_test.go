package core_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// The depth guard's builtins (internal/depthguard) are guarded when goja makes them: JSON, whose parse refuses text
// nested deeper than depthguard.MaxJSONDepth, and Array.prototype's join, toString and toLocaleString, which check
// the Go stack. These tests touch each first in every way the allocation guard's tests do (firstTouches), late (in a
// worker, after its first message), and check that each keeps goja's own profile and stays guarded.

// depthTargets are the lazily guarded builtins, as holder and name.
var depthTargets = []struct{ holder, name string }{
	{"globalThis", "JSON"}, {"Array.prototype", "join"}, {"Array.prototype", "toString"}, {"Array.prototype", "toLocaleString"},
}

// depthProfile describes X, the property holder.name (and for JSON, its parse): what a script can see of it.
const depthProfile = `(function (X, holder, name) {
	var attrs = function (o, k) { return JSON.stringify(Object.getOwnPropertyDescriptor(o, k), ["writable", "enumerable", "configurable"]) };
	var desc = function (X, holder, name) {
		var own = Reflect.ownKeys(X).map(function (k) { return String(k) + attrs(X, k) }).join(" ");
		return [typeof X, X.name, X.length, attrs(holder, name), Object.getOwnPropertyDescriptor(holder, name).value === X,
			holder[name] === X, own, Object.getPrototypeOf(X) === Function.prototype, String(X)].join("/");
	};
	var r = [desc(X, holder, name)];
	if (typeof X !== "function") r.push(desc(X.parse, X, "parse"), JSON.parse === JSON.parse);
	return r.join("|");
})`

// depthChecks checks the guard of every target: JSON.parse past the depth limit throws the guard's RangeError, and
// shallow JSON and arrays still work; DEEP is "" or a conversion of an array nested NESTED levels deep, which throws
// the guard's RangeError too.
const depthChecks = `(function () {
	var out = [];
	try { JSON.parse("[".repeat(MAX + 1) + "]".repeat(MAX + 1)); out.push("parsed") } catch (e) { out.push(e instanceof RangeError && e.message) }
	out.push(JSON.parse('{"a":[1,{"b":2}]}', function (k, v) { return typeof v === "number" ? v * 10 : v }).a[1].b);
	out.push(String([[1, [2]], 3]), [1, [2, 3]].join("-"), [1, [2]].toLocaleString());
	var DEEP = "";
	if (DEEP) {
		var a = [];
		for (var i = 0; i < NESTED; i++) a = [a];
		try { DEEP; out.push("converted") } catch (e) { out.push(e instanceof RangeError && e.message) }
	}
	return out.join();
})()`

// nested is how deep depthChecks nests its array: deep enough to pass depthguard.MaxGoStack of Go stack in
// Array.prototype.join's recursion (about 1.1 KB a level, less under the race detector), which takes a second, or
// seven under the race detector.
const nested = 100_000

// deepConversions are the conversions of the nested array a, for each target on Array.prototype.
var deepConversions = map[string]string{"join": "a.join()", "toString": "String(a)", "toLocaleString": "a.toLocaleString()"}

// depthCheckSource is depthChecks with deep, a conversion of the nested array a, or none.
func depthCheckSource(deep string) string {
	r := strings.NewReplacer("MAX", strconv.Itoa(depthguard.MaxJSONDepth), "NESTED", strconv.Itoa(nested), `DEEP = ""`, "DEEP = "+strconv.Quote(deep), "DEEP;", deep+";")
	return r.Replace(depthChecks)
}

// depthCheckWant is depthChecks' answer, with a deep conversion or without.
func depthCheckWant(deep bool) string {
	w := depthguard.Message + ",20,1,2,3,1-2,3,1,2"
	if deep {
		w += "," + depthguard.Message
	}
	return w
}

// rawJSONProps are goja's JSON.rawJSON and JSON.isRawJSON as depthProfile lists them.
var rawJSONProps = regexp.MustCompile(` (rawJSON|isRawJSON)\{[^}]*\}`)

func TestDepthGuard_LazyFirstTouch(t *testing.T) {
	answer := func(v goja.Value, err error) string {
		if err != nil {
			return "error: " + strings.SplitN(err.Error(), " at ", 2)[0]
		}
		return v.String()
	}
	for touch, src := range firstTouches {
		for _, tg := range depthTargets {
			ref, with := tg.name, "{}"
			if tg.holder != "globalThis" {
				ref, with = tg.holder+"."+tg.name, tg.holder
			}
			r := strings.NewReplacer("REF", ref, "WITH", with, "HOLDER", tg.holder, "NAME", tg.name)
			profileSrc := `(function () { var X = ` + r.Replace(src) + `; return ` + depthProfile + `(X, ` + tg.holder + `, "` + tg.name + `") })()`
			h, _ := openRealm(t, core.HostRealmOptions{})
			got, want := answer(h.RunScript("touch.js", profileSrc)), answer(goja.New().RunString(profileSrc))
			want = rawJSONProps.ReplaceAllString(want, "")                                                   // Node 20 has neither (internal/jsonbuiltin.Install)
			if got != want || strings.HasPrefix(got, "error") && !(touch == "typeof" && tg.name == "JSON") { // typeof JSON is "object"
				t.Errorf("%s first touched by %s:\n got %s\nwant %s (plain goja)", tg.name, touch, got, want)
			}
			deep := deepConversions[tg.name]
			if touch != "plain" || testing.Short() && underRace && tg.name != "join" {
				deep = "" // one deep conversion a builtin (join's only, -short under -race): each takes seconds
			}
			if got, want := answer(h.RunScript("check.js", depthCheckSource(deep))), depthCheckWant(deep != ""); got != want {
				t.Errorf("%s first touched by %s, then the guard:\n got %s\nwant %s", tg.name, touch, got, want)
			}
			h.Close()
		}
	}
}

// TestDepthGuard_LazyInWorker: a worker that first touches JSON and Array.prototype's methods in its message handler,
// after a first message, has them guarded; the identity of each holds across reads, and the overflow's RangeError
// is goja's own even where the script replaced the global RangeError first.
func TestDepthGuard_LazyInWorker(t *testing.T) {
	w := spawn(t, `var R = RangeError, n = 0;
		onmessage = function () {
			if (n++ === 0) { postMessage("first"); return }
			globalThis.RangeError = function Fake() {};
			var ids = [Array.prototype.join === [].join, [].toString === Array.prototype.toString, [].toLocaleString === [].toLocaleString,
				JSON.parse === globalThis.JSON.parse, Array.prototype.join.name, Array.prototype.join.length];
			try { JSON.parse("[".repeat(`+strconv.Itoa(depthguard.MaxJSONDepth+1)+`)) } catch (e) { ids.push(e instanceof R, e.constructor === R) }
			globalThis.RangeError = R;
			postMessage(ids.join() + "|" + `+depthCheckSource("a.join()")+`);
		}`, core.Options{})
	rt := goja.New()
	post(t, w, rt, 1)
	if got := recv(t, w, rt).String(); got != "first" {
		t.Fatalf("got %q", got)
	}
	post(t, w, rt, 2)
	v, err := w.Receive(rt, 5*time.Minute) // the deep join takes seconds under the race detector
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.String(), "true,true,true,true,join,1,true,true|"+depthCheckWant(true); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
