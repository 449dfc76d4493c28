"""Python <-> JavaScript values inside one context, and JavaScript exceptions as JSError.

Python to JavaScript: None -> null, bool, int (a number up to 2**53, a BigInt beyond), float, str (exact, lone
surrogates included), list/tuple -> Array, dict (str keys) -> plain object, bytes/bytearray/memoryview ->
Uint8Array, jsworker.SharedArrayBuffer -> SharedArrayBuffer (the same bytes), datetime -> Date, JS("expression") ->
the expression's value.

JavaScript to Python: undefined and null -> None, booleans, numbers (int when integral and exact, else float),
strings, BigInt -> int, arrays -> list, SharedArrayBuffer -> jsworker.SharedArrayBuffer over the same bytes (in a
host context; a copy as bytes inside a worker's native callback unless the bytes are a Python SharedArrayBuffer's),
ArrayBuffer / typed arrays / DataView -> bytes (one copy of the viewed bytes), Date -> datetime (UTC), other objects
-> dict of their own enumerable properties; a function or a symbol becomes an Opaque (its type and string form).

Bytes-like values go into JavaScript with one memmove from their own memory (the buffer protocol, no Python-side
copy); a jsworker.SharedArrayBuffer goes in without any copy.
"""

import ctypes
import datetime
import itertools
import math
import threading

from . import _lib
from ._lib import lib
from .errors import JSError
from .shared import SharedArrayBuffer, _by_address

MAX_DEPTH = 256
_SAFE = 2**53

_HELPERS = r"""(function () {
  const isSAB = (v) => typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer;
  const bytes = (v) => ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
                                             : new Uint8Array(v);
  return {
    kind(v) {
      if (typeof v === 'function') return 'function';
      if (Array.isArray(v)) return 'array';
      if (v instanceof ArrayBuffer || isSAB(v) || ArrayBuffer.isView(v)) return 'bytes';
      if (v instanceof Date) return 'date';
      return 'object';
    },
    keys(o) { return Object.keys(o); },
    toLatin1(v) {
      const u8 = bytes(v);
      let s = '';
      for (let i = 0; i < u8.length; i += 8192) s += String.fromCharCode.apply(null, u8.subarray(i, i + 8192));
      return s;
    },
    fromLatin1(s) {
      const u8 = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
      return u8;
    },
    bigint(s) { return BigInt(s); },
    str(v) { return String(v); },
    date(ms) { return new Date(ms); },
    exception(e) {
      if (e !== null && typeof e === 'object') {
        const str = (x) => x === undefined ? undefined : String(x);
        return [str(e.name), str(e.message), str(e.stack)];
      }
      return [undefined, String(e), undefined];
    },
  };
})()"""


class Opaque:
    """A JavaScript value with no Python counterpart (a function, a symbol): its type and string form."""

    def __init__(self, kind, text):
        self.kind = kind
        self.text = text

    def __repr__(self):
        return "<JavaScript %s %s>" % (self.kind, self.text)

    def __eq__(self, other):
        return isinstance(other, Opaque) and (self.kind, self.text) == (other.kind, other.text)

    __hash__ = None


class JS:
    """A JavaScript expression to use as a value where Python has no counterpart: ``worker.post(JS("new Map()"))``,
    ``ctx.globals["sab"] = JS("new SharedArrayBuffer(8)")``. It is evaluated in the context the value goes into, at
    the moment it is converted."""

    def __init__(self, expression):
        self.expression = expression

    def __repr__(self):
        return "JS(%r)" % self.expression


class _PyBuffer(ctypes.Structure):
    """CPython's Py_buffer (Include/pybuffer.h), for PyObject_GetBuffer."""
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.py_object), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


_get_buffer = ctypes.pythonapi.PyObject_GetBuffer
_get_buffer.argtypes, _get_buffer.restype = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int], ctypes.c_int
_release_buffer = ctypes.pythonapi.PyBuffer_Release
_release_buffer.argtypes, _release_buffer.restype = [ctypes.POINTER(_PyBuffer)], None
_PyBUF_C_CONTIGUOUS = 0x0020 | 0x0008  # PyBUF_C_CONTIGUOUS includes PyBUF_STRIDES


