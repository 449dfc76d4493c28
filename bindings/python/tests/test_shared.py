"""SharedArrayBuffer as a writable memoryview shared with workers (ZJSAtomicsNotify wakes them), and the bytes
paths copying nothing on the Python side."""

import gc
import threading
import time
import tracemalloc
import unittest

import jsworker
from jsworker import SharedArrayBuffer, Worker, shared


def wait_for(what, cond, timeout=20):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0)  # yield the GIL, not a delay that orders events


WAITER = """onmessage = (e) => {
  const a = new Int32Array(e.data);
  postMessage('waiting');
  const r = Atomics.wait(a, 0, 0, 20000);      // until Python notifies
  Atomics.store(a, 2, a[1] + 1);               // the answer, through the same memory
  Atomics.notify(a, 2);
  postMessage([r, e.data]);
}"""


class SharedArrayBufferTest(unittest.TestCase):
    def tearDown(self):
        ctx = jsworker.Context()
        try:
            wait_for("every JavaScript buffer over Python memory to be given back",
                     lambda: (gc.collect(), jsworker.collect(), jsworker._lib.lib.JSGarbageCollect(ctx._handle),
                              shared.pinned() == 0)[-1])
        finally:
            ctx.close()

    def test_python_writes_worker_reads_and_is_woken(self):
        sab = SharedArrayBuffer(16)
        with Worker(WAITER) as w:
            w.post(sab)
            self.assertEqual(w.receive(timeout=20), "waiting")
            a = sab.cast("i")
            a[1] = 41
            # The worker may not be blocked yet: a[0] stays 0, so it blocks, and the notify that wakes it counts 1.
            wait_for("the worker to be woken", lambda: sab.notify(0) == 1)
            wait_for("the worker's answer", lambda: a[2] == 42)
            result, same = w.receive(timeout=20)
            self.assertEqual(result, "ok", "woken by notify, not timed out")
            self.assertIs(same, sab, "the same bytes come back as the same object")
            self.assertEqual(sab.notify(0), 0)

    def test_notify_from_another_python_thread(self):
        sab = SharedArrayBuffer(64)
        with Worker(WAITER) as w:
            w.post(sab)
            self.assertEqual(w.receive(timeout=20), "waiting")
            view = sab.cast("i")

            def producer():
                view[1] = 9
                wait_for("the worker to be woken", lambda: sab.notify(0, count=1) == 1)
            t = threading.Thread(target=producer)
            t.start()
            t.join(30)
            self.assertEqual(w.receive(timeout=20)[0], "ok")
            self.assertEqual(view[2], 10)

    def test_worker_made_buffer_is_a_memoryview_of_its_bytes(self):
        src = """const sab = new SharedArrayBuffer(16), a = new Int32Array(sab);
                 postMessage(sab);
                 const r = Atomics.wait(a, 0, 0, 20000);
                 postMessage([r, a[1], new Uint8Array(sab)[15]]);"""
        with Worker(src) as w:
            sab = w.receive(timeout=20)
            self.assertIsInstance(sab, SharedArrayBuffer)
            self.assertEqual(len(sab), 16)
            view = sab.view
            self.assertFalse(view.readonly)
            view[15] = 0xAB
            sab.cast("i")[1] = 123
            wait_for("the worker to be woken", lambda: sab.notify(0) == 1)
            self.assertEqual(w.receive(timeout=20), ["ok", 123, 0xAB])

    def test_view_keeps_the_bytes_alive(self):
        ctx = jsworker.Context()
        sab = ctx.evaluate("globalThis.s = new SharedArrayBuffer(8); new Int32Array(s)[0] = 5; s")
        self.assertEqual(sab.cast("i")[0], 5)
        sab.cast("i")[1] = 6
        self.assertEqual(ctx.evaluate("new Int32Array(s)[1]"), 6)
        self.assertIs(ctx.evaluate("s"), sab)
        ctx.globals["t"] = sab
        self.assertTrue(ctx.evaluate("t === s"), "back in its own context it is the same JavaScript object")
        view = sab.view
        del sab
        ctx.close()  # the buffer's context is retained by the view's SharedArrayBuffer
        gc.collect()
        view[0] = 7
        self.assertEqual(bytes(view), b"\x07\0\0\0\x06\0\0\0")
        del view
        gc.collect()
        self.assertNotIn("shared buffer", jsworker.live_handles())

    def test_python_buffer_in_a_context_and_bounds(self):
        sab = SharedArrayBuffer(10)
        with jsworker.Context() as ctx:
            ctx.globals["s"] = sab
            ctx.evaluate("new Uint8Array(s).fill(3, 0, 4); Atomics.store(new Int32Array(s, 4, 1), 0, -2)")
            self.assertEqual(bytes(sab)[:4], b"\3\3\3\3")
            self.assertEqual(sab.cast("i").tolist(), [0x03030303, -2])  # whole elements only
            self.assertIs(ctx.evaluate("s"), sab)
        with self.assertRaises(IndexError):
            sab.notify(2)
        with self.assertRaises(ValueError):
            sab.notify(0, width=2)
        self.assertEqual(bytes(SharedArrayBuffer(0)), b"")


