"""Python callables as natives inside workers, and worker console output to Python (issue 15)."""

import threading
import unittest

from jsworker import JSError, Worker


class NativesTest(unittest.TestCase):
    def test_worker_calls_python(self):
        threads = []

        def add(a, b):
            threads.append(threading.get_ident())
            return a + b

        def shout(s):
            return {"text": s.upper(), "n": len(s)}

        with Worker("postMessage([add(40, 2), shout('hi'), typeof missing])",
                    natives={"add": add, "shout": shout}) as w:
            self.assertEqual(w.receive(timeout=20), [42, {"text": "HI", "n": 2}, "undefined"])
        self.assertEqual(len(threads), 1)
        self.assertNotEqual(threads[0], threading.get_ident(), "natives run on the worker's thread")

    def test_python_exception_is_thrown_in_javascript(self):
        def boom():
            raise ValueError("no such asset")

        with Worker("try { boom(); postMessage('no throw'); } catch (e) { postMessage(e.message); }",
                    natives={"boom": boom}) as w:
            self.assertEqual(w.receive(timeout=20), "ValueError: no such asset")

    def test_console_to_python(self):
        lines = []
        with Worker("console.log('a %d', 5); console.error('bad'); postMessage('done')",
                    console=lambda level, line: lines.append((level, line))) as w:
            self.assertEqual(w.receive(timeout=20), "done")
        self.assertEqual(lines, [("log", "a 5"), ("error", "bad")])

    def test_setup_failure_fails_creation(self):
        with self.assertRaises(JSError) as cm:
            Worker("postMessage(1)", natives={"": None, 3: print})
        self.assertIn("setup", str(cm.exception))


class BytesTest(unittest.TestCase):
    def test_bytes_through_buffer_memory(self):
        data = bytes(range(256)) * 4096  # 1 MiB: through the buffers' memory, not a Latin-1 string
        with Worker("onmessage = (e) => postMessage([e.data.length, new Uint8Array(e.data.buffer, 10, 5),"
                    " new SharedArrayBuffer(3)])") as w:
            w.post(data)
            n, view, sab = w.receive(timeout=20)
        self.assertEqual(n, len(data))
        self.assertEqual(view, data[10:15])
        self.assertEqual(bytes(sab), b"\0\0\0")  # a SharedArrayBuffer over the worker's bytes (test_shared)

    def test_natives_take_and_return_bytes(self):
        with Worker("postMessage(new Uint8Array(rev(new Uint8Array([1, 2, 3]))))",
                    natives={"rev": lambda b: bytes(reversed(b))}) as w:
            self.assertEqual(w.receive(timeout=20), b"\x03\x02\x01")


if __name__ == "__main__":
    unittest.main()
