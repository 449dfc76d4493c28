/*
 * bytes_test.c - JSTypedArray.h: typed arrays and ArrayBuffers made from C, over the library's memory and over the
 * host's (NoCopy), read and written from both sides; every getter; the deallocator count (exactly once, on the
 * owner thread: when the collector drops the buffer, at the latest when the context is released, at once when the
 * call fails); and misuse: NULL, stale and foreign-thread handles, wrong kinds (a typed-array call on a plain object
 * answers a TypeError, never a crash), bad type codes.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* exc_has reports whether exc is an exception whose string form contains text. */
static int exc_has(JSContextRef ctx, JSValueRef exc, const char *text) {
    return exc != NULL && strstr(value_text(ctx, exc), text) != NULL;
}

/* A host buffer with a deallocation record. */
struct hostbuf {
    int frees;
    pthread_t thread;
    void *seen;
};

static void count_free(void *bytes, void *context) {
    struct hostbuf *hb = context;
    hb->frees++;
    hb->thread = pthread_self();
    hb->seen = bytes;
}

static void test_library_memory(JSGlobalContextRef ctx) {
    JSValueRef exc = NULL;
    JSObjectRef ta = JSObjectMakeTypedArray(ctx, kJSTypedArrayTypeInt32Array, 4, &exc);
    check(ta != NULL && exc == NULL, "JSObjectMakeTypedArray(Int32Array, 4)");
    check(JSValueGetTypedArrayType(ctx, ta, NULL) == kJSTypedArrayTypeInt32Array, "its type is Int32Array");
    check(JSObjectGetTypedArrayLength(ctx, ta, NULL) == 4, "length 4");
    check(JSObjectGetTypedArrayByteLength(ctx, ta, NULL) == 16, "byteLength 16");
    check(JSObjectGetTypedArrayByteOffset(ctx, ta, NULL) == 0, "byteOffset 0");
    int32_t *p = JSObjectGetTypedArrayBytesPtr(ctx, ta, NULL);
    check(p != NULL && p[0] == 0 && p[3] == 0, "its bytes are zero-filled");
    p[2] = 42;
    JSStringRef name = str("ta");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), name, ta, 0, NULL);
    JSStringRelease(name);
    JSValueRef v = eval(ctx, "ta[2]");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 42, "JavaScript sees what C wrote: ta[2] = %s",
          value_text(ctx, v));
    eval(ctx, "ta[1] = -7");
    check(p[1] == -7, "C sees what JavaScript wrote: p[1] = %d", p[1]);

    JSObjectRef buf = JSObjectGetTypedArrayBuffer(ctx, ta, NULL);
    check(buf != NULL && JSValueGetTypedArrayType(ctx, buf, NULL) == kJSTypedArrayTypeArrayBuffer,
          "JSObjectGetTypedArrayBuffer returns an ArrayBuffer");
    check(JSObjectGetArrayBufferByteLength(ctx, buf, NULL) == 16, "of 16 bytes");
    check(JSObjectGetArrayBufferBytesPtr(ctx, buf, NULL) == (void *)p, "at the same address");

    exc = NULL;
    JSObjectRef view = JSObjectMakeTypedArrayWithArrayBufferAndOffset(ctx, kJSTypedArrayTypeUint8Array, buf, 8, 4,
                                                                      &exc);
    check(view != NULL && exc == NULL, "a Uint8Array over bytes 8..12 of it");
    check(JSObjectGetTypedArrayByteOffset(ctx, view, NULL) == 8 && JSObjectGetTypedArrayLength(ctx, view, NULL) == 4,
          "byteOffset 8, length 4");
    check(JSObjectGetTypedArrayBytesPtr(ctx, view, NULL) == (void *)p,
          "JSObjectGetTypedArrayBytesPtr returns the start of the buffer, not of the view (as JSC)");
    uint8_t *b = (uint8_t *)JSObjectGetTypedArrayBytesPtr(ctx, view, NULL) + JSObjectGetTypedArrayByteOffset(ctx, view, NULL);
    check(b[0] == 42, "the view's first byte is p[2]'s low byte");

    JSObjectRef whole = JSObjectMakeTypedArrayWithArrayBuffer(ctx, kJSTypedArrayTypeFloat64Array, buf, NULL);
    check(whole != NULL && JSObjectGetTypedArrayLength(ctx, whole, NULL) == 2, "a Float64Array over all of it");

    exc = NULL;
    check(JSObjectMakeTypedArrayWithArrayBufferAndOffset(ctx, kJSTypedArrayTypeInt32Array, buf, 2, 1, &exc) == NULL &&
              exc_has(ctx, exc, "RangeError"),
          "a misaligned offset is a RangeError: %s", value_text(ctx, exc));
    exc = NULL;
    check(JSObjectMakeTypedArrayWithArrayBufferAndOffset(ctx, kJSTypedArrayTypeUint8Array, buf, 8, 100, &exc) == NULL &&
              exc_has(ctx, exc, "RangeError"),
          "a range beyond the buffer is a RangeError: %s", value_text(ctx, exc));

    static const JSTypedArrayType all[] = {
        kJSTypedArrayTypeInt8Array,    kJSTypedArrayTypeInt16Array,   kJSTypedArrayTypeInt32Array,
        kJSTypedArrayTypeUint8Array,   kJSTypedArrayTypeUint8ClampedArray, kJSTypedArrayTypeUint16Array,
        kJSTypedArrayTypeUint32Array,  kJSTypedArrayTypeFloat32Array, kJSTypedArrayTypeFloat64Array,
        kJSTypedArrayTypeBigInt64Array, kJSTypedArrayTypeBigUint64Array};
    static const size_t sizes[] = {1, 2, 4, 1, 1, 2, 4, 4, 8, 8, 8};
    int good = 1;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        JSObjectRef t = JSObjectMakeTypedArray(ctx, all[i], 3, NULL);
        good &= t != NULL && JSValueGetTypedArrayType(ctx, t, NULL) == all[i] &&
                JSObjectGetTypedArrayByteLength(ctx, t, NULL) == 3 * sizes[i];
    }
    check(good, "every JSTypedArrayType (BigInt64/BigUint64 included) makes and reports its own type");
    v = eval(ctx, "new BigUint64Array([1n, 2n**64n - 1n])");
    check(JSValueGetTypedArrayType(ctx, v, NULL) == kJSTypedArrayTypeBigUint64Array,
          "a BigUint64Array made by JavaScript reports its type");
    uint64_t *u = JSObjectGetTypedArrayBytesPtr(ctx, (JSObjectRef)v, NULL);
    check(u != NULL && u[1] == UINT64_MAX, "and C reads its elements");
    v = eval(ctx, "new Uint8ClampedArray(2)");
    check(JSValueGetTypedArrayType(ctx, v, NULL) == kJSTypedArrayTypeUint8ClampedArray,
          "Uint8ClampedArray is told apart from Uint8Array");
}