class BytesCopiesTest(unittest.TestCase):
    def test_python_to_javascript_copies_nothing_in_python(self):
        big = bytearray(range(256)) * (1 << 15)  # 8 MiB
        with jsworker.Context() as ctx:
            tracemalloc.start()
            try:
                ctx.globals["b"] = big
                ctx.globals["m"] = memoryview(bytes(range(100)))[10:20]
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
            self.assertLess(peak, 1 << 20, "no Python-side copy of the 8 MiB (one memmove into the Uint8Array)")
            self.assertEqual(ctx.evaluate("[b.length, b[300], m.join()]"),
                             [len(big), 300 % 256, "10,11,12,13,14,15,16,17,18,19"])
            ctx.globals["nc"] = memoryview(bytes(range(10)))[::2]  # not contiguous: copied once
            self.assertEqual(ctx.evaluate("nc.join()"), "0,2,4,6,8")
            tracemalloc.start()
            try:
                out = ctx.evaluate("b")
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
            self.assertEqual(out, big)
            self.assertLess(peak, len(big) + (1 << 20), "JavaScript to Python: the one copy that is the bytes")


if __name__ == "__main__":
    unittest.main()


class TransferTest(unittest.TestCase):
    def test_a_bytearray_moves_to_a_worker_without_a_copy(self):
        from jsworker._convert import lent_buffers
        big = bytearray(range(256)) * (1 << 16)  # 16 MiB
        ctx = jsworker.Context()
        with Worker("onmessage = (e) => { const u = e.data.payload; u[0] = 99;"
                    " postMessage([u.length, u[5], u.buffer.byteLength]); }") as w:
            tracemalloc.start()
            try:
                w.post({"payload": big}, transfer=[big])
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
            self.assertLess(peak, 1 << 20, "nothing of the 16 MiB was copied in Python")
            self.assertEqual(w.receive(timeout=20), [len(big), 5, len(big)])
            self.assertEqual(big[0], 99, "the worker wrote into the bytearray's own memory")
            with self.assertRaises(BufferError):
                big.append(0)  # exported while JavaScript holds it
        # The worker is gone: once collected, the buffer is given back and the bytearray is free again.
        wait_for("the bytearray to be given back",
                 lambda: (jsworker._lib.lib.JSGarbageCollect(ctx._handle), lent_buffers() == 0)[-1])
        big.append(0)
        ctx.close()

    def test_only_writable_buffers_are_lent(self):
        with Worker("onmessage = (e) => postMessage(e.data.length)") as w:
            with self.assertRaises(TypeError):
                w.post(b"abc", transfer=[b"abc"])
            small = bytearray(b"xyz")
            w.post([small, small], transfer=[small])  # the same buffer twice: one array, one transfer
            self.assertEqual(w.receive(timeout=20), 2)
            w.post(memoryview(bytearray(8)), transfer=())  # no transfer: an ordinary copy
            self.assertEqual(w.receive(timeout=20), 8)
        from jsworker._convert import lent_buffers
        with jsworker.Context() as ctx:
            wait_for("the lent buffer to be given back",
                     lambda: (jsworker._lib.lib.JSGarbageCollect(ctx._handle), lent_buffers() == 0)[-1])
        small.append(0)


class NativesSeeSharedMemoryTest(unittest.TestCase):
    def test_a_native_gets_the_python_buffer_back(self):
        sab = SharedArrayBuffer(8)
        got = []

        def touch(s, made_in_worker):
            got.append((s is sab, type(made_in_worker).__name__))
            s.cast("i")[0] = 1234  # the worker reads it right after the call
            return True

        with Worker("onmessage = (e) => { touch(e.data, new SharedArrayBuffer(4));"
                    " postMessage(new Int32Array(e.data)[0]); }", natives={"touch": touch}) as w:
            w.post(sab)
            self.assertEqual(w.receive(timeout=20), 1234)
        # Python's own buffer comes back as itself; one the worker made is copied (its realm ends with the worker).
        self.assertEqual(got, [(True, "bytes")])
