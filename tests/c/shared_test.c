/*
 * shared_test.c - memory shared with C: ZJSSharedArrayBufferCreate, ZJSSharedArrayBufferCreateWithBytesNoCopy,
 * ZJSSharedArrayBufferGetBytesPtr and ZJSAtomicsNotify. A C producer thread feeds a worker through a
 * SharedArrayBuffer ring buffer (C atomics on one side, Atomics.wait on the other, ZJSAtomicsNotify to wake it);
 * the NoCopy deallocator runs exactly once, after the last realm dropped the buffer; misuse (NULL, a plain
 * ArrayBuffer, misaligned memory) is refused.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The ring: int32 words. [0] head (the producer's count), [1] tail (the consumer's), [2] consumer waiting,
 * [RING_SLOTS_AT..] the slots. */
enum { RING_CAP = 1024, RING_SLOTS_AT = 4, RING_WORDS = RING_SLOTS_AT + RING_CAP };

struct producer {
    int32_t *ring;
    int items;
    long notified;
};

static void *produce(void *arg) {
    struct producer *p = arg;
    int32_t *head = &p->ring[0], *tail = &p->ring[1], *waiting = &p->ring[2];
    for (int i = 0; i < p->items; i++) {
        while (i - __atomic_load_n(tail, __ATOMIC_ACQUIRE) >= RING_CAP) {
            sched_yield(); /* full: the consumer catches up */
        }
        p->ring[RING_SLOTS_AT + i % RING_CAP] = i + 1;
        __atomic_store_n(head, i + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(waiting, __ATOMIC_SEQ_CST)) {
            p->notified += (long)ZJSAtomicsNotify(head, SIZE_MAX);
        }
    }
    /* The consumer may have gone to sleep after the last check: wake it until it is done. */
    while (__atomic_load_n(tail, __ATOMIC_ACQUIRE) < p->items) {
        ZJSAtomicsNotify(head, SIZE_MAX);
        sched_yield();
    }
    return NULL;
}

static const char *consumer =
    "onmessage = (e) => {"
    "  const ia = new Int32Array(e.data.sab); const n = e.data.items; const cap = 1024;"
    "  let tail = 0, sum = 0, waits = 0;"
    "  while (tail < n) {"
    "    let head = Atomics.load(ia, 0);"
    "    if (head === tail) {"
    "      Atomics.store(ia, 2, 1);"
    "      head = Atomics.load(ia, 0);"
    "      if (head === tail) { Atomics.wait(ia, 0, head, 10000); waits++; }"
    "      Atomics.store(ia, 2, 0);"
    "      continue;"
    "    }"
    "    for (; tail < head; tail++) sum += ia[4 + (tail % cap)];"
    "    Atomics.store(ia, 1, tail);"
    "  }"
    "  postMessage({sum, waits});"
    "};";

static void test_ring(JSGlobalContextRef ctx, int items) {
    JSValueRef exc = NULL;
    JSObjectRef sab = ZJSSharedArrayBufferCreate(ctx, RING_WORDS * 4, &exc);
    size_t len = 0;
    int32_t *ring = ZJSSharedArrayBufferGetBytesPtr(ctx, sab, &len, &exc);
    check(sab != NULL && ring != NULL && len == RING_WORDS * 4 && ((uintptr_t)ring % 8) == 0 && ring[0] == 0,
          "ZJSSharedArrayBufferCreate: %zu zeroed, 8-byte aligned bytes", len);
    JSStringRef name = str("sab");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), name, sab, 0, NULL);
    JSStringRelease(name);
    char src[64];
    snprintf(src, sizeof src, "({sab, items: %d})", items);
    JSValueRef msg = eval(ctx, src);
    JSWorkerRef w = new_worker(consumer);
    check(JSWorkerPostMessage(w, ctx, msg, &exc), "the SharedArrayBuffer is posted to the consumer worker");
    struct producer p = {.ring = ring, .items = items};
    double t0 = now_ms();
    pthread_t t;
    pthread_create(&t, NULL, produce, &p);
    JSValueRef v = JSWorkerReceive(w, ctx, 60000, &exc);
    double ms = now_ms() - t0;
    pthread_join(t, NULL);
    JSStringRef sumName = str("sum"), waitsName = str("waits");
    double sum = v ? JSValueToNumber(ctx, JSObjectGetProperty(ctx, (JSObjectRef)v, sumName, NULL), NULL) : -1;
    double waits = v ? JSValueToNumber(ctx, JSObjectGetProperty(ctx, (JSObjectRef)v, waitsName, NULL), NULL) : -1;
    JSStringRelease(sumName);
    JSStringRelease(waitsName);
    double want = (double)items * (items + 1) / 2;
    check(sum == want, "the worker consumed every item the C thread produced (sum %.0f, want %.0f)", sum, want);
    printf("info %d items in %.1f ms: %.2f M items/s; the consumer waited %.0f times, ZJSAtomicsNotify woke %ld\n",
           items, ms, items / ms / 1e3, waits, p.notified);
    JSWorkerRelease(w);
}

