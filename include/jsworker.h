/*
 * jsworker.h - the public C interface of libjsworker.so.
 *
 * If a function, type or constant does not appear in this file, it is not part of the published API. This file is
 * the authoritative description of how the library's interfaces are meant to behave; where the library and this
 * file disagree, the library has a bug.
 *
 * Naming: JS* functions follow JavaScriptCore's C API (names, signatures and ownership rules); ZJS* functions are
 * jsworker extensions with no JavaScriptCore counterpart.
 */
#ifndef JSWORKER_H
#define JSWORKER_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * JSWORKER_EXPORT marks every function the library exports. Define it before including this file to override it.
 */
#ifndef JSWORKER_EXPORT
#if defined(_WIN32) || defined(__CYGWIN__)
#define JSWORKER_EXPORT __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define JSWORKER_EXPORT __attribute__((visibility("default")))
#else
#define JSWORKER_EXPORT
#endif
#endif

/*
 * Version.
 *
 * The JSWORKER_VERSION_* macros describe the header a host was compiled against; ZJSGetVersionNumber and
 * ZJSGetVersionString describe the library loaded at run time. A host that wants to be sure the two match can check
 *
 *     assert(ZJSGetVersionNumber() == JSWORKER_VERSION_NUMBER);
 *
 * JSWORKER_VERSION_NUMBER is MAJOR*1000000 + MINOR*1000 + PATCH, so versions compare as integers.
 * JSWORKER_VERSION_STRING is "MAJOR.MINOR.PATCH".
 */
