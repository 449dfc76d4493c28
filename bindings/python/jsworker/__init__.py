"""jsworker: JavaScript workers for Python, through libjsworker.so (ctypes; no compiler needed).

::

    import jsworker

    with jsworker.Context() as ctx:
        ctx.evaluate("[1, 2, 3].map((x) => x * 2)")        # [2, 4, 6]

    with jsworker.Worker("onmessage = (e) => postMessage(e.data * 2)") as w:
        w.post(21)
        w.receive(timeout=5)                              # 42

Threads: every object belongs to the thread that created it, as in the C library; using it from another thread
raises WrongThreadError. Objects are released by ``close()``, by leaving their ``with`` block, or when garbage
collected (a collection on another thread queues the release for the owner thread's next jsworker call, or for
``jsworker.collect()`` there).

See docs/bindings.md in the jsworker repository.
"""

from . import _lib, _owner
from ._convert import JS, Opaque
from ._lib import LibraryNotFound
from .context import Context, Globals
from .errors import Error, InspectorError, JSError, ReleasedError, WorkerClosedError, WrongThreadError
from .inspector import ContextInspectorSession, PumpResult, WorkerInspectorSession
from .shared import SharedArrayBuffer
from .worker import Limits, TargetInfo, TargetKind, TargetState, Worker

__all__ = [
    "Context", "ContextInspectorSession", "Error", "Globals", "InspectorError", "JS", "JSError", "LibraryNotFound",
    "Limits", "Opaque", "PumpResult", "ReleasedError", "SharedArrayBuffer", "TargetInfo", "TargetKind",
    "TargetState", "Worker", "WorkerClosedError", "WorkerInspectorSession", "WrongThreadError", "collect",
    "has_module_workers", "library_path", "library_version", "live_handles",
]

__version__ = "0.2.0"

library_path = _lib.path
"""The path libjsworker.so was loaded from."""

has_module_workers = _lib.has_modules
"""Whether the loaded library has module workers (ZJSWorkerCreateModule)."""

live_handles = _owner.live_handles


def library_version():
    """The loaded library's version string, e.g. "0.2.0" (ZJSGetVersionString)."""
    return _lib.lib.ZJSGetVersionString().decode()


def collect():
    """Runs the releases that finalizers on other threads queued for this thread; returns how many ran."""
    return _owner.drain()