class _Buffer:
    """``with _Buffer(obj) as (address, length)``: the address of a C-contiguous buffer's bytes, exported through
    the buffer protocol (so that a bytearray cannot be resized meanwhile), without a copy; a non-contiguous one is
    copied once into a bytes object first."""

    def __init__(self, obj):
        self.obj = obj
        self.view = _PyBuffer()

    def __enter__(self):
        try:
            _get_buffer(self.obj, ctypes.byref(self.view), _PyBUF_C_CONTIGUOUS)
        except BufferError:
            self.obj = memoryview(self.obj).tobytes()
            _get_buffer(self.obj, ctypes.byref(self.view), _PyBUF_C_CONTIGUOUS)
        return self.view.buf, self.view.len

    def __exit__(self, *exc):
        _release_buffer(ctypes.byref(self.view))


_PyBUF_WRITABLE = 0x0001
_lent = {}  # token -> (Py_buffer, object) lent to JavaScript by a transfer, until the buffer's deallocator runs
_lent_lock = threading.Lock()
_lent_tokens = itertools.count(1)


def _give_back(_bytes, token):
    """The NoCopy deallocator of a transferred Python buffer: ends the buffer-protocol export (any thread; the ctypes
    thunk holds the GIL; the library is not called)."""
    with _lent_lock:
        lent = _lent.pop(token, None)
    if lent is not None:
        _release_buffer(ctypes.byref(lent[0]))


_GIVE_BACK = _lib.JSTypedArrayBytesDeallocator(_give_back)


def lent_buffers():
    """How many Python buffers JavaScript holds without a copy (transferred, not yet given back)."""
    with _lent_lock:
        return len(_lent)


class Exc:
    """An exception out-parameter: ``ref`` to pass, ``value`` to read."""

    def __init__(self):
        self.value = ctypes.c_void_p()
        self.ref = ctypes.byref(self.value)

    def __bool__(self):
        return bool(self.value.value)


