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
#define JSWORKER_VERSION_MINOR 1
#define JSWORKER_VERSION_PATCH 0
#define JSWORKER_VERSION_NUMBER 1000
#define JSWORKER_VERSION_STRING "0.1.0"

/*
 * Threads.
 *
 * The library is not thread-safe except where stated otherwise: unless a function's @discussion says it may be
 * called from any thread, call it only from the thread that owns the objects it is given. The owner-thread rules
 * for each kind of object are specified with the objects themselves.
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

#ifdef __cplusplus
}
#endif

#endif /* JSWORKER_H */