static void test_nocopy(void) {
    static int32_t words[8];
    struct hostbuf hb = {0};
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSValueRef exc = NULL;
    JSObjectRef ta = JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeInt32Array, words, sizeof words,
                                                           count_free, &hb, &exc);
    check(ta != NULL && exc == NULL, "JSObjectMakeTypedArrayWithBytesNoCopy over 8 host words");
    check(JSObjectGetTypedArrayBytesPtr(ctx, ta, NULL) == words, "its bytes are the host's (no copy)");
    JSStringRef name = str("host");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), name, ta, 0, NULL);
    JSStringRelease(name);
    words[5] = 1234;
    JSValueRef v = eval(ctx, "host[5]");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 1234, "JavaScript reads the host's memory");
    eval(ctx, "host.fill(9, 0, 2)");
    check(words[0] == 9 && words[1] == 9 && words[2] == 0, "JavaScript writes the host's memory");
    check(hb.frees == 0, "the deallocator has not run while the buffer is in use");
    JSGlobalContextRelease(ctx);
    check(hb.frees == 1 && pthread_equal(hb.thread, pthread_self()) && hb.seen == words,
          "JSGlobalContextRelease runs the deallocator exactly once, on the owner thread, with the bytes (%d)",
          hb.frees);

    /* An ArrayBuffer over host memory, dropped by JavaScript: the collector reports it. */
    enum { N = 64 };
    static uint8_t blocks[N][16];
    static struct hostbuf hbs[N];
    memset(hbs, 0, sizeof hbs);
    ctx = JSGlobalContextCreate(NULL);
    for (int i = 0; i < N; i++) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, blocks[i], sizeof blocks[i], count_free, &hbs[i],
                                                                NULL);
        if (i == 0) {
            check(ab != NULL && JSObjectGetArrayBufferBytesPtr(ctx, ab, NULL) == blocks[0] &&
                      JSObjectGetArrayBufferByteLength(ctx, ab, NULL) == 16,
                  "JSObjectMakeArrayBufferWithBytesNoCopy: the host's 16 bytes");
        }
        ZJSHandleScopeClose(ctx, scope); /* nothing refers to the buffer any more */
    }
    int freed = 0;
    double deadline = now_ms() + 20000;
    while (freed == 0 && now_ms() < deadline) {
        JSGarbageCollect(ctx);
        freed = 0;
        for (int i = 0; i < N; i++) {
            freed += hbs[i].frees;
        }
    }
    check(freed > 0, "the collector found dropped NoCopy buffers: %d of %d deallocated before the release", freed, N);
    JSGlobalContextRelease(ctx);
    int once = 1;
    for (int i = 0; i < N; i++) {
        once &= hbs[i].frees == 1 && pthread_equal(hbs[i].thread, pthread_self());
    }
    check(once, "after the release every one of them was deallocated exactly once, on the owner thread");

    /* A failed NoCopy call gives the memory back at once. */
    ctx = JSGlobalContextCreate(NULL);
    struct hostbuf bad = {0};
    exc = NULL;
    check(JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeInt32Array, words, 6, count_free, &bad, &exc) ==
                  NULL &&
              exc_has(ctx, exc, "RangeError") && bad.frees == 1,
          "a byteLength that is not a whole number of elements: RangeError and the deallocator ran at once (%s)",
          value_text(ctx, exc));
    bad.frees = 0;
    exc = NULL;
    check(JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeInt32Array, (char *)words + 1, 8, count_free,
                                                &bad, &exc) == NULL &&
              exc_has(ctx, exc, "aligned") && bad.frees == 1,
          "misaligned host memory: refused, deallocated at once");
    bad.frees = 0;
    exc = NULL;
    check(JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeNone, words, 8, count_free, &bad, &exc) ==
                  NULL &&
              exc != NULL && bad.frees == 1,
          "kJSTypedArrayTypeNone: refused, deallocated at once");
    JSGlobalContextRelease(ctx);
    check(bad.frees == 1, "and never again");
}

