"""Inspector sessions: a worker pausing at `debugger;` and resumed from the callback, protocol round trips, a main
context's synchronous session, callback exceptions."""

import threading
import unittest

import jsworker

PAUSER = """var secret = 41;
onmessage = function (e) {
  debugger;
  postMessage(e.data + secret);
};
"""


def response(msgs, n):
    return next((m for m in msgs if m.get("id") == n), None)


class WorkerInspectorTest(unittest.TestCase):
    def test_pause_at_debugger_and_resume_from_callback(self):
        msgs, threads = [], set()
        with jsworker.Worker(PAUSER, inspectable=True) as w:
            def on_message(m):
                msgs.append(m)
                threads.add(threading.get_native_id())
                if m.get("method") == "Debugger.paused":
                    # While paused the worker still answers: evaluate in the paused frame, then resume.
                    session.send("Debugger.evaluateOnCallFrame",
                                 callFrameId=m["params"]["callFrames"][0]["callFrameId"], expression="secret + 1")
                    session.send("Debugger.resume")
            session = w.inspector(on_message)
            self.assertEqual(session.pump(10), jsworker.PumpResult.MESSAGE)
            self.assertEqual(msgs[0]["method"], "Runtime.executionContextsCleared")
            enable = session.send("Debugger.enable")
            session.pump_until(lambda: response(msgs, enable))
            self.assertIn("result", response(msgs, enable))
            w.post(1)
            session.pump_until(lambda: any(m.get("method") == "Debugger.resumed" for m in msgs))
            paused = next(m for m in msgs if m.get("method") == "Debugger.paused")
            self.assertEqual(paused["params"]["callFrames"][0]["location"]["lineNumber"], 2)
            session.pump_until(lambda: response(msgs, enable + 1))
            self.assertEqual(response(msgs, enable + 1)["result"]["result"]["value"], 42)
            self.assertEqual(w.receive(timeout=10), 42)  # the handler finished after the resume
            self.assertEqual(threads, {threading.get_native_id()})  # every message came on this thread
            session.close()

    def test_runtime_evaluate_and_errors(self):
        msgs = []
        with jsworker.Worker("onmessage = () => {}") as w, w.inspector(msgs.append, raw=True) as session:
            n = session.send("Runtime.evaluate", expression="6 * 7")
            session.dispatch('{"id": 100, "method": "Nope.nothing"}')
            session.pump_until(lambda: len(msgs) >= 3)
            self.assertIsInstance(msgs[0], str)
            self.assertIn('"value":42', next(m for m in msgs if '"id":%d,' % n in m))
            self.assertIn("-32601", next(m for m in msgs if '"id":100,' in m))

    def test_session_after_worker_release(self):
        msgs = []
        w = jsworker.Worker("onmessage = () => {}")
        session = w.inspector(msgs.append)
        session.send("Runtime.enable")
        w.close()
        results = []
        while True:
            r = session.pump(10)
            results.append(r)
            if r != jsworker.PumpResult.MESSAGE:
                break
        self.assertEqual(results[-1], jsworker.PumpResult.CLOSED)
        self.assertEqual(msgs[-1]["method"], "Inspector.detached")
        with self.assertRaises(jsworker.InspectorError):
            session.send("Runtime.evaluate", expression="1")
        session.close()

    def test_callback_exception_is_raised_from_pump(self):
        def broken(m):
            raise ValueError("callback failed")
        with jsworker.Worker("onmessage = () => {}") as w, w.inspector(broken) as session:
            with self.assertRaisesRegex(ValueError, "callback failed"):
                session.pump(10)
            session.send("Runtime.evaluate", expression="1")
            with self.assertRaisesRegex(ValueError, "callback failed"):
                session.pump(10)  # the session keeps working after a callback error

    def test_target_info(self):
        with jsworker.Worker("onmessage = () => {}") as w:
            msgs = []
            with w.inspector(msgs.append) as session:
                session.send("Runtime.enable")
                session.pump_until(lambda: any(m.get("method") == "Runtime.executionContextCreated" for m in msgs))
            created = next(m for m in msgs if m.get("method") == "Runtime.executionContextCreated")
            self.assertEqual(created["params"]["context"]["id"], w.info.id)


class ContextInspectorTest(unittest.TestCase):
    def test_synchronous_session(self):
        with jsworker.Context() as ctx:
            with self.assertRaises(jsworker.InspectorError):
                ctx.inspector(lambda m: None)  # not inspectable
            ctx.inspectable = True
            self.assertTrue(ctx.inspectable)
            msgs = []
            with ctx.inspector(msgs.append) as session:
                self.assertEqual(msgs[0]["method"], "Runtime.executionContextsCleared")  # delivered by create
                n = session.send("Runtime.enable")
                self.assertIsNotNone(response(msgs, n))  # answered before send returned
                n = session.send("Runtime.evaluate", expression="[1, 2].length")
                self.assertEqual(response(msgs, n)["result"]["result"]["value"], 2)
                ctx.evaluate("console.log('from the host script')")
                logged = [m for m in msgs if m.get("method") == "Runtime.consoleAPICalled"]
                self.assertEqual(logged[0]["params"]["args"][0]["value"], "from the host script")


if __name__ == "__main__":
    unittest.main()
