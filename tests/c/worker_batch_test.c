/*
 * worker_batch_test.c - the batch calls through the C ABI: ZJSWorkerPostMessages and ZJSWorkerReceiveMessages
 * (order, partial batches at a full queue, a bad handle posting nothing, NULL arrays, timeouts, a drained worker,
 * another thread's worker) and ZJSSetGCPercent from any thread.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

#include <pthread.h>
#include <stdint.h>

static const char *doubler = "onmessage = (e) => postMessage(e.data * 2);";

static int exception_contains(JSContextRef ctx, JSValueRef exc, const char *text) {
    return exc != NULL && strstr(value_text(ctx, exc), text) != NULL;
}

static void test_batch_round_trip(JSContextRef ctx) {
    JSWorkerRef w = new_worker(doubler);
    JSValueRef in[100], out[64];
    for (int i = 0; i < 100; i++) {
        in[i] = JSValueMakeNumber(ctx, i);
    }
    JSValueRef exc = NULL;
    check(ZJSWorkerPostMessages(w, ctx, 100, in, &exc) == 100 && exc == NULL, "100 values posted in one call");
    int next = 0, inOrder = 1;
    while (next < 100) {
        size_t n = ZJSWorkerReceiveMessages(w, ctx, kJSWorkerWaitForever, 64, out, &exc);
        if (n == 0 || n > 64 || exc != NULL) {
            break;
        }
        for (size_t i = 0; i < n; i++) {
            inOrder &= JSValueToNumber(ctx, out[i], NULL) == 2 * next++;
        }
    }
    check(next == 100 && inOrder, "100 replies received in batches, in order (%d)", next);
    check(ZJSWorkerReceiveMessages(w, ctx, 0, 64, out, &exc) == 0 && exc == NULL, "a poll with nothing queued: 0");
    double t0 = now_ms();
    check(ZJSWorkerReceiveMessages(w, ctx, 50, 64, out, &exc) == 0 && exc == NULL && now_ms() - t0 >= 45,
          "a 50 ms batch receive with nothing queued waits and returns 0");
    check(ZJSWorkerPostMessages(w, ctx, 0, NULL, &exc) == 0 && exc == NULL, "an empty batch posts nothing, no error");
    check(ZJSWorkerReceiveMessages(w, ctx, 0, 0, NULL, &exc) == 0 && exc == NULL, "max 0 receives nothing");
    ZJSWorkerClose(w);
    size_t got = 0, n;
    while ((n = ZJSWorkerReceiveMessages(w, ctx, kJSWorkerWaitForever, 64, out, &exc)) > 0) {
        got += n;
    }
    check(got == 0 && exc == NULL, "a closed and drained worker: 0 without an exception");
    JSWorkerRelease(w);
}

static void test_batch_misuse(JSContextRef ctx) {
    JSWorkerRef w = new_worker(doubler);
    JSValueRef exc = NULL, out[4];
    JSValueRef vals[3] = {JSValueMakeNumber(ctx, 1), NULL, JSValueMakeNumber(ctx, 3)};
    check(ZJSWorkerPostMessages(w, ctx, 3, vals, &exc) == 0 && exception_contains(ctx, exc, "values[1]"),
          "a NULL value in the batch posts nothing, TypeError names it (%s)", value_text(ctx, exc));
    exc = NULL;
    check(ZJSWorkerReceiveMessages(w, ctx, 100, 4, out, &exc) == 0 && exc == NULL, "... and nothing was queued");
    check(ZJSWorkerPostMessages(w, ctx, 2, NULL, &exc) == 0 && exception_contains(ctx, exc, "NULL"),
          "NULL values with a count: TypeError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(ZJSWorkerReceiveMessages(w, ctx, 0, 2, NULL, &exc) == 0 && exception_contains(ctx, exc, "NULL"),
          "NULL out array with a max: TypeError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(ZJSWorkerPostMessages(NULL, ctx, 1, vals, &exc) == 0 && exc != NULL, "NULL worker: 0 + exception");
    exc = NULL;
    check(ZJSWorkerReceiveMessages(NULL, ctx, 0, 4, out, &exc) == 0 && exc != NULL, "NULL worker receive: 0 + exc");
    check(ZJSWorkerPostMessages(w, NULL, 1, vals, NULL) == 0, "NULL context: 0");
    JSValueRef fn[2] = {JSValueMakeNumber(ctx, 7), eval(ctx, "(function f() {})")};
    exc = NULL;
    check(ZJSWorkerPostMessages(w, ctx, 2, fn, &exc) == 1 && exception_contains(ctx, exc, "DataCloneError"),
          "a function second: the first is queued, DataCloneError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(ZJSWorkerReceiveMessages(w, ctx, kJSWorkerWaitForever, 4, out, &exc) == 1 &&
              JSValueToNumber(ctx, out[0], NULL) == 14,
          "... and answered");
    JSWorkerRelease(w);
    exc = NULL;
    check(ZJSWorkerPostMessages(w, ctx, 1, vals, &exc) == 0 && exc != NULL, "a released worker: 0 + exception");

    JSStringRef src = str("onmessage = () => {};");
    w = JSWorkerCreateWithLimits(src, 1024, 1 << 20, 2);
    JSStringRelease(src);
    JSValueRef five[5];
    for (int i = 0; i < 5; i++) {
        five[i] = JSValueMakeNumber(ctx, i);
    }
    exc = NULL;
    size_t n = ZJSWorkerPostMessages(w, ctx, 5, five, &exc);
    check(n >= 2 && n < 5 && exception_contains(ctx, exc, "queue full"),
          "a 2-message inbox: a partial batch with the queue-full RangeError (%zu, %s)", n, value_text(ctx, exc));
    JSWorkerRelease(w);
}

struct foreign {
    JSWorkerRef w;
    JSGlobalContextRef ownerCtx;
    size_t posted, received;
    int refused, previous;
};

static void *foreign_thread(void *arg) {
    struct foreign *f = arg;
    JSGlobalContextRef own = JSGlobalContextCreate(NULL);
    JSValueRef v = JSValueMakeNumber(own, 1), exc = NULL, out[2];
    f->posted = ZJSWorkerPostMessages(f->w, own, 1, &v, &exc);
    f->refused = exception_contains(own, exc, "belongs to another thread");
    exc = NULL;
    f->received = ZJSWorkerReceiveMessages(f->w, own, 0, 2, out, &exc);
    f->refused &= exception_contains(own, exc, "belongs to another thread");
    f->previous = ZJSSetGCPercent(150); /* any thread */
    JSGlobalContextRelease(own);
    return NULL;
}

static void test_threads_and_gc(JSContextRef ctx) {
    struct foreign f = {.w = new_worker(doubler), .ownerCtx = (JSGlobalContextRef)ctx};
    int start = ZJSSetGCPercent(300);
    pthread_t t;
    pthread_create(&t, NULL, foreign_thread, &f);
    pthread_join(t, NULL);
    check(f.posted == 0 && f.received == 0 && f.refused, "another thread's worker is refused by both batch calls");
    check(f.previous == 300, "ZJSSetGCPercent from another thread returns the previous setting (%d)", f.previous);
    check(ZJSSetGCPercent(start) == 150, "... and set it");
    check(ZJSSetGCPercent(start) == start, "the start setting is restored (%d)", start);
    JSWorkerRelease(f.w);
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_batch_round_trip(ctx);
    test_batch_misuse(ctx);
    test_threads_and_gc(ctx);
    JSGlobalContextRelease(ctx);
    return check_done();
}