def make_string(s):
    """A new JSStringRef holding s exactly (UTF-16, lone surrogates kept). The caller releases it."""
    data = s.encode("utf-16-le", "surrogatepass")
    h = lib.JSStringCreateWithCharacters(data, len(data) // 2)
    if not h:
        raise MemoryError("jsworker: JSStringCreateWithCharacters failed")
    return h


def take_string(h):
    """The Python str of a JSStringRef, which is released."""
    if not h:
        return None
    try:
        n = lib.JSStringGetLength(h)
        if n == 0:
            return ""
        return ctypes.string_at(lib.JSStringGetCharactersPtr(h), 2 * n).decode("utf-16-le", "surrogatepass")
    finally:
        lib.JSStringRelease(h)


class Marshal:
    """Conversions in one context. Must be used on the context's thread, inside a handle scope of the caller's."""

    def __init__(self, ctx, host=False):
        self.ctx = ctx
        # A host context (Context, a Worker's message context) may keep a JavaScript SharedArrayBuffer alive for
        # Python; a worker's context lent to a callback may not (its realm ends with the worker).
        self.host = host
        self.transfer = None  # during a post with a transfer list: {id(buffer): its converted Uint8Array or None}
        src = make_string(_HELPERS)
        exc = Exc()
        try:
            obj = lib.JSEvaluateScript(ctx, src, None, None, 1, exc.ref)
        finally:
            lib.JSStringRelease(src)
        if not obj:
            raise RuntimeError("jsworker: the conversion helpers failed to compile")
        self.helpers = {}
        for name in ("kind", "keys", "toLatin1", "fromLatin1", "bigint", "str", "date", "exception"):
            self.helpers[name] = self._get(obj, name)
        self.global_object = lib.JSContextGetGlobalObject(ctx)

    # -- low level --

    def _get(self, obj, name):
        key = make_string(name)
        exc = Exc()
        try:
            v = lib.JSObjectGetProperty(self.ctx, obj, key, exc.ref)
        finally:
            lib.JSStringRelease(key)
        self.check(exc)
        return v

    def call_helper(self, name, *args):
        argv = (_lib.JSValueRef * len(args))(*args)
        exc = Exc()
        v = lib.JSObjectCallAsFunction(self.ctx, self.helpers[name], None, len(args), argv, exc.ref)
        self.check(exc)
        return v

    def check(self, exc):
        """Raises the exception in exc, if any."""
        if exc:
            raise self.error(exc.value.value)

    def error(self, value):
        """The JSError for an exception value."""
        exc = Exc()
        argv = (_lib.JSValueRef * 1)(value)
        triple = lib.JSObjectCallAsFunction(self.ctx, self.helpers["exception"], None, 1, argv, exc.ref)
        if not triple or exc:
            return JSError("Error", "(an exception that could not be read)")
        name, message, stack = self.to_python(triple)
        return JSError(name or "", message or "", stack)

    # -- JavaScript to Python --

    def to_python(self, v, depth=0):
        if depth > MAX_DEPTH:
            raise ValueError("jsworker: the value is nested more than %d levels deep (or cyclic)" % MAX_DEPTH)
        ctx = self.ctx
        t = lib.JSValueGetType(ctx, v)
        if t in (_lib.kJSTypeUndefined, _lib.kJSTypeNull):
            return None
        if t == _lib.kJSTypeBoolean:
            return lib.JSValueToBoolean(ctx, v)
        if t == _lib.kJSTypeNumber:
            d = lib.JSValueToNumber(ctx, v, None)
            if d.is_integer() and abs(d) <= _SAFE and not (d == 0 and math.copysign(1, d) < 0):
                return int(d)
            return d
        if t == _lib.kJSTypeString:
            return self.text(v)
        if t == _lib.kJSTypeBigInt:
            return int(self.text(v))
        if t == _lib.kJSTypeSymbol:
            return Opaque("symbol", self.text(self.call_helper("str", v)))
        kind = self.text(self.call_helper("kind", v))
        if kind == "array":
            n = int(lib.JSValueToNumber(ctx, self._get(v, "length"), None))
            out = []
            for i in range(n):
                exc = Exc()
                item = lib.JSObjectGetPropertyAtIndex(ctx, v, i, exc.ref)
                self.check(exc)
                out.append(self.to_python(item, depth + 1))
            return out
        if kind == "bytes":
            sab = self._shared(v)
            if sab is not None:
                return sab
            b = self._read_bytes(v)
            if b is not None:
                return b
            return self.text(self.call_helper("toLatin1", v)).encode("latin-1")
        if kind == "date":
            ms = lib.JSValueToNumber(ctx, v, None)
            if math.isnan(ms):
                return None
            return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=ms)
        if kind == "function":
            return Opaque("function", self.text(v))
        keys = self.to_python(self.call_helper("keys", v), depth + 1)
        return {k: self.to_python(self._get(v, k), depth + 1) for k in keys}

    def _read_bytes(self, v):
        """The bytes of an ArrayBuffer, SharedArrayBuffer or typed array, copied once from their memory; None for a
        DataView or without JSTypedArray.h (the caller falls back to the Latin-1 helper)."""
        if not _lib.has_bytes:
            return None
        ctx = self.ctx
        t = lib.JSValueGetTypedArrayType(ctx, v, None)
        if t == _lib.kJSTypedArrayTypeArrayBuffer:
            p, n = lib.JSObjectGetArrayBufferBytesPtr(ctx, v, None), lib.JSObjectGetArrayBufferByteLength(ctx, v, None)
        elif t == _lib.kJSTypedArrayTypeNone:
            return None
        else:
            p = lib.JSObjectGetTypedArrayBytesPtr(ctx, v, None)
            n = lib.JSObjectGetTypedArrayByteLength(ctx, v, None)
            if p:
                p += lib.JSObjectGetTypedArrayByteOffset(ctx, v, None)
        return ctypes.string_at(p, n) if p and n else b""

    def _shared(self, v):
        """The Python SharedArrayBuffer for a JavaScript one (the same bytes, no copy), or None: not a
        SharedArrayBuffer, or JavaScript's own memory in a context that cannot keep it alive (a copy then)."""
        if not _lib.has_shared:
            return None
        n = ctypes.c_size_t()
        p = lib.ZJSSharedArrayBufferGetBytesPtr(self.ctx, v, ctypes.byref(n), None)
        if not p:
            return None
        known = _by_address.get(p)
        if known is not None and known.size == n.value:
            return known
        if not self.host:
            return None
        return SharedArrayBuffer._wrap(self.ctx, v, p, n.value)

    def _make_bytes(self, x):
        """A new Uint8Array holding a copy of x: one memmove from x's own memory into the array's (no Python-side
        copy for any C-contiguous buffer: bytes, bytearray, memoryview slices, array.array, ...)."""
        with _Buffer(x) as (address, n):
            exc = Exc()
            ta = lib.JSObjectMakeTypedArray(self.ctx, _lib.kJSTypedArrayTypeUint8Array, n, exc.ref)
            self.check(exc)
            if n:
                ctypes.memmove(lib.JSObjectGetTypedArrayBytesPtr(self.ctx, ta, None), address, n)
        return ta

    def lend(self, x):
        """A Uint8Array over x's own memory (NoCopy), for a transfer: x stays exported (a bytearray cannot resize)
        until the receiving side lets the buffer go. The same object met twice gives the same array."""
        done = self.transfer.get(id(x))
        if done is not None:
            return done
        if not _lib.has_shared:
            raise TypeError("jsworker: this libjsworker.so cannot lend memory (no NoCopy typed arrays)")
        view = _PyBuffer()
        try:
            _get_buffer(x, ctypes.byref(view), _PyBUF_C_CONTIGUOUS | _PyBUF_WRITABLE)
        except BufferError:
            raise TypeError("jsworker: only a writable C-contiguous buffer (a bytearray, a writable memoryview) can "
                            "be transferred without a copy; %s is not one" % type(x).__name__) from None
        token = next(_lent_tokens)
        with _lent_lock:
            _lent[token] = (view, x)
        exc = Exc()
        ta = lib.JSObjectMakeTypedArrayWithBytesNoCopy(self.ctx, _lib.kJSTypedArrayTypeUint8Array,
                                                       view.buf if view.len else None, view.len, _GIVE_BACK,
                                                       token, exc.ref)
        self.check(exc)  # on failure the deallocator has given the buffer back already
        self.transfer[id(x)] = ta
        return ta

    def text(self, v):
        """The string form of v (ToString)."""
        exc = Exc()
        s = lib.JSValueToStringCopy(self.ctx, v, exc.ref)
        self.check(exc)
        return take_string(s)

    # -- Python to JavaScript --

    def to_js(self, x, depth=0):
        if depth > MAX_DEPTH:
            raise ValueError("jsworker: the value is nested more than %d levels deep (or cyclic)" % MAX_DEPTH)
        ctx = self.ctx
        if x is None:
            return lib.JSValueMakeNull(ctx)
        if isinstance(x, bool):
            return lib.JSValueMakeBoolean(ctx, x)
        if isinstance(x, int):
            if -_SAFE <= x <= _SAFE:
                return lib.JSValueMakeNumber(ctx, float(x))
            return self.call_helper("bigint", self.string(str(x)))
        if isinstance(x, float):
            return lib.JSValueMakeNumber(ctx, x)
        if isinstance(x, str):
            return self.string(x)
        if isinstance(x, SharedArrayBuffer):
            v, exc = x._to_js(ctx)
            if exc:
                raise self.error(exc)
            return v
        if isinstance(x, (bytes, bytearray, memoryview)):
            if self.transfer is not None and id(x) in self.transfer:
                return self.lend(x)
            if _lib.has_bytes:
                return self._make_bytes(x)
            return self.call_helper("fromLatin1", self.string(bytes(x).decode("latin-1")))
        if isinstance(x, datetime.datetime):
            if x.tzinfo is None:
                x = x.astimezone()
            return self.call_helper("date", lib.JSValueMakeNumber(ctx, x.timestamp() * 1000))
        if isinstance(x, JS):
            src = make_string("(" + x.expression + "\n)")
            exc = Exc()
            try:
                v = lib.JSEvaluateScript(ctx, src, None, None, 1, exc.ref)
            finally:
                lib.JSStringRelease(src)
            self.check(exc)
            return v
        if isinstance(x, (list, tuple)):
            items = [self.to_js(i, depth + 1) for i in x]
            argv = (_lib.JSValueRef * len(items))(*items)
            exc = Exc()
            arr = lib.JSObjectMakeArray(ctx, len(items), argv, exc.ref)
            self.check(exc)
            return arr
        if isinstance(x, dict):
            obj = lib.JSObjectMake(ctx, None, None)
            for k, v in x.items():
                if not isinstance(k, str):
                    raise TypeError("jsworker: dict keys must be str to become JavaScript properties, not %s"
                                    % type(k).__name__)
                self.set(obj, k, self.to_js(v, depth + 1))
            return obj
        raise TypeError("jsworker: a %s has no JavaScript counterpart" % type(x).__name__)

    def string(self, s):
        h = make_string(s)
        try:
            return lib.JSValueMakeString(self.ctx, h)
        finally:
            lib.JSStringRelease(h)

    def set(self, obj, name, value):
        key = make_string(name)
        exc = Exc()
        try:
            lib.JSObjectSetProperty(self.ctx, obj, key, value, 0, exc.ref)
        finally:
            lib.JSStringRelease(key)
        self.check(exc)
