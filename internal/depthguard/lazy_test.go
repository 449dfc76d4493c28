package depthguard

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// lazyNames are what Install leaves to goja's templates: the global object's, and Array.prototype's.
var lazyNames = []struct {
	array bool
	name  string
}{{false, "RangeError"}, {false, "JSON"}, {false, "Array"}, {true, "join"}, {true, "toString"}, {true, "toLocaleString"}}

// guardChecks checks what the guard does to JSON.parse and Array.prototype's methods, and what a script sees of
// them (compared with a plain goja runtime by the tests): DEEP converts a nested array NESTED levels deep.
const guardChecks = `(function () {
	var attrs = function (o, k) { return JSON.stringify(Object.getOwnPropertyDescriptor(o, k), ["writable", "enumerable", "configurable"]) };
	var own = function (f) { return Reflect.ownKeys(f).map(function (k) { return String(k) + attrs(f, k) }).join(" ") };
	var out = [];
	try { JSON.parse("[".repeat(MAX + 1)); out.push("parsed") } catch (e) { out.push(e instanceof RangeError && e.message) }
	var a = [];
	for (var i = 0; i < NESTED; i++) a = [a];
	try { DEEP; out.push("converted") } catch (e) { out.push(e instanceof RangeError && e.message) }
	out.push("|");
	["join", "toString", "toLocaleString"].forEach(function (n) {
		var f = Array.prototype[n];
		out.push(n, f === Array.prototype[n], f === [][n], f.name, f.length, attrs(Array.prototype, n), own(f), String(f));
	});
	out.push(JSON.parse === JSON.parse, JSON.parse.name, JSON.parse.length, attrs(JSON, "parse"), own(JSON.parse), String(JSON.parse),
		Object.getOwnPropertyNames(JSON).join(), Object.getOwnPropertyNames(Array.prototype).join(),
		JSON.parse("[1,[2]]")[1][0], [1, [2, 3]].join("-"), String([1, [2]]), [1, [2]].toLocaleString(),
		Array.prototype.toString === Object.getPrototypeOf(Int8Array.prototype).toString); // true, as in Node
	return out.join();
})()`

const lazyNested = 100_000 // deep enough to pass MaxGoStack in join's recursion (about 1.1 KB a level)

// runChecks runs guardChecks, converting the nested array with deep, in rt guarded (Rewrite) or plain.
func runChecks(t *testing.T, rt *goja.Runtime, deep string, guarded bool) string {
	t.Helper()
	nested := lazyNested
	if !guarded {
		nested = 1 // goja alone converts any depth this machine holds: the profile is what is compared
	}
	src := strings.NewReplacer("MAX", strconv.Itoa(MaxJSONDepth), "NESTED", strconv.Itoa(nested), "DEEP", deep).Replace(guardChecks)
	compile := Compile
	if !guarded {
		compile = goja.Compile
	}
	prg, err := compile("checks.js", src, false)
	if err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunProgram(prg)
	if err != nil {
		t.Fatal(err)
	}
	return v.String()
}

// checkGuarded compares guardChecks in rt, guarded, with a plain runtime: the deep text and array throw the guard's
// RangeError there, and everything else is as in goja.
func checkGuarded(t *testing.T, rt *goja.Runtime, deep string) {
	t.Helper()
	got := runChecks(t, rt, deep, true)
	want := runChecks(t, goja.New(), deep, false)
	want = Message + "," + Message + want[strings.Index(want, ",|"):]
	want = strings.Replace(want, ",parse,stringify,rawJSON,isRawJSON,", ",parse,stringify,", 1) // Node 20 has neither (jsonbuiltin.Install)
	if !haveGoStack {
		want = strings.Replace(want, Message+","+Message, Message+",converted", 1)
	}
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestInstall_MakesNothing: Install leaves JSON, RangeError, the Array constructor and Array.prototype's join,
// toString and toLocaleString to goja's templates; each is guarded when first touched, late, and looks as in goja.
func TestInstall_MakesNothing(t *testing.T) {
	rt := goja.New()
	if err := Install(rt, 1000); err != nil {
		t.Fatal(err)
	}
	proto := rt.NewArray().Prototype()
	for _, n := range lazyNames {
		o := rt.GlobalObject()
		if n.array {
			o = proto
		}
		if !gojainternal.Pending(o, n.name) {
			t.Errorf("Install made %s", n.name)
		}
	}
	prg, err := Compile("t.js", `function f(){ return f() } try { f() } catch (e) { e instanceof RangeError && e.message }`, false)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := rt.RunProgram(prg); err != nil || v.String() != Message {
		t.Fatalf("got %v, %v", v, err)
	}
	checkGuarded(t, rt, "a.join()")
}

// TestInstall_MadeBefore: builtins a realm made before Install (a host's code ran first) are guarded in place, and the
// guard throws goja's own RangeError, not a replacement the global holds.
func TestInstall_MadeBefore(t *testing.T) {
	rt := goja.New()
	_, err := rt.RunString(`var held = [JSON.parse, Array.prototype.join, [].toString, [].toLocaleString, RangeError];
		globalThis.RangeError = function Fake() {}; held`)
	if err != nil {
		t.Fatal(err)
	}
	if err := Install(rt, 1000); err != nil {
		t.Fatal(err)
	}
	prg, err := Compile("t.js", `var out = [held[0] === JSON.parse, held[1] === Array.prototype.join, held[2] === [].toString,
		held[3] === [].toLocaleString];
		function f(){ return f() } try { f() } catch (e) { out.push(e instanceof held[4], e.constructor === held[4], e.message) }
		try { held[0]("[".repeat(`+strconv.Itoa(MaxJSONDepth+1)+`)) } catch (e) { out.push(e instanceof held[4]) }
		globalThis.RangeError = held[4]; out.join()`, false)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := rt.RunProgram(prg); err != nil || v.String() != "true,true,true,true,true,true,"+Message+",true" {
		t.Fatalf("got %v, %v", v, err)
	}
	checkGuarded(t, rt, "String(a)")
}

// TestInstall_Eager: where goja's internals cannot be read, the guard is installed at once, with wrappers, and does
// the same.
func TestInstall_Eager(t *testing.T) {
	restore := gojainternal.SimulateChange(errors.New("test"))
	defer restore()
	rt := goja.New()
	if err := Install(rt, 1000); err != nil {
		t.Fatal(err)
	}
	if !haveGoStack {
		t.Skip("the Go stack is not measured on this architecture")
	}
	got := runChecks(t, rt, "a.toLocaleString()", true)
	if !strings.HasPrefix(got, Message+","+Message+",|,join,true,true,join,1,") {
		t.Fatalf("got %s", got)
	}
}
