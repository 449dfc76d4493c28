/*
 * capi_bench - jsworker's benchmarks through the C API (`make bench-c`), beside Node's worker_threads figures in
 * docs/benchmarks.md. Not run by `make test`.
 *
 *   capi_bench [runs]            spawn -> first message, round trip, one-way messages/s; median of runs (default 5)
 *   capi_load_bench LIBPATH      one fresh-process measurement of dlopen + the first call (make bench-c runs it 5x);
 *                                the same file built with JSWORKER_LOAD_ONLY and not linked with the library
 *
 * Each run reports the mean of its iterations (as Go's benchmarks do); the summary is the median of the runs.
 */
#define _POSIX_C_SOURCE 200809L
#include "jsworker.h"
#include "bench_common.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#ifndef JSWORKER_LOAD_ONLY
#define MAX_RUNS 25
#define SPAWNS 200
#define ROUND_TRIPS 20000
#define ONE_WAY 200000

static void die(const char *what) {
    fprintf(stderr, "capi_bench: %s failed\n", what);
    exit(1);
}

/* spawn_ms: JSWorkerCreate of `postMessage("ready")`, receive the message, release; mean ms per worker. */
static double spawn_ms(JSContextRef ctx) {
    JSStringRef src = JSStringCreateWithUTF8CString("postMessage('ready')");
    double t0 = now_ms();
    for (int i = 0; i < SPAWNS; i++) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        JSWorkerRef w = JSWorkerCreate(src);
        if (w == NULL || JSWorkerReceive(w, ctx, kJSWorkerWaitForever, NULL) == NULL) {
            die("spawn");
        }
        JSWorkerRelease(w);
        ZJSHandleScopeClose(ctx, scope);
    }
    double ms = (now_ms() - t0) / SPAWNS;
    JSStringRelease(src);
    return ms;
}

/* rtt_us: post a number, the worker posts it back, receive it; one at a time; mean µs per round trip. */
static double rtt_us(JSContextRef ctx) {
    JSStringRef src = JSStringCreateWithUTF8CString("onmessage = (e) => postMessage(e.data);");
    JSWorkerRef w = JSWorkerCreate(src);
    JSStringRelease(src);
    double t0 = 0;
    for (int i = -1000; i < ROUND_TRIPS; i++) { /* 1000 warm-up round trips */
        if (i == 0) {
            t0 = now_ms();
        }
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        if (!JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, i), NULL) ||
            JSWorkerReceive(w, ctx, kJSWorkerWaitForever, NULL) == NULL) {
            die("round trip");
        }
        ZJSHandleScopeClose(ctx, scope);
    }
    double us = (now_ms() - t0) * 1000 / ROUND_TRIPS;
    JSWorkerRelease(w);
    return us;
}

/* one_way_per_s: post {i, s: "hello"} ONE_WAY times as fast as possible (queues raised so the sender never waits,
 * like Node's unbounded ports); the worker replies once it has them all. Messages per second. */
static double one_way_per_s(JSContextRef ctx) {
    char script[256];
    snprintf(script, sizeof script,
             "let n = 0; onmessage = (e) => { if (e.data.s === 'hello' && ++n === %d) postMessage(n); };", ONE_WAY);
    JSStringRef src = JSStringCreateWithUTF8CString(script);
    ZJSWorkerOptions o = {.size = sizeof o, .inbox = {.maxQueuedMessages = 4 << 20, .maxQueuedBytes = 1u << 30}};
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &o, NULL);
    JSStringRelease(src);
    JSStringRef iKey = JSStringCreateWithUTF8CString("i"), sKey = JSStringCreateWithUTF8CString("s");
    JSStringRef hello = JSStringCreateWithUTF8CString("hello");
    JSObjectRef msg = JSObjectMake(ctx, NULL, NULL);
    JSObjectSetProperty(ctx, msg, sKey, JSValueMakeString(ctx, hello), 0, NULL);
    double t0 = now_ms();
    for (int i = 0; i < ONE_WAY; i += 1000) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        for (int j = i; j < i + 1000; j++) {
            JSObjectSetProperty(ctx, msg, iKey, JSValueMakeNumber(ctx, j), 0, NULL);
            if (!JSWorkerPostMessage(w, ctx, msg, NULL)) {
                die("one-way post");
            }
        }
        ZJSHandleScopeClose(ctx, scope);
    }
    if (JSWorkerReceive(w, ctx, kJSWorkerWaitForever, NULL) == NULL) {
        die("one-way reply");
    }
    double per_s = ONE_WAY / ((now_ms() - t0) / 1000);
    JSWorkerRelease(w);
    JSStringRelease(iKey);
    JSStringRelease(sKey);
    JSStringRelease(hello);
    return per_s;
}

