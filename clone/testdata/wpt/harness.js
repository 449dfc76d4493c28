// The stand-in for testharness.js and the runner of structured-clone.any.js (see clone/wpt_test.go).
var battery = [];
function sameValue(a, b) {
	if (typeof a === "number" && typeof b === "number") {
		if (a !== a && b !== b) return true;
		if (a === 0 && b === 0) return 1 / a === 1 / b;
	}
	return a === b;
}
function fail(msg) { throw new Error(msg); }
function assert_equals(actual, expected, what) {
	if (!sameValue(actual, expected)) fail((what || "") + ": expected " + String(expected) + ", got " + String(actual));
}
function assert_not_equals(actual, expected, what) {
	if (sameValue(actual, expected)) fail((what || "") + ": got the value it should differ from: " + String(actual));
}
function assert_true(x, what) { if (x !== true) fail((what || "") + ": not true"); }
function assert_false(x, what) { if (x !== false) fail((what || "") + ": not false"); }
function assert_unreached(what) { fail("reached: " + what); }
async function promise_rejects_exactly(t, expected, promise) {
	try { await promise; } catch (e) { assert_equals(e, expected, "rejection"); return; }
	fail("did not reject");
}
async function promise_rejects_dom(t, name, promise) {
	try { await promise; } catch (e) {
		assert_true(e instanceof Error, "an Error");
		assert_equals(e.name, name, "name");
		assert_equals(e.code, 25, "code (DATA_CLONE_ERR)");
		return;
	}
	fail("did not reject");
}
var runner = {
	structuredClone: (obj, transfer) => new Promise(resolve => resolve(self.structuredClone(obj, {transfer}))),
};
var self = globalThis;
