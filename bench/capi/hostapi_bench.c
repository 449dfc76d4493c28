/*
 * capi_hostapi_bench - workers a host builds on (issue 15), medians of runs (default 5), `make bench-c`:
 *   - 16 MiB from C into a worker: JSObjectMakeArrayBufferWithBytesNoCopy + ZJSWorkerPostMessageWithTransfer (the
 *     host's cost), and the round trip until the worker answered its byteLength;
 *   - a native function installed by a setup callback, called from worker JavaScript, beside a plain JS call;
 *   - a C producer thread feeding a worker through a SharedArrayBuffer ring buffer (ZJSAtomicsNotify), items/s;
 *   - spawn -> first message with a setup callback and without.
 * Not run by `make test`.
 *
 *   capi_hostapi_bench [runs]
 */
#define _POSIX_C_SOURCE 200809L
#include "jsworker.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 25

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp);
    return v[n / 2];
}

static void die(const char *what) {
    fprintf(stderr, "capi_hostapi_bench: %s\n", what);
    exit(1);
}

static JSWorkerRef worker(const char *src, const ZJSWorkerOptions *o) {
    JSStringRef s = JSStringCreateWithUTF8CString(src);
    JSWorkerRef w = o ? ZJSWorkerCreateWithOptions(s, o, NULL) : JSWorkerCreate(s);
    JSStringRelease(s);
    if (w == NULL) die("worker creation failed");
    return w;
}

/* ---- 16 MiB NoCopy + transfer ---- */

static void noop_free(void *bytes, void *context) {
    (void)bytes;
    __atomic_add_fetch((int *)context, 1, __ATOMIC_SEQ_CST);
}

static void bench_transfer(JSContextRef ctx, int runs) {
    enum { MIB = 16, REPS = 50 };
    size_t n = (size_t)MIB << 20;
    unsigned char *mem = malloc(n);
    memset(mem, 1, n);
    JSWorkerRef w = worker("onmessage = (e) => postMessage(e.data.byteLength)", NULL);
    double post[MAX_RUNS], rtt[MAX_RUNS];
    int frees = 0;
    for (int r = 0; r < runs; r++) {
        double pt = 0, t0 = now_ms();
        for (int i = 0; i < REPS; i++) {
            double p0 = now_ms();
            JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, mem, n, noop_free, &frees, NULL);
            JSValueRef list[1] = {ab};
            if (!ZJSWorkerPostMessageWithTransfer(w, ctx, ab, 1, list, NULL)) die("transfer failed");
            pt += now_ms() - p0;
            JSValueRef v = JSWorkerReceive(w, ctx, 20000, NULL);
            if (v == NULL || JSValueToNumber(ctx, v, NULL) != (double)n) die("the worker did not get 16 MiB");
        }
        post[r] = pt / REPS;
        rtt[r] = (now_ms() - t0) / REPS;
    }
    JSWorkerRelease(w);
    printf("hostapi nocopy_transfer_16MiB_ms    %.4f (make + post; round trip to the worker's answer %.3f ms)\n",
           median(post, runs), median(rtt, runs));
    free(mem); /* every view was transferred away and the worker is gone: no realm reads it */
}

/* ---- a native called from worker JavaScript ---- */

static JSValueRef nop(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                      const JSValueRef argv[], JSValueRef *exception) {
    (void)ctx, (void)function, (void)thisObject, (void)argc, (void)argv, (void)exception;
    return NULL;
}

static bool setup_nop(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    (void)userData, (void)exception;
    JSStringRef n = JSStringCreateWithUTF8CString("nativeNop");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, JSObjectMakeFunctionWithCallback(ctx, n, nop), 0,
                        NULL);
    JSStringRelease(n);
    return true;
}

static void bench_native(JSContextRef ctx, int runs) {
    ZJSWorkerOptions o = {.size = sizeof o, .setup = setup_nop};
    JSWorkerRef w = worker("function jsNop() {}\n"
                           "onmessage = () => { const N = 1000000;\n"
                           "  let t = performance.now(); for (let i = 0; i < N; i++) nativeNop(i);\n"
                           "  const nat = (performance.now() - t) * 1e6 / N;\n"
                           "  t = performance.now(); for (let i = 0; i < N; i++) jsNop(i);\n"
                           "  const js = (performance.now() - t) * 1e6 / N;\n"
                           "  postMessage([nat, js]); };",
                           &o);
    double nat[MAX_RUNS], js[MAX_RUNS];
    JSStringRef zero = JSStringCreateWithUTF8CString("0"), one = JSStringCreateWithUTF8CString("1");
    for (int r = 0; r < runs; r++) {
        if (!JSWorkerPostMessage(w, ctx, JSValueMakeNull(ctx), NULL)) die("post failed");
        JSValueRef v = JSWorkerReceive(w, ctx, 60000, NULL);
        if (v == NULL) die("no answer");
        nat[r] = JSValueToNumber(ctx, JSObjectGetProperty(ctx, (JSObjectRef)v, zero, NULL), NULL);
        js[r] = JSValueToNumber(ctx, JSObjectGetProperty(ctx, (JSObjectRef)v, one, NULL), NULL);
    }
    JSStringRelease(zero);
    JSStringRelease(one);
    JSWorkerRelease(w);
    printf("hostapi worker_native_call_ns        %.1f (plain JS call %.1f ns)\n", median(nat, runs), median(js, runs));
}