/* Misuse from another thread. */
struct foreign {
    JSGlobalContextRef ctx;
    JSObjectRef ta;
    int refusedPtr, refusedLen, refusedMake;
};

static void *foreign_thread(void *arg) {
    struct foreign *f = arg;
    f->refusedPtr = JSObjectGetTypedArrayBytesPtr(f->ctx, f->ta, NULL) == NULL;
    f->refusedLen = JSObjectGetTypedArrayLength(f->ctx, f->ta, NULL) == 0;
    f->refusedMake = JSObjectMakeTypedArray(f->ctx, kJSTypedArrayTypeUint8Array, 4, NULL) == NULL;
    return NULL;
}

static void test_misuse(JSGlobalContextRef ctx) {
    JSObjectRef plain = JSObjectMake(ctx, NULL, NULL);
    JSValueRef exc = NULL;
    check(JSObjectGetTypedArrayBytesPtr(ctx, plain, &exc) == NULL && exc_has(ctx, exc, "TypeError") &&
              exc_has(ctx, exc, "not a typed array"),
          "JSObjectGetTypedArrayBytesPtr on a plain object: NULL and %s", value_text(ctx, exc));
    exc = NULL;
    check(JSObjectGetTypedArrayLength(ctx, plain, &exc) == 0 && exc_has(ctx, exc, "TypeError"),
          "JSObjectGetTypedArrayLength on a plain object: 0 and a TypeError");
    exc = NULL;
    check(JSObjectGetTypedArrayByteLength(ctx, plain, &exc) == 0 && exc_has(ctx, exc, "TypeError"),
          "JSObjectGetTypedArrayByteLength: the same");
    exc = NULL;
    check(JSObjectGetTypedArrayByteOffset(ctx, plain, &exc) == 0 && exc_has(ctx, exc, "TypeError"),
          "JSObjectGetTypedArrayByteOffset: the same");
    exc = NULL;
    check(JSObjectGetTypedArrayBuffer(ctx, plain, &exc) == NULL && exc_has(ctx, exc, "TypeError"),
          "JSObjectGetTypedArrayBuffer: the same");
    exc = NULL;
    check(JSObjectGetArrayBufferBytesPtr(ctx, plain, &exc) == NULL && exc_has(ctx, exc, "not an ArrayBuffer"),
          "JSObjectGetArrayBufferBytesPtr on a plain object: NULL and %s", value_text(ctx, exc));
    exc = NULL;
    check(JSObjectGetArrayBufferByteLength(ctx, plain, &exc) == 0 && exc_has(ctx, exc, "TypeError"),
          "JSObjectGetArrayBufferByteLength: the same");
    JSObjectRef ta = JSObjectMakeTypedArray(ctx, kJSTypedArrayTypeUint8Array, 4, NULL);
    exc = NULL;
    check(JSObjectGetArrayBufferBytesPtr(ctx, ta, &exc) == NULL && exc != NULL,
          "an ArrayBuffer call on a typed array is a wrong kind too");
    exc = NULL;
    check(JSObjectMakeTypedArrayWithArrayBuffer(ctx, kJSTypedArrayTypeUint8Array, ta, &exc) == NULL &&
              exc_has(ctx, exc, "not an ArrayBuffer"),
          "JSObjectMakeTypedArrayWithArrayBuffer over a typed array: refused");
    exc = NULL;
    check(JSObjectMakeTypedArray(ctx, kJSTypedArrayTypeArrayBuffer, 4, &exc) == NULL && exc != NULL,
          "JSObjectMakeTypedArray(kJSTypedArrayTypeArrayBuffer): NULL and an exception");
    exc = NULL;
    check(JSObjectMakeTypedArray(ctx, (JSTypedArrayType)99, 4, &exc) == NULL && exc != NULL,
          "an unknown type code: NULL and an exception");
    JSValueRef num = JSValueMakeNumber(ctx, 1);
    check(JSValueGetTypedArrayType(ctx, num, NULL) == kJSTypedArrayTypeNone, "a number is kJSTypedArrayTypeNone");
    check(JSValueGetTypedArrayType(ctx, plain, NULL) == kJSTypedArrayTypeNone, "a plain object too");
    exc = NULL;
    check(JSObjectGetTypedArrayLength(ctx, (JSObjectRef)num, &exc) == 0 && exc != NULL,
          "a primitive as the object: 0 and an exception");
    exc = NULL;
    check(JSObjectGetTypedArrayLength(ctx, NULL, &exc) == 0 && exc_has(ctx, exc, "NULL"),
          "a NULL object: 0 and %s", value_text(ctx, exc));
    exc = NULL;
    check(JSValueGetTypedArrayType(ctx, NULL, &exc) == kJSTypedArrayTypeNone && exc != NULL,
          "JSValueGetTypedArrayType(NULL): None and an exception");
    check(JSObjectGetTypedArrayLength(NULL, ta, NULL) == 0 && JSObjectMakeTypedArray(NULL, 0, 1, NULL) == NULL,
          "a NULL context: 0/NULL");
    ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
    JSObjectRef gone = JSObjectMakeTypedArray(ctx, kJSTypedArrayTypeUint8Array, 4, NULL);
    ZJSHandleScopeClose(ctx, scope);
    exc = NULL;
    check(JSObjectGetTypedArrayBytesPtr(ctx, gone, &exc) == NULL && exc_has(ctx, exc, "no live handle"),
          "a stale typed array: NULL and %s", value_text(ctx, exc));

    /* A detached buffer reads as empty. */
    JSValueRef d = eval(ctx, "var dab = new ArrayBuffer(8); var dta = new Uint8Array(dab); "
                             "structuredClone(dab, {transfer: [dab]}); dta");
    exc = NULL;
    check(d != NULL && JSObjectGetTypedArrayLength(ctx, (JSObjectRef)d, &exc) == 0 && exc == NULL &&
              JSObjectGetTypedArrayBytesPtr(ctx, (JSObjectRef)d, NULL) == NULL,
          "a view of a detached buffer: length 0, no bytes, no exception");

    struct foreign f = {.ctx = ctx, .ta = ta};
    pthread_t t;
    pthread_create(&t, NULL, foreign_thread, &f);
    pthread_join(t, NULL);
    check(f.refusedPtr && f.refusedLen && f.refusedMake, "another thread's context and typed array are refused");
}