#define JSWORKER_VERSION_MAJOR 0
#define JSWORKER_VERSION_MINOR 2
#define JSWORKER_VERSION_PATCH 0
#define JSWORKER_VERSION_NUMBER 2000
#define JSWORKER_VERSION_STRING "0.2.0"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Threads.
 *
 * The library is not thread-safe except where stated otherwise. Every object a host is given — a context, a value,
 * a string, a property name array, a handle scope, a worker, an inspector session — belongs to the OS thread that
 * created it (a value belongs to its context's thread). A call that passes an object from another thread is refused:
 * it does not touch the object, it returns its failure value (NULL, false, 0, NaN, or nothing), and, if it has an
 * exception parameter and was given a context of the calling thread, it stores there a TypeError whose message says
 * "belongs to another thread". The same happens for NULL, for a handle of the wrong type, and for a handle already
 * released: handle values are never reused, so a stale handle is always detected. Calls without an exception
 * parameter fail silently with their failure value (for functions returning void: they do nothing).
 *
 * Only ZJSGetVersionNumber, ZJSGetVersionString and the class functions JSClassCreate, JSClassRetain and
 * JSClassRelease may be called from any thread (a class belongs to no thread). Callbacks the library makes are
 * documented with the thread they run on: host functions (JSObjectCallAsFunctionCallback) and the class callbacks on
 * the thread running the script, which is the context's thread; finalize callbacks and NoCopy deallocators on the
 * context's thread, with no JavaScript running; the notify and error callbacks on the worker's thread; the inspector
 * message callback (ZJSInspectorMessageCallback) on the session's owner thread, inside the call that delivers the
 * message.
 *
 * A worker runs on a thread of its own (a goroutine, or a dedicated OS thread on request); the host's thread only
 * exchanges copies of values with it. Several host threads may each own contexts and workers and use them at the same
 * time.
 *
 * Internal errors: every function catches a failure inside the library (a Go panic). It is reported as an exception
 * whose name is "InternalError" when the call has an exception parameter and a valid context, and on standard error
 * otherwise; the function returns its failure value and the context stays usable. No failure inside the library ever
 * ends the host process.
 */

/*
 * Types.
 *
 * Handles are opaque pointers, as in JavaScriptCore; their values are integers from the library's handle table,
 * never addresses, so they must not be dereferenced. NULL is never a valid handle.
 */

/*! @typedef JSContextRef A JavaScript execution context (here always a global context). Holds the global object and
 every value made in it. */
typedef const struct OpaqueJSContext *JSContextRef;

/*! @typedef JSGlobalContextRef A global JavaScript execution context: a realm with its own global object and heap. */
typedef struct OpaqueJSContext *JSGlobalContextRef;

/*! @typedef JSStringRef An immutable UTF-16 string, reference counted. */
typedef struct OpaqueJSString *JSStringRef;

/*! @typedef JSClassRef A JavaScript class (JSClassCreate), reference counted; it belongs to no thread or context
 (see "Classes"). */
typedef struct OpaqueJSClass *JSClassRef;

/*! @typedef JSPropertyNameArrayRef An array of property names, reference counted. */
typedef struct OpaqueJSPropertyNameArray *JSPropertyNameArrayRef;

/*! @typedef JSValueRef A JavaScript value of one context. See "Value lifetime" below. */
typedef const struct OpaqueJSValue *JSValueRef;

/*! @typedef JSObjectRef A JavaScript object: a JSValueRef whose value is an object. */
typedef struct OpaqueJSValue *JSObjectRef;

/*! @typedef JSWorkerRef A worker: a script running on its own thread with its own realm and event loop. */
typedef struct OpaqueJSWorker *JSWorkerRef;

/*! @typedef ZJSHandleScopeRef An open handle scope of a context (jsworker extension). */
typedef struct OpaqueZJSHandleScope *ZJSHandleScopeRef;

/*! @typedef JSChar A UTF-16 code unit. */
typedef unsigned short JSChar;

/*!
@enum JSType
@abstract The type of a JavaScript value, as JSValueGetType reports it.
@constant kJSTypeUndefined The unique undefined value.
@constant kJSTypeNull The unique null value.
@constant kJSTypeBoolean A primitive boolean value, one of true or false.
@constant kJSTypeNumber A primitive number value.
@constant kJSTypeString A primitive string value.
@constant kJSTypeObject An object value (meaning that this JSValueRef is a JSObjectRef).
@constant kJSTypeSymbol A primitive symbol value.
@constant kJSTypeBigInt A primitive BigInt value.
*/
typedef enum {
    kJSTypeUndefined = 0,
    kJSTypeNull = 1,
    kJSTypeBoolean = 2,
    kJSTypeNumber = 3,
    kJSTypeString = 4,
    kJSTypeObject = 5,
    kJSTypeSymbol = 6,
    kJSTypeBigInt = 7
} JSType;

/*!
@enum JSPropertyAttribute
@constant kJSPropertyAttributeNone Specifies that a property has no special attributes.
@constant kJSPropertyAttributeReadOnly Specifies that a property is read-only.
@constant kJSPropertyAttributeDontEnum Specifies that a property should not be enumerated by for...in loops.
@constant kJSPropertyAttributeDontDelete Specifies that the delete operation should fail on a property.
*/
enum {
    kJSPropertyAttributeNone = 0,
    kJSPropertyAttributeReadOnly = 1 << 1,
    kJSPropertyAttributeDontEnum = 1 << 2,
    kJSPropertyAttributeDontDelete = 1 << 3
};

/*! @typedef JSPropertyAttributes A set of JSPropertyAttributes, combined with a bitwise OR. */
typedef unsigned JSPropertyAttributes;

/*!
@typedef JSObjectCallAsFunctionCallback
@abstract The callback invoked when a function made by JSObjectMakeFunctionWithCallback is called.
@param ctx The execution context to use.
@param function A JSObjectRef that is the function being called.
@param thisObject A JSObjectRef that is the 'this' variable in the function's scope (it may hold a primitive or
 undefined when the caller passed one, despite its type).
@param argumentCount An integer count of the number of arguments in arguments.
@param arguments A JSValue array of the arguments passed to the function.
@param exception A pointer to a JSValueRef in which to return an exception, if any: a value of ctx stored there is
 thrown to the caller.
@result A JSValue that is the function's return value, or NULL for undefined.
@discussion Thread: runs on the thread that is running the script, which is ctx's owner thread, inside the library
 call that ran the script (JSEvaluateScript, JSObjectCallAsFunction, ...). The callback may call the library on ctx.

 Lifetime: function, thisObject, the arguments and every value the callback makes live in a handle scope the library
 closes when the callback returns (after reading the result and the exception). Protect a value (JSValueProtect) to
 keep it longer. The arguments array itself is valid only during the call.
*/
typedef JSValueRef (*JSObjectCallAsFunctionCallback)(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject,
                                                     size_t argumentCount, const JSValueRef arguments[],
                                                     JSValueRef *exception);

/*
 * Value lifetime.
 *
 * Values (JSValueRef, JSObjectRef) are not reference counted: no function returning one follows the Create Rule.
 * A value handle is valid until the first of
 *
 *   1. its context is released (the last JSGlobalContextRelease): every value of the context dies with it;
 *   2. the innermost handle scope (ZJSHandleScopeOpen) open in its context when the value was made is closed —
 *      unless the value is protected (JSValueProtect) at that moment, in which case it moves into the enclosing
 *      scope (or to the context, if there is none) and lives on;
 *   3. ZJSValueRelease is called on it (protected or not).
 *
 * Without scopes, every value lives as long as its context, so a loop that makes values grows the context. Wrap the
 * body of a long loop in ZJSHandleScopeOpen / ZJSHandleScopeClose, or release the values it makes with
 * ZJSValueRelease, and memory stays flat. JSValueProtect and JSValueUnprotect keep their JavaScriptCore meaning —
 * a protected value survives — with a count: a value protected n times needs n unprotects. Using a handle after it
 * died is detected and refused like any stale handle.
 *
 * Strings (JSStringRef) and property name arrays follow JavaScriptCore's Create Rule: functions with Create or Copy
 * in their name return a reference the caller must release; Retain adds one. They belong to no context.
 */

/*!
@function
@abstract Gets the version number of the loaded library.
@result The library's version as MAJOR*1000000 + MINOR*1000 + PATCH; for example 1000 for version 0.1.0. It equals
 JSWORKER_VERSION_NUMBER when the library matches this header. This function cannot fail.
@discussion Thread: may be called from any thread, at any time, including before any other jsworker function.
*/
JSWORKER_EXPORT int ZJSGetVersionNumber(void);

/*!
@function
@abstract Gets the version string of the loaded library.
@result A NUL-terminated string "MAJOR.MINOR.PATCH", for example "0.1.0". It equals JSWORKER_VERSION_STRING when the
 library matches this header. This function cannot fail; the result is never NULL.
@discussion Ownership: the string is static and owned by the library. It stays valid for as long as the library is
 loaded; do not modify or free it.

 Thread: may be called from any thread, at any time, including before any other jsworker function.
*/
JSWORKER_EXPORT const char *ZJSGetVersionString(void);

/* ---------------------------------------------------------------------------------------------------------------
 * Contexts (JSContextRef.h, JSBase.h).
 */

/*!
@function
@abstract Creates a global JavaScript execution context (a main context).
@param globalObjectClass NULL, or a class whose prototype, static functions and values, initialize and finalize
 apply to the global object (which stays an ordinary object: the class's property and call callbacks do not apply;
 see "Classes").
@result A JSGlobalContextRef with the standard ECMAScript built-ins plus the globals a worker's realm has —
 console, performance, queueMicrotask, structuredClone, SharedArrayBuffer, Atomics, URL, URLSearchParams,
 TextEncoder, TextDecoder, setTimeout/setInterval/setImmediate and their clear functions, Worker, MessageChannel,
 MessagePort, BroadcastChannel — but no postMessage, onmessage or close. The context has no thread of its own:
 its timers and its workers' events run when the host calls ZJSContextRunPendingEvents. NULL if globalObjectClass is not a live class or the context could not be made. Ownership
 follows the Create Rule.
@discussion Thread: the calling thread becomes the context's owner; the context, and every value made in it, may be
 used only from that thread. Values of one context may not be used in another context. A queueMicrotask callback
 runs when the JSEvaluateScript or JSObjectCallAsFunction that queued it is about to return.
*/
JSWORKER_EXPORT JSGlobalContextRef JSGlobalContextCreate(JSClassRef globalObjectClass);

/*!
@function
@abstract Retains a global JavaScript execution context.
@param ctx The JSGlobalContext to retain.
@result ctx, or NULL if ctx is not a live context of the calling thread.
*/
JSWORKER_EXPORT JSGlobalContextRef JSGlobalContextRetain(JSGlobalContextRef ctx);

/*!
@function
@abstract Releases a global JavaScript execution context.
@param ctx The JSGlobalContext to release. NULL, a stale handle or another thread's context: nothing happens.
@discussion The last release destroys the context and every value, handle scope and host function of it; their
 handles become stale. It also ends the context's inspector sessions, whose callbacks receive their last messages
 before it returns (see ZJSInspectorSessionCreate). It runs, before it returns, the finalize callbacks of every
 object made with a class and the deallocators of every NoCopy buffer of the context that have not run yet. Strings,
 classes and workers are not part of a context and are not affected.
*/
JSWORKER_EXPORT void JSGlobalContextRelease(JSGlobalContextRef ctx);

/*!
@function
@abstract Gets the global object of a JavaScript execution context.
@param ctx The JSContext whose global object you want to get.
@result ctx's global object, a new value handle (see "Value lifetime"), or NULL if ctx is not a live context of the
 calling thread.
*/
JSWORKER_EXPORT JSObjectRef JSContextGetGlobalObject(JSContextRef ctx);

/*!
@function
@abstract Sets whether the context may be inspected by a debugger.
@param ctx The JSGlobalContext that you want to change the inspectability of.
@param inspectable true to allow inspection. The default is false.
@discussion JavaScriptCore's opt-in: ZJSInspectorSessionCreate refuses a context that is not inspectable. Clearing
 the flag stops new sessions from attaching; sessions already attached are not affected. Invalid ctx: nothing happens.

 Scripts that JSEvaluateScript runs while the context is inspectable are compiled instrumented for the Debugger
 domain (breakpoints, `debugger;`, stepping, pause on exceptions; see docs/inspector.md), so set the flag before
 evaluating the scripts you want to debug. Instrumented code runs up to about 1.5x slower on tight loops, with or
 without a session. A pause happens inside the library call that runs the JavaScript (JSEvaluateScript,
 JSObjectCallAsFunction, ...), on the owner thread: the call does not return until a session resumes. The pause's
 messages reach the session callbacks on that thread, and a callback may dispatch Debugger.resume (or a step, or any
 other command) right away; other threads may dispatch to the session while the context is paused (see
 ZJSInspectorSessionDispatch). Releasing the only session that enabled the Debugger also resumes.
*/
JSWORKER_EXPORT void JSGlobalContextSetInspectable(JSGlobalContextRef ctx, bool inspectable);

/*!
@function
@abstract Gets whether the context may be inspected by a debugger.
@param ctx The JSGlobalContext that you want to query.
@result The flag last set with JSGlobalContextSetInspectable (initially false); false if ctx is not a live context
 of the calling thread.
*/
JSWORKER_EXPORT bool JSGlobalContextIsInspectable(JSGlobalContextRef ctx);

/*!
@function
@abstract Evaluates a string of JavaScript.
@param ctx The execution context to use.
@param script A JSString containing the script to evaluate.
@param thisObject NULL or ctx's global object: the object to use as "this". Other objects are not supported and
 produce an exception.
@param sourceURL A JSString containing a URL for the script's source file, used in exception stack traces. Pass NULL
 if you do not care to include source file information.
@param startingLineNumber The script's starting line number in the file located at sourceURL, used only in exception
 positions. One-based; values below 1 are treated as 1, values above 1048576 are ignored.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result The JSValue that results from evaluating script (a new value handle), or NULL if an exception is thrown. A
 syntax error is thrown as a SyntaxError.
*/
JSWORKER_EXPORT JSValueRef JSEvaluateScript(JSContextRef ctx, JSStringRef script, JSObjectRef thisObject,
                                            JSStringRef sourceURL, int startingLineNumber, JSValueRef *exception);

/*!
@function
@abstract Checks for syntax errors in a string of JavaScript.
@param ctx The execution context to use.
@param script A JSString containing the script to check for syntax errors.
@param sourceURL A JSString containing a URL for the script's source file, used in the error. Pass NULL if you do
 not care to include source file information.
@param startingLineNumber As for JSEvaluateScript.
@param exception A pointer to a JSValueRef in which to store a SyntaxError, if any. Pass NULL if you do not care to
 store a syntax error exception.
@result true if the script is syntactically correct, otherwise false. The script is not run.
*/
JSWORKER_EXPORT bool JSCheckScriptSyntax(JSContextRef ctx, JSStringRef script, JSStringRef sourceURL,
                                         int startingLineNumber, JSValueRef *exception);

/*!
@function
@abstract Performs a JavaScript garbage collection.
@param ctx NULL, or a context of the calling thread: then the finalize callbacks and NoCopy deallocators of its
 objects the collector has reported so far run before the call returns (the collector reports asynchronously, so
 some may come at a later call). Any other value is ignored.
@discussion Runs a full collection of the process's Go heap, which holds every context and worker. Values are not
 collected while their handles live (see "Value lifetime"); you need not call this function. Thread: any thread.
*/
JSWORKER_EXPORT void JSGarbageCollect(JSContextRef ctx);

/* ---------------------------------------------------------------------------------------------------------------
 * Handle scopes and value lifetime (jsworker extensions, and JSValueProtect/Unprotect from JSValueRef.h).
 */

/*!
@function
@abstract Opens a handle scope in a context.
@param ctx The execution context.
@result A ZJSHandleScopeRef naming the new scope, or NULL if ctx is not a live context of the calling thread.
@discussion Every value made in ctx from now on, until the scope is closed or an inner scope opens, belongs to this
 scope. Scopes nest; close them in reverse order (closing a scope also closes the scopes opened inside it).
 The handle needs no release other than ZJSHandleScopeClose; an unclosed scope is closed with its context.
*/
JSWORKER_EXPORT ZJSHandleScopeRef ZJSHandleScopeOpen(JSContextRef ctx);

/*!
@function
@abstract Closes a handle scope, releasing the values made in it.
@param ctx The execution context the scope was opened in.
@param scope The scope to close. NULL, an already closed scope or another context's scope: nothing happens.
@discussion Releases every value of the scope (and of the scopes opened inside it) that is not protected; protected
 values move into the enclosing scope. The scope handle, and the handles of the inner scopes, become stale.
*/
JSWORKER_EXPORT void ZJSHandleScopeClose(JSContextRef ctx, ZJSHandleScopeRef scope);

/*!
@function
@abstract Releases one value handle now.
@param ctx The execution context of the value.
@param value The value to release, protected or not. NULL or an invalid value: nothing happens.
@discussion The handle becomes stale; the JavaScript value itself lives on as long as JavaScript code references it.
*/
JSWORKER_EXPORT void ZJSValueRelease(JSContextRef ctx, JSValueRef value);

/*!
@function
@abstract Protects a JavaScript value from release by the closing of its handle scope.
@param ctx The execution context to use.
@param value The JSValue to protect.
@discussion A value may be protected multiple times and must be unprotected an equal number of times before it
 can be released by a scope. A protected value still dies with its context or through ZJSValueRelease.
*/
JSWORKER_EXPORT void JSValueProtect(JSContextRef ctx, JSValueRef value);

/*!
@function
@abstract Unprotects a JavaScript value.
@param ctx The execution context to use.
@param value The JSValue to unprotect.
@discussion Undoes one JSValueProtect (more unprotects than protects are ignored). An unprotected value lives until
 the scope it is now in closes.
*/
JSWORKER_EXPORT void JSValueUnprotect(JSContextRef ctx, JSValueRef value);

/* ---------------------------------------------------------------------------------------------------------------
 * Strings (JSStringRef.h). A string belongs to the thread that created it and to no context.
 */

/*!
@function
@abstract Creates a JavaScript string from a null-terminated UTF8 string.
@param string The null-terminated UTF8 string to copy into the new JSString. NULL gives the empty string; invalid
 UTF-8 sequences become U+FFFD.
@result A JSString containing string. Ownership follows the Create Rule.
*/
JSWORKER_EXPORT JSStringRef JSStringCreateWithUTF8CString(const char *string);

/*!
@function
@abstract Creates a JavaScript string from a buffer of Unicode characters.
@param chars The buffer of UTF-16 code units to copy into the new JSString (lone surrogates are kept).
@param numChars The number of characters to copy from the buffer pointed to by chars.
@result A JSString containing chars, or NULL if chars is NULL and numChars is not 0. Ownership follows the Create
 Rule.
*/
JSWORKER_EXPORT JSStringRef JSStringCreateWithCharacters(const JSChar *chars, size_t numChars);

/*!
@function
@abstract Retains a JavaScript string.
@param string The JSString to retain.
@result A JSString that is the same as string, or NULL if string is invalid.
*/
JSWORKER_EXPORT JSStringRef JSStringRetain(JSStringRef string);

/*!
@function
@abstract Releases a JavaScript string.
@param string The JSString to release. NULL or invalid: nothing happens.
@discussion The last release frees the string, and the buffer JSStringGetCharactersPtr returned for it.
*/
JSWORKER_EXPORT void JSStringRelease(JSStringRef string);

/*!
@function
@abstract Returns the number of Unicode characters in a JavaScript string.
@param string The JSString whose length (in UTF-16 code units) you want to know.
@result The number of UTF-16 code units in string; 0 if string is invalid.
*/
JSWORKER_EXPORT size_t JSStringGetLength(JSStringRef string);

/*!
@function
@abstract Returns a pointer to the Unicode character buffer that serves as the backing store for a JavaScript
 string.
@param string The JSString whose backing store you want to access.
@result A pointer to the UTF-16 code units of string (JSStringGetLength of them, not null-terminated), or NULL if
 string is invalid. The buffer is owned by the string and valid until the string's last release.
*/
JSWORKER_EXPORT const JSChar *JSStringGetCharactersPtr(JSStringRef string);

/*!
@function
@abstract Returns the maximum number of bytes a JavaScript string will take up if converted into a null-terminated
 UTF8 string.
@param string The JSString whose maximum converted size (in bytes) you want to know.
@result The maximum number of bytes that could be required to convert string into a null-terminated UTF8 string,
 including the terminating null; 0 if string is invalid.
*/
JSWORKER_EXPORT size_t JSStringGetMaximumUTF8CStringSize(JSStringRef string);

/*!
@function
@abstract Converts a JavaScript string into a null-terminated UTF8 string, and copies the result into an external
 byte buffer.
@param string The source JSString.
@param buffer The destination byte buffer into which to copy a null-terminated UTF8 representation of string. On
 return, buffer contains a UTF8 string representation of string. If bufferSize is too small, buffer will contain
 only partial results: whole characters only, always null-terminated. Lone surrogates become U+FFFD.
@param bufferSize The size of the external buffer in bytes.
@result The number of bytes written into buffer (including the null-terminator byte); 0 if bufferSize is 0, buffer
 is NULL or string is invalid.
*/
JSWORKER_EXPORT size_t JSStringGetUTF8CString(JSStringRef string, char *buffer, size_t bufferSize);

/*!
@function
@abstract Tests whether two JavaScript strings match.
@param a The first JSString to test.
@param b The second JSString to test.
@result true if the two strings have the same code units, otherwise false (also if either is invalid).
*/
JSWORKER_EXPORT bool JSStringIsEqual(JSStringRef a, JSStringRef b);

/*!
@function
@abstract Tests whether a JavaScript string matches a null-terminated UTF8 string.
@param a The JSString to test.
@param b The null-terminated UTF8 string to test.
@result true if the two strings match, otherwise false (also if a is invalid or b is NULL).
*/
JSWORKER_EXPORT bool JSStringIsEqualToUTF8CString(JSStringRef a, const char *b);

/* ---------------------------------------------------------------------------------------------------------------
 * Values (JSValueRef.h). Every value returned is a new value handle of ctx (see "Value lifetime"); a value passed
 * in must belong to ctx.
 */

/*!
@function
@abstract Returns a JavaScript value's type.
@param ctx The execution context to use.
@param value The JSValue whose type you want to obtain.
@result A value of type JSType that identifies value's type; kJSTypeUndefined if ctx or value is invalid.
*/
JSWORKER_EXPORT JSType JSValueGetType(JSContextRef ctx, JSValueRef value);

/*!
@function
@abstract Tests whether a JavaScript value's type is the undefined type.
@param ctx The execution context to use.
@param value The JSValue to test.
@result true if value's type is the undefined type, otherwise false (also if ctx or value is invalid).
*/
JSWORKER_EXPORT bool JSValueIsUndefined(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value's type is the null type.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value's type is the null type, otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsNull(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value's type is the boolean type.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value's type is the boolean type, otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsBoolean(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value's type is the number type.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value's type is the number type, otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsNumber(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value's type is the string type.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value's type is the string type, otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsString(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value's type is the symbol type.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value's type is the symbol type, otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsSymbol(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value's type is the object type.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value's type is the object type, otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsObject(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value is an array.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value is an array (an Array exotic object), otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsArray(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Tests whether a JavaScript value is a date.
@param ctx The execution context to use. @param value The JSValue to test.
@result true if value is a Date object, otherwise false (also if ctx or value is invalid). */
JSWORKER_EXPORT bool JSValueIsDate(JSContextRef ctx, JSValueRef value);

/*!
@function
@abstract Tests whether two JavaScript values are equal, as compared by the JS == operator.
@param ctx The execution context to use.
@param a The first value to test.
@param b The second value to test.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result true if the two values are equal, false if they are not equal or an exception is thrown (a valueOf or
 toString that throws; an invalid argument).
*/
JSWORKER_EXPORT bool JSValueIsEqual(JSContextRef ctx, JSValueRef a, JSValueRef b, JSValueRef *exception);

/*!
@function
@abstract Tests whether two JavaScript values are strict equal, as compared by the JS === operator.
@param ctx The execution context to use.
@param a The first value to test.
@param b The second value to test.
@result true if the two values are strict equal, otherwise false (also if an argument is invalid).
*/
JSWORKER_EXPORT bool JSValueIsStrictEqual(JSContextRef ctx, JSValueRef a, JSValueRef b);

/*!
@function
@abstract Tests whether a JavaScript value is an object constructed by a given constructor, as compared by the JS
 instanceof operator.
@param ctx The execution context to use.
@param value The JSValue to test.
@param constructor The constructor to test against.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result true if value is an object constructed by constructor, as compared by the JS instanceof operator, otherwise
 false (also when an exception is thrown, e.g. constructor is not callable).
*/
JSWORKER_EXPORT bool JSValueIsInstanceOfConstructor(JSContextRef ctx, JSValueRef value, JSObjectRef constructor,
                                                    JSValueRef *exception);

/*! @function @abstract Creates a JavaScript value of the undefined type.
@param ctx The execution context to use.
@result The unique undefined value, as a new value handle; NULL if ctx is invalid. */
JSWORKER_EXPORT JSValueRef JSValueMakeUndefined(JSContextRef ctx);

/*! @function @abstract Creates a JavaScript value of the null type.
@param ctx The execution context to use.
@result The unique null value, as a new value handle; NULL if ctx is invalid. */
JSWORKER_EXPORT JSValueRef JSValueMakeNull(JSContextRef ctx);

/*! @function @abstract Creates a JavaScript value of the boolean type.
@param ctx The execution context to use. @param boolean The bool to assign to the newly created JSValue.
@result A JSValue of the boolean type, representing the value of boolean; NULL if ctx is invalid. */
JSWORKER_EXPORT JSValueRef JSValueMakeBoolean(JSContextRef ctx, bool boolean);

/*! @function @abstract Creates a JavaScript value of the number type.
@param ctx The execution context to use. @param number The double to assign to the newly created JSValue.
@result A JSValue of the number type, representing the value of number; NULL if ctx is invalid. */
JSWORKER_EXPORT JSValueRef JSValueMakeNumber(JSContextRef ctx, double number);

/*! @function @abstract Creates a JavaScript value of the string type.
@param ctx The execution context to use.
@param string The JSString to assign to the newly created JSValue. The newly created JSValue copies string; the
 caller keeps its reference.
@result A JSValue of the string type, representing the value of string; NULL if ctx or string is invalid. */
JSWORKER_EXPORT JSValueRef JSValueMakeString(JSContextRef ctx, JSStringRef string);

/*!
@function
@abstract Creates a JavaScript value from a JSON formatted string.
@param ctx The execution context to use.
@param string The JSString containing the JSON string to be parsed.
@result A JSValue containing the parsed value (as JSON.parse gives it), or NULL if the input is invalid.
*/
JSWORKER_EXPORT JSValueRef JSValueMakeFromJSONString(JSContextRef ctx, JSStringRef string);

/*!
@function
@abstract Creates a JavaScript string containing the JSON serialized representation of a JS value.
@param ctx The execution context to use.
@param value The value to serialize.
@param indent The number of spaces to indent when nesting (at most 10, as JSON.stringify allows). If 0, the
 resulting JSON will not contain newlines.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result A JSString with the result of serialization, or NULL if an exception is thrown (a cycle, a BigInt, a
 throwing toJSON) or value has no JSON form (undefined, a function, a symbol; then no exception is stored).
 Ownership follows the Create Rule.
*/
JSWORKER_EXPORT JSStringRef JSValueCreateJSONString(JSContextRef ctx, JSValueRef value, unsigned indent,
                                                    JSValueRef *exception);

/*! @function @abstract Converts a JavaScript value to boolean and returns the resulting boolean.
@param ctx The execution context to use. @param value The JSValue to convert.
@result The boolean result of conversion; false if ctx or value is invalid. */
JSWORKER_EXPORT bool JSValueToBoolean(JSContextRef ctx, JSValueRef value);

/*!
@function
@abstract Converts a JavaScript value to number and returns the resulting number.
@param ctx The execution context to use.
@param value The JSValue to convert.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result The numeric result of conversion, or NaN if an exception is thrown (a symbol, a BigInt, a throwing valueOf,
 an invalid argument).
*/
JSWORKER_EXPORT double JSValueToNumber(JSContextRef ctx, JSValueRef value, JSValueRef *exception);

/*!
@function
@abstract Converts a JavaScript value to string and copies the result into a JavaScript string.
@param ctx The execution context to use.
@param value The JSValue to convert.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result A JSString with the result of conversion, or NULL if an exception is thrown (a symbol, a throwing toString,
 an invalid argument). Ownership follows the Create Rule.
*/
JSWORKER_EXPORT JSStringRef JSValueToStringCopy(JSContextRef ctx, JSValueRef value, JSValueRef *exception);

/*!
@function
@abstract Converts a JavaScript value to object and returns the resulting object.
@param ctx The execution context to use.
@param value The JSValue to convert.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result The JSObject result of conversion (a new value handle), or NULL if an exception is thrown (undefined, null).
*/
JSWORKER_EXPORT JSObjectRef JSValueToObject(JSContextRef ctx, JSValueRef value, JSValueRef *exception);

/* ---------------------------------------------------------------------------------------------------------------
 * Objects (JSObjectRef.h). Property names are JSStrings; the caller keeps its reference to them.
 */

/*!
@function
@abstract Creates a JavaScript object.
@param ctx The execution context to use.
@param jsClass The class of the object (see "Classes"); its initialize callbacks run before the call returns. NULL:
 a plain object with Object.prototype as its prototype.
@param data The object's private data (JSObjectGetPrivate); ignored when jsClass is NULL.
@result A JSObject, or NULL if ctx or jsClass is invalid.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMake(JSContextRef ctx, JSClassRef jsClass, void *data);

/*!
@function
@abstract Creates a JavaScript Array object.
@param ctx The execution context to use.
@param argumentCount An integer count of the number of arguments in arguments.
@param arguments A JSValue array of data to populate the Array with. Pass NULL if argumentCount is 0.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result A JSObject that is an Array, or NULL if an exception is thrown (an invalid element).
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeArray(JSContextRef ctx, size_t argumentCount, const JSValueRef arguments[],
                                              JSValueRef *exception);

/*!
@function
@abstract Creates a JavaScript Error object, as if by invoking the built-in Error constructor.
@param ctx The execution context to use.
@param argumentCount An integer count of the number of arguments in arguments.
@param arguments A JSValue array of arguments to pass to the Error Constructor (message, options). Pass NULL if
 argumentCount is 0.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result A JSObject that is an Error, or NULL if an exception is thrown.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeError(JSContextRef ctx, size_t argumentCount, const JSValueRef arguments[],
                                              JSValueRef *exception);

/*!
@function
@abstract Gets a property from an object.
@param ctx The execution context to use.
@param object The JSObject whose property you want to get.
@param propertyName A JSString containing the property's name.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result The property's value if object has the property (a getter's result), otherwise the undefined value; NULL if
 an exception is thrown.
*/
JSWORKER_EXPORT JSValueRef JSObjectGetProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName,
                                               JSValueRef *exception);

/*!
@function
@abstract Sets a property on an object.
@param ctx The execution context to use.
@param object The JSObject whose property you want to set.
@param propertyName A JSString containing the property's name.
@param value A JSValueRef to use as the property's value.
@param attributes A logically ORed set of JSPropertyAttributes to give to the property. They apply only when the
 property does not exist yet (object and its prototypes); an existing property is assigned as by "object[name] =
 value" in sloppy code, which ignores read-only properties.
@param exception A pointer to a JSValueRef in which to store an exception, if any (a throwing setter, a
 non-extensible object). Pass NULL if you do not care to store an exception.
*/
JSWORKER_EXPORT void JSObjectSetProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName,
                                         JSValueRef value, JSPropertyAttributes attributes, JSValueRef *exception);

/*!
@function
@abstract Tests whether an object has a given property.
@param ctx The execution context to use.
@param object The JSObject to test.
@param propertyName A JSString containing the property's name.
@result true if object or its prototype chain has a property whose name matches propertyName (the JS in operator),
 otherwise false (also if a proxy trap throws or an argument is invalid).
*/
JSWORKER_EXPORT bool JSObjectHasProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName);

/*!
@function
@abstract Deletes a property from an object.
@param ctx The execution context to use.
@param object The JSObject whose property you want to delete.
@param propertyName A JSString containing the property's name.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result true if the delete operation succeeds (as the JS delete operator in sloppy code), otherwise false (for
 example, if the property is not configurable, or an exception is thrown).
*/
JSWORKER_EXPORT bool JSObjectDeleteProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName,
                                            JSValueRef *exception);

/*!
@function
@abstract Gets a property from an object by numeric index.
@param ctx The execution context to use.
@param object The JSObject whose property you want to get.
@param propertyIndex An integer value that is the property's name.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result The property's value if object has the property, otherwise the undefined value; NULL if an exception is
 thrown. Equivalent to JSObjectGetProperty with the string form of propertyIndex.
*/
JSWORKER_EXPORT JSValueRef JSObjectGetPropertyAtIndex(JSContextRef ctx, JSObjectRef object, unsigned propertyIndex,
                                                      JSValueRef *exception);

/*!
@function
@abstract Sets a property on an object by numeric index.
@param ctx The execution context to use.
@param object The JSObject whose property you want to set.
@param propertyIndex The property's name as a number.
@param value A JSValue to use as the property's value.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
*/
JSWORKER_EXPORT void JSObjectSetPropertyAtIndex(JSContextRef ctx, JSObjectRef object, unsigned propertyIndex,
                                                JSValueRef value, JSValueRef *exception);

/*!
@function
@abstract Tests whether an object can be called as a function.
@param ctx The execution context to use.
@param object The JSObject to test.
@result true if the object can be called as a function, otherwise false (also if an argument is invalid).
*/
JSWORKER_EXPORT bool JSObjectIsFunction(JSContextRef ctx, JSObjectRef object);

/*!
@function
@abstract Calls an object as a function.
@param ctx The execution context to use.
@param object The JSObject to call as a function.
@param thisObject The object to use as "this," or NULL to use the global object as "this."
@param argumentCount An integer count of the number of arguments in arguments.
@param arguments A JSValue array of arguments to pass to the function. Pass NULL if argumentCount is 0.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result The JSValue that results from calling object as a function, or NULL if an exception is thrown or object is
 not a function.
*/
JSWORKER_EXPORT JSValueRef JSObjectCallAsFunction(JSContextRef ctx, JSObjectRef object, JSObjectRef thisObject,
                                                  size_t argumentCount, const JSValueRef arguments[],
                                                  JSValueRef *exception);

/*!
@function
@abstract Convenience method for creating a JavaScript function with a given callback as its implementation.
@param ctx The execution context to use.
@param name A JSString containing the function's name (its name property). Pass NULL to create an anonymous
 function.
@param callAsFunction The JSObjectCallAsFunctionCallback to invoke when the function is called. Must not be NULL.
@result A JSObject that is a function, or NULL if callAsFunction is NULL or an argument is invalid. The object's
 prototype will be the default function prototype. The function lives as long as its context, whatever happens to
 this handle.
@discussion The callback runs on ctx's thread; see JSObjectCallAsFunctionCallback.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeFunctionWithCallback(JSContextRef ctx, JSStringRef name,
                                                             JSObjectCallAsFunctionCallback callAsFunction);

/*!
@function
@abstract Gets the names of an object's enumerable properties.
@param ctx The execution context to use.
@param object The object whose property names you want to get.
@result A JSPropertyNameArray containing the names of object's enumerable string-keyed properties, own and
 inherited, in the order a for...in loop visits them; NULL if a proxy trap or getter throws or an argument is
 invalid. Ownership follows the Create Rule.
*/
JSWORKER_EXPORT JSPropertyNameArrayRef JSObjectCopyPropertyNames(JSContextRef ctx, JSObjectRef object);

/*!
@function
@abstract Retains a JavaScript property name array.
@param array The JSPropertyNameArray to retain.
@result A JSPropertyNameArray that is the same as array, or NULL if array is invalid.
*/
JSWORKER_EXPORT JSPropertyNameArrayRef JSPropertyNameArrayRetain(JSPropertyNameArrayRef array);

/*!
@function
@abstract Releases a JavaScript property name array.
@param array The JSPropertyNameArray to release. NULL or invalid: nothing happens.
@discussion The last release also releases the names the array holds (JSPropertyNameArrayGetNameAtIndex).
*/
JSWORKER_EXPORT void JSPropertyNameArrayRelease(JSPropertyNameArrayRef array);

/*!
@function
@abstract Gets a count of the number of items in a JavaScript property name array.
@param array The array from which to retrieve the count.
@result An integer count of the number of names in array; 0 if array is invalid.
*/
JSWORKER_EXPORT size_t JSPropertyNameArrayGetCount(JSPropertyNameArrayRef array);

/*!
@function
@abstract Gets a property name at a given index in a JavaScript property name array.
@param array The array from which to retrieve the property name.
@param index The index of the property name to retrieve.
@result A JSStringRef containing the property name, or NULL if index is out of range or array is invalid. The
 string belongs to the array (Get Rule): retain it to keep it beyond the array's last release.
*/
JSWORKER_EXPORT JSStringRef JSPropertyNameArrayGetNameAtIndex(JSPropertyNameArrayRef array, size_t index);

/* ---------------------------------------------------------------------------------------------------------------
 * Classes (JSObjectRef.h): host objects with private data, callbacks and finalizers.
 *
 * A JSClassRef belongs to no thread and no context: create a class once and use it in every context (each context
 * makes its own prototype object for it on first use). The class callbacks run on the thread of the context whose
 * object they concern (the context's owner), inside the library call that ran the JavaScript that triggered them;
 * the values they receive and make live in a handle scope closed when they return (as for
 * JSObjectCallAsFunctionCallback). A callback signals an exception by storing a value of ctx in *exception.
 *
 * Objects of a class without property callbacks (hasProperty, getProperty, setProperty, deleteProperty,
 * getPropertyNames) and without callAsFunction/callAsConstructor are ordinary objects whose prototype is the class's;
 * with them, an object is a proxy whose traps ask the class chain's callbacks first (the most derived class first,
 * string property names only) and fall through to an ordinary object when they decline. Static functions and static
 * values are properties of the class's prototype (of the object itself with kJSClassAttributeNoAutomaticPrototype);
 * static values are accessors that call their getProperty/setProperty with the object as `this`. className becomes
 * the prototype's Symbol.toStringTag, so Object.prototype.toString reports it; hasInstance answers `x instanceof o`
 * for an object o of the class; convertToType is asked when the object is converted to a number or string, and
 * the ordinary valueOf/toString conversion applies when it returns NULL.
 *
 * Finalizers: every object made with a class is finalized exactly once — its class chain's finalize callbacks run,
 * most derived first — on its context's owner thread, never while JavaScript or another callback runs on it: at
 * the first library call on the context (or JSGarbageCollect) after the garbage collector found the object
 * unreachable, or at the latest inside the last JSGlobalContextRelease of the context, before it returns. An object
 * is unreachable only when no JavaScript value and no live JSValueRef refers to it (close handle scopes or call
 * ZJSValueRelease to drop handles). During the finalize callback, JSObjectGetPrivate and JSObjectSetPrivate accept
 * the object; no other function does (the JavaScript object is gone).
 *
 * Not supported: a class's property and call callbacks on a global object (JSGlobalContextCreate with a class
 * applies its prototype, statics, initialize and finalize to the ordinary global object).
 */

/*! @typedef JSPropertyNameAccumulatorRef An ordered set used to collect the names of an object's properties, valid
 during a JSObjectGetPropertyNamesCallback. */
typedef struct OpaqueJSPropertyNameAccumulator *JSPropertyNameAccumulatorRef;

/*!
@enum JSClassAttribute
@constant kJSClassAttributeNone Specifies that a class has no special attributes.
@constant kJSClassAttributeNoAutomaticPrototype Specifies that a class should not automatically generate a shared
 prototype for its instance objects: the static functions and values are put on each object instead.
*/
enum { kJSClassAttributeNone = 0, kJSClassAttributeNoAutomaticPrototype = 1 << 1 };

/*! @typedef JSClassAttributes A set of JSClassAttributes, combined with a bitwise OR. */
typedef unsigned JSClassAttributes;

/*! @typedef JSObjectInitializeCallback Called when an object is made with a class (JSObjectMake, a constructor of
 JSObjectMakeConstructor, JSGlobalContextCreate), the least derived class first. */
typedef void (*JSObjectInitializeCallback)(JSContextRef ctx, JSObjectRef object);

/*! @typedef JSObjectFinalizeCallback Called exactly once when an object of the class is finalized (see "Classes"
 above), the most derived class first. object is valid for JSObjectGetPrivate and JSObjectSetPrivate only. */
typedef void (*JSObjectFinalizeCallback)(JSObjectRef object);

/*! @typedef JSObjectHasPropertyCallback Answers whether object has the property propertyName. If NULL, getProperty
 answers instead (a non-NULL result means the property exists). Returning false passes the request on (the parent
 class, then the ordinary properties). */
typedef bool (*JSObjectHasPropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName);

/*! @typedef JSObjectGetPropertyCallback Gets a property's value; NULL passes the request on (the parent class, then
 the ordinary properties and the prototype chain). Also the getter of a JSStaticValue (there NULL gives undefined).*/
typedef JSValueRef (*JSObjectGetPropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName,
                                                  JSValueRef *exception);

/*! @typedef JSObjectSetPropertyCallback Sets a property's value; false passes the request on (the parent class, then
 an ordinary assignment). Also the setter of a JSStaticValue. */
typedef bool (*JSObjectSetPropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName,
                                            JSValueRef value, JSValueRef *exception);

/*! @typedef JSObjectDeletePropertyCallback Deletes a property; false passes the request on. */
typedef bool (*JSObjectDeletePropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName,
                                               JSValueRef *exception);

/*! @typedef JSObjectGetPropertyNamesCallback Adds the names of the properties the callbacks provide to
 propertyNames (JSPropertyNameAccumulatorAddName); used by for...in, Object.keys and JSObjectCopyPropertyNames,
 which also list the object's ordinary properties. */
typedef void (*JSObjectGetPropertyNamesCallback)(JSContextRef ctx, JSObjectRef object,
                                                 JSPropertyNameAccumulatorRef propertyNames);

/*! @typedef JSObjectCallAsConstructorCallback Called for `new object(...)`; returns the new object (NULL without an
 exception is a TypeError). */
typedef JSObjectRef (*JSObjectCallAsConstructorCallback)(JSContextRef ctx, JSObjectRef constructor,
                                                         size_t argumentCount, const JSValueRef arguments[],
                                                         JSValueRef *exception);

/*! @typedef JSObjectHasInstanceCallback Answers `possibleInstance instanceof constructor` for an object constructor
 of the class. */
typedef bool (*JSObjectHasInstanceCallback)(JSContextRef ctx, JSObjectRef constructor, JSValueRef possibleInstance,
                                            JSValueRef *exception);

/*! @typedef JSObjectConvertToTypeCallback Converts object to a number (type kJSTypeNumber) or a string
 (kJSTypeString); NULL passes the request on to the ordinary valueOf/toString conversion. */
typedef JSValueRef (*JSObjectConvertToTypeCallback)(JSContextRef ctx, JSObjectRef object, JSType type,
                                                    JSValueRef *exception);

/*! @struct JSStaticValue A statically declared value property: name, getter, setter (may be NULL if the property is
 read-only: kJSPropertyAttributeReadOnly), attributes. An array of them ends with an entry whose name is NULL. */
typedef struct {
    const char *name;
    JSObjectGetPropertyCallback getProperty;
    JSObjectSetPropertyCallback setProperty;
    JSPropertyAttributes attributes;
} JSStaticValue;

/*! @struct JSStaticFunction A statically declared function property: name, callback, attributes. An array of them
 ends with an entry whose name is NULL. */
typedef struct {
    const char *name;
    JSObjectCallAsFunctionCallback callAsFunction;
    JSPropertyAttributes attributes;
} JSStaticFunction;

/*!
@struct JSClassDefinition
@abstract Describes a class for JSClassCreate; start from kJSClassDefinitionEmpty and set what you need. NULL fields
 are ignored. The library copies the definition (strings and static arrays included), so it need not outlive the
 call.
@field version Always 0.
@field attributes A logically ORed set of JSClassAttributes.
@field className The class's name (the prototype's Symbol.toStringTag). NULL: none.
@field parentClass A class to inherit from (its callbacks apply after this class's; its prototype is the parent of
 this class's). NULL: the default object class.
*/
typedef struct {
    int version;
    JSClassAttributes attributes;
    const char *className;
    JSClassRef parentClass;
    const JSStaticValue *staticValues;
    const JSStaticFunction *staticFunctions;
    JSObjectInitializeCallback initialize;
    JSObjectFinalizeCallback finalize;
    JSObjectHasPropertyCallback hasProperty;
    JSObjectGetPropertyCallback getProperty;
    JSObjectSetPropertyCallback setProperty;
    JSObjectDeletePropertyCallback deleteProperty;
    JSObjectGetPropertyNamesCallback getPropertyNames;
    JSObjectCallAsFunctionCallback callAsFunction;
    JSObjectCallAsConstructorCallback callAsConstructor;
    JSObjectHasInstanceCallback hasInstance;
    JSObjectConvertToTypeCallback convertToType;
} JSClassDefinition;

/*! @const kJSClassDefinitionEmpty A JSClassDefinition with every field zero. */
JSWORKER_EXPORT extern const JSClassDefinition kJSClassDefinitionEmpty;

/*!
@function
@abstract Creates a JavaScript class.
@param definition A JSClassDefinition that defines the class.
@result A JSClassRef with one reference (Create Rule), or NULL if definition is NULL or its parentClass is not a live
 class.
@discussion Thread: any. The class may be used from every thread and in every context.
*/
JSWORKER_EXPORT JSClassRef JSClassCreate(const JSClassDefinition *definition);

/*!
@function
@abstract Retains a JavaScript class. Thread: any.
@result jsClass, or NULL if it is not a live class.
*/
JSWORKER_EXPORT JSClassRef JSClassRetain(JSClassRef jsClass);

/*!
@function
@abstract Releases a JavaScript class. Thread: any.
@discussion The last release retires the handle; objects and contexts already using the class keep working.
*/
JSWORKER_EXPORT void JSClassRelease(JSClassRef jsClass);

/*!
@function
@abstract Gets an object's private data.
@param object A JSObject made with a class (or, during its finalize callback, the object being finalized).
@result The object's private data, or NULL if it has none, was not made with a class, or is not a live object of
 the calling thread.
*/
JSWORKER_EXPORT void *JSObjectGetPrivate(JSObjectRef object);

/*!
@function
@abstract Sets an object's private data.
@result true if object was made with a class (and so can store private data), otherwise false.
*/
JSWORKER_EXPORT bool JSObjectSetPrivate(JSObjectRef object, void *data);

/*!
@function
@abstract Tests whether a value is an object made with a given class or a class derived from it.
@result true if value is an object of jsClass or of a class whose parent chain contains it; false otherwise and
 for invalid handles.
*/
JSWORKER_EXPORT bool JSValueIsObjectOfClass(JSContextRef ctx, JSValueRef value, JSClassRef jsClass);

/*!
@function
@abstract Creates a JavaScript constructor.
@param ctx The execution context to use.
@param jsClass The class of the objects the constructor makes when callAsConstructor is NULL; its prototype
 becomes the constructor's read-only "prototype" property, which `instanceof` uses. NULL: the default object class.
@param callAsConstructor Called for `new constructor(...)`; NULL makes an object of jsClass without private data.
@result A JSObject that is a constructor, or NULL if ctx or jsClass is invalid.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeConstructor(JSContextRef ctx, JSClassRef jsClass,
                                                    JSObjectCallAsConstructorCallback callAsConstructor);

/*!
@function
@abstract Tests whether an object can be called as a constructor.
@result true if object is a constructor (`new object()` is allowed), otherwise false.
*/
JSWORKER_EXPORT bool JSObjectIsConstructor(JSContextRef ctx, JSObjectRef object);

/*!
@function
@abstract Calls an object as a constructor: `new object(...arguments)`.
@param exception A TypeError if object is not a constructor; whatever the constructor throws.
@result The object the constructor made, or NULL if an exception is thrown.
*/
JSWORKER_EXPORT JSObjectRef JSObjectCallAsConstructor(JSContextRef ctx, JSObjectRef object, size_t argumentCount,
                                                      const JSValueRef arguments[], JSValueRef *exception);

/*!
@function
@abstract Adds a property name to a JavaScript property name accumulator, during a getPropertyNames callback.
*/
JSWORKER_EXPORT void JSPropertyNameAccumulatorAddName(JSPropertyNameAccumulatorRef accumulator,
                                                      JSStringRef propertyName);

/* ---------------------------------------------------------------------------------------------------------------
 * Typed arrays and ArrayBuffers (JSTypedArray.h).
 *
 * A typed-array or ArrayBuffer function given an object of the wrong kind returns NULL/0 and stores a TypeError in
 * *exception (stricter than JavaScriptCore, which stores none); a bad type code is a TypeError too.
 *
 * Memory: buffers the library allocates (JSObjectMakeTypedArray, or made by JavaScript) are shared between
 * JavaScript and the host: the BytesPtr functions return their address, which stays valid while the buffer is
 * alive and not detached (a transfer detaches it). "NoCopy" buffers are the host's memory: JavaScript reads and
 * writes it directly. Their deallocator runs exactly once, when no realm can reach the memory any more, and the host
 * must keep the memory valid until then. A NoCopy buffer that never left its context is deallocated on the context's
 * owner thread, with no JavaScript running: after the garbage collector found the ArrayBuffer unreachable, at the
 * next library call on the context (or JSGarbageCollect), or at the latest inside the last JSGlobalContextRelease of
 * the context; at once, inside the call, if the call fails. NoCopy memory must be aligned to the element size and a
 * whole number of elements long (else RangeError).
 *
 * Transfer: a NoCopy buffer in the transfer list of ZJSWorkerPostMessageWithTransfer, or of a script's postMessage
 * or structuredClone, moves to the receiver without a copy, and the memory's ownership goes with it (it is reference
 * counted: the sender's detached buffer gives its reference up at once, the message holds one until it is delivered
 * or dropped, and the receiver's new ArrayBuffer holds one, which it can transfer on). The deallocator of a buffer
 * that was transferred runs on whichever thread gives up the last reference: a worker's thread, the thread that
 * releases a worker or context with the message undelivered, or a library-internal thread after the collector found
 * the last ArrayBuffer unreachable (at the latest after the last realm holding it was released and a collection
 * ran). It must therefore be thread-safe and must not block or call into the library.
 */

/*!
@enum JSTypedArrayType
@abstract A constant identifying the Typed Array type of a JSObjectRef (JSValueGetTypedArrayType).
@constant kJSTypedArrayTypeArrayBuffer An ArrayBuffer (or SharedArrayBuffer).
@constant kJSTypedArrayTypeNone Not a Typed Array.
*/
typedef enum {
    kJSTypedArrayTypeInt8Array = 0,
    kJSTypedArrayTypeInt16Array = 1,
    kJSTypedArrayTypeInt32Array = 2,
    kJSTypedArrayTypeUint8Array = 3,
    kJSTypedArrayTypeUint8ClampedArray = 4,
    kJSTypedArrayTypeUint16Array = 5,
    kJSTypedArrayTypeUint32Array = 6,
    kJSTypedArrayTypeFloat32Array = 7,
    kJSTypedArrayTypeFloat64Array = 8,
    kJSTypedArrayTypeArrayBuffer = 9,
    kJSTypedArrayTypeNone = 10,
    kJSTypedArrayTypeBigInt64Array = 11,
    kJSTypedArrayTypeBigUint64Array = 12
} JSTypedArrayType;

/*!
@typedef JSTypedArrayBytesDeallocator
@abstract Gives back the memory of a NoCopy buffer: bytes as passed to the NoCopy function, and its
 deallocatorContext. Runs exactly once: on the owner thread of the buffer's context, or, once the buffer was
 transferred, on whichever thread gives up the last reference (see above).
*/
typedef void (*JSTypedArrayBytesDeallocator)(void *bytes, void *deallocatorContext);

/*!
@function
@abstract Returns the Typed Array type of a value.
@result The type, kJSTypedArrayTypeArrayBuffer for an ArrayBuffer, or kJSTypedArrayTypeNone for anything else
 (and, with an exception, for an invalid handle).
*/
JSWORKER_EXPORT JSTypedArrayType JSValueGetTypedArrayType(JSContextRef ctx, JSValueRef value, JSValueRef *exception);

/*!
@function
@abstract Creates a Typed Array of length elements, all zero.
@result A JSObjectRef, or NULL (with an exception) for kJSTypedArrayTypeNone, kJSTypedArrayTypeArrayBuffer or a
 length too large.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeTypedArray(JSContextRef ctx, JSTypedArrayType arrayType, size_t length,
                                                   JSValueRef *exception);

/*!
@function
@abstract Creates a Typed Array over the host's memory, without a copy.
@param bytes The memory, byteLength bytes (aligned to the element size; byteLength a multiple of it).
@param bytesDeallocator Called once when the buffer is no longer used (see above); NULL: never.
@param deallocatorContext Passed to bytesDeallocator.
@result The Typed Array, or NULL if an exception is thrown — bytesDeallocator has then already run.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeTypedArrayWithBytesNoCopy(JSContextRef ctx, JSTypedArrayType arrayType,
                                                                  void *bytes, size_t byteLength,
                                                                  JSTypedArrayBytesDeallocator bytesDeallocator,
                                                                  void *deallocatorContext, JSValueRef *exception);

/*!
@function
@abstract Creates a Typed Array viewing all of an ArrayBuffer.
@result The Typed Array, or NULL with an exception (buffer not an ArrayBuffer, a length not a multiple of the
 element size).
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeTypedArrayWithArrayBuffer(JSContextRef ctx, JSTypedArrayType arrayType,
                                                                  JSObjectRef buffer, JSValueRef *exception);

/*!
@function
@abstract Creates a Typed Array viewing length elements of an ArrayBuffer from byteOffset.
@result The Typed Array, or NULL with an exception (RangeError for a range outside the buffer or a misaligned
 offset).
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeTypedArrayWithArrayBufferAndOffset(JSContextRef ctx,
                                                                           JSTypedArrayType arrayType,
                                                                           JSObjectRef buffer, size_t byteOffset,
                                                                           size_t length, JSValueRef *exception);

/*!
@function
@abstract Returns the address of the start of a Typed Array's buffer (as JavaScriptCore: not of the view; add
 JSObjectGetTypedArrayByteOffset).
@result The address, or NULL for an empty or detached buffer and (with a TypeError) for an object that is not a
 Typed Array.
*/
JSWORKER_EXPORT void *JSObjectGetTypedArrayBytesPtr(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

/*! @function @abstract Returns a Typed Array's length in elements (0 if detached; 0 and a TypeError for a wrong
 kind). */
JSWORKER_EXPORT size_t JSObjectGetTypedArrayLength(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

/*! @function @abstract Returns a Typed Array's length in bytes (0 if detached; 0 and a TypeError for a wrong kind). */
JSWORKER_EXPORT size_t JSObjectGetTypedArrayByteLength(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

/*! @function @abstract Returns a Typed Array's offset into its buffer in bytes (0 and a TypeError for a wrong kind). */
JSWORKER_EXPORT size_t JSObjectGetTypedArrayByteOffset(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

/*! @function @abstract Returns a Typed Array's ArrayBuffer (NULL and a TypeError for a wrong kind). */
JSWORKER_EXPORT JSObjectRef JSObjectGetTypedArrayBuffer(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

/*!
@function
@abstract Creates an ArrayBuffer over the host's memory, without a copy.
@result The ArrayBuffer, or NULL if an exception is thrown — bytesDeallocator has then already run.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeArrayBufferWithBytesNoCopy(JSContextRef ctx, void *bytes, size_t byteLength,
                                                                   JSTypedArrayBytesDeallocator bytesDeallocator,
                                                                   void *deallocatorContext, JSValueRef *exception);

/*! @function @abstract Returns the address of an ArrayBuffer's bytes (NULL if empty or detached; NULL and a
 TypeError for a wrong kind). */
JSWORKER_EXPORT void *JSObjectGetArrayBufferBytesPtr(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

/*! @function @abstract Returns an ArrayBuffer's length in bytes (0 if detached; 0 and a TypeError for a wrong kind). */
JSWORKER_EXPORT size_t JSObjectGetArrayBufferByteLength(JSContextRef ctx, JSObjectRef object, JSValueRef *exception);

/* --- memory shared with C ---------------------------------------------------------------------
 * A SharedArrayBuffer's bytes are the same memory in every realm it is posted to (JSWorkerPostMessage shares it, it
 * is never copied or transferred): a C thread uses them with C11 atomics while workers use Atomics, and
 * ZJSAtomicsNotify wakes the workers waiting in Atomics.wait. The memory is 8-byte aligned, so an Int32Array or
 * BigInt64Array element is an atomic int32_t / int64_t for C at base + byteOffset + 4*i (or 8*i).
 */

/*!
@function
@abstract Creates a SharedArrayBuffer of zeroed library memory (jsworker extension).
@param ctx The context.
@param byteLength Its length in bytes.
@param exception As usual; a RangeError for a length beyond the limit.
@result The SharedArrayBuffer, or NULL. Its bytes (ZJSSharedArrayBufferGetBytesPtr) stay valid and in place while
 any realm or message holds the buffer.
*/
JSWORKER_EXPORT JSObjectRef ZJSSharedArrayBufferCreate(JSContextRef ctx, size_t byteLength, JSValueRef *exception);

/*!
@function
@abstract Creates a SharedArrayBuffer over the host's memory, without a copy (jsworker extension).
@param ctx The context.
@param bytes The memory, 8-byte aligned (RangeError otherwise); NULL only with a byteLength of 0.
@param byteLength Its length in bytes.
@param bytesDeallocator Gives the memory back, exactly once, when no realm and no message holds the buffer any more
 — on whichever thread drops the last reference (the collector's, after the last realm's buffer became unreachable
 or its realm was released): it must be thread-safe and must not call the library. At once, inside the call, if the
 call fails. NULL: none.
@param deallocatorContext Passed to bytesDeallocator.
@param exception As usual.
@result The SharedArrayBuffer, or NULL (bytesDeallocator has then run).
*/
JSWORKER_EXPORT JSObjectRef ZJSSharedArrayBufferCreateWithBytesNoCopy(JSContextRef ctx, void *bytes, size_t byteLength,
                                                                      JSTypedArrayBytesDeallocator bytesDeallocator,
                                                                      void *deallocatorContext,
                                                                      JSValueRef *exception);

/*!
@function
@abstract Returns the address of a SharedArrayBuffer's bytes (jsworker extension).
@param ctx The context.
@param buffer A SharedArrayBuffer (anything else: NULL and a TypeError).
@param byteLength If not NULL, receives its length in bytes (0 on failure).
@param exception As usual.
@result The address, valid while the buffer is held.
*/
JSWORKER_EXPORT void *ZJSSharedArrayBufferGetBytesPtr(JSContextRef ctx, JSObjectRef buffer, size_t *byteLength,
                                                     JSValueRef *exception);

/*!
@function
@abstract Wakes workers blocked in Atomics.wait (or waiting in Atomics.waitAsync) on the shared element at an address
 (jsworker extension).
@param address The address of an Int32Array or BigInt64Array element of a SharedArrayBuffer's bytes.
@param count How many waiters to wake, oldest first; SIZE_MAX for all.
@result How many woke (0 for an address in no SharedArrayBuffer).
@discussion Callable from any thread, with no context: the producer side of a ring buffer between a C thread and a
 worker. As with Atomics.notify, store the new value (with release semantics) before notifying.
*/
JSWORKER_EXPORT size_t ZJSAtomicsNotify(void *address, size_t count);

/* --- end of memory shared with C ----------------------------------------------------------------------------- */

/* ---------------------------------------------------------------------------------------------------------------
 * Promises, symbols, property keys, prototypes, dates, regular expressions, functions from source, BigInts.
 *
 * Microtasks: the reactions of a promise the host settles (JSObjectCallAsFunction on its resolve or reject) run
 * before that call returns, as every call that runs JavaScript drains the microtask queue when its outermost
 * JavaScript frame returns — as JavaScriptCore does when the outermost API call returns. A settlement made inside a
 * host callback runs its reactions when the outermost call returns.
 */

/*!
@function
@abstract Creates a JavaScript promise object and its resolving functions.
@param resolve Receives the function that resolves the promise (may be NULL).
@param reject Receives the function that rejects the promise (may be NULL).
@result The promise, or NULL if an exception is thrown.
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeDeferredPromise(JSContextRef ctx, JSObjectRef *resolve, JSObjectRef *reject,
                                                        JSValueRef *exception);

/*!
@enum ZJSPromiseState
@abstract The state of a promise (jsworker extension).
*/
typedef enum {
    kZJSPromiseStatePending = 0,
    kZJSPromiseStateFulfilled = 1,
    kZJSPromiseStateRejected = 2,
    kZJSPromiseStateInvalid = 3
} ZJSPromiseState;

/*!
@function
@abstract Reads a promise's state (jsworker extension).
@param result When not NULL, receives the value or the reason once the promise is settled, NULL while pending or
 for kZJSPromiseStateInvalid.
@result The state; kZJSPromiseStateInvalid for a value that is not a promise or an invalid handle.
*/
JSWORKER_EXPORT ZJSPromiseState ZJSPromiseGetState(JSContextRef ctx, JSObjectRef promise, JSValueRef *result);

/*!
@function
@abstract Creates a JavaScript symbol, as Symbol(description).
@param description The description; NULL: none (description is undefined).
@result The symbol, or NULL if ctx or description is invalid.
*/
JSWORKER_EXPORT JSValueRef JSValueMakeSymbol(JSContextRef ctx, JSStringRef description);

/*!
@function
@abstract Tests whether an object has a property, by any key: `propertyKey in object` (a symbol, or a value
 converted to a property key).
@result true if it has; false if not or if an exception is thrown.
*/
JSWORKER_EXPORT bool JSObjectHasPropertyForKey(JSContextRef ctx, JSObjectRef object, JSValueRef propertyKey,
                                               JSValueRef *exception);

/*! @function @abstract Gets a property by any key: object[propertyKey]. @result The value, or NULL if an exception
 is thrown. */
JSWORKER_EXPORT JSValueRef JSObjectGetPropertyForKey(JSContextRef ctx, JSObjectRef object, JSValueRef propertyKey,
                                                     JSValueRef *exception);

/*! @function @abstract Sets a property by any key, with attributes as JSObjectSetProperty. */
JSWORKER_EXPORT void JSObjectSetPropertyForKey(JSContextRef ctx, JSObjectRef object, JSValueRef propertyKey,
                                               JSValueRef value, JSPropertyAttributes attributes,
                                               JSValueRef *exception);

/*! @function @abstract Deletes a property by any key: delete object[propertyKey]. @result The result of the delete
 (false for a non-configurable property), false if an exception is thrown. */
JSWORKER_EXPORT bool JSObjectDeletePropertyForKey(JSContextRef ctx, JSObjectRef object, JSValueRef propertyKey,
                                                  JSValueRef *exception);

/*! @function @abstract Gets an object's prototype (Object.getPrototypeOf). @result The prototype (the null value
 for none), or NULL for an invalid handle. */
JSWORKER_EXPORT JSValueRef JSObjectGetPrototype(JSContextRef ctx, JSObjectRef object);

/*! @function @abstract Sets an object's prototype; a value that is not an object sets null. A refusal (a
 non-extensible object, a cycle) is ignored, as in JavaScriptCore. */
JSWORKER_EXPORT void JSObjectSetPrototype(JSContextRef ctx, JSObjectRef object, JSValueRef value);

/*! @function @abstract Creates a Date, as new Date(...arguments). @result The Date, or NULL if an exception is
 thrown. */
JSWORKER_EXPORT JSObjectRef JSObjectMakeDate(JSContextRef ctx, size_t argumentCount, const JSValueRef arguments[],
                                             JSValueRef *exception);

/*! @function @abstract Creates a RegExp, as new RegExp(...arguments). @result The RegExp, or NULL if an exception
 (a SyntaxError for a bad pattern) is thrown. */
JSWORKER_EXPORT JSObjectRef JSObjectMakeRegExp(JSContextRef ctx, size_t argumentCount, const JSValueRef arguments[],
                                               JSValueRef *exception);

/*!
@function
@abstract Creates a function from source text, as the Function constructor does.
@param name The function's name property; NULL: "anonymous".
@param parameterCount The number of names in parameterNames.
@param parameterNames The parameter names (NULL if parameterCount is 0).
@param body The function's body.
@param sourceURL The script name stack traces show; NULL: none.
@param startingLineNumber The line of body's first line in the host's text (values below 3 are line 3).
@result The function, or NULL with an exception (a SyntaxError for bad source).
*/
JSWORKER_EXPORT JSObjectRef JSObjectMakeFunction(JSContextRef ctx, JSStringRef name, unsigned parameterCount,
                                                 const JSStringRef parameterNames[], JSStringRef body,
                                                 JSStringRef sourceURL, int startingLineNumber,
                                                 JSValueRef *exception);

/*! @function @abstract Tests whether a value is a BigInt. */
JSWORKER_EXPORT bool JSValueIsBigInt(JSContextRef ctx, JSValueRef value);

/*! @function @abstract Creates a BigInt from an integral double. @result The BigInt, or NULL with a RangeError if
 value is not an integer (NaN, Infinity, a fraction). */
JSWORKER_EXPORT JSValueRef JSBigIntCreateWithDouble(JSContextRef ctx, double value, JSValueRef *exception);

/*! @function @abstract Creates a BigInt from a signed 64-bit integer. */
JSWORKER_EXPORT JSValueRef JSBigIntCreateWithInt64(JSContextRef ctx, int64_t integer, JSValueRef *exception);

/*! @function @abstract Creates a BigInt from an unsigned 64-bit integer. */
JSWORKER_EXPORT JSValueRef JSBigIntCreateWithUInt64(JSContextRef ctx, uint64_t integer, JSValueRef *exception);

/*! @function @abstract Creates a BigInt from a string, as BigInt(string) (decimal, or 0x/0o/0b prefixed).
 @result The BigInt, or NULL with a SyntaxError if string is not an integer. */
JSWORKER_EXPORT JSValueRef JSBigIntCreateWithString(JSContextRef ctx, JSStringRef string, JSValueRef *exception);

/*!
@function
@abstract Converts a value to a signed 64-bit integer.
@discussion ToNumeric first (an object's valueOf/toString may run and throw); a BigInt is then truncated to its low
 64 bits; a Number is truncated toward zero and wrapped modulo 2^64 (NaN and the infinities give 0).
@result The integer, or 0 if an exception is thrown (check exception: 0 is a valid result).
*/
JSWORKER_EXPORT int64_t JSValueToInt64(JSContextRef ctx, JSValueRef value, JSValueRef *exception);

/*! @function @abstract Converts a value to an unsigned 64-bit integer, as JSValueToInt64 (modulo 2^64). */
JSWORKER_EXPORT uint64_t JSValueToUInt64(JSContextRef ctx, JSValueRef value, JSValueRef *exception);

/* ---------------------------------------------------------------------------------------------------------------
 * Workers.
 *
 * A worker is a script running on a thread of its own, in a realm of its own, with an event loop (web worker
 * globals: postMessage, onmessage, addEventListener, close, self, name, setTimeout/setInterval/setImmediate and
 * their clear functions, queueMicrotask, console, performance). Values travel between the host's contexts and a
 * worker only as structured-clone copies. Each direction has a bounded queue: the inbox (host to worker) and the
 * outbox (worker to host). A worker belongs to the thread that created it; it may be used with any context of that
 * thread.
 */

/*!
@constant kJSWorkerWaitForever The JSWorkerReceive timeout that waits until a message arrives or the worker has
 ended and every message was received.
*/
#define kJSWorkerWaitForever UINT64_MAX

/*! @constant kJSWorkerDefaultMaxMessageBytes The default limit on one message's serialized size: 64 MiB. */
#define kJSWorkerDefaultMaxMessageBytes ((size_t)64 << 20)
/*! @constant kJSWorkerDefaultMaxQueuedBytes The default limit on the bytes queued in one direction: 256 MiB. */
#define kJSWorkerDefaultMaxQueuedBytes ((size_t)256 << 20)
/*! @constant kJSWorkerDefaultMaxQueuedMessages The default limit on the messages queued in one direction: 1024. */
#define kJSWorkerDefaultMaxQueuedMessages ((size_t)1024)

/*!
@function
@abstract Creates a worker running a classic script.
@param source A JSString containing the worker's script. The caller keeps its reference.
@result A JSWorkerRef, or NULL if the script has a syntax error (use ZJSWorkerCreateWithOptions to learn why) or
 source is invalid. Ownership follows the Create Rule: release it with JSWorkerRelease.
@discussion The script is compiled before the function returns and runs on the worker's thread afterwards; the call
 does not wait for it. The channels have the default limits (kJSWorkerDefault*). Uncaught exceptions of the worker
 are written to standard error unless an error callback is installed. Thread: the calling thread becomes the
 worker's owner.
*/
JSWORKER_EXPORT JSWorkerRef JSWorkerCreate(JSStringRef source);

/*!
@function
@abstract Creates a worker with limits on its message queues.
@param source A JSString containing the worker's script.
@param maxMessageBytes The largest serialized message accepted, in bytes.
@param maxQueuedBytes The most bytes queued at once.
@param maxQueuedMessages The most messages queued at once.
@result A JSWorkerRef, or NULL as for JSWorkerCreate. Ownership follows the Create Rule.
@discussion The same limits apply to both directions. Every limit is literal: 0 is a real zero limit (that queue
 accepts no message at all), and no message is smaller than 2 bytes. A post over a limit fails:
 JSWorkerPostMessage stores a RangeError, postMessage in the worker throws one.
*/
JSWORKER_EXPORT JSWorkerRef JSWorkerCreateWithLimits(JSStringRef source, size_t maxMessageBytes,
                                                     size_t maxQueuedBytes, size_t maxQueuedMessages);

/*!
@enum ZJSErrorKind
@abstract What produced an error report.
@constant kZJSErrorUncaught An exception escaped the script, a listener, a timer or a queueMicrotask callback. The
 worker goes on serving messages.
@constant kZJSErrorUnhandledRejection A promise was rejected with no handler attached by the end of the task.
@constant kZJSErrorInternal The engine failed; the worker ends.
@constant kZJSErrorOutOfMemory The worker went over its memory budget (ZJSWorkerOptions.maxHeapBytes), or was the
 largest contributor when the process reached 90 % of the cap set with ZJSSetMemoryLimit; the worker ends. The
 message starts with "Worker terminated due to reaching memory limit: JS heap out of memory", as Node's.
@constant kZJSErrorTimeLimit One task of the worker (its script, a message delivery, a timer callback) ran longer than
 ZJSWorkerOptions.executionTimeLimit; the worker ends.
*/
typedef enum {
    kZJSErrorUncaught = 1,
    kZJSErrorUnhandledRejection = 2,
    kZJSErrorInternal = 3,
    kZJSErrorOutOfMemory = 4,
    kZJSErrorTimeLimit = 5
} ZJSErrorKind;

/*!
@struct ZJSErrorInfo
@abstract An error a worker did not handle, as given to a ZJSWorkerErrorCallback.
@field size sizeof(ZJSErrorInfo) of the library that made it; fields may be added at the end in later versions.
@field kind What produced the error.
@field name The error's name ("TypeError"), or "" for a thrown non-Error value.
@field message The error's message, or the thrown value as a string.
@field stack The JavaScript stack ("TypeError: ...\n\tat ..."), or "".
@field filename The script where the error was thrown, or "".
@field line The 1-based line where the error was thrown, or 0 if unknown.
@field column The 1-based column, or 0 if unknown.
@discussion The strings are UTF-8, null-terminated, owned by the library and valid only during the callback.
*/
typedef struct ZJSErrorInfo {
    size_t size;
    ZJSErrorKind kind;
    const char *name;
    const char *message;
    const char *stack;
    const char *filename;
    unsigned line;
    unsigned column;
} ZJSErrorInfo;

/*!
@typedef ZJSWorkerErrorCallback
@abstract Receives the errors a worker did not handle.
@param worker The worker. Do not call the library with it from the callback: the callback runs on another thread.
@param error The error; valid only during the call.
@param userData The pointer given with the callback.
@discussion Thread: runs on the worker's thread, which waits for it: keep it short and thread-safe.
*/
typedef void (*ZJSWorkerErrorCallback)(JSWorkerRef worker, const ZJSErrorInfo *error, void *userData);

/* --- worker setup and console callbacks ---------------------------------------------- */

/*!
@typedef ZJSWorkerSetupCallback
@abstract Prepares a worker's realm before its script runs: installs host functions (JSObjectMakeFunctionWithCallback),
 classes and values in it (jsworker extension).
@param workerContext The worker's context. Use it with the whole context/value/object API during the callback and
 later inside host functions and class callbacks called on the worker's behalf, never elsewhere: its owner is the
 worker, not an OS thread (a goroutine worker may run on a different thread at each callback), and any other thread
 is refused. It lives as long as the worker: JSGlobalContextRelease does nothing to it, and when the worker ends the
 finalizers and NoCopy deallocators of its objects run on the worker's thread and its handles become stale.
@param userData The pointer given with the callback.
@param exception Store an exception here and return false to fail the worker's creation.
@result true to let the worker run its script; false fails it: ZJSWorkerCreateWithOptions returns NULL with the
 exception's text in errorMessage, a worker created from JavaScript ends before its first statement with an
 'error' event (a web Worker or a worker_threads Worker alike).
@discussion Thread: runs on the worker's thread, while the creating call waits (ZJSWorkerCreateWithOptions and
 JSWorkerCreate return once it ran). Host functions it installs also run on the worker's thread, concurrently with
 the host's own threads: they must be thread-safe and must not use the host's own handles (contexts, values,
 workers of other threads); one rule for all of them: a handle is used only by its owner.
*/
typedef bool (*ZJSWorkerSetupCallback)(JSGlobalContextRef workerContext, void *userData, JSValueRef *exception);

/*!
@enum ZJSConsoleLevel
@abstract The console method a line comes from: console.log, info, warn, error, debug.
*/
typedef enum {
    kZJSConsoleLevelLog = 0,
    kZJSConsoleLevelInfo = 1,
    kZJSConsoleLevelWarn = 2,
    kZJSConsoleLevelError = 3,
    kZJSConsoleLevelDebug = 4
} ZJSConsoleLevel;

/*!
@typedef ZJSConsoleCallback
@abstract Receives a context's console output instead of stdout/stderr (jsworker extension).
@param ctx The context whose script printed (a worker's context for a worker's console).
@param level The console method.
@param message The line exactly as the console would print it: UTF-8, without its trailing newline, NUL-terminated;
 valid only during the call.
@param length The message's length in bytes, without the NUL.
@param userData The pointer given with the callback.
@discussion Thread: the context's thread (the worker's, for a worker). It may use ctx as a setup callback may.
*/
typedef void (*ZJSConsoleCallback)(JSContextRef ctx, ZJSConsoleLevel level, const char *message, size_t length,
                                   void *userData);

/*!
@function
@abstract Sets the process-wide worker setup (jsworker extension).
@param callback Runs for every worker created afterwards whose creator gave no setup of its own: workers created from
 JavaScript (new Worker, worker_threads, nested workers) and C-created workers whose options have no setup. NULL
 removes it.
@param userData Passed to callback.
@discussion May be called from any thread. Workers already created are not affected.
*/
JSWORKER_EXPORT void ZJSSetWorkerSetupCallback(ZJSWorkerSetupCallback callback, void *userData);

/*!
@function
@abstract Sends a context's console output to a callback instead of stdout/stderr (jsworker extension).
@param ctx A context of the calling thread, or a worker's context inside a callback on its behalf.
@param callback The callback; NULL restores stdout/stderr.
@param userData Passed to callback.
@discussion Workers created from the context's JavaScript (new Worker, and the workers those create) inherit it: while
 a worker's own context has no callback, its lines go to the callback in effect for its creator at the time of the
 line, called on the worker's thread with the worker's context. A change applies to them at once; a worker on another
 thread may still be inside a call to the previous callback, so keep its userData valid until those workers ended.
*/
JSWORKER_EXPORT void ZJSContextSetConsoleCallback(JSContextRef ctx, ZJSConsoleCallback callback, void *userData);

/* --- end of worker setup and console callbacks ---------------------------------------------------------------------- */

/*!
@struct ZJSChannelLimits
@abstract Limits of one message queue. In ZJSWorkerOptions a field left 0 takes its default
 (kJSWorkerDefault*); unlike JSWorkerCreateWithLimits, 0 is not a zero limit there.
@field maxMessageBytes The largest serialized message accepted, in bytes.
@field maxQueuedBytes The most bytes queued at once.
@field maxQueuedMessages The most messages queued at once.
*/
typedef struct ZJSChannelLimits {
    size_t maxMessageBytes;
    size_t maxQueuedBytes;
    size_t maxQueuedMessages;
} ZJSChannelLimits;

/*!
@struct ZJSWorkerOptions
@abstract Options for ZJSWorkerCreateWithOptions. Zero-initialize it, set size, then the fields you need:
 ZJSWorkerOptions options = {.size = sizeof(ZJSWorkerOptions), .name = "resizer"};
@field size sizeof(ZJSWorkerOptions) as the caller compiled it. Fields beyond size take their defaults, so a host
 built against an older header keeps working; a larger size is accepted if the fields this library does not know
 are all zero.
@field inbox Limits of the host-to-worker queue (0 fields: defaults).
@field outbox Limits of the worker-to-host queue (0 fields: defaults).
@field name The worker's name global and the name in its error reports, UTF-8, copied; NULL for "".
@field filename The script's name in stack traces, UTF-8, copied; NULL for "worker-<id>.js".
@field maxCallStackSize The JavaScript call-stack depth allowed; deeper recursion throws a RangeError. 0: 10000.
@field dedicatedThread true to run the worker on an OS thread of its own for its whole life (for callbacks that
 need one stable thread); false (the default) runs it on a goroutine, which starts and answers messages faster.
@field inspectable true to compile the worker's script instrumented for the inspector's Debugger domain
 (breakpoints, pauses, stepping; see docs/inspector.md). It costs time on every statement even with no debugger
 attached (about 1.4x on tight loops), so the default is false; JSWORKER_INSPECT=1 in the process's environment at
 start turns it on for every worker. Inspector sessions (ZJSWorkerInspectorSessionCreate) attach to every worker;
 on a worker that is not inspectable, Debugger.enable answers an error naming this field.
@field errorCallback Receives the worker's unhandled errors from its first statement on; NULL writes them to
 standard error. See ZJSWorkerSetErrorCallback.
@field errorUserData Passed to errorCallback.
@field waitForDebugger true to hold the worker before its script runs until an inspector session sends
 Runtime.runIfWaitingForDebugger (Node's --inspect-brk). Meanwhile it serves inspector commands only; messages wait
 and JSWorkerTerminate still ends it. On an inspectable worker whose releasing session enabled the Debugger domain,
 the script then pauses at its first statement (reason "Break on start"). Hosts built against an older header pass a
 smaller size and get false.
@field executionTimeLimit Seconds each task of the worker may run (its script, each message delivery, each timer
 callback); a task that runs longer ends the worker, reported to the error callback as kZJSErrorTimeLimit. 0 (and
 hosts built against an older header): no limit.
@field setup Runs on the worker's thread before its script (ZJSWorkerSetupCallback); the creation waits for it and
 fails if it returns false. NULL: the process-wide setup (ZJSSetWorkerSetupCallback), if any.
@field setupUserData Passed to setup.
@field consoleCallback Receives the worker's console output, with the worker's context, instead of stdout/stderr
 (ZJSConsoleCallback), from its first statement on. NULL: stdout/stderr.
@field consoleUserData Passed to consoleCallback.
@field maxHeapBytes The worker's memory budget in bytes: a worker whose heap is measured above it ends, reported to
 the error callback as kZJSErrorOutOfMemory, while the host and the other workers go on. The heap is an estimate
 measured at checkpoints (docs/limits.md, "Memory budgets"), so a worker may go over briefly before it is stopped.
 0 (and hosts built against an older header): no budget.
*/
typedef struct ZJSWorkerOptions {
    size_t size;
    ZJSChannelLimits inbox;
    ZJSChannelLimits outbox;
    const char *name;
    const char *filename;
    size_t maxCallStackSize;
    bool dedicatedThread;
    bool inspectable;
    ZJSWorkerErrorCallback errorCallback;
    void *errorUserData;
    bool waitForDebugger;
    double executionTimeLimit;
    ZJSWorkerSetupCallback setup;
    void *setupUserData;
    ZJSConsoleCallback consoleCallback;
    void *consoleUserData;
    size_t maxHeapBytes;
} ZJSWorkerOptions;

/*!
@function
@abstract Creates a worker with options (jsworker extension).
@param source A JSString containing the worker's script.
@param options The options, or NULL for the defaults. Read during the call only.
@param errorMessage A pointer to a JSStringRef in which to store why the worker could not be created (a syntax
 error with its position, a bad options->size), or NULL if you do not care. Ownership of a stored string follows the
 Create Rule; nothing is stored on success.
@result A JSWorkerRef, or NULL on failure. Ownership follows the Create Rule.
*/
JSWORKER_EXPORT JSWorkerRef ZJSWorkerCreateWithOptions(JSStringRef source, const ZJSWorkerOptions *options,
                                                       JSStringRef *errorMessage);

/* ---------------------------------------------------------------------------------------------------------------
 * Module workers (jsworker extension).
 *
 * A module worker runs an ES module graph instead of a classic script. The host gives the entry module's path and
 * source and a loader callback; every import (static, or a dynamic import() later) that is not a built-in module
 * is resolved by the callback, on the worker's thread. Each module is transformed once per worker (TypeScript for
 * .ts/.mts paths, JSON for .json; imports, exports, live bindings, cycles, import(), import.meta.url) and keeps its
 * own path in stack traces, error reports and the inspector. Top-level await is not supported yet: a module using it
 * fails with a SyntaxError at the await. See docs/modules.md.
 *
 * The whole static graph is loaded before any module runs. If it cannot be (a module not found, a loader failure, a
 * syntax error), no module runs; if a module throws while the graph evaluates, the modules after it do not run.
 * Either way the error is reported once to the worker's error callback (kZJSErrorUncaught, filename = the module's
 * path, line and column in its original source; for a module not found, the import's position in the importing
 * module) and the worker ends: messages it posted before the failure can still be received, then JSWorkerReceive
 * returns NULL and the target state is kZJSInspectorTargetStateClosed.
 */

/*!
@typedef ZJSModuleRequestRef
@abstract One call of a ZJSModuleLoaderCallback: answer it with ZJSModuleRequestResolve or ZJSModuleRequestFail.
@discussion Valid only during the callback it was given to, and only on that callback's thread; afterwards every
 function refuses it.
*/
typedef struct OpaqueZJSModuleRequest *ZJSModuleRequestRef; /* valid only during the callback */

/*!
@typedef ZJSModuleLoaderCallback
@abstract Resolves and loads one module of a module worker.
@param request The request to answer, valid until the callback returns.
@param specifier The specifier as written in the import ("./util.js", "lib", ...), UTF-8, null-terminated; valid
 only during the call.
@param referrerPath The resolved path of the importing module (the entry's path for the entry's imports), UTF-8,
 null-terminated; valid only during the call.
@param userData The pointer given to ZJSWorkerCreateModule.
@discussion Answer with ZJSModuleRequestResolve (the resolved path and the source; both are copied, so the buffers
 may be freed as soon as it returns) or ZJSModuleRequestFail. A callback that does neither means "not found". Only
 the first answer counts.
 Thread: runs on the worker's thread, not the thread that created the worker, and may run on several workers'
 threads at once: it must be thread-safe. The worker waits for
 it, and JSWorkerTerminate cannot interrupt it: return promptly. Do not call the library with the worker from the
 callback, only with request.
 The callback is called once per specifier and importing module: static imports while the graph loads, before any
 module runs; import() when it is first evaluated. Two specifiers that resolve to the same path are one module
 instance; the source given for the first load is used.
*/
typedef void (*ZJSModuleLoaderCallback)(ZJSModuleRequestRef request, const char *specifier, const char *referrerPath,
                                        void *userData);

/*!
@function
@abstract Answers a module request with the module's resolved path and source (jsworker extension).
@param request The request given to the running loader callback.
@param resolvedPath The module's resolved path, UTF-8, null-terminated, not empty: it identifies the module in the
 worker (one instance per path), is its import.meta.url, the referrerPath of its own imports, and its name in stack
 traces and in the inspector. An extension .ts, .mts or .cts makes it TypeScript, .json a JSON module. Copied.
@param source The module's source, UTF-8, sourceLength bytes, not necessarily null-terminated; NULL only if
 sourceLength is 0. Copied.
@param sourceLength The length of source in bytes.
@result true if the answer was recorded. false, and nothing changes, if request is NULL, stale (its callback has
 returned), already answered or used from another thread, if resolvedPath is NULL or empty, or if source is NULL
 with a non-zero sourceLength.
@discussion Thread: the callback's thread, during the callback.
*/
JSWORKER_EXPORT bool ZJSModuleRequestResolve(ZJSModuleRequestRef request, const char *resolvedPath,
                                             const char *source, size_t sourceLength); /* copies both */

/*!
@function
@abstract Fails a module request (jsworker extension).
@param request The request given to the running loader callback.
@param message Why, UTF-8, null-terminated, copied: the import fails with an Error whose message is "Cannot load
 module '<specifier>' imported from <referrerPath>: <message>". NULL means not found: the message is "Cannot find
 module '<specifier>' imported from <referrerPath>" and the error's code is "ERR_MODULE_NOT_FOUND".
@result true if the failure was recorded; false, and nothing changes, for a NULL, stale, already answered or other
 thread's request.
@discussion A failed static import fails the whole graph (see above); a failed import() rejects its promise.
 Thread: the callback's thread, during the callback.
*/
JSWORKER_EXPORT bool ZJSModuleRequestFail(ZJSModuleRequestRef request, const char *message); /* NULL = "not found" */

/*!
@function
@abstract Creates a worker running an ES module graph (jsworker extension).
@param entryPath The entry module's path, UTF-8, null-terminated, not empty, copied: its import.meta.url, the
 referrerPath of its imports and its name in stack traces and in the inspector (ZJSWorkerOptions.filename is not
 used). A .ts or .mts path makes it TypeScript.
@param entrySource The entry module's source, UTF-8, entrySourceLength bytes, not necessarily null-terminated;
 NULL only if entrySourceLength is 0. Copied.
@param entrySourceLength The length of entrySource in bytes.
@param loader Resolves every import that is not a built-in module, on the worker's thread (see
 ZJSModuleLoaderCallback); NULL makes every such import "not found".
@param userData Passed to loader; the host keeps it valid until the worker has ended (JSWorkerRelease returns).
@param options The options, or NULL for the defaults, as for ZJSWorkerCreateWithOptions (inspectable makes each
 module a script of its own in the Debugger domain, with its original source and coordinates). Read during the
 call only.
@param errorMessage A pointer to a JSStringRef in which to store why the worker could not be created (a NULL or
 empty entryPath, a NULL entrySource with a length, a bad options->size), or NULL if you do not care. Ownership of
 a stored string follows the Create Rule; nothing is stored on success.
@result A JSWorkerRef whose ZJSWorkerGetInspectorTargetInfo kind is kZJSInspectorTargetKindModule, or NULL on
 failure. Ownership follows the Create Rule.
@discussion Returns at once: the graph loads on the worker's thread, so a missing module or a syntax error, even in
 the entry, is not a creation failure but an error report after which the worker ends (see above). Thread: the
 calling thread becomes the worker's owner.
*/
JSWORKER_EXPORT JSWorkerRef ZJSWorkerCreateModule(const char *entryPath, const char *entrySource,
                                                  size_t entrySourceLength, ZJSModuleLoaderCallback loader,
                                                  void *userData, const ZJSWorkerOptions *options,
                                                  JSStringRef *errorMessage);

/*!
@function
@abstract Posts a copy of a value to a worker.
@param worker The worker.
@param ctx The context value belongs to (any context of the calling thread).
@param value The value to send. It is copied by the structured clone algorithm before the function returns; the
 worker receives it as the data of a message event.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result true if the message was queued, otherwise false with nothing queued and one of these exceptions:
 a DataCloneError (value cannot be cloned: a function, a symbol, ...); a RangeError whose message contains
 "message too large for the worker's limit" or "queue full"; an InvalidStateError "the worker is closed" (the
 worker is closing or has ended); the exception a getter of value threw; a TypeError for an invalid, NULL or other
 thread's worker or value.
@discussion Never blocks. Thread: the worker's and ctx's owner thread.
*/
JSWORKER_EXPORT bool JSWorkerPostMessage(JSWorkerRef worker, JSContextRef ctx, JSValueRef value,
                                         JSValueRef *exception);

/*!
@function
@abstract Posts a copy of a value to a worker, transferring the listed objects (jsworker extension).
@param worker The worker.
@param ctx The context of value and of the transfer list.
@param value The value to send.
@param transferCount The number of values in transfer.
@param transfer The objects to transfer rather than copy (ArrayBuffers, NoCopy ones included: they reach the worker
 without a copy and their deallocator follows them), or NULL if transferCount is 0.
@param exception As for JSWorkerPostMessage.
@result As for JSWorkerPostMessage. A transfer list the structured clone of this version cannot honour fails with a
 DataCloneError.
*/
JSWORKER_EXPORT bool ZJSWorkerPostMessageWithTransfer(JSWorkerRef worker, JSContextRef ctx, JSValueRef value,
                                                      size_t transferCount, const JSValueRef transfer[],
                                                      JSValueRef *exception);

/*!
@function
@abstract Receives the oldest message a worker posted.
@param worker The worker.
@param ctx The context to receive the value in (any context of the calling thread).
@param timeoutMs How long to wait for a message, in milliseconds: 0 polls without waiting; kJSWorkerWaitForever
 waits until a message arrives or the worker has ended and every message it posted was received.
@param exception A pointer to a JSValueRef in which to store an exception, if any. Pass NULL if you do not care to
 store an exception.
@result A copy of the message's value in ctx (a new value handle). NULL without an exception when the timeout
 passed or the worker has ended and was drained (ZJSWorkerGetInspectorTargetInfo tells the two apart: state
 kZJSInspectorTargetStateClosed); NULL with an exception if the message could not be read or an argument is invalid.
@discussion Blocks the calling thread up to timeoutMs. Thread: the worker's and ctx's owner thread.
*/
JSWORKER_EXPORT JSValueRef JSWorkerReceive(JSWorkerRef worker, JSContextRef ctx, uint64_t timeoutMs,
                                           JSValueRef *exception);

/*!
@function
@abstract Posts a copy of each of several values to a worker, each as its own message, in order (jsworker
 extension).
@param worker The worker.
@param ctx The context the values belong to (any context of the calling thread).
@param count The number of values.
@param values The values; NULL only if count is 0.
@param exception As for JSWorkerPostMessage.
@result The number of messages queued. count when all were; fewer, with the exception JSWorkerPostMessage would
 have stored for the first one that was not (the ones before it are queued, none after it); 0 with a TypeError for
 an invalid, NULL or other thread's worker, context or value (every handle is checked before anything is posted)
 or for NULL values with a count above 0.
@discussion The same as count calls of JSWorkerPostMessage, for the price of one call into the library: a host
 that sends in bursts saves the per-call entry and checks. Never blocks. Thread: the worker's and ctx's owner
 thread.
*/
JSWORKER_EXPORT size_t ZJSWorkerPostMessages(JSWorkerRef worker, JSContextRef ctx, size_t count,
                                             const JSValueRef values[], JSValueRef *exception);

/*!
@function
@abstract Receives up to max of the oldest messages a worker posted (jsworker extension).
@param worker The worker.
@param ctx The context to receive the values in (any context of the calling thread).
@param timeoutMs How long to wait for the first message, as for JSWorkerReceive; further messages are taken only
 if already queued, without waiting.
@param max The capacity of values.
@param values Receives the messages' values in order (new value handles in ctx); NULL only if max is 0.
@param exception As for JSWorkerReceive.
@result The number of values stored. 0 without an exception when the timeout passed or the worker has ended and was
 drained (as JSWorkerReceive's NULL), or when max is 0. If a message cannot be read, the ones before it are
 returned and the exception is stored (the unreadable message is consumed): check the exception whenever one was
 passed, not only on 0. 0 with a TypeError for an invalid argument.
@discussion Blocks the calling thread up to timeoutMs for the first message only. Thread: the worker's and ctx's
 owner thread.
*/
JSWORKER_EXPORT size_t ZJSWorkerReceiveMessages(JSWorkerRef worker, JSContextRef ctx, uint64_t timeoutMs, size_t max,
                                                JSValueRef values[], JSValueRef *exception);

/*!
@function
@abstract Posts a message given as JSON text to a worker (jsworker extension).
@param worker The worker.
@param ctx The context in which to store an exception (any context of the calling thread); the message makes no
 value in it.
@param json The JSON text, UTF-8, not necessarily NUL-terminated. It is read before the function returns.
@param length The length of json in bytes.
@param exception As for JSWorkerPostMessage.
@result true if the message was queued: the worker receives the value JSON.parse gives for the text, as if
 JSWorkerPostMessage had posted that value (a message event, in order with the other messages, under the same inbox
 limits). Otherwise false with nothing queued and one of these exceptions: a SyntaxError whose message contains
 "invalid JSON" and the byte offset (the grammar of JSON.parse; invalid UTF-8 in a string is invalid too); a
 DataCloneError for a value the structured clone cannot carry (nesting deeper than 256 levels, a property name with
 an unpaired surrogate such as "\ud800"); the RangeError and InvalidStateError of JSWorkerPostMessage; a TypeError
 for an invalid, NULL or other thread's worker or context, or a NULL json with a length above 0.
@discussion One call into the library per message, and no value handles: the text is converted to the message's
 serialized form directly, on the calling thread, so invalid text fails before anything is queued. As JSON.parse, a
 duplicate key keeps its first position and its last value, and "__proto__" is an ordinary key. Never blocks.
 Thread: the worker's and ctx's owner thread.
*/
JSWORKER_EXPORT bool ZJSWorkerPostJSON(JSWorkerRef worker, JSContextRef ctx, const char *json, size_t length,
                                       JSValueRef *exception);

/*!
@function
@abstract Receives the oldest message a worker posted, as JSON text (jsworker extension).
@param worker The worker.
@param ctx The context in which to store an exception (any context of the calling thread).
@param timeoutMs How long to wait for a message, as for JSWorkerReceive.
@param length If not NULL, receives the length of the text in bytes, without the terminating NUL (0 when the result
 is NULL).
@param exception As for JSWorkerReceive.
@result The text JSON.stringify gives for the message's value: UTF-8, NUL-terminated, allocated with malloc; the
 caller frees it with free(). NULL without an exception when the timeout passed or the worker has ended and was
 drained (as JSWorkerReceive). NULL with an exception if the message could not be read, if its value has no JSON
 text (a TypeError for undefined; JSON.stringify's TypeError for a BigInt or a cycle), or for an invalid argument.
 The message is consumed either way.
@discussion Values made only of what JSON.parse makes (null, booleans, numbers, strings, plain objects, dense
 arrays) and undefined are converted from their serialized form directly, without making a value in ctx; any other
 value (a Map, a Date, a typed array, a shared reference …) is received into ctx and given to the builtin
 JSON.stringify there, so the text is the same either way: NaN and Infinity are null, -0 is 0, an undefined property
 is left out and an undefined array element is null, a lone surrogate is written \udXXX. Blocks the calling thread
 up to timeoutMs. Thread: the worker's and ctx's owner thread.
*/
JSWORKER_EXPORT char *ZJSWorkerReceiveJSON(JSWorkerRef worker, JSContextRef ctx, uint64_t timeoutMs, size_t *length,
                                           JSValueRef *exception);

/*!
@function
@abstract Sets the Go garbage collector's target percentage for the whole process (jsworker extension).
@param percent The new setting, as GOGC: the heap may grow by this percentage of the live heap before a collection;
 a negative value turns the collector off (until the next call).
@result The previous setting.
@discussion The setting is process-wide and is the host's choice: the library never changes it itself (the GOGC
 environment variable, read when the library is loaded, sets the start value; 100 by default). Higher values trade
 memory for throughput on message-heavy programs. Thread: any; takes effect at once.
*/
JSWORKER_EXPORT int ZJSSetGCPercent(int percent);

/*!
@function
@abstract Stops a worker as soon as possible.
@param worker The worker. NULL, invalid or another thread's worker: nothing happens.
@discussion Running JavaScript is interrupted at its next instruction (a long native call such as a huge sort
 finishes first), timers and queued messages are dropped, the inbox closes. Messages the worker already posted can
 still be received. Returns at once; the worker is still allocated until JSWorkerRelease. Idempotent.
*/
JSWORKER_EXPORT void JSWorkerTerminate(JSWorkerRef worker);

/*!
@function
@abstract Asks a worker to end gracefully (jsworker extension).
@param worker The worker. NULL, invalid or another thread's worker: nothing happens.
@discussion The worker accepts no more messages, handles those already queued, then ends (as close() inside it).
 Timers do not fire after this call. Returns at once; JSWorkerReceive returns NULL once the worker has ended and
 its messages were received.
*/
JSWORKER_EXPORT void ZJSWorkerClose(JSWorkerRef worker);

/*!
@function
@abstract Ends a worker and frees it.
@param worker The worker. NULL, invalid or another thread's worker: nothing happens.
@discussion Terminates the worker (as JSWorkerTerminate), waits for its thread to finish, and frees its queues with
 every message still in them; the handle becomes stale. It returns promptly even if the script is in an endless
 loop. For a graceful end, call ZJSWorkerClose and receive until JSWorkerReceive returns NULL first. The notify
 callback is called for the last time before this function returns.
*/
JSWORKER_EXPORT void JSWorkerRelease(JSWorkerRef worker);

/* Termination and time limits (jsworker extension; docs/limits.md). */

/*!
@function
@abstract Asks a worker to stop, from any thread (jsworker extension).
@param worker The worker. NULL or invalid: nothing happens.
@discussion The one worker call any thread may make: a watchdog thread stops a runaway worker with it. It does what
 JSWorkerTerminate does and returns at once; the owner thread still releases the worker (JSWorkerRelease). Called
 after the owner released the handle, it does nothing.
*/
JSWORKER_EXPORT void ZJSWorkerRequestTermination(JSWorkerRef worker);

/*!
@function
@abstract Sets a process-wide memory cap (jsworker extension).
@param bytes The cap in bytes; 0 removes it.
@discussion When the library's heap reaches 90 % of the cap, the largest contributor is stopped: a worker is
 terminated and reported to its error callback as kZJSErrorOutOfMemory; a main context running a script has that
 script stopped as ZJSContextTerminateExecution stops it, and the call that ran it returns NULL/false with an Error
 whose message is "script execution terminated: JavaScript heap out of memory" (the context stays usable). A context
 with no script running is never touched. The host, its contexts and the other workers keep running. The library
 also sets its Go
 runtime's soft memory limit to the cap, so that its collector works harder near it (unless GOMEMLIMIT was set
 in the environment). The heap counted is the library's own (JavaScript values and everything the library
 allocates), not memory the host allocates with malloc. See docs/limits.md, "Memory budgets".
 Thread: any thread.
*/
JSWORKER_EXPORT void ZJSSetMemoryLimit(size_t bytes);

/*!
@function
@abstract Stops the script running in a context, from any thread (jsworker extension).
@param ctx The context. NULL or invalid: nothing happens.
@discussion The JavaScript running in ctx — JSEvaluateScript, JSObjectCallAsFunction, a property access that runs a
 getter, a task of ZJSContextRunPendingEvents — throws an uncatchable termination at its next instruction (neither
 catch nor finally runs). The call that entered JavaScript then returns NULL/false and stores an Error whose message
 says "script execution terminated"; a task of ZJSContextRunPendingEvents ends and the next one runs. The context
 stays usable: the next call runs normally. Called while no script runs in ctx, it does nothing. A debugger pause
 ends at once; a single long native call (a huge JSON.parse) finishes first; a regular expression on the
 backtracking engine stops within RegexpMatchTimeout (1 s, docs/limits.md).
*/
JSWORKER_EXPORT void ZJSContextTerminateExecution(JSContextRef ctx);

/*!
@typedef ZJSShouldTerminateCallback
@abstract Decides whether a script that ran out of time is stopped (JSC's JSShouldTerminateCallback).
@param ctx The context whose script exceeded its time limit. Do not call the library with it from the callback,
 except ZJSContextTerminateExecution and the time-limit functions.
@param userData The pointer given with the callback.
@result true to stop the script as ZJSContextTerminateExecution does; false to grant it another period.
@discussion Thread: runs on a thread of the library's, not the context's (the engine cannot pause a running script to
 call out on its thread); the script keeps running meanwhile. Keep it short and thread-safe.
*/
typedef bool (*ZJSShouldTerminateCallback)(JSContextRef ctx, void *userData);

/*!
@function
@abstract Limits how long each entry into a context's JavaScript may run (jsworker extension, after JSC's
 JSContextGroupSetExecutionTimeLimit).
@param ctx The context. NULL or invalid: nothing happens.
@param limitSeconds The time each top-level entry may run: one call that runs script (JSEvaluateScript,
 JSObjectCallAsFunction, ...), or one task of ZJSContextRunPendingEvents. 0 or less removes the limit.
@param callback Asked when an entry has run that long; NULL stops the script at once.
@param userData Passed to callback.
@discussion A stopped entry fails as with ZJSContextTerminateExecution; the message adds "execution time limit
 exceeded". Calls made from a host function inside an entry belong to it. The limit applies from the next top-level
 entry on. Any thread may call it.
*/
JSWORKER_EXPORT void ZJSContextSetExecutionTimeLimit(JSContextRef ctx, double limitSeconds,
                                                     ZJSShouldTerminateCallback callback, void *userData);

/*!
@function
@abstract Removes a context's execution time limit (jsworker extension).
@param ctx The context. NULL or invalid: nothing happens.
@discussion An entry running now is no longer stopped by the limit. Any thread may call it.
*/
JSWORKER_EXPORT void ZJSContextClearExecutionTimeLimit(JSContextRef ctx);

/*!
@typedef ZJSWorkerNotifyCallback
@abstract Tells the host that a worker posted a message or ended.
@param worker The worker. Do not call the library with it from the callback: the callback runs on another thread.
@param userData The pointer given with the callback.
@discussion Thread: runs on the worker's thread, which waits for it: keep it short and thread-safe (wake the host's
 event loop and return). It is called once for every message the worker posts, after the message can be received,
 and once more when the outbox closes (the worker ended).
*/
typedef void (*ZJSWorkerNotifyCallback)(JSWorkerRef worker, void *userData);

/*!
@function
@abstract Installs a callback telling the host when a worker posts a message (jsworker extension).
@param worker The worker.
@param callback The callback, replacing any earlier one; NULL removes it.
@param userData Passed to callback.
@result true if installed, false if worker is invalid or another thread's.
@discussion Messages posted before the callback was installed did not call it: after installing it, drain the
 worker once with JSWorkerReceive(worker, ctx, 0, ...). A host with its own event loop then receives with timeout 0
 whenever the callback fired.
*/
JSWORKER_EXPORT bool ZJSWorkerSetNotifyCallback(JSWorkerRef worker, ZJSWorkerNotifyCallback callback,
                                                void *userData);

/*!
@function
@abstract Installs a callback for the errors a worker does not handle (jsworker extension).
@param worker The worker.
@param callback The callback, replacing any earlier one (including ZJSWorkerOptions.errorCallback); NULL removes it
 and sends later reports to standard error.
@param userData Passed to callback.
@result true if installed, false if worker is invalid or another thread's.
@discussion Errors raised before the call went to the earlier callback or to standard error; give
 ZJSWorkerOptions.errorCallback to see errors from the first statement on.
*/
JSWORKER_EXPORT bool ZJSWorkerSetErrorCallback(JSWorkerRef worker, ZJSWorkerErrorCallback callback,
                                               void *userData);

/*!
@enum ZJSInspectorTargetKind
@constant kZJSInspectorTargetKindScript A worker started from a classic script.
@constant kZJSInspectorTargetKindModule A worker started from an ES module graph.
*/
typedef enum { kZJSInspectorTargetKindScript = 0, kZJSInspectorTargetKindModule = 1 } ZJSInspectorTargetKind;

/*!
@enum ZJSInspectorTargetState
@abstract A worker's life-cycle stage; it only moves forward.
@constant kZJSInspectorTargetStateStarting Created; its script has not finished its first run.
@constant kZJSInspectorTargetStateRunning The script ran; the worker serves its event loop.
@constant kZJSInspectorTargetStateClosing Close or terminate was requested; the loop is ending.
@constant kZJSInspectorTargetStateClosed The loop ended and the outbox is closed.
*/
typedef enum {
    kZJSInspectorTargetStateStarting = 0,
    kZJSInspectorTargetStateRunning = 1,
    kZJSInspectorTargetStateClosing = 2,
    kZJSInspectorTargetStateClosed = 3
} ZJSInspectorTargetState;

/*!
@struct ZJSInspectorTargetInfo
@field id The worker's process-wide id: never 0, never reused.
@field kind How the worker was started.
@field state Its life-cycle stage at the time of the call.
*/
typedef struct ZJSInspectorTargetInfo {
    uint64_t id;
    ZJSInspectorTargetKind kind;
    ZJSInspectorTargetState state;
} ZJSInspectorTargetInfo;

/*!
@function
@abstract Describes a worker as a debugging target (jsworker extension).
@param worker The worker.
@param info The structure to fill in.
@result true if info was filled in; false if worker or info is NULL, or worker is invalid or another thread's (info
 is then unchanged).
*/
JSWORKER_EXPORT bool ZJSWorkerGetInspectorTargetInfo(JSWorkerRef worker, ZJSInspectorTargetInfo *info);

/* ---------------------------------------------------------------------------------------------------------------
 * The main context's event loop (jsworker extension): workers created from JavaScript.
 *
 * Every main context has the web's Worker, MessageChannel, MessagePort and BroadcastChannel globals, so a script
 * evaluated in it may create workers (`new Worker("file.js")`, a web worker: self, postMessage, onmessage, close,
 * importScripts inside) and talk to them, to other workers' ports and to same-named BroadcastChannels of the
 * process. Those workers are ordinary workers (same limits, structured clone, shared memory, termination and
 * inspector as JSWorkerCreate's), but what they send to the context — messages, errors, their end — cannot run
 * while the host's thread is elsewhere: it waits in the context's event loop until the host runs it with
 * ZJSContextRunPendingEvents, on the context's owner thread, in the order it arrived. The context's own timers
 * (setTimeout, setInterval, setImmediate and their clear functions) fire there too, and only there: a pending timer
 * keeps the loop alive, like a worker that has not ended.
 *
 * A typical host alternates its own work with
 *
 *     while (ZJSContextRunPendingEvents(ctx, 100) > 0) { ... }   // until every worker is gone, 100 ms at a time
 *
 * or, inside a loop of its own, calls it with a timeout of 0 now and then. Releasing the context terminates the
 * workers its scripts created and closes their ports.
 * --------------------------------------------------------------------------------------------------------------- */

/*!
@function
@abstract Runs a main context's pending events: messages, errors and exits of the workers its JavaScript created,
 and MessagePort and BroadcastChannel messages (jsworker extension).
@param ctx The main context.
@param timeoutMs 0: run the events that are ready, then return. Positive: keep running events as they arrive,
 waiting for them when none is ready, until nothing ref'd is left in ctx or timeoutMs milliseconds have passed.
 Negative: until nothing ref'd is left, however long that takes.
@result 1 if ctx still has ref'd handles — a worker its JavaScript created that has not ended (until terminate()
 or the worker's own close()), a started MessagePort (one with an onmessage handler or a message listener, until
 it or its peer is closed), a BroadcastChannel with a message listener (until closed) — so that more events may
 come and the host should call again; 0 if nothing is left (the loop is dry); -1 if ctx is not a live context of
 the calling thread.
@discussion Each event runs its listeners (onmessage, onerror, message and close listeners) with the context's
 microtasks drained after each, as a worker's loop does. An exception a listener throws is written to stderr, as
 uncaught errors are, and the next event runs: it is not returned to the host. A listener may pause in the
 debugger (see JSGlobalContextSetInspectable). A worker's uncaught error is the web's 'error' event on its Worker
 object (an ErrorEvent with message, filename, lineno and colno); the worker goes on running.

 Thread: the context's owner thread.
*/
JSWORKER_EXPORT int ZJSContextRunPendingEvents(JSContextRef ctx, int timeoutMs);

/* ---------------------------------------------------------------------------------------------------------------
 * Inspector sessions (jsworker extension): the Chrome DevTools Protocol over the C ABI.
 *
 * A session is one debugger client attached to one target — a worker, or a main context. The host carries CDP JSON
 * between the client and the session: it dispatches the client's commands (a UTF-8 JSON text, {"id", "method",
 * "params"}) and receives, through a callback, the session's responses ({"id", "result"} or {"id", "error"}) and
 * events ({"method", "params"}). docs/inspector.md lists the methods and events implemented (the Runtime and Schema
 * domains in this version) and the protocol's error codes: an unknown method is answered with error -32601, a
 * malformed message with -32700 or -32600, and the session keeps working after every error response.
 *
 * Every session starts with one event, Runtime.executionContextsCleared (no parameters), so that the host can check
 * the transport end to end before sending anything; Runtime.enable then reports the target's execution context with
 * Runtime.executionContextCreated.
 *
 * An objectId a session hands out keeps its object alive until the client releases it (Runtime.releaseObject,
 * Runtime.releaseObjectGroup, Runtime.disable), the session is released, or the target ends; another session
 * cannot use it.
 *
 * Two transports:
 *
 *   - Worker sessions (ZJSWorkerInspectorSession*) are asynchronous. Dispatch copies the command into the worker's
 *     queue and returns at once; the worker runs it on its own thread between macrotasks (also while it is idle);
 *     responses and events wait in the session's queue until the host pumps them, one per
 *     ZJSWorkerInspectorSessionPump call, on the host's thread.
 *   - Main-context sessions (ZJSInspectorSession*) are synchronous. The context must be inspectable
 *     (JSGlobalContextSetInspectable). Dispatch runs the command on the calling thread, and the callback receives
 *     every message a session queues before the library call that queued it returns.
 *
 * Sessions are owned by the thread that created them, like every handle (see "Threads"). Several sessions may attach
 * to one target at once; each has its own responses, events and objects.
 */

/*! @typedef ZJSWorkerInspectorSessionRef An inspector session attached to a worker (jsworker extension). */
typedef struct OpaqueZJSWorkerInspectorSession *ZJSWorkerInspectorSessionRef;

/*! @typedef ZJSInspectorSessionRef An inspector session attached to a main context (jsworker extension). */
typedef struct OpaqueZJSInspectorSession *ZJSInspectorSessionRef;

/*!
@typedef ZJSInspectorMessageCallback
@abstract Receives one message (a response or an event) from an inspector session.
@param message The message: UTF-8 JSON text, length bytes long, followed by a NUL (not counted in length).
@param length The length of message in bytes.
@param userData The pointer given when the session was created.
@discussion Called exactly once per message, in the order the session queued them. Ownership: message is owned by the
 library and valid only until the callback returns; copy what you need to keep.

 Thread: the session's owner thread, inside the library call that delivers the message (ZJSWorkerInspectorSessionPump
 for a worker session; ZJSInspectorSessionCreate, ZJSInspectorSessionDispatch, or the call that ran JavaScript for a
 main-context session). The callback may call the library: dispatch to this or another session, pump, release this
 session (no callback of a released session runs afterwards), use contexts and workers of this thread.
*/
typedef void (*ZJSInspectorMessageCallback)(const char *message, size_t length, void *userData);

/*!
@enum ZJSWorkerInspectorPumpResult
@abstract What ZJSWorkerInspectorSessionPump did.
@constant kZJSWorkerInspectorPumpMessage One message was delivered to the callback.
@constant kZJSWorkerInspectorPumpTimeout Nothing was queued before the timeout passed; the callback was not called.
@constant kZJSWorkerInspectorPumpClosed The session has ended — its worker ended, and every message queued before
 that (the last is Inspector.detached) was delivered. Nothing more will come; release the session.
@constant kZJSWorkerInspectorPumpError The call was refused: session is NULL, released, not a worker session or
 another thread's (or the library failed internally). Nothing was delivered.
@discussion Keep pumping while the result is kZJSWorkerInspectorPumpMessage or kZJSWorkerInspectorPumpTimeout, and
 stop on anything else:

     ZJSWorkerInspectorPumpResult r;
     while ((r = ZJSWorkerInspectorSessionPump(session, 100)) <= kZJSWorkerInspectorPumpTimeout) { ... }

 In particular, a session released from inside its own callback pumps kZJSWorkerInspectorPumpError afterwards.
*/
typedef enum {
    kZJSWorkerInspectorPumpMessage = 0,
    kZJSWorkerInspectorPumpTimeout = 1,
    kZJSWorkerInspectorPumpClosed = 2,
    kZJSWorkerInspectorPumpError = 3
} ZJSWorkerInspectorPumpResult;

/*!
@function
@abstract Attaches an inspector session to a worker (jsworker extension).
@param worker The worker, inspectable or not (ZJSWorkerOptions.inspectable concerns the Debugger domain only: without
 it, Debugger.enable answers an error).
@param callback The function that receives the session's messages. Must not be NULL.
@param userData Passed to callback.
@result A new session, or NULL if worker is NULL, invalid or another thread's, if callback is NULL, or if the worker
 is terminating or has ended. Ownership follows the Create Rule: release it with ZJSWorkerInspectorSessionRelease.
@discussion One message is queued at once (Runtime.executionContextsCleared), so the first
 ZJSWorkerInspectorSessionPump delivers a message. Several sessions may attach to one worker.

 Thread: the worker's owner thread, which becomes the session's owner.
*/
JSWORKER_EXPORT ZJSWorkerInspectorSessionRef ZJSWorkerInspectorSessionCreate(JSWorkerRef worker,
                                                                             ZJSInspectorMessageCallback callback,
                                                                             void *userData);

/*!
@function
@abstract Sends a CDP command to a worker session (jsworker extension).
@param session The session.
@param message The command, UTF-8 JSON text; need not be NUL-terminated. Copied before the function returns.
@param length The length of message in bytes.
@result true if the message was accepted: the worker will run the command on its thread, or (malformed JSON, an
 unknown method) its error response is already queued; either way the response arrives through
 ZJSWorkerInspectorSessionPump. false, with nothing queued, if session is NULL, released, not a worker session or
 another thread's, if message is NULL or length is 0, or if the session has ended (its worker ended: pump the remaining messages).
@discussion Never blocks and never calls the callback. A command accepted while the worker is ending is answered
 with an error response ("Inspected target navigated or closed").

 Thread: the session's owner thread; may be called from inside the session's callback.
*/
JSWORKER_EXPORT bool ZJSWorkerInspectorSessionDispatch(ZJSWorkerInspectorSessionRef session, const char *message,
                                                       size_t length);

/*!
@function
@abstract Delivers the oldest queued message of a worker session to its callback (jsworker extension).
@param session The session.
@param timeoutMs How long to wait for a message, in milliseconds: 0 polls without waiting; kJSWorkerWaitForever
 waits until a message comes or the session ends.
@result kZJSWorkerInspectorPumpMessage if one message was delivered (the callback has returned);
 kZJSWorkerInspectorPumpTimeout if none came in time; kZJSWorkerInspectorPumpClosed once the worker has ended and
 every message was delivered; kZJSWorkerInspectorPumpError if session is NULL, released, not a worker session or
 another thread's.
@discussion Delivers at most one message per call: drain with
 while (ZJSWorkerInspectorSessionPump(session, 0) == kZJSWorkerInspectorPumpMessage) {}.

 Re-entrant: the callback may dispatch, pump (a nested pump delivers the next message, nested inside this one) or
 release the session.

 Thread: the session's owner thread; the callback runs on it, inside this call. Blocks up to timeoutMs.
*/
JSWORKER_EXPORT ZJSWorkerInspectorPumpResult ZJSWorkerInspectorSessionPump(ZJSWorkerInspectorSessionRef session,
                                                                           uint64_t timeoutMs);

/*!
@function
@abstract Detaches and frees a worker session (jsworker extension).
@param session The session. NULL, invalid or another thread's session: nothing happens.
@discussion The session's handle becomes stale at once: its callback is never called again, messages still queued
 are discarded, and commands not yet answered are dropped. The function then waits until the worker has dropped
 every object the session held (on the worker's thread, between macrotasks), so when it returns nothing of the
 session is left. It may be called from inside the session's own callback.

 The worker may be released first: its sessions then receive their last messages (Runtime.executionContextDestroyed
 if Runtime was enabled, an error response for each command not yet answered, Inspector.detached), pump
 kZJSWorkerInspectorPumpClosed, and must still be released. If the worker is running JavaScript, this function waits
 until it returns to its event loop; a worker stuck in an endless loop must be terminated (JSWorkerTerminate) or
 released first.

 Thread: the session's owner thread.
*/
JSWORKER_EXPORT void ZJSWorkerInspectorSessionRelease(ZJSWorkerInspectorSessionRef session);

/*!
@function
@abstract Attaches a synchronous inspector session to a main context (jsworker extension).
@param ctx The context. It must have been made inspectable with JSGlobalContextSetInspectable(ctx, true): this is
 JavaScriptCore's opt-in, so that a context is never inspected unless its host allowed it.
@param callback The function that receives the session's messages. Must not be NULL.
@param userData Passed to callback.
@result A new session, or NULL if ctx is NULL, invalid, another thread's or not inspectable, or if callback is NULL.
 Ownership follows the Create Rule: release it with ZJSInspectorSessionRelease.
@discussion The first message (Runtime.executionContextsCleared) is delivered to the callback before this function
 returns. Several sessions may attach to one context.

 Messages reach the callback as soon as the session queues them, on the owner thread: a response inside
 ZJSInspectorSessionDispatch; a Runtime.consoleAPICalled event (Runtime enabled) inside the console call that caused
 it, whichever library call ran the script. A Runtime.evaluate with awaitPromise whose promise is still pending is
 answered when the promise settles, at the end of the JSEvaluateScript, JSObjectCallAsFunction or
 ZJSInspectorSessionDispatch during which it settled (if it settled in another call, such as a getter run by
 JSObjectGetProperty, with the session's next delivery). The callback is never
 re-entered for one session: what the session queues while its callback runs (for example the response to a
 command the callback dispatched) is delivered right after the callback returns, before the outermost library call
 returns.

 Exceptions a script throws out of JSEvaluateScript or JSObjectCallAsFunction are reported to the caller through
 the exception parameter, as in JavaScriptCore, and do not raise Runtime.exceptionThrown (nor do errors thrown by
 queueMicrotask callbacks, which go to standard error).

 Releasing the context (the last JSGlobalContextRelease) ends its sessions: each receives its last messages
 (Runtime.executionContextDestroyed if Runtime was enabled, Inspector.detached) before the release returns; the
 session handles stay valid until ZJSInspectorSessionRelease, and dispatching to them returns false.

 Thread: ctx's owner thread, which becomes the session's owner.
*/
JSWORKER_EXPORT ZJSInspectorSessionRef ZJSInspectorSessionCreate(JSGlobalContextRef ctx,
                                                                 ZJSInspectorMessageCallback callback,
                                                                 void *userData);

/*!
@function
@abstract Runs a CDP command in a main-context session (jsworker extension).
@param session The session.
@param message The command, UTF-8 JSON text; need not be NUL-terminated. Read during the call only.
@param length The length of message in bytes.
@result true if the command was handled: its response (an error response for malformed JSON or an unknown method)
 and any events it caused were delivered to the callback before this function returned — unless the call was made
 from inside the session's own callback, in which case they are delivered right after that callback returns.
 false, with nothing delivered, if session is NULL, released, not a main-context session or another thread's, if
 message is NULL or length is 0, or if the session's context was released.
@discussion The command runs on the calling thread, in the context, before this function returns (a
 Runtime.evaluate with awaitPromise whose promise is still pending is answered later; see ZJSInspectorSessionCreate).

 While the context is paused in the debugger (its owner thread is blocked inside a call that runs JavaScript), any
 thread may call this function: from another thread the command is queued, the paused owner thread runs it, and its
 response reaches the callback on the owner thread; the result is then true once queued. A command queued just as
 the pause ends runs at the owner's next library call that delivers inspector messages.

 Thread: the session's owner thread, which may call it from inside a callback; any thread while the context is
 paused in the debugger.
*/
JSWORKER_EXPORT bool ZJSInspectorSessionDispatch(ZJSInspectorSessionRef session, const char *message, size_t length);

/*!
@function
@abstract Detaches and frees a main-context session (jsworker extension).
@param session The session. NULL, invalid or another thread's session: nothing happens.
@discussion The session's handle becomes stale, its callback is never called again, and every object it held is
 dropped before this function returns. It may be called from inside the session's own callback, and after the
 context was released.

 Thread: the session's owner thread.
*/
JSWORKER_EXPORT void ZJSInspectorSessionRelease(ZJSInspectorSessionRef session);

/* ---------------------------------------------------------------------------------------------------------------
 * DevTools endpoint (jsworker extension): Chrome DevTools, VS Code and chrome-remote-interface attach over HTTP and
 * WebSocket, as to `node --inspect` (docs/inspector.md, "Endpoint").
 *
 * One endpoint per process. While it runs it lists every inspectable worker of the process — created with
 * ZJSWorkerOptions.inspectable (or any worker when the process started with JSWORKER_INSPECT=1), through this API
 * or from JavaScript — at http://HOST:PORT/json/list, and serves ws://HOST:PORT/<id> as one inspector session on
 * that worker, run on the worker's thread exactly like a ZJSWorkerInspectorSession. The endpoint runs on threads of
 * its own: for workers the host pumps nothing. It also lists every main context made inspectable with
 * JSGlobalContextSetInspectable (until it is made uninspectable or released; title "main context <id>", url
 * "jsworker://context-<id>"). A main context's realm belongs to its owner thread, so the commands of an endpoint
 * session on it wait there and run on the owner thread: at once while the context is paused in the debugger, else in
 * the host's next ZJSContextRunPendingEvents (which wakes up for them) or after its next call that runs JavaScript.
 * A host that serves such sessions therefore pumps ZJSContextRunPendingEvents while it is idle. Console calls of
 * the context reach these sessions; releasing the context ends them.
 *
 * It has no authentication, so it listens on loopback addresses only, answers only requests whose Host header is an
 * IP address or "localhost" (DNS-rebinding protection), and names each target by a random id that a web page can
 * neither read nor guess.
 * --------------------------------------------------------------------------------------------------------------- */

/*!
@enum ZJSInspectorEndpointResult
@abstract What ZJSInspectorEndpointStart did. New codes may be added in later versions.
@constant kZJSInspectorEndpointOK The endpoint is listening.
@constant kZJSInspectorEndpointInvalidAddress address is not "HOST:PORT", or HOST is not a loopback address
 (127.0.0.0/8, ::1) or "localhost".
@constant kZJSInspectorEndpointListenFailed The address could not be listened on (in use, or not available).
@constant kZJSInspectorEndpointAlreadyRunning The process's endpoint is already running; stop it first.
@constant kZJSInspectorEndpointInternal The library failed inside the call.
*/
typedef enum {
    kZJSInspectorEndpointOK = 0,
    kZJSInspectorEndpointInvalidAddress = 1,
    kZJSInspectorEndpointListenFailed = 2,
    kZJSInspectorEndpointAlreadyRunning = 3,
    kZJSInspectorEndpointInternal = 4
} ZJSInspectorEndpointResult;

/*!
@function
@abstract Starts the process's DevTools endpoint for every inspectable worker (jsworker extension).
@param address "HOST:PORT" to listen on, NUL-terminated, e.g. "127.0.0.1:9229"; HOST must be a loopback address or
 "localhost" (which listens on 127.0.0.1), and may be empty ("127.0.0.1"). PORT 0 picks a free port. NULL or an
 empty string means "127.0.0.1:9229", Node's default.
@param port If not NULL, receives the port listened on (useful with PORT 0). Unchanged on failure.
@param errorBuffer If not NULL, receives a NUL-terminated message saying why the call failed (an empty string on
 success), truncated to errorBufferSize bytes including the NUL. Owned by the caller.
@param errorBufferSize The size of errorBuffer in bytes; 0 means no message is written.
@result kZJSInspectorEndpointOK, or the reason it did not start (nothing is listening then).
@discussion Clients find the targets at http://HOST:PORT/json/list; /json/version and /json/protocol are served
 too. A worker is listed from the moment its thread starts until it ends; a session whose worker ends receives
 Inspector.detached, and its WebSocket is closed with status 1000.

 Thread: any.
*/
JSWORKER_EXPORT ZJSInspectorEndpointResult ZJSInspectorEndpointStart(const char *address, uint16_t *port,
                                                                     char *errorBuffer, size_t errorBufferSize);

/*!
@function
@abstract Stops the process's DevTools endpoint (jsworker extension).
@discussion Closes the listener and every WebSocket; each session is detached from its worker, which goes on
 running. Returns once every connection has ended. Does nothing when the endpoint is not running. Call it before
 unloading the library; the endpoint may be started again afterwards.

 Thread: any.
*/
JSWORKER_EXPORT void ZJSInspectorEndpointStop(void);


#ifdef __cplusplus
}
#endif

#endif /* JSWORKER_H */
