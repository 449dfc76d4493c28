"""The exceptions of the jsworker package."""


class Error(Exception):
    """Base class of every exception jsworker raises (LibraryNotFound, an ImportError, aside)."""


class JSError(Error):
    """A JavaScript exception: a script threw, a value could not be cloned (name ``DataCloneError``), a queue limit was
    hit (``RangeError``), a worker is closed (``InvalidStateError``), ...

    ``name``, ``message`` and ``stack`` are the exception's properties (``stack`` is None when it has none);
    ``str(e)`` is ``"name: message"``.
    """

    def __init__(self, name, message, stack=None):
        self.name = name
        self.message = message
        self.stack = stack
        super().__init__("%s: %s" % (name, message) if name else message)


class WrongThreadError(Error, RuntimeError):
    """A jsworker object was used from a thread other than the one that created it.

    Every object (Context, Worker, inspector session) belongs to the thread that created it, as in the C library;
    nothing was done. Create the object on the thread that uses it, or pass values between threads yourself.
    """


class ReleasedError(Error, ValueError):
    """The object was closed (released) already."""


class WorkerClosedError(Error, EOFError):
    """``Worker.receive``: the worker has ended and every message it posted was received."""


class InspectorError(Error):
    """An inspector session refused a call: it was released, or its target ended."""
