"""Inspector sessions: the Chrome DevTools Protocol (CDP) over the C ABI, with a Python callback.

A session carries CDP JSON between a debugger client and a target. Commands go in with ``dispatch`` (a dict, or a
JSON str) or ``send(method, **params)``, which numbers the command and returns its id. Responses and events come
back through the callback given at creation, always on the session's owner thread: ``callback(message)`` with the
message parsed into a dict (or the JSON text with ``raw=True``). The callback may dispatch to the session. An
exception it raises is kept and raised again from the session call that delivered the message (``pump``,
``dispatch``), or from the next one.
"""

import ctypes
import enum
import itertools
import json

from . import _lib, _owner
from ._lib import lib
from .errors import InspectorError


class PumpResult(enum.IntEnum):
    """What ``WorkerInspectorSession.pump`` did."""

    MESSAGE = 0  # one message was delivered to the callback
    TIMEOUT = 1  # nothing came in time
    CLOSED = 2  # the worker ended and every message was delivered; close the session


class _Delivery:
    """What the C callback closes over: the Python callback and the exceptions it raised (not the session, so that
    no reference cycle keeps a session alive)."""

    def __init__(self, callback, raw):
        self.callback = callback
        self.raw = raw
        self.errors = []

    def __call__(self, message, length, user_data):
        try:
            text = ctypes.string_at(message, length).decode("utf-8", "replace")
            self.callback(text if self.raw else json.loads(text))
        except BaseException as e:  # nothing may unwind into C
            self.errors.append(e)

    def reraise(self):
        if self.errors:
            e = self.errors[0]
            self.errors.clear()
            raise e


class _Session(_owner.Owned):
    _create = _dispatch = _release = None

    def _attach(self, target_handle, callback, raw):
        self._delivery = _Delivery(callback, raw)
        self._cfunc = _lib.ZJSInspectorMessageCallback(self._delivery)
        self._ids = itertools.count(1)
        h = type(self)._create(target_handle, self._cfunc, None)
        if not h:
            raise InspectorError("jsworker: %s could not attach (%s)" % (type(self).__name__, self._why()))
        self._own(h)
        self._delivery.reraise()

    def _release_function(self):
        h, keep, release = self._handle, [self._cfunc], type(self)._release

        def fn():
            release(h)
            keep.clear()  # the C callback stays alive until the session is released
            _owner.released("inspector session")
        return fn

    _kind = "inspector session"

    def dispatch(self, message):
        """Sends a CDP command: a dict (serialized to JSON) or a JSON str. Raises InspectorError if the session
        refused it (closed, or its target ended)."""
        h = self._check()
        text = message if isinstance(message, str) else json.dumps(message)
        data = text.encode("utf-8")
        ok = type(self)._dispatch(h, data, len(data))
        self._delivery.reraise()
        if not ok:
            raise InspectorError("jsworker: the inspector session refused the command (its target has ended)")

    def send(self, method, **params):
        """Sends ``{"id": n, "method": method, "params": params}`` with the next id, and returns that id."""
        n = next(self._ids)
        self.dispatch({"id": n, "method": method, "params": params})
        return n


class WorkerInspectorSession(_Session):
    """An inspector session attached to a Worker (``worker.inspector(callback)``). Asynchronous: ``dispatch``
    queues the command for the worker's thread and returns at once; ``pump`` delivers one message to the callback
    on this thread. Any worker can be inspected; the Debugger domain (pauses, breakpoints) needs
    ``Worker(..., inspectable=True)``."""

    _create = staticmethod(lambda *a: lib.ZJSWorkerInspectorSessionCreate(*a))
    _dispatch = staticmethod(lambda *a: lib.ZJSWorkerInspectorSessionDispatch(*a))
    _release = staticmethod(lambda h: lib.ZJSWorkerInspectorSessionRelease(h))

    def __init__(self, worker, callback, raw=False):
        self._why = lambda: "the worker is ending or has ended"
        self._attach(worker._check(), callback, raw)

    def pump(self, timeout=None):
        """Delivers the oldest queued message to the callback, waiting up to ``timeout`` seconds (None: until one
        comes or the session ends). Returns a PumpResult; raises InspectorError if the session was closed, and what
        the callback raised."""
        from .worker import _ms
        r = lib.ZJSWorkerInspectorSessionPump(self._check(), _ms(timeout))
        self._delivery.reraise()
        if r not in (0, 1, 2):
            raise InspectorError("jsworker: the inspector session was closed")
        return PumpResult(r)

    def pump_until(self, predicate, timeout=10.0):
        """Pumps until ``predicate()`` is true; raises TimeoutError if a pump waits ``timeout`` seconds in vain,
        InspectorError if the session ends first."""
        while not predicate():
            r = self.pump(timeout)
            if r == PumpResult.TIMEOUT:
                raise TimeoutError("jsworker: no inspector message within %s s" % timeout)
            if r == PumpResult.CLOSED:
                raise InspectorError("jsworker: the inspector session ended (its worker ended)")


class ContextInspectorSession(_Session):
    """An inspector session attached to a main Context (``ctx.inspector(callback)``); ``ctx.inspectable`` must be
    True. Synchronous: the callback receives the first message before the session is returned, and each response
    (and the events it causes) before ``dispatch`` returns; console events arrive during the ``evaluate`` that
    logged them."""

    _create = staticmethod(lambda *a: lib.ZJSInspectorSessionCreate(*a))
    _dispatch = staticmethod(lambda *a: lib.ZJSInspectorSessionDispatch(*a))
    _release = staticmethod(lambda h: lib.ZJSInspectorSessionRelease(h))

    def __init__(self, context, callback, raw=False):
        self._why = lambda: "is the context inspectable?"
        self._attach(context._check(), callback, raw)
