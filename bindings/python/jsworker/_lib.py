"""Finding and loading libjsworker.so, and the ctypes declarations of include/jsworker.h.

The library is looked for, in order:

1. ``JSWORKER_LIBRARY``: the path of a libjsworker.so (any name), used as is;
2. the system's loader: ``libjsworker.so.0`` (the SONAME) as ``make install`` puts it in a directory ld.so searches,
   or one named by ``LD_LIBRARY_PATH``;
3. the install prefix: ``pkg-config --variable=libdir jsworker`` (a ``make install PREFIX=...`` whose pkgconfig
   directory is on ``PKG_CONFIG_PATH``), then ``sys.prefix/lib`` and ``/usr/local/lib``;
4. the build tree this package sits in: ``build/libjsworker.so`` beside ``bindings/python`` (``make build``).

Every declaration below repeats a prototype of include/jsworker.h; ``argtypes`` and ``restype`` are set for all of
them, so no call relies on ctypes' int-sized defaults.
"""

import ctypes
import os
import shutil
import subprocess
import sys

SONAME = "libjsworker.so.0"

# Handles are opaque pointers whose values are integers from the library's table; c_void_p carries them.
Handle = ctypes.c_void_p
JSValueRef = ctypes.c_void_p
JSValueRefPtr = ctypes.POINTER(ctypes.c_void_p)

kJSWorkerWaitForever = 2**64 - 1

kJSTypeUndefined, kJSTypeNull, kJSTypeBoolean, kJSTypeNumber, kJSTypeString, kJSTypeObject, kJSTypeSymbol, \
    kJSTypeBigInt = range(8)


class ZJSChannelLimits(ctypes.Structure):
    _fields_ = [("maxMessageBytes", ctypes.c_size_t), ("maxQueuedBytes", ctypes.c_size_t),
                ("maxQueuedMessages", ctypes.c_size_t)]


class ZJSErrorInfo(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("kind", ctypes.c_int), ("name", ctypes.c_char_p),
                ("message", ctypes.c_char_p), ("stack", ctypes.c_char_p), ("filename", ctypes.c_char_p),
                ("line", ctypes.c_uint), ("column", ctypes.c_uint)]


ZJSWorkerErrorCallback = ctypes.CFUNCTYPE(None, Handle, ctypes.POINTER(ZJSErrorInfo), ctypes.c_void_p)


# Worker setup and console callbacks, and host functions (issue 15).
ZJSWorkerSetupCallback = ctypes.CFUNCTYPE(ctypes.c_bool, Handle, ctypes.c_void_p, JSValueRefPtr)
ZJSConsoleCallback = ctypes.CFUNCTYPE(None, Handle, ctypes.c_int, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t,
                                      ctypes.c_void_p)
JSObjectCallAsFunctionCallback = ctypes.CFUNCTYPE(JSValueRef, Handle, JSValueRef, JSValueRef, ctypes.c_size_t,
                                                  ctypes.POINTER(JSValueRef), JSValueRefPtr)


class ZJSWorkerOptions(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("inbox", ZJSChannelLimits), ("outbox", ZJSChannelLimits),
                ("name", ctypes.c_char_p), ("filename", ctypes.c_char_p), ("maxCallStackSize", ctypes.c_size_t),
                ("dedicatedThread", ctypes.c_bool), ("inspectable", ctypes.c_bool),
                ("errorCallback", ZJSWorkerErrorCallback), ("errorUserData", ctypes.c_void_p),
                ("waitForDebugger", ctypes.c_bool),
                ("executionTimeLimit", ctypes.c_double),
                ("setup", ZJSWorkerSetupCallback), ("setupUserData", ctypes.c_void_p),
                ("consoleCallback", ZJSConsoleCallback), ("consoleUserData", ctypes.c_void_p),
                ("maxHeapBytes", ctypes.c_size_t)]


class ZJSInspectorTargetInfo(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint64), ("kind", ctypes.c_int), ("state", ctypes.c_int)]


ZJSInspectorMessageCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t,
                                               ctypes.c_void_p)
ZJSModuleLoaderCallback = ctypes.CFUNCTYPE(None, Handle, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p)

_B, _D, _I, _U, _U64, _Z, _S = (ctypes.c_bool, ctypes.c_double, ctypes.c_int, ctypes.c_uint, ctypes.c_uint64,
                                ctypes.c_size_t, ctypes.c_char_p)
_V = JSValueRef
_E = JSValueRefPtr
_H = Handle

