"""Context: a main JavaScript context (a realm of the host's own) on the thread that created it."""

from . import _owner
from ._convert import Exc, Marshal, make_string
from ._lib import lib
from .errors import Error


class _Scope:
    """A handle scope around one operation: every value handle made inside is released when it ends."""

    def __init__(self, ctx):
        self.ctx = ctx

    def __enter__(self):
        self.scope = lib.ZJSHandleScopeOpen(self.ctx)
        return self

    def __exit__(self, *exc):
        lib.ZJSHandleScopeClose(self.ctx, self.scope)


class Context(_owner.Owned):
    """A JavaScript context (``JSGlobalContextCreate``): the standard built-ins plus ``console``, ``performance``,
    ``queueMicrotask``, ``SharedArrayBuffer`` and ``Atomics``, but no event loop (no timers, no ``postMessage``).

    Values cross into Python as copies (see the package documentation for the mapping). A Context belongs to the
    thread that created it: any use from another thread raises WrongThreadError. Use it as a context manager, or
    call ``close()``; an unclosed Context is released when it is garbage collected.
    """

    _kind = "context"

    def __init__(self):
        h = lib.JSGlobalContextCreate(None)
        if not h:
            raise Error("jsworker: JSGlobalContextCreate failed")
        self._own(h)
        self._marshal = Marshal(h, host=True)
        self.globals = Globals(self)

    def _release_function(self):
        h = self._handle

        def release():
            lib.JSGlobalContextRelease(h)
            _owner.released("context")
        return release

    def evaluate(self, script, filename=None, line=1):
        """Runs a script and returns its completion value converted to Python. A JavaScript exception is raised
        as JSError (a syntax error as JSError with name ``SyntaxError``)."""
        ctx = self._check()
        m = self._marshal
        src = make_string(script)
        url = make_string(filename) if filename else None
        try:
            with _Scope(ctx):
                exc = Exc()
                v = lib.JSEvaluateScript(ctx, src, None, url, line, exc.ref)
                m.check(exc)
                return m.to_python(v)
        finally:
            lib.JSStringRelease(src)
            if url:
                lib.JSStringRelease(url)

    def call(self, function, *args):
        """Calls a function with Python arguments and returns its result: ``function`` is the name of a global or
        an expression that evaluates to a function (``"Math.max"``, ``"(a, b) => a + b"``)."""
        ctx = self._check()
        m = self._marshal
        src = make_string("(" + function + ")")
        try:
            with _Scope(ctx):
                exc = Exc()
                f = lib.JSEvaluateScript(ctx, src, None, None, 1, exc.ref)
                m.check(exc)
                if not lib.JSObjectIsFunction(ctx, f):
                    raise TypeError("jsworker: %s is not a function" % function)
                from . import _lib
                argv = (_lib.JSValueRef * len(args))(*[m.to_js(a) for a in args])
                exc = Exc()
                v = lib.JSObjectCallAsFunction(ctx, f, None, len(args), argv, exc.ref)
                m.check(exc)
                return m.to_python(v)
        finally:
            lib.JSStringRelease(src)

    @property
    def inspectable(self):
        """Whether inspector sessions may attach (``JSGlobalContextSetInspectable``); False by default."""
        return lib.JSGlobalContextIsInspectable(self._check())

    @inspectable.setter
    def inspectable(self, value):
        lib.JSGlobalContextSetInspectable(self._check(), bool(value))

    def inspector(self, callback, raw=False):
        """Attaches a synchronous inspector session (the context must be ``inspectable``); see
        ``jsworker.ContextInspectorSession``."""
        from .inspector import ContextInspectorSession
        return ContextInspectorSession(self, callback, raw)


class Globals:
    """The global object as a mapping: ``ctx.globals["x"] = [1, 2]``, ``ctx.globals["x"]``, ``"x" in ctx.globals``,
    ``del ctx.globals["x"]``. Values are copied in and out."""

    def __init__(self, context):
        self._context = context

    def __getitem__(self, name):
        ctx = self._context._check()
        m = self._context._marshal
        key = make_string(name)
        try:
            if not lib.JSObjectHasProperty(ctx, m.global_object, key):
                raise KeyError(name)
            with _Scope(ctx):
                exc = Exc()
                v = lib.JSObjectGetProperty(ctx, m.global_object, key, exc.ref)
                m.check(exc)
                return m.to_python(v)
        finally:
            lib.JSStringRelease(key)

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default

    def __setitem__(self, name, value):
        ctx = self._context._check()
        m = self._context._marshal
        with _Scope(ctx):
            m.set(m.global_object, name, m.to_js(value))

    def __delitem__(self, name):
        ctx = self._context._check()
        m = self._context._marshal
        key = make_string(name)
        try:
            if not lib.JSObjectHasProperty(ctx, m.global_object, key):
                raise KeyError(name)
            exc = Exc()
            with _Scope(ctx):
                ok = lib.JSObjectDeleteProperty(ctx, m.global_object, key, exc.ref)
                m.check(exc)
            if not ok:
                raise TypeError("jsworker: the global %r cannot be deleted" % name)
        finally:
            lib.JSStringRelease(key)

    def __contains__(self, name):
        ctx = self._context._check()
        key = make_string(name)
        try:
            return lib.JSObjectHasProperty(ctx, self._context._marshal.global_object, key)
        finally:
            lib.JSStringRelease(key)
