"""Context: evaluation, the value mapping both ways, globals, JavaScript exceptions as JSError."""

import datetime
import math
import unittest

import jsworker


class ContextTest(unittest.TestCase):
    def setUp(self):
        self.ctx = jsworker.Context()

    def tearDown(self):
        self.ctx.close()

    def test_version(self):
        self.assertRegex(jsworker.library_version(), r"^\d+\.\d+\.\d+$")

    def test_evaluate_values(self):
        ev = self.ctx.evaluate
        self.assertIsNone(ev("undefined"))
        self.assertIsNone(ev("null"))
        self.assertIs(ev("1 < 2"), True)
        self.assertEqual(ev("6 * 7"), 42)
        self.assertIsInstance(ev("6 * 7"), int)
        self.assertEqual(ev("1 / 4"), 0.25)
        self.assertTrue(math.isnan(ev("NaN")))
        self.assertEqual(ev("-Infinity"), -math.inf)
        self.assertEqual(math.copysign(1, ev("-0")), -1.0)
        self.assertEqual(ev("2 ** 60"), float(2**60))
        self.assertEqual(ev("10n ** 30n"), 10**30)
        self.assertEqual(ev("'h\\u00e9llo \\u{1F600}'"), "héllo 😀")
        self.assertEqual(ev("'a\\uD800b'"), "a\ud800b")  # a lone surrogate survives
        self.assertEqual(ev("[1, [2, 'x'], {k: null}]"), [1, [2, "x"], {"k": None}])
        self.assertEqual(ev("({b: 1, a: [true]})"), {"b": 1, "a": [True]})
        self.assertEqual(ev("new Uint8Array([0, 1, 255])"), b"\x00\x01\xff")
        self.assertEqual(ev("new Uint16Array([1, 256]).buffer"), b"\x01\x00\x00\x01")
        self.assertEqual(ev("new DataView(new Uint8Array([9, 8, 7]).buffer, 1)"), b"\x08\x07")
        sab = ev("(() => { const s = new SharedArrayBuffer(2); new Uint8Array(s)[1] = 5; return s })()")
        self.assertIsInstance(sab, jsworker.SharedArrayBuffer)  # its bytes, shared (test_shared)
        self.assertEqual(bytes(sab), b"\x00\x05")
        self.assertEqual(ev("new Int32Array(new SharedArrayBuffer(4))"), b"\0\0\0\0")  # a view: a copy
        self.assertEqual(ev("new Date(86400000)"),
                         datetime.datetime(1970, 1, 2, tzinfo=datetime.timezone.utc))
        f = ev("(function answer() { return 42 })")
        self.assertIsInstance(f, jsworker.Opaque)
        self.assertEqual(f.kind, "function")
        self.assertIn("answer", f.text)
        self.assertEqual(ev("Symbol('s')").kind, "symbol")

    def test_python_to_js_round_trip(self):
        values = [None, True, False, 0, -7, 2**53, 2**64, -(2**70), 1.5, "", "ünïcödé 😀", "x\udc00",
                  [1, "two", [3.5]], {"a": {"b": [None]}}, b"", b"\x00\x80\xff" * 1000, bytearray(b"ab"),
                  datetime.datetime(2020, 5, 17, 12, 30, tzinfo=datetime.timezone.utc)]
        for v in values:
            self.ctx.globals["v"] = v
            want = bytes(v) if isinstance(v, bytearray) else v
            self.assertEqual(self.ctx.globals["v"], want, repr(v)[:60])
        self.ctx.globals["t"] = (1, 2)
        self.assertEqual(self.ctx.evaluate("Array.isArray(t) && t.length"), 2)
        self.ctx.globals["u8"] = b"\x01\x02"
        self.assertIs(self.ctx.evaluate("u8 instanceof Uint8Array"), True)
        self.ctx.globals["big"] = 2**64
        self.assertEqual(self.ctx.evaluate("typeof big"), "bigint")

    def test_unconvertible_python_values(self):
        with self.assertRaises(TypeError):
            self.ctx.globals["x"] = object()
        with self.assertRaises(TypeError):
            self.ctx.globals["x"] = {1: "not a str key"}
        deep = []
        for _ in range(300):
            deep = [deep]
        with self.assertRaises(ValueError):
            self.ctx.globals["x"] = deep

    def test_js_marker(self):
        self.ctx.globals["m"] = jsworker.JS("new Map([[1, 'one']])")
        self.assertEqual(self.ctx.evaluate("m.get(1)"), "one")

    def test_globals(self):
        g = self.ctx.globals
        self.assertNotIn("answer", g)
        with self.assertRaises(KeyError):
            g["answer"]
        g["answer"] = 42
        self.assertIn("answer", g)
        self.assertEqual(self.ctx.evaluate("answer + 1"), 43)
        self.ctx.evaluate("var fromScript = 'yes'")
        self.assertEqual(g["fromScript"], "yes")
        self.assertEqual(g.get("missing", "default"), "default")
        del g["answer"]
        self.assertNotIn("answer", g)

    def test_call(self):
        self.assertEqual(self.ctx.call("Math.max", 3, 9, 4), 9)
        self.assertEqual(self.ctx.call("(a, b) => a.concat(b)", [1], [2, 3]), [1, 2, 3])
        with self.assertRaises(TypeError):
            self.ctx.call("42")

    def test_js_exceptions(self):
        with self.assertRaises(jsworker.JSError) as cm:
            self.ctx.evaluate("function thrower() { throw new RangeError('too far') }\nthrower()", "script.js")
        e = cm.exception
        self.assertEqual(e.name, "RangeError")
        self.assertEqual(e.message, "too far")
        self.assertIn("thrower", e.stack)
        self.assertIn("script.js", e.stack)
        self.assertEqual(str(e), "RangeError: too far")
        with self.assertRaises(jsworker.JSError) as cm:
            self.ctx.evaluate("throw 'a string'")
        self.assertEqual(cm.exception.message, "a string")
        self.assertIsNone(cm.exception.stack)
        with self.assertRaises(jsworker.JSError) as cm:
            self.ctx.evaluate("let x = ;")
        self.assertEqual(cm.exception.name, "SyntaxError")
        self.assertEqual(self.ctx.evaluate("1 + 1"), 2)  # still usable

    def test_closed_context(self):
        ctx = jsworker.Context()
        with ctx:
            self.assertEqual(ctx.evaluate("1"), 1)
        self.assertTrue(ctx.closed)
        with self.assertRaises(jsworker.ReleasedError):
            ctx.evaluate("1")
        ctx.close()  # idempotent


if __name__ == "__main__":
    unittest.main()
