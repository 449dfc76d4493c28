/*
 * capi.h - the C side of package capi's cgo preamble. It is not the public header (include/jsworker.h is).
 *
 * The Go exports take and return handles as uintptr_t, not as the public header's opaque pointer types: the values
 * are the same integers and the calling convention of uintptr_t and of a pointer is the same on every platform cgo
 * supports, but a uintptr never looks like a pointer to Go's garbage collector (RATIONALE.md, "## C ABI"). Because
 * the two declarations differ, this file must not include jsworker.h. The structs below mirror the public ones field
 * for field; tests/c/abi_test.c checks their layout from the host's side.
 */
#ifndef JSWORKER_CAPI_H
#define JSWORKER_CAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uintptr_t jsw_handle;

/* jsw_owner, when not 0, is who the calling thread acts for: the owner of a worker context (a negative id) while the
 * library calls the host on the worker's behalf (tid.go, workerctx.go). It is set and restored around each such call,
 * inside one cgo call, so a goroutine worker that moves between OS threads between two callbacks is followed. */
extern __thread int jsw_owner;
/* JSW_AS runs stmt with the thread acting for owner (0: unchanged). */
#define JSW_AS(owner, stmt)                                                                                            \
    do {                                                                                                               \
        int jsw_prev_ = jsw_owner;                                                                                     \
        if ((owner) != 0) jsw_owner = (owner);                                                                         \
        stmt;                                                                                                          \
        jsw_owner = jsw_prev_;                                                                                         \
    } while (0)

/* JSObjectCallAsFunctionCallback. */
typedef jsw_handle (*jsw_host_fn)(jsw_handle ctx, jsw_handle function, jsw_handle thisObject, size_t argumentCount,
                                  const jsw_handle *arguments, jsw_handle *exception);

/* jsw_call_host_fn calls a host function: Go cannot call a C function pointer directly. */
static inline jsw_handle jsw_call_host_fn(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle function, jsw_handle thisObject,
                                          size_t argc, const jsw_handle *argv, jsw_handle *exception) {
    jsw_handle r;
    JSW_AS(owner, r = ((jsw_host_fn)fn)(ctx, function, thisObject, argc, argv, exception));
    return r;
}

/* ZJSWorkerNotifyCallback. */
typedef void (*jsw_notify_fn)(jsw_handle worker, void *userData);

static inline void jsw_call_notify(uintptr_t fn, jsw_handle worker, uintptr_t userData) {
    ((jsw_notify_fn)fn)(worker, (void *)userData);
}

/* ZJSShouldTerminateCallback. */
typedef bool (*jsw_should_terminate_fn)(jsw_handle ctx, void *userData);

static inline bool jsw_call_should_terminate(uintptr_t fn, jsw_handle ctx, uintptr_t userData) {
    return ((jsw_should_terminate_fn)fn)(ctx, (void *)userData);
}

/* ZJSInspectorMessageCallback. */
typedef void (*jsw_inspector_fn)(const char *message, size_t length, void *userData);

/* jsw_call_inspector hands one inspector message to the host's callback. message is Go memory holding length bytes
 * and a NUL; the callback gets a NUL-terminated copy in C memory, freed when it returns, so that a host keeping the
 * pointer reads freed C memory (which ASan and valgrind report) and never Go memory. If the copy cannot be allocated,
 * the callback gets the Go bytes themselves, which stay valid for the duration of the call (the cgo rules allow it). */
static inline void jsw_call_inspector(uintptr_t fn, const char *message, size_t length, uintptr_t userData) {
    char *copy = (char *)malloc(length + 1);
    if (copy != NULL) {
        memcpy(copy, message, length);
        copy[length] = '\0';
        message = copy;
    }
    ((jsw_inspector_fn)fn)(message, length, (void *)userData);
    free(copy);
}

/* ZJSErrorInfo. */
typedef struct jsw_error_info {
    size_t size;
    int kind;
    const char *name;
    const char *message;
    const char *stack;
    const char *filename;
    unsigned line;
    unsigned column;
} jsw_error_info;

/* ZJSWorkerErrorCallback. */
typedef void (*jsw_error_fn)(jsw_handle worker, const jsw_error_info *error, void *userData);

static inline void jsw_call_error(uintptr_t fn, jsw_handle worker, const jsw_error_info *error, uintptr_t userData) {
    ((jsw_error_fn)fn)(worker, error, (void *)userData);
}

/* ZJSWorkerSetupCallback (workerctx.go), called acting for the worker context's owner. */
static inline bool jsw_call_setup(int owner, uintptr_t fn, jsw_handle ctx, uintptr_t userData, jsw_handle *exception) {
    bool r;
    JSW_AS(owner, r = ((bool (*)(jsw_handle, void *, jsw_handle *))fn)(ctx, (void *)userData, exception));
    return r;
}

/* ZJSConsoleCallback (console.go). */
static inline void jsw_call_console(int owner, uintptr_t fn, jsw_handle ctx, int level, const char *message,
                                    size_t length, uintptr_t userData) {
    JSW_AS(owner, ((void (*)(jsw_handle, int, const char *, size_t, void *))fn)(ctx, level, message, length,
                                                                               (void *)userData));
}