/* A heap buffer whose deallocator frees it (so that ASan sees any later use) and counts, from any thread. */
struct heapbuf {
    int frees; /* atomic */
    void *seen;
};

static void free_heap(void *bytes, void *context) {
    struct heapbuf *hb = context;
    __atomic_store_n(&hb->seen, bytes, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&hb->frees, 1, __ATOMIC_SEQ_CST);
    free(bytes);
}

/* wait_frees collects until the deallocator ran or 20 s passed; returns the count. */
static int wait_frees(struct heapbuf *hb) {
    for (int i = 0; i < 20000 && __atomic_load_n(&hb->frees, __ATOMIC_SEQ_CST) == 0; i++) {
        JSGarbageCollect(NULL);
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL); /* gives the collector's cleanups time to run; orders nothing */
    }
    return __atomic_load_n(&hb->frees, __ATOMIC_SEQ_CST);
}

/* A NoCopy buffer transferred by a script to itself (structuredClone), by the host to a worker, and by the
 * worker's script back: no copy anywhere, and the deallocator runs exactly once, after the last use. */
static void test_transfer(void) {
    struct heapbuf hb = {0};
    uint8_t *mem = calloc(1, 16);
    mem[2] = 7;
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, mem, 16, free_heap, &hb, NULL);
    JSStringRef name = str("ab");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), name, ab, 0, NULL);
    JSStringRelease(name);
    JSValueRef c = eval(ctx, "var c = structuredClone(ab, {transfer: [ab]}); ab = null; c");
    check(c != NULL && JSObjectGetArrayBufferByteLength(ctx, ab, NULL) == 0,
          "structuredClone with the NoCopy buffer in its transfer list detaches it");
    check(c != NULL && JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)c, NULL) == mem,
          "the clone is the host's memory, not a copy");
    check(__atomic_load_n(&hb.frees, __ATOMIC_SEQ_CST) == 0, "no deallocation while the clone holds the memory");

    JSWorkerRef w = new_worker("onmessage = (e) => { const u = new Uint8Array(e.data); u[3] = u[2] + 1; "
                               "postMessage(e.data, [e.data]); u[4] = 1; };");
    JSValueRef exc = NULL;
    JSValueRef list[1] = {c};
    check(ZJSWorkerPostMessageWithTransfer(w, ctx, c, 1, list, &exc) && exc == NULL,
          "ZJSWorkerPostMessageWithTransfer transfers the clone of a NoCopy buffer: %s", value_text(ctx, exc));
    check(JSObjectGetArrayBufferByteLength(ctx, (JSObjectRef)c, NULL) == 0, "the host's buffer is detached");
    eval(ctx, "c = null");
    JSGarbageCollect(ctx);
    JSValueRef v = JSWorkerReceive(w, ctx, 20000, &exc);
    check(v != NULL && JSValueGetTypedArrayType(ctx, v, NULL) == kJSTypedArrayTypeArrayBuffer &&
              JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)v, NULL) == mem && mem[3] == 8,
          "the worker wrote the host's memory and its script transferred it back without a copy");
    check(__atomic_load_n(&hb.frees, __ATOMIC_SEQ_CST) == 0, "no deallocation while the host holds it again");
    JSWorkerRelease(w);
    JSGlobalContextRelease(ctx);
    int frees = wait_frees(&hb);
    check(frees == 1 && hb.seen == mem, "after the last realm dropped it the deallocator ran exactly once (%d)", frees);
    JSGarbageCollect(NULL);
    check(__atomic_load_n(&hb.frees, __ATOMIC_SEQ_CST) == 1, "and never again");
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_library_memory(ctx);
    test_misuse(ctx);
    JSGlobalContextRelease(ctx);
    test_nocopy();
    test_transfer();
    return check_done();
}
