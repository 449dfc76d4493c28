"""Module workers with a Python loader callable (run on the worker's thread, under the GIL)."""

import threading
import unittest

import jsworker

FILES = {
    "/app/math.js": "export const double = (x) => x * 2;\nexport default 'math';",
    "/app/util/text.js": "import name from '../math.js';\nexport const label = (x) => `${name}:${x}`;",
    "/app/config.json": '{"factor": 3}',
}

MAIN = """import { double } from './math.js';
import { label } from './util/text.js';
import config from './config.json';
onmessage = (e) => postMessage([double(e.data), label(e.data), config.factor, import.meta.url]);
"""


def resolve(specifier, referrer):
    base = referrer.rsplit("/", 1)[0]
    parts = (base + "/" + specifier).split("/")
    out = []
    for p in parts:
        if p == "..":
            out.pop()
        elif p not in (".", ""):
            out.append(p)
    return "/" + "/".join(out)


@unittest.skipUnless(jsworker.has_module_workers, "this libjsworker.so has no module workers")
class ModuleWorkerTest(unittest.TestCase):
    def test_loader_callable(self):
        calls = []

        def loader(specifier, referrer):
            calls.append((specifier, referrer, threading.get_native_id()))
            path = resolve(specifier, referrer)
            return (path, FILES[path]) if path in FILES else None
        with jsworker.Worker.module("/app/main.js", MAIN, loader) as w:
            w.post(21)
            # import.meta.url is the resolved path the host gave
            self.assertEqual(w.receive(timeout=10), [42, "math:21", 3, "/app/main.js"])
            self.assertEqual(w.info.kind, jsworker.TargetKind.MODULE)
        self.assertIn(("./math.js", "/app/main.js"), [c[:2] for c in calls])
        self.assertIn(("../math.js", "/app/util/text.js"), [c[:2] for c in calls])
        self.assertNotIn(threading.get_native_id(), {c[2] for c in calls}, "the loader ran on the worker's thread")

    def test_not_found_and_loader_errors_end_the_worker(self):
        for loader, text in [(lambda s, r: None, "Cannot find module './missing.js'"),
                             (_raiser, "disk on fire")]:
            errors = []
            with jsworker.Worker.module("/app/main.js", "import './missing.js';\npostMessage('ran');", loader,
                                        on_error=errors.append) as w:
                with self.assertRaises(jsworker.WorkerClosedError):  # no module ran
                    w.receive(timeout=10)
            self.assertEqual(len(errors), 1)
            self.assertIn(text, errors[0].message)

    def test_dynamic_import(self):
        def loader(specifier, referrer):
            path = resolve(specifier, referrer)
            return (path, FILES[path]) if path in FILES else None
        src = "onmessage = async (e) => { const m = await import('./math.js'); postMessage(m.double(e.data)); };"
        with jsworker.Worker.module("/app/main.js", src, loader) as w:
            w.post(5)
            self.assertEqual(w.receive(timeout=10), 10)


def _raiser(specifier, referrer):
    raise OSError("disk on fire")


if __name__ == "__main__":
    unittest.main()
