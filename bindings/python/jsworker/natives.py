"""Python callables as native functions inside workers, and worker console output to Python (issue 15).

``Worker(source, natives={"name": fn}, console=cb)``: a setup callback, run on the worker's thread before its script,
installs each ``fn`` as a global function of the worker; worker JavaScript calls it directly (on the worker's thread,
holding the GIL), with its arguments converted as ``Context.call`` converts results, and its return value converted
back. An exception ``fn`` raises is thrown in JavaScript as an Error with its message. ``console(level, line)``
receives the worker's console lines (level ``"log"``, ``"info"``, ``"warn"``, ``"error"``, ``"debug"``) instead of
stdout/stderr.
"""

import ctypes

from . import _lib
from ._convert import Marshal, make_string
from ._lib import lib

_LEVELS = ("log", "info", "warn", "error", "debug")


def _throw(ctx, exc_ptr, message):
    """Stores an Error(message) of ctx in *exc_ptr."""
    s = make_string("(m) => new Error(m)")
    try:
        make = lib.JSEvaluateScript(ctx, s, None, None, 1, None)
    finally:
        lib.JSStringRelease(s)
    m = make_string(message)
    try:
        arg = lib.JSValueMakeString(ctx, m)
    finally:
        lib.JSStringRelease(m)
    argv = (_lib.JSValueRef * 1)(arg)
    err = lib.JSObjectCallAsFunction(ctx, make, None, 1, argv, None) if make else None
    exc_ptr[0] = err or arg


class Natives:
    """The callbacks of one worker's natives and console. They must outlive the worker's thread."""

    def __init__(self, natives, console):
        self.natives = dict(natives or {})
        self.console_fn = console
        self.keep = []  # ctypes callbacks referenced from C
        self.setup = _lib.ZJSWorkerSetupCallback(self._setup) if self.natives else None
        self.console = _lib.ZJSConsoleCallback(self._console) if console is not None else None

    def _setup(self, ctx, user_data, exc_ptr):
        try:
            glob = lib.JSContextGetGlobalObject(ctx)
            for name, fn in self.natives.items():
                cb = _lib.JSObjectCallAsFunctionCallback(self._native(fn))
                self.keep.append(cb)
                n = make_string(name)
                try:
                    f = lib.JSObjectMakeFunctionWithCallback(ctx, n, cb)
                    lib.JSObjectSetProperty(ctx, glob, n, f, 0, None)
                finally:
                    lib.JSStringRelease(n)
            return True
        except BaseException as e:  # a Python error must not cross into C
            _throw(ctx, exc_ptr, "setup: %s" % e)
            return False

    @staticmethod
    def _native(fn):
        def thunk(ctx, function, this, argc, argv, exc_ptr):
            try:
                m = Marshal(ctx)  # values live in the call's own handle scope
                args = [m.to_python(argv[i]) for i in range(argc)]
                return m.to_js(fn(*args))
            except BaseException as e:
                _throw(ctx, exc_ptr, "%s: %s" % (type(e).__name__, e))
                return None
        return thunk

    def _console(self, ctx, level, message, length, user_data):
        try:
            line = ctypes.string_at(message, length).decode("utf-8", "replace")
            self.console_fn(_LEVELS[level] if 0 <= level < len(_LEVELS) else "log", line)
        except BaseException:
            pass  # a console callback cannot report failures anywhere
