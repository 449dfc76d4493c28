"""Worker: round trips, iteration, errors as exceptions, terminate, close, options, owner-thread rule."""

import threading
import time
import unittest

import jsworker
from jsworker import _lib

DOUBLER = "onmessage = (e) => postMessage(e.data * 2);"
ECHO = "onmessage = (e) => postMessage({ got: e.data, from: name });"


class WorkerTest(unittest.TestCase):
    def test_doubler(self):
        with jsworker.Worker(DOUBLER) as w:
            for i in range(100):
                w.post(i)
            self.assertEqual([w.receive(timeout=10) for _ in range(100)], [2 * i for i in range(100)])

    def test_json_messages(self):
        if not _lib.has_json:
            self.skipTest("the library has no JSON message calls")
        with jsworker.Worker(ECHO, name="echo") as w:
            w.post_json('{"i": 1, "s": "h\\u00e9", "a": [1, 2.5, null]}')
            w.post({"after": True})  # in order with ordinary posts
            w.post_json(b"[true]")
            self.assertEqual(w.receive_json(timeout=10), '{"got":{"i":1,"s":"h\u00e9","a":[1,2.5,null]},"from":"echo"}')
            self.assertEqual(w.receive(timeout=10), {"got": {"after": True}, "from": "echo"})
            self.assertEqual(w.receive_json(timeout=10), '{"got":[true],"from":"echo"}')
            with self.assertRaises(jsworker.JSError) as cm:
                w.post_json("{bad")
            self.assertIn("SyntaxError", str(cm.exception))
            with self.assertRaises(TimeoutError):
                w.receive_json(timeout=0.05)

    def test_structured_round_trip(self):
        value = {"list": [1, "two", {"three": 3.5}], "ok": True, "none": None, "bytes": b"\x00\xfe",
                 "big": 2**70, "text": "ünï\ud800"}
        with jsworker.Worker(ECHO, name="echo") as w:
            w.post(value)
            self.assertEqual(w.receive(timeout=10), {"got": value, "from": "echo"})
            w.post(jsworker.JS("new Map([['k', 1]])"))  # a value Python has no type for
            w.post(jsworker.JS("new Set([1])"))
            self.assertEqual(w.receive(timeout=10)["from"], "echo")
            self.assertEqual(w.receive(timeout=10)["from"], "echo")

    def test_data_clone_error(self):
        with jsworker.Worker(ECHO) as w:
            with self.assertRaises(jsworker.JSError) as cm:
                w.post(jsworker.JS("{ f: function () {} }"))
            self.assertEqual(cm.exception.name, "DataCloneError")
            with self.assertRaises(jsworker.JSError) as cm:
                w.post(jsworker.JS("Symbol('nope')"))
            self.assertEqual(cm.exception.name, "DataCloneError")
            w.post(1)  # nothing was queued by the failures; the worker still works
            self.assertEqual(w.receive(timeout=10)["got"], 1)

    def test_worker_side_data_clone_error_reaches_on_error(self):
        seen = []
        got = threading.Event()

        def on_error(e):
            seen.append((e.name, threading.get_native_id()))
            got.set()
        with jsworker.Worker("onmessage = (e) => postMessage(e.data); postMessage(() => 1);", on_error=on_error) as w:
            self.assertTrue(got.wait(10))
            self.assertEqual(seen[0][0], "DataCloneError")
            self.assertNotEqual(seen[0][1], threading.get_native_id())  # reported on the worker's thread
            w.post("still serving")  # an uncaught error does not end the worker
            self.assertEqual(w.receive(timeout=10), "still serving")

    def test_syntax_error(self):
        with self.assertRaises(jsworker.JSError) as cm:
            jsworker.Worker("onmessage = (")
        self.assertEqual(cm.exception.name, "SyntaxError")
        self.assertTrue(cm.exception.message)

    def test_timeout_and_closed(self):
        with jsworker.Worker(DOUBLER) as w:
            t0 = time.monotonic()
            with self.assertRaises(TimeoutError):
                w.receive(timeout=0.05)
            self.assertGreaterEqual(time.monotonic() - t0, 0.04)
            with self.assertRaises(TimeoutError):
                w.receive(timeout=0)
            w.post(1)
            w.post(2)
            w.end()  # graceful: the queued messages are still handled
            with self.assertRaises(jsworker.JSError) as cm:
                w.post(3)
            self.assertEqual(cm.exception.name, "InvalidStateError")
            self.assertEqual(list(w), [2, 4])
            with self.assertRaises(jsworker.WorkerClosedError):
                w.receive(timeout=1)
            self.assertEqual(w.info.state, jsworker.TargetState.CLOSED)

    def test_iteration(self):
        src = "for (let i = 0; i < 5; i++) postMessage(i); close();"
        with jsworker.Worker(src) as w:
            self.assertEqual(list(w), [0, 1, 2, 3, 4])

    def test_terminate_spinning_worker(self):
        with jsworker.Worker("postMessage('spinning'); for (;;) {}") as w:
            self.assertEqual(w.receive(timeout=10), "spinning")
            t0 = time.monotonic()
            w.terminate()
            with self.assertRaises(jsworker.WorkerClosedError):
                w.receive(timeout=10)
            self.assertLess(time.monotonic() - t0, 5)
        # and release without terminate first: close() itself interrupts the loop
        w = jsworker.Worker("for (;;) {}")
        t0 = time.monotonic()
        w.close()
        self.assertLess(time.monotonic() - t0, 5)

    def test_options_and_info(self):
        with jsworker.Worker("postMessage([name, 1])", name="opt", dedicated_thread=True,
                             inbox=jsworker.Limits(64, 0, 0)) as w:
            self.assertEqual(w.receive(timeout=10), ["opt", 1])
            info = w.info
            self.assertGreater(info.id, 0)
            self.assertEqual(info.kind, jsworker.TargetKind.SCRIPT)
            with self.assertRaises(jsworker.JSError) as cm:
                w.post("x" * 1000)  # over the 64-byte message limit
            self.assertEqual(cm.exception.name, "RangeError")

    def test_explicit_context(self):
        with jsworker.Context() as ctx, jsworker.Worker(DOUBLER, context=ctx) as w:
            w.post(5)
            self.assertEqual(w.receive(timeout=10), 10)

    def test_released_worker(self):
        w = jsworker.Worker(DOUBLER)
        w.close()
        with self.assertRaises(jsworker.ReleasedError):
            w.post(1)
        w.close()


