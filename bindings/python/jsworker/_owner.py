"""Thread ownership, deferred release and the live-handle counts shared by every jsworker object.

The C library refuses any call on a handle from a thread other than its creator. Python's garbage collector, though,
may finalize an object on any thread; a release from there would be refused and the handle would leak. So a
finalizer running on a foreign thread queues the release for the owner thread, which performs it at the start of its
next jsworker call (or in ``jsworker.collect()``).
"""

import collections
import threading

from . import errors

_lock = threading.Lock()
_deferred = {}  # owner thread id -> [release functions]
_live = collections.Counter()  # kind -> native handles alive


def current_thread_id():
    """The OS thread id (gettid), the same id the library records as a handle's owner."""
    return threading.get_native_id()


def drain(tid=None):
    """Runs the releases queued for this thread by finalizers that ran elsewhere. Returns how many ran."""
    if not _deferred:
        return 0
    tid = current_thread_id() if tid is None else tid
    with _lock:
        fns = _deferred.pop(tid, None)
    for fn in fns or ():
        fn()
    return len(fns or ())


def live_handles():
    """Counts of native handles this package created and has not released yet, by kind."""
    with _lock:
        return {k: v for k, v in _live.items() if v}


def created(kind):
    with _lock:
        _live[kind] += 1


def released(kind):
    with _lock:
        _live[kind] -= 1


class Owned:
    """A native handle owned by one thread. Subclasses set ``_kind`` and implement ``_release_native(handle)`` as a
    function that needs nothing of ``self`` (it may run after ``self`` is gone)."""

    _kind = "object"
    _handle = None

    def _own(self, handle):
        self._owner = current_thread_id()
        self._handle = handle
        created(self._kind)

    def _check(self):
        """Returns the handle if this thread owns the object and it is open; raises otherwise."""
        tid = current_thread_id()
        if tid != getattr(self, "_owner", tid):
            raise errors.WrongThreadError(
                "jsworker: this %s belongs to thread %d (which created it); it was used from thread %d"
                % (type(self).__name__, self._owner, tid))
        if _deferred:
            drain(tid)
        if self._handle is None:
            raise errors.ReleasedError("jsworker: this %s was closed" % type(self).__name__)
        return self._handle

    @property
    def closed(self):
        """True once the object was closed (released)."""
        return self._handle is None

    def _release_function(self):
        """A function that releases the native handle: the handle and what it needs, nothing of self."""
        raise NotImplementedError

    def close(self):
        """Releases the native object now. Idempotent; only the owner thread may call it."""
        if self._handle is None:
            return
        self._check()
        fn = self._release_function()
        self._handle = None
        fn()

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if self._handle is None:
            return
        try:
            fn = self._release_function()
            self._handle = None
            if current_thread_id() == self._owner:
                fn()
            else:
                with _lock:
                    _deferred.setdefault(self._owner, []).append(fn)
        except Exception:  # interpreter shutdown: modules may already be torn down
            pass
