package core_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
)

// A list of an object's own keys longer than V8 makes is refused up front with V8's RangeError, in workers and host
// realms; a list of ordinary length is goja's, and the guarded functions are goja's own (identity, name, length,
// descriptor, source text).
func TestAllocGuard_KeyLists(t *testing.T) {
	const src = `
var big = new Uint8Array(2**27 + 1), small = new Uint8Array([5, 6, 7]);
var out = [];
function tryIt(name, f) {
  try { var r = f(); out.push(name + " = " + JSON.stringify(r)) } catch (e) { out.push(name + ": " + e.name + ": " + e.message) }
}
tryIt("keys", () => Object.keys(big).length);
tryIt("values", () => Object.values(big).length);
tryIt("entries", () => Object.entries(big).length);
tryIt("getOwnPropertyNames", () => Object.getOwnPropertyNames(big).length);
tryIt("getOwnPropertyDescriptors", () => Object.getOwnPropertyDescriptors(big));
tryIt("assign", () => Object.assign({}, small, big));
tryIt("defineProperties", () => Object.defineProperties({}, big));
tryIt("ownKeys", () => Reflect.ownKeys(big).length);
tryIt("small keys", () => Object.keys(small));
tryIt("small entries", () => Object.entries(small));
tryIt("small assign", () => Object.assign({a: 1}, small, "xy"));
tryIt("sparse", () => { var a = [1]; a.length = 2**32 - 1; return Object.keys(a) });
tryIt("identity", () => [Object.keys.name, Object.keys.length, Object.assign.length, Reflect.ownKeys.name,
  JSON.stringify(Object.getOwnPropertyDescriptor(Object, "keys")).replace(/"value":\{\},?/, ""),
  String(Object.keys) === "function keys() { [native code] }", Object.keys === Object.keys]);
out.join("\n")`
	want := `keys: RangeError: Invalid array length
values: RangeError: Invalid array length
entries: RangeError: Invalid array length
getOwnPropertyNames: RangeError: Too many properties to enumerate
getOwnPropertyDescriptors: RangeError: Too many properties to enumerate
assign: RangeError: Too many properties to enumerate
defineProperties: RangeError: Too many properties to enumerate
ownKeys: RangeError: Too many properties to enumerate
small keys = ["0","1","2"]
small entries = [["0",5],["1",6],["2",7]]
small assign = {"0":"x","1":"y","2":7,"a":1}
sparse = ["0"]
identity = ["keys",1,2,"ownKeys","{\"writable\":true,\"enumerable\":false,\"configurable\":true}",true,true]`
	t.Run("worker", func(t *testing.T) {
		w := spawn(t, "postMessage((function () {"+src[:len(src)-len(`out.join("\n")`)]+"return out.join('\\n') })())", core.Options{})
		if got := recv(t, w, goja.New()).String(); got != want {
			t.Fatalf("got:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("host realm", func(t *testing.T) {
		r, err := core.OpenHostRealm(core.HostRealmOptions{Stdout: &testsupport.SyncBuffer{}})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		v, err := r.RunScript("keys.js", src)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.String(); got != want {
			t.Fatalf("got:\n%s\nwant:\n%s", got, want)
		}
	})
}

// split with a string separator counts its pieces first: more than V8 makes is a RangeError (Node 20 aborts the
// process: "Fatal JavaScript invalid size error 134217728"); a limit or a separator that leaves few pieces is
// goja's split.
func TestAllocGuard_SplitPieces(t *testing.T) {
	w := spawn(t, `var s = "xxxxxxxxxxxxxxxx".repeat(2**23) + "x", out = [];
		for (const f of [() => s.split("").length, () => s.split("y").length, () => s.split("xx", 2).join("|"),
		                 () => "a,b,,c".split(",").join("|")]) {
		  try { out.push(f()) } catch (e) { out.push(e.name + ": " + e.message) }
		}
		postMessage(out.join("\n"))`, core.Options{})
	want := "RangeError: Invalid array length\n1\n|\na|b||c"
	if got := recv(t, w, goja.New()).String(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