/* one_way_batch_per_s: one_way_per_s with ZJSWorkerPostMessages, 1000 messages per call: 1000 {i, s} objects made
 * once, each chunk sets their i and posts them in one call. Messages per second. */
static double one_way_batch_per_s(JSContextRef ctx) {
    char script[256];
    snprintf(script, sizeof script,
             "let n = 0; onmessage = (e) => { if (e.data.s === 'hello' && ++n === %d) postMessage(n); };", ONE_WAY);
    JSStringRef src = JSStringCreateWithUTF8CString(script);
    ZJSWorkerOptions o = {.size = sizeof o, .inbox = {.maxQueuedMessages = 4 << 20, .maxQueuedBytes = 1u << 30}};
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &o, NULL);
    JSStringRelease(src);
    JSStringRef iKey = JSStringCreateWithUTF8CString("i"), sKey = JSStringCreateWithUTF8CString("s");
    JSStringRef hello = JSStringCreateWithUTF8CString("hello");
    static JSValueRef msgs[1000];
    for (int j = 0; j < 1000; j++) {
        JSObjectRef m = JSObjectMake(ctx, NULL, NULL);
        JSObjectSetProperty(ctx, m, sKey, JSValueMakeString(ctx, hello), 0, NULL);
        msgs[j] = m;
    }
    double t0 = now_ms();
    for (int i = 0; i < ONE_WAY; i += 1000) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        for (int j = 0; j < 1000; j++) {
            JSObjectSetProperty(ctx, (JSObjectRef)msgs[j], iKey, JSValueMakeNumber(ctx, i + j), 0, NULL);
        }
        if (ZJSWorkerPostMessages(w, ctx, 1000, msgs, NULL) != 1000) {
            die("one-way batch post");
        }
        ZJSHandleScopeClose(ctx, scope);
    }
    if (JSWorkerReceive(w, ctx, kJSWorkerWaitForever, NULL) == NULL) {
        die("one-way batch reply");
    }
    double per_s = ONE_WAY / ((now_ms() - t0) / 1000);
    JSWorkerRelease(w);
    JSStringRelease(iKey);
    JSStringRelease(sKey);
    JSStringRelease(hello);
    return per_s;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1 || runs > MAX_RUNS) {
        runs = 5;
    }
    double spawn[MAX_RUNS], rtt[MAX_RUNS], oneway[MAX_RUNS], batch[MAX_RUNS];
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    for (int r = 0; r < runs; r++) {
        spawn[r] = spawn_ms(ctx);
        rtt[r] = rtt_us(ctx);
        oneway[r] = one_way_per_s(ctx);
        batch[r] = one_way_batch_per_s(ctx);
        printf("run %d: spawn->first message %.3f ms, round trip %.2f us, one way %.0f msg/s, batched %.0f msg/s\n",
               r + 1, spawn[r], rtt[r], oneway[r], batch[r]);
        fflush(stdout);
    }
    JSGlobalContextRelease(ctx);
    printf("median of %d: spawn->first message %.3f ms, round trip %.2f us, one way %.0f msg/s, batched %.0f msg/s\n",
           runs, median(spawn, runs), median(rtt, runs), median(oneway, runs), median(batch, runs));
    return 0;
}
#else /* JSWORKER_LOAD_ONLY */