# name: (restype, argtypes)
_PROTOTYPES = {
    "ZJSGetVersionNumber": (_I, []),
    "ZJSGetVersionString": (_S, []),
    "JSGlobalContextCreate": (_H, [_H]),
    "JSGlobalContextRetain": (_H, [_H]),
    "JSGlobalContextRelease": (None, [_H]),
    "JSContextGetGlobalObject": (_V, [_H]),
    "JSGlobalContextSetInspectable": (None, [_H, _B]),
    "JSGlobalContextIsInspectable": (_B, [_H]),
    "JSEvaluateScript": (_V, [_H, _H, _V, _H, _I, _E]),
    "JSCheckScriptSyntax": (_B, [_H, _H, _H, _I, _E]),
    "JSGarbageCollect": (None, [_H]),
    "ZJSHandleScopeOpen": (_H, [_H]),
    "ZJSHandleScopeClose": (None, [_H, _H]),
    "ZJSValueRelease": (None, [_H, _V]),
    "JSValueProtect": (None, [_H, _V]),
    "JSValueUnprotect": (None, [_H, _V]),
    "JSStringCreateWithUTF8CString": (_H, [_S]),
    "JSStringCreateWithCharacters": (_H, [ctypes.c_void_p, _Z]),
    "JSStringRetain": (_H, [_H]),
    "JSStringRelease": (None, [_H]),
    "JSStringGetLength": (_Z, [_H]),
    "JSStringGetCharactersPtr": (ctypes.c_void_p, [_H]),
    "JSValueGetType": (_I, [_H, _V]),
    "JSValueIsArray": (_B, [_H, _V]),
    "JSValueMakeUndefined": (_V, [_H]),
    "JSValueMakeNull": (_V, [_H]),
    "JSValueMakeBoolean": (_V, [_H, _B]),
    "JSValueMakeNumber": (_V, [_H, _D]),
    "JSValueMakeString": (_V, [_H, _H]),
    "JSValueToBoolean": (_B, [_H, _V]),
    "JSValueToNumber": (_D, [_H, _V, _E]),
    "JSValueToStringCopy": (_H, [_H, _V, _E]),
    "JSValueCreateJSONString": (_H, [_H, _V, _U, _E]),
    "JSObjectMake": (_V, [_H, _H, ctypes.c_void_p]),
    "JSObjectMakeArray": (_V, [_H, _Z, ctypes.POINTER(_V), _E]),
    "JSObjectGetProperty": (_V, [_H, _V, _H, _E]),
    "JSObjectSetProperty": (None, [_H, _V, _H, _V, _U, _E]),
    "JSObjectMakeFunctionWithCallback": (_V, [_H, _H, JSObjectCallAsFunctionCallback]),
    "JSObjectHasProperty": (_B, [_H, _V, _H]),
    "JSObjectDeleteProperty": (_B, [_H, _V, _H, _E]),
    "JSObjectGetPropertyAtIndex": (_V, [_H, _V, _U, _E]),
    "JSObjectIsFunction": (_B, [_H, _V]),
    "JSObjectCallAsFunction": (_V, [_H, _V, _V, _Z, ctypes.POINTER(_V), _E]),
    "JSObjectCopyPropertyNames": (_H, [_H, _V]),
    "JSPropertyNameArrayRelease": (None, [_H]),
    "JSPropertyNameArrayGetCount": (_Z, [_H]),
    "JSPropertyNameArrayGetNameAtIndex": (_H, [_H, _Z]),
    "ZJSWorkerCreateWithOptions": (_H, [_H, ctypes.POINTER(ZJSWorkerOptions), ctypes.POINTER(_H)]),
    "JSWorkerPostMessage": (_B, [_H, _H, _V, _E]),
    "ZJSWorkerPostMessageWithTransfer": (_B, [_H, _H, _V, _Z, ctypes.POINTER(_V), _E]),
    "JSWorkerReceive": (_V, [_H, _H, _U64, _E]),
    "JSWorkerTerminate": (None, [_H]),
    "ZJSWorkerClose": (None, [_H]),
    "JSWorkerRelease": (None, [_H]),
    "ZJSWorkerSetErrorCallback": (_B, [_H, ZJSWorkerErrorCallback, ctypes.c_void_p]),
    "ZJSWorkerGetInspectorTargetInfo": (_B, [_H, ctypes.POINTER(ZJSInspectorTargetInfo)]),
    "ZJSWorkerInspectorSessionCreate": (_H, [_H, ZJSInspectorMessageCallback, ctypes.c_void_p]),
    "ZJSWorkerInspectorSessionDispatch": (_B, [_H, ctypes.c_void_p, _Z]),
    "ZJSWorkerInspectorSessionPump": (_I, [_H, _U64]),
    "ZJSWorkerInspectorSessionRelease": (None, [_H]),
    "ZJSInspectorSessionCreate": (_H, [_H, ZJSInspectorMessageCallback, ctypes.c_void_p]),
    "ZJSInspectorSessionDispatch": (_B, [_H, ctypes.c_void_p, _Z]),
    "ZJSInspectorSessionRelease": (None, [_H]),
}

# Module workers: present in libraries that have them (include/jsworker.h, ZJSWorkerCreateModule).
_OPTIONAL_PROTOTYPES = {
    "ZJSModuleRequestResolve": (_B, [_H, _S, ctypes.c_char_p, _Z]),
    "ZJSModuleRequestFail": (_B, [_H, _S]),
    "ZJSWorkerCreateModule": (_H, [_S, ctypes.c_char_p, _Z, ZJSModuleLoaderCallback, ctypes.c_void_p,
                                   ctypes.POINTER(ZJSWorkerOptions), ctypes.POINTER(_H)]),
}