class ThreadTest(unittest.TestCase):
    def run_in_thread(self, fn):
        out = {}

        def body():
            try:
                out["result"] = fn()
            except BaseException as e:
                out["error"] = e
        t = threading.Thread(target=body)
        t.start()
        t.join(30)
        return out

    def test_wrong_thread_raises(self):
        ctx = jsworker.Context()
        w = jsworker.Worker(DOUBLER)
        session = w.inspector(lambda m: None)
        for name, call in [("post", lambda: w.post(1)), ("receive", lambda: w.receive(0)),
                           ("terminate", w.terminate), ("close", w.close), ("info", lambda: w.info),
                           ("evaluate", lambda: ctx.evaluate("1")), ("globals", lambda: ctx.globals["x"]),
                           ("context close", ctx.close), ("pump", lambda: session.pump(0)),
                           ("session close", session.close)]:
            out = self.run_in_thread(call)
            self.assertIsInstance(out.get("error"), jsworker.WrongThreadError, name)
            self.assertIn("belongs to thread", str(out["error"]))
        # Nothing was done: everything still works on the owner thread.
        w.post(21)
        self.assertEqual(w.receive(timeout=10), 42)
        self.assertEqual(ctx.evaluate("6 * 7"), 42)
        self.assertEqual(session.pump(5), jsworker.PumpResult.MESSAGE)
        session.close()
        w.close()
        ctx.close()

    def test_library_refuses_another_thread_too(self):
        # Past the Python check, straight to the C library: another thread's terminate is refused.
        with jsworker.Worker(DOUBLER) as w:
            raw = w._handle
            self.run_in_thread(lambda: _lib.lib.JSWorkerTerminate(raw))
            w.post(1)
            self.assertEqual(w.receive(timeout=10), 2)

    def test_workers_on_several_threads(self):
        def job(n):
            with jsworker.Worker(DOUBLER) as w:
                for i in range(n):
                    w.post(i)
                return sum(w.receive(timeout=10) for _ in range(n))
        outs = []
        threads = [threading.Thread(target=lambda: outs.append(self.run_in_thread(lambda: job(50))))
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual([o.get("result") for o in outs], [2450] * 4)


if __name__ == "__main__":
    unittest.main()