struct freed {
    int count; /* atomic */
    void *bytes;
};

static void free_aligned(void *bytes, void *context) {
    struct freed *f = context;
    f->bytes = bytes;
    __atomic_add_fetch(&f->count, 1, __ATOMIC_SEQ_CST);
    free(bytes);
}

static void test_nocopy(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    struct freed f = {0};
    void *mem = NULL;
    check(posix_memalign(&mem, 8, 64) == 0, "64 host bytes");
    memset(mem, 0, 64);
    JSValueRef exc = NULL;
    JSObjectRef sab = ZJSSharedArrayBufferCreateWithBytesNoCopy(ctx, mem, 64, free_aligned, &f, &exc);
    size_t len = 0;
    check(sab != NULL && ZJSSharedArrayBufferGetBytesPtr(ctx, sab, &len, NULL) == mem && len == 64,
          "ZJSSharedArrayBufferCreateWithBytesNoCopy: the host's memory, no copy");
    JSStringRef name = str("hs");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), name, sab, 0, NULL);
    JSStringRelease(name);
    JSValueRef r = eval(ctx, "hs instanceof SharedArrayBuffer && (new Int32Array(hs)[3] = 77, true)");
    check(r != NULL && JSValueToBoolean(ctx, r) && ((int32_t *)mem)[3] == 77, "JavaScript writes the host's memory");
    JSWorkerRef w = new_worker("onmessage = (e) => { const ia = new Int32Array(e.data); ia[4] = ia[3] + 1; "
                               "postMessage(ia[4]); }");
    check(JSWorkerPostMessage(w, ctx, sab, &exc), "posted to a worker (shared, not copied)");
    JSValueRef v = JSWorkerReceive(w, ctx, 20000, &exc);
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 78 && ((int32_t *)mem)[4] == 78,
          "the worker wrote the same host memory");
    check(__atomic_load_n(&f.count, __ATOMIC_SEQ_CST) == 0, "no deallocation while realms hold it");
    JSWorkerRelease(w);

    /* Misuse. */
    JSObjectRef plain = JSObjectMakeTypedArray(ctx, kJSTypedArrayTypeUint8Array, 4, NULL);
    exc = NULL;
    check(ZJSSharedArrayBufferGetBytesPtr(ctx, JSObjectGetTypedArrayBuffer(ctx, plain, NULL), &len, &exc) == NULL &&
              exc != NULL && len == 0,
          "an ArrayBuffer is not a SharedArrayBuffer: NULL and %s", value_text(ctx, exc));
    exc = NULL;
    check(ZJSSharedArrayBufferGetBytesPtr(ctx, NULL, NULL, &exc) == NULL && exc != NULL, "a NULL buffer: NULL");
    check(ZJSSharedArrayBufferGetBytesPtr(NULL, sab, NULL, NULL) == NULL, "a NULL context: NULL");
    struct freed bad = {0};
    void *odd = NULL;
    check(posix_memalign(&odd, 8, 16) == 0, "16 more host bytes");
    exc = NULL;
    check(ZJSSharedArrayBufferCreateWithBytesNoCopy(ctx, (char *)odd + 4, 8, NULL, NULL, &exc) == NULL && exc != NULL,
          "misaligned memory: refused with %s", value_text(ctx, exc));
    free(odd);
    void *more = malloc(8);
    exc = NULL;
    check(ZJSSharedArrayBufferCreateWithBytesNoCopy(NULL, more, 8, free_aligned, &bad, &exc) == NULL &&
              __atomic_load_n(&bad.count, __ATOMIC_SEQ_CST) == 1,
          "a NULL context: refused, the memory given back at once");
    check(ZJSAtomicsNotify(NULL, SIZE_MAX) == 0 && ZJSAtomicsNotify(&bad, 1) == 0,
          "ZJSAtomicsNotify of an address in no SharedArrayBuffer wakes nobody");

    JSGlobalContextRelease(ctx);
    for (int i = 0; i < 20000 && __atomic_load_n(&f.count, __ATOMIC_SEQ_CST) == 0; i++) {
        JSGarbageCollect(NULL);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL); /* gives the collector's cleanups time to run; orders nothing */
    }
    check(__atomic_load_n(&f.count, __ATOMIC_SEQ_CST) == 1 && f.bytes == mem,
          "after the last realm let go, the deallocator ran exactly once");
}

int main(int argc, char **argv) {
    int items = argc > 1 ? atoi(argv[1]) : 200000;
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_ring(ctx, items);
    JSGlobalContextRelease(ctx);
    test_nocopy();
    return check_done();
}