/* ---- SAB ring buffer ---- */

enum { CAP = 4096, SLOTS = 4, WORDS = SLOTS + CAP, ITEMS = 2000000 };

static void *produce(void *arg) {
    int32_t *ring = arg;
    for (int i = 0; i < ITEMS; i++) {
        while (i - __atomic_load_n(&ring[1], __ATOMIC_ACQUIRE) >= CAP) sched_yield();
        ring[SLOTS + i % CAP] = i & 1023;
        __atomic_store_n(&ring[0], i + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&ring[2], __ATOMIC_SEQ_CST)) ZJSAtomicsNotify(&ring[0], SIZE_MAX);
    }
    while (__atomic_load_n(&ring[1], __ATOMIC_ACQUIRE) < ITEMS) {
        ZJSAtomicsNotify(&ring[0], SIZE_MAX);
        sched_yield();
    }
    return NULL;
}

static void bench_ring(JSContextRef ctx, int runs) {
    JSWorkerRef w = worker("onmessage = (e) => {\n"
                           "  const ia = new Int32Array(e.data), cap = 4096; let tail = 0, sum = 0;\n"
                           "  Atomics.store(ia, 1, 0);\n"
                           "  while (tail < 2000000) {\n"
                           "    const head = Atomics.load(ia, 0);\n"
                           "    if (head === tail) { Atomics.store(ia, 2, 1);\n"
                           "      if (Atomics.load(ia, 0) === tail) Atomics.wait(ia, 0, tail, 10000);\n"
                           "      Atomics.store(ia, 2, 0); continue; }\n"
                           "    for (; tail < head; tail++) sum += ia[4 + (tail & 4095)];\n"
                           "    Atomics.store(ia, 1, tail);\n"
                           "  }\n"
                           "  postMessage(sum); };",
                           NULL);
    double rate[MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        JSObjectRef sab = ZJSSharedArrayBufferCreate(ctx, WORDS * 4, NULL);
        int32_t *ring = ZJSSharedArrayBufferGetBytesPtr(ctx, sab, NULL, NULL);
        if (ring == NULL || !JSWorkerPostMessage(w, ctx, sab, NULL)) die("ring setup failed");
        double t0 = now_ms();
        pthread_t t;
        pthread_create(&t, NULL, produce, ring);
        JSValueRef v = JSWorkerReceive(w, ctx, 120000, NULL);
        double ms = now_ms() - t0;
        pthread_join(t, NULL);
        if (v == NULL) die("the consumer did not answer");
        rate[r] = ITEMS / ms / 1e3;
    }
    JSWorkerRelease(w);
    printf("hostapi sab_ring_M_items_per_s       %.2f (C producer thread -> worker consumer, %d items)\n",
           median(rate, runs), ITEMS);
}

/* ---- spawn -> first message, with and without a setup ---- */

static double spawn_first_ms(JSContextRef ctx, const ZJSWorkerOptions *o) {
    double t0 = now_ms();
    JSWorkerRef w = worker("postMessage(typeof nativeNop)", o);
    JSValueRef v = JSWorkerReceive(w, ctx, 20000, NULL);
    double ms = now_ms() - t0;
    if (v == NULL) die("no first message");
    JSWorkerRelease(w);
    return ms;
}

static void bench_spawn(JSContextRef ctx, int runs) {
    enum { N = 20 };
    ZJSWorkerOptions with = {.size = sizeof with, .setup = setup_nop}, without = {.size = sizeof without};
    double a[MAX_RUNS], b[MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        double ta = 0, tb = 0;
        for (int i = 0; i < N; i++) {
            tb += spawn_first_ms(ctx, &without);
            ta += spawn_first_ms(ctx, &with);
        }
        a[r] = ta / N;
        b[r] = tb / N;
    }
    printf("hostapi spawn_first_message_ms       %.3f with a setup callback, %.3f without\n", median(a, runs),
           median(b, runs));
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1 || runs > MAX_RUNS) runs = 5;
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    bench_transfer(ctx, runs);
    bench_native(ctx, runs);
    bench_ring(ctx, runs);
    bench_spawn(ctx, runs);
    JSGlobalContextRelease(ctx);
    return 0;
}
