/*
 * cdemo - the `make run` demo: a C host that starts four JavaScript workers, gives each a slice of a job (count the
 * primes below 100,000), collects their answers and waits for them to close. Every worker also adds its count to one
 * SharedArrayBuffer counter with Atomics.add: the only memory the workers share. It uses only include/jsworker.h.
 *
 * Build: make run (or cmake, see CMakeLists.txt). Each worker runs on its own thread with its own realm; the host
 * talks to them only by posting copies of values.
 */
#define _POSIX_C_SOURCE 200809L
#include "jsworker.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WORKERS 4
#define SPAN 25000

/* The worker script: count the primes in [from, to), reply, close. */
static const char *workerSource =
    "function isPrime(n) {\n"
    "  if (n < 2) return false;\n"
    "  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;\n"
    "  return true;\n"
    "}\n"
    "onmessage = function (e) {\n"
    "  const { from, to } = e.data;\n"
    "  const started = performance.now();\n"
    "  let primes = 0;\n"
    "  for (let n = from; n < to; n++) if (isPrime(n)) primes++;\n"
    "  Atomics.add(new Int32Array(e.data.counter), 0, primes); // shared with the host and the other workers\n"
    "  postMessage({ worker: name, from, to, primes, ms: +(performance.now() - started).toFixed(2) });\n"
    "  close();\n"
    "};\n";

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* get reads a property of an object as a number. */
static double get(JSContextRef ctx, JSValueRef obj, const char *name) {
    JSStringRef key = JSStringCreateWithUTF8CString(name);
    JSValueRef v = JSObjectGetProperty(ctx, (JSObjectRef)obj, key, NULL);
    JSStringRelease(key);
    return JSValueToNumber(ctx, v, NULL);
}

/* set writes a number property. */
static void set(JSContextRef ctx, JSObjectRef obj, const char *name, double value) {
    JSStringRef key = JSStringCreateWithUTF8CString(name);
    JSObjectSetProperty(ctx, obj, key, JSValueMakeNumber(ctx, value), kJSPropertyAttributeNone, NULL);
    JSStringRelease(key);
}

/* eval runs a script in ctx and returns its value, or NULL (with *exception set) if it threw. */
static JSValueRef eval(JSContextRef ctx, const char *script, JSValueRef *exception) {
    JSStringRef src = JSStringCreateWithUTF8CString(script);
    JSValueRef v = JSEvaluateScript(ctx, src, NULL, NULL, 0, exception);
    JSStringRelease(src);
    return v;
}

/* print_error prints an exception and returns 1. */
static int print_error(JSContextRef ctx, const char *what, JSValueRef exception) {
    char buf[512] = "(no exception)";
    JSStringRef s = exception ? JSValueToStringCopy(ctx, exception, NULL) : NULL;
    if (s) {
        JSStringGetUTF8CString(s, buf, sizeof buf);
        JSStringRelease(s);
    }
    fprintf(stderr, "cdemo: %s: %s\n", what, buf);
    return 1;
}

int main(void) {
    printf("jsworker %s (header %s): %d workers count the primes below %d\n", ZJSGetVersionString(),
           JSWORKER_VERSION_STRING, WORKERS, WORKERS * SPAN);
    double start = now_ms();
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSStringRef source = JSStringCreateWithUTF8CString(workerSource);
    JSWorkerRef workers[WORKERS];
    int status = 0;
    JSValueRef exception = NULL;
    JSValueRef counter = eval(ctx, "globalThis.counter = new SharedArrayBuffer(4)", &exception);
    if (counter == NULL) {
        return print_error(ctx, "SharedArrayBuffer", exception);
    }
    JSStringRef counterKey = JSStringCreateWithUTF8CString("counter");

    for (int i = 0; i < WORKERS; i++) {
        char name[32];
        snprintf(name, sizeof name, "primes-%d", i + 1);
        ZJSWorkerOptions options = {.size = sizeof options, .name = name};
        JSStringRef why = NULL;
        workers[i] = ZJSWorkerCreateWithOptions(source, &options, &why);
        if (workers[i] == NULL) {
            char buf[512];
            JSStringGetUTF8CString(why, buf, sizeof buf);
            fprintf(stderr, "cdemo: %s\n", buf);
            return 1;
        }
        ZJSInspectorTargetInfo info;
        ZJSWorkerGetInspectorTargetInfo(workers[i], &info);
        JSObjectRef job = JSObjectMake(ctx, NULL, NULL);
        set(ctx, job, "from", i * SPAN);
        set(ctx, job, "to", (i + 1) * SPAN);
        JSObjectSetProperty(ctx, job, counterKey, counter, kJSPropertyAttributeNone, NULL); /* shared, not copied */
        if (!JSWorkerPostMessage(workers[i], ctx, job, &exception)) {
            return print_error(ctx, "post", exception);
        }
        printf("main -> %s (worker id %llu): count primes in [%d, %d)\n", name, (unsigned long long)info.id,
               i * SPAN, (i + 1) * SPAN);
    }
    JSStringRelease(source);
    JSStringRelease(counterKey);

    long total = 0;
    JSStringRef workerKey = JSStringCreateWithUTF8CString("worker");
    for (int i = 0; i < WORKERS; i++) {
        JSValueRef exception = NULL;
        JSValueRef reply = JSWorkerReceive(workers[i], ctx, 30000, &exception);
        if (reply == NULL) {
            status = print_error(ctx, "receive", exception);
            continue;
        }
        char name[64] = "?";
        JSStringRef s = JSValueToStringCopy(ctx, JSObjectGetProperty(ctx, (JSObjectRef)reply, workerKey, NULL), NULL);
        JSStringGetUTF8CString(s, name, sizeof name);
        JSStringRelease(s);
        long primes = (long)get(ctx, reply, "primes");
        total += primes;
        printf("%s -> main: %ld primes in [%.0f, %.0f), computed in %.2f ms on its own thread\n", name, primes,
               get(ctx, reply, "from"), get(ctx, reply, "to"), get(ctx, reply, "ms"));
    }
    JSStringRelease(workerKey);

    for (int i = 0; i < WORKERS; i++) {
        JSValueRef exception = NULL;
        JSValueRef extra = JSWorkerReceive(workers[i], ctx, 30000, &exception); /* NULL once it has closed */
        ZJSInspectorTargetInfo info;
        ZJSWorkerGetInspectorTargetInfo(workers[i], &info);
        if (extra != NULL || info.state != kZJSInspectorTargetStateClosed) {
            fprintf(stderr, "cdemo: worker %d did not close (state %d)\n", i + 1, (int)info.state);
            status = 1;
        }
        JSWorkerRelease(workers[i]);
    }
    printf("all %d workers closed themselves\n", WORKERS);
    long shared = (long)JSValueToNumber(ctx, eval(ctx, "Atomics.load(new Int32Array(counter), 0)", NULL), NULL);
    printf("the SharedArrayBuffer counter the workers added to with Atomics.add reads %ld\n", shared);
    if (shared != total) {
        fprintf(stderr, "cdemo: the shared counter (%ld) disagrees with the replies (%ld)\n", shared, total);
        status = 1;
    }
    JSGlobalContextRelease(ctx);

    printf("%ld primes below %d, %d workers in parallel, %.0f ms in all\n", total, WORKERS * SPAN, WORKERS,
           now_ms() - start);
    if (total != 9592) { /* pi(10^5) */
        fprintf(stderr, "cdemo: expected 9592 primes\n");
        status = 1;
    }
    return status;
}
