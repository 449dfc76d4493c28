/*
 * capi_hostapi_bench - workers a host builds on (issue 15), medians of runs (default 5), `make bench-c`:
 *   - 16 MiB from C into a worker: JSObjectMakeArrayBufferWithBytesNoCopy + ZJSWorkerPostMessageWithTransfer (the
 *     host's cost), and the round trip until the worker answered its byteLength;
 *   - a native function installed by a setup callback, called from worker JavaScript, beside a plain JS call;
 *   - a C producer thread feeding a worker through a SharedArrayBuffer ring buffer (ZJSAtomicsNotify), items/s;
 *   - spawn -> first message with a setup callback and without.
 * Not run by `make test`.
 *
 *   capi_hostapi_bench [runs [transfer|native|ring|spawn]]
 */
#define _POSIX_C_SOURCE 200809L
#include "jsworker.h"

#include <pthread.h>
#include <stdbool.h>
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

/* ---- SAB ring buffer ----
 *
 * The ring as a host would build it: Int32 words [HEAD, TAIL, SLEEPING, pad] then CAP item slots. The C producer
 * writes up to CHUNK items (as many as there is room for), then publishes them with one store of HEAD; it calls
 * ZJSAtomicsNotify only when the consumer said it is about to sleep (SLEEPING, seq_cst on both sides: the consumer
 * sets it and then re-reads HEAD, the producer stores HEAD and then reads it, so one of them sees the other). The
 * worker reads HEAD once per batch and consumes every item available, in contiguous runs of at most 4096 (the ring
 * wraps), storing TAIL after each run so the producer refills behind it; it waits in Atomics.wait only when the ring
 * is empty. Item i is the number i: the consumer
 * checks that each item is the next in sequence and sums them; the host checks count, order and sum. */

enum { HEAD = 0, TAIL = 1, SLEEPING = 2, SLOTS = 4, CAP = 1 << 16, CHUNK = 4096, WORDS = SLOTS + CAP, ITEMS = 4000000 };

static void *produce(void *arg) {
    int32_t *ring = arg;
    int32_t head = 0;
    while (head < ITEMS) {
        int32_t tail = __atomic_load_n(&ring[TAIL], __ATOMIC_ACQUIRE);
        int32_t room = CAP - (head - tail);
        if (room == 0) {
            sched_yield(); /* full: the consumer is behind */
            continue;
        }
        int32_t n = room < ITEMS - head ? room : ITEMS - head;
        if (n > CHUNK) n = CHUNK; /* publish every CHUNK items: the consumer starts on them while we write more */
        for (int32_t k = 0; k < n; k++) {
            ring[SLOTS + ((head + k) & (CAP - 1))] = head + k;
        }
        head += n;
        __atomic_store_n(&ring[HEAD], head, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&ring[SLEEPING], __ATOMIC_SEQ_CST)) {
            ZJSAtomicsNotify(&ring[HEAD], SIZE_MAX);
        }
    }
    return NULL;
}

/* The consumer: one batch per HEAD read. onmessage gets the SharedArrayBuffer and answers
 * [items, mismatches, sum, waits, batches]; with e.data.floor it runs the same loops over a ring already full,
 * without a producer or Atomics: the cost of consuming in goja alone. */
static const char *const consumer =
    "function consume(ia, from, to, expect) { // items ia[from..to) must be expect, expect+1, ...\n"
    "  let bad = 0, sum = 0;\n"
    "  for (let j = from; j < to; j++) { const v = ia[j]; if (v !== expect) bad++; sum += v; expect++; }\n"
    "  return [bad, sum];\n"
    "}\n"
    "onmessage = (e) => {\n"
    "  const ia = new Int32Array(e.data.sab), S = 4, CAP = 1 << 16, N = e.data.items;\n"
    "  let tail = 0, bad = 0, sum = 0, waits = 0, batches = 0;\n"
    "  while (tail < N) {\n"
    "    let head = e.data.floor ? Math.min(tail + CAP, N) : Atomics.load(ia, 0);\n"
    "    if (head === tail) {\n"
    "      Atomics.store(ia, 2, 1);\n"
    "      if (Atomics.load(ia, 0) === tail) { waits++; Atomics.wait(ia, 0, tail, 1000); }\n"
    "      Atomics.store(ia, 2, 0);\n"
    "      continue;\n"
    "    }\n"
    "    batches++;\n"
    "    while (tail < head) { // runs of at most 4096 items, contiguous in the ring; TAIL after each frees room\n"
    "      const at = tail & (CAP - 1), n = Math.min(head - tail, CAP - at, 4096);\n"
    "      const r = consume(ia, S + at, S + at + n, e.data.floor ? S + at : tail);\n"
    "      bad += r[0]; sum += r[1]; tail += n;\n"
    "      if (!e.data.floor) Atomics.store(ia, 1, tail);\n"
    "    }\n"
    "  }\n"
    "  postMessage([tail, bad, sum, waits, batches]);\n"
    "};";

