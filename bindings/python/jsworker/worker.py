"""Worker: a script running on its own thread with its own realm and event loop."""

import collections
import ctypes
import enum
import math
import threading

from . import _lib, _owner
from ._convert import Exc, make_string, take_string
from ._lib import lib
from .context import Context, _Scope
from .errors import Error, JSError, WorkerClosedError
from .natives import Natives

Limits = collections.namedtuple("Limits", "max_message_bytes max_queued_bytes max_queued_messages")
Limits.__doc__ = """Limits of one message queue; 0 fields take the defaults (64 MiB, 256 MiB, 1024 messages)."""


class TargetKind(enum.IntEnum):
    SCRIPT = 0
    MODULE = 1


class TargetState(enum.IntEnum):
    STARTING = 0
    RUNNING = 1
    CLOSING = 2
    CLOSED = 3


TargetInfo = collections.namedtuple("TargetInfo", "id kind state")
TargetInfo.__doc__ = """A worker as a debugging target: process-wide id (never 0, never reused), kind, state."""

_local = threading.local()


def _thread_context():
    """The hidden Context of this thread that workers without a ``context=`` copy their messages through."""
    ctx = getattr(_local, "context", None)
    if ctx is None or ctx.closed:
        ctx = _local.context = Context()
    return ctx


def _ms(timeout):
    if timeout is None:
        return _lib.kJSWorkerWaitForever
    if timeout < 0:
        raise ValueError("jsworker: timeout must be >= 0 or None")
    return min(int(math.ceil(timeout * 1000)), _lib.kJSWorkerWaitForever - 1)


def _options(name, filename, inspectable, dedicated_thread, max_call_stack_size, inbox, outbox, error_cb):
    o = _lib.ZJSWorkerOptions()
    o.size = ctypes.sizeof(o)
    for field, limits in (("inbox", inbox), ("outbox", outbox)):
        if limits is not None:
            setattr(o, field, _lib.ZJSChannelLimits(*Limits(*limits)))
    o.name = name.encode() if name else None
    o.filename = filename.encode() if filename else None
    o.maxCallStackSize = max_call_stack_size
    o.dedicatedThread = dedicated_thread
    o.inspectable = inspectable
    if error_cb is not None:
        o.errorCallback = error_cb
    return o


def _error_callback(on_error):
    if on_error is None:
        return None

    def thunk(worker, info, user_data):
        i = info.contents
        dec = (lambda b: b.decode("utf-8", "replace") if b else None)
        try:
            on_error(JSError(dec(i.name) or "", dec(i.message) or "", dec(i.stack)))
        except BaseException:  # never let an exception reach the worker's thread through C
            import traceback
            traceback.print_exc()
    return _lib.ZJSWorkerErrorCallback(thunk)