class LibraryNotFound(ImportError):
    """libjsworker.so could not be found or loaded; the message lists every place that was tried."""


def _candidates():
    env = os.environ.get("JSWORKER_LIBRARY")
    if env:
        yield env, "JSWORKER_LIBRARY"
        return
    yield SONAME, "the system loader"
    if shutil.which("pkg-config"):
        try:
            libdir = subprocess.run(["pkg-config", "--variable=libdir", "jsworker"], capture_output=True,
                                    text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            libdir = ""
        if libdir:
            yield os.path.join(libdir, SONAME), "pkg-config jsworker"
    for prefix in dict.fromkeys([sys.prefix, "/usr/local"]):
        yield os.path.join(prefix, "lib", SONAME), "the install prefix " + prefix
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.normpath(os.path.join(here, "..", "..", "..", "build", "libjsworker.so")), "the build tree"


def _load():
    tried = []
    for path, where in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s): %s" % (path, where, e))
    raise LibraryNotFound("jsworker: cannot load libjsworker.so; tried:\n  " + "\n  ".join(tried) +
                          "\nSet JSWORKER_LIBRARY to the library's path, or install it with `make install`.")


lib, path = _load()
for _name, (_res, _args) in _PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype, _f.argtypes = _res, _args
# JSTypedArray.h (issue 15): bytes convert through the buffers' memory when the library has it.
_BYTES_PROTOTYPES = {
    "JSObjectMakeTypedArray": (_V, [_H, _I, _Z, _E]),
    "JSObjectGetTypedArrayBytesPtr": (ctypes.c_void_p, [_H, _V, _E]),
    "JSObjectGetTypedArrayByteOffset": (_Z, [_H, _V, _E]),
    "JSObjectGetTypedArrayByteLength": (_Z, [_H, _V, _E]),
    "JSObjectGetTypedArrayBuffer": (_V, [_H, _V, _E]),
    "JSObjectGetArrayBufferBytesPtr": (ctypes.c_void_p, [_H, _V, _E]),
    "JSObjectGetArrayBufferByteLength": (_Z, [_H, _V, _E]),
    "JSValueGetTypedArrayType": (_I, [_H, _V, _E]),
}
has_bytes = all(hasattr(lib, n) for n in _BYTES_PROTOTYPES)
if has_bytes:
    for _name, (_res, _args) in _BYTES_PROTOTYPES.items():
        _f = getattr(lib, _name)
        _f.restype, _f.argtypes = _res, _args
kJSTypedArrayTypeUint8Array, kJSTypedArrayTypeArrayBuffer, kJSTypedArrayTypeNone = 3, 9, 10

# Memory shared with C (issue 15): SharedArrayBuffers over Python memory, and Atomics.notify from any thread.
JSTypedArrayBytesDeallocator = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
_SHARED_PROTOTYPES = {
    "ZJSSharedArrayBufferCreateWithBytesNoCopy": (_V, [_H, ctypes.c_void_p, _Z, JSTypedArrayBytesDeallocator,
                                                       ctypes.c_void_p, _E]),
    "ZJSSharedArrayBufferGetBytesPtr": (ctypes.c_void_p, [_H, _V, ctypes.POINTER(_Z), _E]),
    "ZJSAtomicsNotify": (_Z, [ctypes.c_void_p, _Z]),
    "JSObjectMakeTypedArrayWithBytesNoCopy": (_V, [_H, _I, ctypes.c_void_p, _Z, JSTypedArrayBytesDeallocator,
                                                   ctypes.c_void_p, _E]),
}
has_shared = all(hasattr(lib, n) for n in _SHARED_PROTOTYPES)
if has_shared:
    for _name, (_res, _args) in _SHARED_PROTOTYPES.items():
        _f = getattr(lib, _name)
        _f.restype, _f.argtypes = _res, _args

# Messages as JSON text (issue 17): one library entry per message; the received text is malloc'd, freed with libc's
# free.
_JSON_PROTOTYPES = {
    "ZJSWorkerPostJSON": (_B, [_H, _H, ctypes.c_char_p, _Z, _E]),
    "ZJSWorkerReceiveJSON": (ctypes.c_void_p, [_H, _H, _U64, ctypes.POINTER(_Z), _E]),
}
has_json = all(hasattr(lib, n) for n in _JSON_PROTOTYPES)
if has_json:
    for _name, (_res, _args) in _JSON_PROTOTYPES.items():
        _f = getattr(lib, _name)
        _f.restype, _f.argtypes = _res, _args
libc_free = ctypes.CDLL(None).free
libc_free.restype, libc_free.argtypes = None, [ctypes.c_void_p]

has_modules = all(hasattr(lib, n) for n in _OPTIONAL_PROTOTYPES)
if has_modules:
    for _name, (_res, _args) in _OPTIONAL_PROTOTYPES.items():
        _f = getattr(lib, _name)
        _f.restype, _f.argtypes = _res, _args