/* ring_run posts the ring (or, floor, a full ring without a producer) and returns M items/s, checking the answer. */
static double ring_run(JSContextRef ctx, JSWorkerRef w, bool floor, double *waits, double *batches) {
    JSObjectRef sab = ZJSSharedArrayBufferCreate(ctx, WORDS * 4, NULL);
    int32_t *ring = ZJSSharedArrayBufferGetBytesPtr(ctx, sab, NULL, NULL);
    if (ring == NULL) die("ring setup failed");
    for (int i = 0; floor && i < CAP; i++) ring[SLOTS + i] = SLOTS + i; /* the floor run checks ia[j] === j */
    JSStringRef k1 = JSStringCreateWithUTF8CString("sab"), k2 = JSStringCreateWithUTF8CString("items"),
                k3 = JSStringCreateWithUTF8CString("floor");
    JSObjectRef msg = JSObjectMake(ctx, NULL, NULL);
    JSObjectSetProperty(ctx, msg, k1, sab, 0, NULL);
    JSObjectSetProperty(ctx, msg, k2, JSValueMakeNumber(ctx, ITEMS), 0, NULL);
    JSObjectSetProperty(ctx, msg, k3, JSValueMakeBoolean(ctx, floor), 0, NULL);
    JSStringRelease(k1), JSStringRelease(k2), JSStringRelease(k3);
    double t0 = now_ms();
    if (!JSWorkerPostMessage(w, ctx, msg, NULL)) die("ring post failed");
    pthread_t t;
    if (!floor) pthread_create(&t, NULL, produce, ring);
    JSValueRef v = JSWorkerReceive(w, ctx, 120000, NULL);
    double ms = now_ms() - t0;
    if (!floor) pthread_join(t, NULL);
    if (v == NULL) die("the consumer did not answer");
    double got[5];
    for (int i = 0; i < 5; i++) {
        char k[2] = {(char)('0' + i), 0};
        JSStringRef ks = JSStringCreateWithUTF8CString(k);
        got[i] = JSValueToNumber(ctx, JSObjectGetProperty(ctx, (JSObjectRef)v, ks, NULL), NULL);
        JSStringRelease(ks);
    }
    double want = floor ? 0 : (double)ITEMS * (ITEMS - 1) / 2;
    if (got[0] != ITEMS || got[1] != 0 || (!floor && got[2] != want)) {
        fprintf(stderr, "capi_hostapi_bench: ring: %.0f items, %.0f out of order, sum %.0f (want %.0f)\n", got[0],
                got[1], got[2], want);
        exit(1);
    }
    *waits = got[3];
    *batches = got[4];
    return ITEMS / ms / 1e3;
}

static void bench_ring(JSContextRef ctx, int runs) {
    JSWorkerRef w = worker(consumer, NULL);
    double rate[MAX_RUNS], floorRate[MAX_RUNS], waits[MAX_RUNS], batches[MAX_RUNS], x, y;
    for (int r = 0; r < runs; r++) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        rate[r] = ring_run(ctx, w, false, &waits[r], &batches[r]);
        floorRate[r] = ring_run(ctx, w, true, &x, &y);
        ZJSHandleScopeClose(ctx, scope);
    }
    JSWorkerRelease(w);
    printf("hostapi sab_ring_M_items_per_s       %.2f (C producer thread -> worker consumer, %d items in order, "
           "median %.0f batches, %.0f waits; the same consumer over a full ring, no producer: %.2f)\n",
           median(rate, runs), ITEMS, median(batches, runs), median(waits, runs), median(floorRate, runs));
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
    const char *only = argc > 2 ? argv[2] : ""; /* "transfer", "native", "ring" or "spawn": that one alone */
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    if (!*only || !strcmp(only, "transfer")) bench_transfer(ctx, runs);
    if (!*only || !strcmp(only, "native")) bench_native(ctx, runs);
    if (!*only || !strcmp(only, "ring")) bench_ring(ctx, runs);
    if (!*only || !strcmp(only, "spawn")) bench_spawn(ctx, runs);
    JSGlobalContextRelease(ctx);
    return 0;
}
