"""SharedArrayBuffer: memory that Python and workers use at once, as a writable memoryview (issue 15).

``SharedArrayBuffer(n)`` is ``n`` zero bytes of Python memory, 8-byte aligned. Converting it to JavaScript (posting
it, ``ctx.globals[...] = sab``) makes a JavaScript SharedArrayBuffer over the *same* bytes, without a copy
(``ZJSSharedArrayBufferCreateWithBytesNoCopy``); each such buffer pins the Python object until its deallocator says
no realm and no message references it any more. A SharedArrayBuffer that JavaScript made and that reaches Python
in a host context (``Context.evaluate``, ``Worker.receive``) becomes a SharedArrayBuffer over the library's bytes,
holding that JavaScript buffer (and its context) alive. Either way the memory lives while the Python object, or
any memoryview of it, or any realm or message holds it; the same bytes converted back give the same Python object.

``sab.view`` is a writable ``memoryview`` (format ``B``); ``sab.cast("i")`` views it as int32 (``"q"``: int64), as
JavaScript's ``Int32Array`` (``BigInt64Array``) sees it. Python has no atomic operations: aligned 4- and 8-byte
reads and writes through a memoryview are single machine loads and stores on x86-64 and arm64, which is what
``Atomics.load``/``store`` do, but read-modify-write (``+=``) is not atomic. ``sab.notify(i)`` wakes workers blocked
in ``Atomics.wait`` on int32 element ``i`` (``ZJSAtomicsNotify``, callable from any thread); store first.
"""

import ctypes
import itertools
import struct
import threading
import weakref

from . import _lib, _owner
from ._lib import lib

_SIZE_MAX = 2**64 - 1
_lock = threading.Lock()
_pins = {}  # token -> SharedArrayBuffer pinned by one JavaScript buffer over its memory
_tokens = itertools.count(1)
_by_address = weakref.WeakValueDictionary()  # address of the first byte -> its SharedArrayBuffer


def _deallocated(_bytes, token):
    """The NoCopy deallocator: a JavaScript buffer over a SharedArrayBuffer's memory is gone. It runs on whichever
    thread let the buffer go and must not call the library: an object that holds library handles is handed to its
    owner thread's deferred releases instead of being dropped here."""
    with _lock:
        obj = _pins.pop(token, None)
    hold = getattr(obj, "_hold", None)
    if hold is not None and hold._handle is not None:
        with _owner._lock:
            _owner._deferred.setdefault(hold._owner, []).append(lambda: obj)  # dropped when the owner drains


_DEALLOCATOR = _lib.JSTypedArrayBytesDeallocator(_deallocated)


def pinned():
    """How many JavaScript buffers currently pin a SharedArrayBuffer's memory (for leak checks)."""
    with _lock:
        return len(_pins)


class _JSHold(_owner.Owned):
    """A JavaScript SharedArrayBuffer kept alive from Python: a protected value in a retained context, released on
    the context's thread."""

    _kind = "shared buffer"

    def __init__(self, ctx, value):
        lib.JSGlobalContextRetain(ctx)
        lib.JSValueProtect(ctx, value)
        self._value = value
        self._own(ctx)

    def _release_function(self):
        ctx, value = self._handle, self._value

        def release():
            lib.ZJSValueRelease(ctx, value)
            lib.JSGlobalContextRelease(ctx)
            _owner.released("shared buffer")
        return release


class SharedArrayBuffer:
    """Bytes shared with workers without copies; see the module documentation."""

    _hold = None

    def __init__(self, size):
        if size < 0:
            raise ValueError("jsworker: a SharedArrayBuffer's size must be >= 0")
        self._size = int(size)
        self._memory = (ctypes.c_uint64 * ((self._size + 7) // 8))()  # 8-byte aligned, zeroed
        self._address = ctypes.addressof(self._memory)
        _by_address[self._address] = self

    @classmethod
    def _wrap(cls, ctx, value, address, size):
        """The SharedArrayBuffer for a JavaScript one of ctx whose bytes are at address (the known object if the
        bytes are one's already)."""
        known = _by_address.get(address)
        if known is not None and known._size == size:
            return known
        self = cls.__new__(cls)
        self._size, self._address, self._memory = size, address, None
        self._hold = _JSHold(ctx, value)
        _by_address[address] = self
        return self

    def __len__(self):
        return self._size

    @property
    def size(self):
        return self._size

    @property
    def view(self):
        """A writable memoryview (format ``B``) of the shared bytes; it keeps them alive."""
        if self._memory is not None:
            return memoryview(self._memory).cast("B")[:self._size]
        exporter = (ctypes.c_char * self._size).from_address(self._address)
        exporter._keep = self  # the view keeps the exporter, which keeps this object and its JavaScript buffer
        return memoryview(exporter).cast("B")

    def cast(self, fmt):
        """The bytes as a memoryview of another format: ``"i"`` int32 (JavaScript's Int32Array), ``"q"`` int64,
        ``"d"`` float64, ...; whole elements only."""
        itemsize = struct.calcsize(fmt)
        return self.view[:self._size - self._size % itemsize].cast(fmt)

    def __bytes__(self):
        return bytes(self.view)

    def __repr__(self):
        return "<jsworker.SharedArrayBuffer %d bytes at %#x>" % (self._size, self._address)

    def notify(self, index, count=None, width=4):
        """Wakes up to ``count`` (None: all) workers blocked in ``Atomics.wait`` on element ``index`` of an
        Int32Array (``width=8``: a BigInt64Array) over these bytes; returns how many woke. Any thread."""
        if width not in (4, 8):
            raise ValueError("jsworker: width must be 4 (Int32Array) or 8 (BigInt64Array)")
        if not 0 <= index < self._size // width:
            raise IndexError("jsworker: element %d is outside the %d-byte buffer" % (index, self._size))
        return lib.ZJSAtomicsNotify(self._address + index * width, _SIZE_MAX if count is None else count)

    def _to_js(self, ctx):
        """A JavaScript SharedArrayBuffer of ctx over these bytes."""
        hold = self._hold
        if hold is not None and hold._handle == ctx:
            return hold._value, None
        token = next(_tokens)
        with _lock:
            _pins[token] = self
        exc = ctypes.c_void_p()
        v = lib.ZJSSharedArrayBufferCreateWithBytesNoCopy(ctx, self._address if self._size else None, self._size,
                                                         _DEALLOCATOR, token, ctypes.byref(exc))
        return v, exc.value  # on failure the deallocator has run already