/* usage_now is the process's CPU time (user + system, all threads) in ms and its minor page faults so far. */
static void usage_now(double *cpu_ms, long *faults) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    *faults = ru.ru_minflt;
}

/* thread_cpu_ms is the calling thread's CPU time in ms: what the host thread itself ran (a cgo call runs the Go side on
 * it), without the library's other threads. */
static double thread_cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* load: dlopen the library, then the first call (which waits for the Go runtime to finish starting), then the
 * first worker's reply: a context, JSWorkerCreate of `postMessage('ready')`, JSWorkerReceive of its message. Every
 * entry point is looked up with dlsym, as a host that loads the library at run time does. Besides the wall-clock
 * phases it prints the CPU time and the minor page faults of the process from dlopen to the reply (in a process
 * that only does this, the CPU time is what the library costs whatever else runs on the machine), and the host
 * thread's own CPU time in the context and in all: the work on the critical path, which the library's goroutines
 * on other threads (its probes) do not add to. */
static int load(const char *path) {
    double cpu0, cpu1;
    long flt0, flt1, flt_load;
    usage_now(&cpu0, &flt0);
    double tc0 = thread_cpu_ms();
    double t0 = now_ms();
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    double t1 = now_ms();
    if (lib == NULL) {
        fprintf(stderr, "capi_bench: %s\n", dlerror());
        return 1;
    }
    int (*version)(void);
    JSGlobalContextRef (*ctxCreate)(JSClassRef);
    JSStringRef (*strCreate)(const char *);
    JSWorkerRef (*workerCreate)(JSStringRef);
    JSValueRef (*receive)(JSWorkerRef, JSContextRef, uint64_t, JSValueRef *);
    void (*workerRelease)(JSWorkerRef);
    *(void **)&version = dlsym(lib, "ZJSGetVersionNumber");
    *(void **)&ctxCreate = dlsym(lib, "JSGlobalContextCreate");
    *(void **)&strCreate = dlsym(lib, "JSStringCreateWithUTF8CString");
    *(void **)&workerCreate = dlsym(lib, "JSWorkerCreate");
    *(void **)&receive = dlsym(lib, "JSWorkerReceive");
    *(void **)&workerRelease = dlsym(lib, "JSWorkerRelease");
    if (!version || !ctxCreate || !strCreate || !workerCreate || !receive || !workerRelease) {
        fprintf(stderr, "capi_bench: a C API entry point is missing\n");
        return 1;
    }
    int v = version();
    double t2 = now_ms();
    usage_now(&cpu1, &flt_load);
    double cpu_load = cpu1 - cpu0;
    double tc2 = thread_cpu_ms();
    JSGlobalContextRef ctx = ctxCreate(NULL);
    double t3 = now_ms();
    double tc3 = thread_cpu_ms();
    JSWorkerRef w = workerCreate(strCreate("postMessage('ready')"));
    JSValueRef reply = w == NULL ? NULL : receive(w, ctx, kJSWorkerWaitForever, NULL);
    double t4 = now_ms();
    double tc4 = thread_cpu_ms();
    usage_now(&cpu1, &flt1);
    if (reply == NULL) {
        fprintf(stderr, "capi_bench: the first worker did not reply\n");
        return 1;
    }
    workerRelease(w);
    printf("load: dlopen %.2f ms, first call %.2f ms, total %.2f ms (version %d); context %.2f ms, "
           "first worker reply %.2f ms; dlopen to first reply %.2f ms; cpu %.2f ms (load %.2f ms), "
           "minor faults %ld (load %ld); host thread cpu %.2f ms (context %.2f ms)\n",
           t1 - t0, t2 - t1, t2 - t0, v, t3 - t2, t4 - t3, t4 - t0, cpu1 - cpu0, cpu_load, flt1 - flt0,
           flt_load - flt0, tc4 - tc0, tc3 - tc2);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: capi_load_bench /path/to/libjsworker.so\n");
        return 2;
    }
    return load(argv[1]);
}

#endif /* JSWORKER_LOAD_ONLY */