class Worker(_owner.Owned):
    """A JavaScript worker (``ZJSWorkerCreateWithOptions``): its script runs on a thread of its own, and the host
    exchanges copies of values with it::

        with jsworker.Worker("onmessage = (e) => postMessage(e.data * 2)") as w:
            w.post(21)
            w.receive()          # 42

    Options: ``name`` (the worker's ``self.name``), ``filename`` (for stack traces), ``inspectable`` (turns on the
    inspector's Debugger domain), ``dedicated_thread`` (one OS thread for the worker's life), ``max_call_stack_size``,
    ``inbox``/``outbox`` (``Limits``), ``on_error`` (called with a JSError for each uncaught error, **on the
    worker's thread**), ``context`` (the Context messages are copied through; by default a hidden one per thread).

    A Worker belongs to the thread that created it: any use from another thread raises WrongThreadError.
    ``close()`` (and leaving a ``with`` block) releases it, terminating it if it still runs; ``end()`` asks it to
    finish gracefully, ``terminate()`` stops it at once.
    """

    _kind = "worker"

    def __init__(self, source, *, name=None, filename=None, inspectable=False, dedicated_thread=False,
                 max_call_stack_size=0, inbox=None, outbox=None, on_error=None, context=None, natives=None,
                 console=None):
        self._setup(context, on_error)
        opts = _options(name, filename, inspectable, dedicated_thread, max_call_stack_size, inbox, outbox,
                        self._callbacks[0])
        if natives or console is not None:  # natives.py: Python callables inside the worker, its console to Python
            n = Natives(natives, console)
            self._callbacks.append(n)
            if n.setup is not None:
                opts.setup = n.setup
            if n.console is not None:
                opts.consoleCallback = n.console
        src = make_string(source)
        why = ctypes.c_void_p()
        try:
            h = lib.ZJSWorkerCreateWithOptions(src, ctypes.byref(opts), ctypes.byref(why))
        finally:
            lib.JSStringRelease(src)
        if not h:
            raise JSError("SyntaxError", take_string(why.value) or "the worker could not be created")
        self._own(h)

    @classmethod
    def module(cls, entry_path, source, loader, **options):
        """Starts a module worker: ``source`` is the ES module at ``entry_path``; each ``import`` is resolved by
        ``loader(specifier, referrer_path)``, which returns ``(resolved_path, source)``, or None for "not found", or
        raises (the message fails the import). The loader runs **on the worker's thread** (holding the GIL).
        Takes the same options as ``Worker``."""
        if not _lib.has_modules:
            raise Error("jsworker: this libjsworker.so (%s) has no module workers (ZJSWorkerCreateModule)" % _lib.path)
        self = cls.__new__(cls)
        self._setup(options.pop("context", None), options.pop("on_error", None))
        opts = _options(options.pop("name", None), options.pop("filename", None), options.pop("inspectable", False),
                        options.pop("dedicated_thread", False), options.pop("max_call_stack_size", 0),
                        options.pop("inbox", None), options.pop("outbox", None), self._callbacks[0])
        if options:
            raise TypeError("jsworker: unknown options %s" % ", ".join(sorted(options)))

        def thunk(request, specifier, referrer, user_data):
            try:
                got = loader(specifier.decode("utf-8", "surrogateescape"),
                             referrer.decode("utf-8", "surrogateescape") if referrer else None)
                if got is None:
                    lib.ZJSModuleRequestFail(request, None)
                    return
                path, text = got
                data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
                lib.ZJSModuleRequestResolve(request, path.encode("utf-8"), data, len(data))
            except BaseException as e:  # the message fails the import; nothing may unwind into C
                try:
                    lib.ZJSModuleRequestFail(request, ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace"))
                except BaseException:
                    pass
        cb = _lib.ZJSModuleLoaderCallback(thunk)
        self._callbacks.append(cb)
        data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
        why = ctypes.c_void_p()
        h = lib.ZJSWorkerCreateModule(entry_path.encode("utf-8"), data, len(data), cb, None, ctypes.byref(opts),
                                      ctypes.byref(why))
        if not h:
            raise Error("jsworker: the module worker %s could not be created: %s"
                        % (entry_path, take_string(why.value) or "(no reason given)"))
        self._own(h)
        return self

    def _setup(self, context, on_error):
        if context is not None:
            context._check()
        self._context = context
        self._callbacks = [_error_callback(on_error)]

    def _release_function(self):
        h, callbacks = self._handle, self._callbacks  # the callbacks must outlive the worker's thread

        def release():
            lib.JSWorkerRelease(h)
            callbacks.clear()
            _owner.released("worker")
        return release

    def _ctx(self):
        return self._context if self._context is not None else _thread_context()

    def post(self, value, transfer=()):
        """Sends a copy of value (structured clone). Raises JSError: ``DataCloneError`` for a value that cannot be
        cloned, ``RangeError`` over a limit, ``InvalidStateError`` once the worker is closing or ended. Never
        blocks.

        ``transfer``: writable buffers (``bytearray``, writable ``memoryview``) to move to the worker *without a
        copy*: each becomes, wherever it appears in value, a Uint8Array over the Python object's own memory whose
        ArrayBuffer is transferred. The worker then reads and writes that memory directly; the object stays
        exported (a bytearray cannot be resized) until the worker lets the buffer go and the collector ran. Do not
        use it meanwhile, as with any transferred buffer. A read-only buffer (``bytes``) raises TypeError."""
        h = self._check()
        context = self._ctx()
        ctx = context._check()
        m = context._marshal
        with _Scope(ctx):
            m.transfer = {id(t): None for t in transfer} if transfer else None
            try:
                v = m.to_js(value)
                keep = list(transfer)  # the objects whose ids key m.transfer stay alive meanwhile
                buffers = [lib.JSObjectGetTypedArrayBuffer(ctx, m.lend(t), None) for t in keep] if keep else []
            finally:
                m.transfer = None
            exc = Exc()
            arr = (_lib.JSValueRef * len(buffers))(*buffers)
            if not lib.ZJSWorkerPostMessageWithTransfer(h, ctx, v, len(buffers), arr, exc.ref):
                m.check(exc)
                raise Error("jsworker: ZJSWorkerPostMessageWithTransfer failed")

    def post_json(self, text):
        """Sends JSON text (``str`` or UTF-8 ``bytes``) as a message (``ZJSWorkerPostJSON``): the worker receives
        the value ``JSON.parse`` gives for it, with no Python or JavaScript value made on this side. Raises JSError:
        ``SyntaxError`` for invalid JSON (nothing is queued), and the errors of ``post``."""
        if not _lib.has_json:
            raise Error("jsworker: this libjsworker.so has no ZJSWorkerPostJSON (built before issue 17)")
        h = self._check()
        context = self._ctx()
        ctx = context._check()
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
        with _Scope(ctx):
            exc = Exc()
            if not lib.ZJSWorkerPostJSON(h, ctx, data, len(data), exc.ref):
                context._marshal.check(exc)
                raise Error("jsworker: ZJSWorkerPostJSON failed")

    def receive_json(self, timeout=None):
        """Returns the next message as the ``str`` JSON.stringify gives for it (``ZJSWorkerReceiveJSON``), waiting
        as ``receive`` does and raising what it raises; a message with no JSON text (undefined, a BigInt) raises
        JSError (TypeError) and is consumed."""
        if not _lib.has_json:
            raise Error("jsworker: this libjsworker.so has no ZJSWorkerReceiveJSON (built before issue 17)")
        h = self._check()
        found, text = self._receive_json(h, _ms(timeout))
        if found:
            return text
        if self.info.state == TargetState.CLOSED:
            found, text = self._receive_json(h, 0)
            if found:
                return text
            raise WorkerClosedError("jsworker: the worker has ended and every message was received")
        raise TimeoutError("jsworker: no message within %s s" % timeout)

    def _receive_json(self, h, ms):
        context = self._ctx()
        ctx = context._check()
        with _Scope(ctx):
            exc = Exc()
            n = ctypes.c_size_t()
            p = lib.ZJSWorkerReceiveJSON(h, ctx, ms, ctypes.byref(n), exc.ref)
            if not p:
                context._marshal.check(exc)
                return False, None
            try:
                return True, ctypes.string_at(p, n.value).decode("utf-8")
            finally:
                _lib.libc_free(p)

    def receive(self, timeout=None):
        """Returns the next message the worker posted, waiting up to ``timeout`` seconds (None: until one comes).
        Raises TimeoutError if none came in time, WorkerClosedError once the worker has ended and every message
        was received, JSError if a message could not be read."""
        h = self._check()
        found, value = self._receive(h, _ms(timeout))
        if found:
            return value
        if self.info.state == TargetState.CLOSED:
            # Ended: what it posted before ending may have arrived after a finite timeout ran out; poll once.
            found, value = self._receive(h, 0)
            if found:
                return value
            raise WorkerClosedError("jsworker: the worker has ended and every message was received")
        raise TimeoutError("jsworker: no message within %s s" % timeout)

    def _receive(self, h, ms):
        context = self._ctx()
        ctx = context._check()
        m = context._marshal
        with _Scope(ctx):
            exc = Exc()
            v = lib.JSWorkerReceive(h, ctx, ms, exc.ref)
            m.check(exc)
            return (True, m.to_python(v)) if v else (False, None)

    def __iter__(self):
        """Yields every message until the worker ends (blocking while it runs)."""
        while True:
            try:
                yield self.receive()
            except WorkerClosedError:
                return

    def terminate(self):
        """Stops the worker at once: running JavaScript is interrupted, queued messages are dropped. Messages it
        already posted can still be received."""
        lib.JSWorkerTerminate(self._check())

    def end(self):
        """Asks the worker to finish gracefully (``ZJSWorkerClose``): it handles the messages already queued, then
        ends; ``receive`` raises WorkerClosedError once everything was received."""
        lib.ZJSWorkerClose(self._check())

    @property
    def info(self):
        """The worker as a debugging target: ``TargetInfo(id, kind, state)``."""
        i = _lib.ZJSInspectorTargetInfo()
        if not lib.ZJSWorkerGetInspectorTargetInfo(self._check(), ctypes.byref(i)):
            raise Error("jsworker: ZJSWorkerGetInspectorTargetInfo failed")
        return TargetInfo(i.id, TargetKind(i.kind), TargetState(i.state))

    def inspector(self, callback, raw=False):
        """Attaches an inspector session; see ``jsworker.WorkerInspectorSession``."""
        from .inspector import WorkerInspectorSession
        return WorkerInspectorSession(self, callback, raw)