/* ZJSChannelLimits and ZJSWorkerOptions. */
typedef struct jsw_channel_limits {
    size_t maxMessageBytes;
    size_t maxQueuedBytes;
    size_t maxQueuedMessages;
} jsw_channel_limits;

typedef struct jsw_worker_options {
    size_t size;
    jsw_channel_limits inbox;
    jsw_channel_limits outbox;
    const char *name;
    const char *filename;
    size_t maxCallStackSize;
    bool dedicatedThread;
    bool inspectable;
    uintptr_t errorCallback;
    uintptr_t errorUserData;
    bool waitForDebugger;
    double executionTimeLimit;
    uintptr_t setup;
    uintptr_t setupUserData;
    uintptr_t consoleCallback;
    uintptr_t consoleUserData;
    size_t maxHeapBytes;
} jsw_worker_options;

/* ZJSInspectorTargetInfo. */
typedef struct jsw_target_info {
    uint64_t id;
    int kind;
    int state;
} jsw_target_info;

/* JSTypedArrayBytesDeallocator. */
typedef void (*jsw_dealloc_fn)(void *bytes, void *deallocatorContext);

static inline void jsw_call_dealloc(uintptr_t fn, uintptr_t bytes, uintptr_t deallocatorContext) {
    ((jsw_dealloc_fn)fn)((void *)bytes, (void *)deallocatorContext);
}

/* JSClassDefinition, JSStaticValue, JSStaticFunction (class.go). Callbacks are kept as integers. */
typedef struct jsw_static_value {
    const char *name;
    uintptr_t getProperty;
    uintptr_t setProperty;
    unsigned attributes;
} jsw_static_value;

typedef struct jsw_static_function {
    const char *name;
    uintptr_t callAsFunction;
    unsigned attributes;
} jsw_static_function;

typedef struct jsw_class_definition {
    int version;
    unsigned attributes;
    const char *className;
    jsw_handle parentClass;
    const jsw_static_value *staticValues;
    const jsw_static_function *staticFunctions;
    uintptr_t initialize;
    uintptr_t finalize;
    uintptr_t hasProperty;
    uintptr_t getProperty;
    uintptr_t setProperty;
    uintptr_t deleteProperty;
    uintptr_t getPropertyNames;
    uintptr_t callAsFunction;
    uintptr_t callAsConstructor;
    uintptr_t hasInstance;
    uintptr_t convertToType;
} jsw_class_definition;

/* The class callbacks: Go cannot call a C function pointer directly. */
static inline void jsw_call_initialize(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle object) {
    JSW_AS(owner, ((void (*)(jsw_handle, jsw_handle))fn)(ctx, object));
}
static inline void jsw_call_finalize(int owner, uintptr_t fn, jsw_handle object) {
    JSW_AS(owner, ((void (*)(jsw_handle))fn)(object));
}
static inline bool jsw_call_has(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle object, jsw_handle name) {
    bool r;
    JSW_AS(owner, r = ((bool (*)(jsw_handle, jsw_handle, jsw_handle))fn)(ctx, object, name));
    return r;
}
static inline jsw_handle jsw_call_get(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle object, jsw_handle name,
                                      jsw_handle *exception) {
    jsw_handle r;
    JSW_AS(owner, r = ((jsw_handle(*)(jsw_handle, jsw_handle, jsw_handle, jsw_handle *))fn)(ctx, object, name, exception));
    return r;
}
static inline bool jsw_call_set(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle object, jsw_handle name, jsw_handle value,
                                jsw_handle *exception) {
    bool r;
    JSW_AS(owner, r = ((bool (*)(jsw_handle, jsw_handle, jsw_handle, jsw_handle, jsw_handle *))fn)(ctx, object, name, value,
                                                                                       exception));
    return r;
}
static inline bool jsw_call_delete(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle object, jsw_handle name,
                                   jsw_handle *exception) {
    bool r;
    JSW_AS(owner, r = ((bool (*)(jsw_handle, jsw_handle, jsw_handle, jsw_handle *))fn)(ctx, object, name, exception));
    return r;
}
static inline void jsw_call_names(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle object, jsw_handle accumulator) {
    JSW_AS(owner, ((void (*)(jsw_handle, jsw_handle, jsw_handle))fn)(ctx, object, accumulator));
}
static inline jsw_handle jsw_call_construct(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle constructor, size_t argc,
                                            const jsw_handle *argv, jsw_handle *exception) {
    jsw_handle r;
    JSW_AS(owner, r = ((jsw_handle(*)(jsw_handle, jsw_handle, size_t, const jsw_handle *, jsw_handle *))fn)(
        ctx, constructor, argc, argv, exception));
    return r;
}
static inline bool jsw_call_has_instance(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle constructor, jsw_handle instance,
                                         jsw_handle *exception) {
    bool r;
    JSW_AS(owner, r = ((bool (*)(jsw_handle, jsw_handle, jsw_handle, jsw_handle *))fn)(ctx, constructor, instance, exception));
    return r;
}
static inline jsw_handle jsw_call_convert(int owner, uintptr_t fn, jsw_handle ctx, jsw_handle object, int type,
                                          jsw_handle *exception) {
    jsw_handle r;
    JSW_AS(owner, r = ((jsw_handle(*)(jsw_handle, jsw_handle, int, jsw_handle *))fn)(ctx, object, type, exception));
    return r;
}

#endif
