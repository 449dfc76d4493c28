/*
 * budget_test.c - memory budgets through the C API (issue 16, §1): ZJSWorkerOptions.maxHeapBytes and
 * ZJSSetMemoryLimit. A worker growing without bound ends with kZJSErrorOutOfMemory while another worker and the host
 * go on and lose no message; the process cap ends the largest contributor; a worker holding a large structure below
 * its budget is never ended; a host built against the older header (a smaller options->size) gets no budget.
 * No timing assertions: every wait is a generous timeout.
 */
#include "check.h"

#include <stdatomic.h>
#include <stddef.h>

#define WAIT_MS 60000

typedef struct {
    atomic_int kind;
    atomic_int count;
    char message[512];
} errors;

static void on_error(JSWorkerRef worker, const ZJSErrorInfo *error, void *userData) {
    (void)worker;
    errors *e = userData;
    if (atomic_fetch_add(&e->count, 1) == 0) {
        snprintf(e->message, sizeof e->message, "%s", error->message);
    }
    atomic_store(&e->kind, (int)error->kind);
}

static JSWorkerRef spawn(const char *src, size_t budget, errors *e) {
    ZJSWorkerOptions o = {.size = sizeof(ZJSWorkerOptions), .maxHeapBytes = budget, .errorCallback = on_error,
                          .errorUserData = e};
    JSStringRef s = str(src);
    JSStringRef why = NULL;
    JSWorkerRef w = ZJSWorkerCreateWithOptions(s, &o, &why);
    JSStringRelease(s);
    if (why != NULL) {
        JSStringRelease(why);
    }
    return w;
}

static const char *echo = "onmessage = function (e) { postMessage(e.data) }";

/* round_trips posts n numbers to w and checks that each comes back, in order. */
static int round_trips(JSContextRef ctx, JSWorkerRef w, int n) {
    JSValueRef exc = NULL;
    for (int i = 0; i < n; i++) {
        if (!JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, i), &exc)) {
            return 0;
        }
    }
    for (int i = 0; i < n; i++) {
        JSValueRef v = JSWorkerReceive(w, ctx, WAIT_MS, &exc);
        if (v == NULL || JSValueToNumber(ctx, v, NULL) != i) {
            return 0;
        }
    }
    return 1;
}

static void test_budget(JSContextRef ctx, const char *label, const char *grow) {
    errors eo = {0}, eg = {0};
    JSWorkerRef other = spawn(echo, 32u << 20, &eo);
    JSWorkerRef w = spawn(grow, 32u << 20, &eg);
    check(other != NULL && w != NULL, "%s: workers with a 32 MiB budget created", label);
    JSValueRef exc = NULL;
    JSValueRef v = JSWorkerReceive(w, ctx, WAIT_MS, &exc);
    check(v != NULL && strcmp(value_text(ctx, v), "started") == 0, "%s: the growing worker started", label);
    check(round_trips(ctx, other, 50), "%s: the other worker answers while it grows", label);
    v = JSWorkerReceive(w, ctx, WAIT_MS, &exc); /* NULL once it has ended and its outbox is drained */
    check(v == NULL && atomic_load(&eg.kind) == kZJSErrorOutOfMemory && atomic_load(&eg.count) == 1,
          "%s: it ends with one kZJSErrorOutOfMemory (kind %d, %d errors): %s", label, atomic_load(&eg.kind),
          atomic_load(&eg.count), eg.message);
    check(strncmp(eg.message, "Worker terminated due to reaching memory limit: JS heap out of memory", 69) == 0,
          "%s: Node's message", label);
    check(round_trips(ctx, other, 50) && atomic_load(&eo.count) == 0, "%s: the other worker goes on", label);
    v = eval(ctx, "6 * 7");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 42, "%s: the host goes on", label);
    JSWorkerRelease(w);
    JSWorkerRelease(other);
}

static void test_no_false_kill(JSContextRef ctx) {
    errors e = {0};
    JSWorkerRef w = spawn("var keep = []; for (var i = 0; i < 100000; i++) keep.push({i: i, s: 'k' + i});"
                          "onmessage = function (e) { var t = []; for (var i = 0; i < 20000; i++) t.push({i: i});"
                          " postMessage(e.data) }",
                          64u << 20, &e);
    check(round_trips(ctx, w, 100) && atomic_load(&e.count) == 0,
          "a worker holding about 20 MiB below its 64 MiB budget, churning garbage, is never ended");
    JSWorkerRelease(w);

    /* A host built against the older header: maxHeapBytes is beyond its size, so it is not read. */
    ZJSWorkerOptions o = {.size = offsetof(ZJSWorkerOptions, maxHeapBytes), .maxHeapBytes = 1};
    JSStringRef s = str(echo);
    w = ZJSWorkerCreateWithOptions(s, &o, NULL);
    JSStringRelease(s);
    check(w != NULL && round_trips(ctx, w, 10), "an older options->size has no budget");
    JSWorkerRelease(w);
}

static void test_process_cap(JSContextRef ctx) {
    errors es = {0}, eb = {0};
    JSWorkerRef small = spawn("var keep = []; for (var i = 0; i < 50000; i++) keep.push({i: i});"
                              "onmessage = function (e) { postMessage(e.data) }",
                              0, &es);
    check(round_trips(ctx, small, 1), "a small worker holds its structure");
    JSWorkerRef big = spawn("postMessage('started'); var a = []; function add(i) { a.push({i: i}) }"
                            " for (var i = 0; ; i++) add(i)",
                            0, &eb);
    JSValueRef exc = NULL;
    JSValueRef v = JSWorkerReceive(big, ctx, WAIT_MS, &exc);
    check(v != NULL, "the unbounded worker started");
    ZJSSetMemoryLimit(256u << 20);
    v = JSWorkerReceive(big, ctx, WAIT_MS, &exc);
    check(v == NULL && atomic_load(&eb.kind) == kZJSErrorOutOfMemory,
          "at 90 %% of a 256 MiB cap the largest contributor ends with kZJSErrorOutOfMemory (kind %d): %s",
          atomic_load(&eb.kind), eb.message);
    JSWorkerRelease(big);
    int rt = round_trips(ctx, small, 20);
    check(rt && atomic_load(&es.count) == 0, "the small worker goes on (round trips %d, errors %d: %s)", rt,
          atomic_load(&es.count), es.message);
    ZJSSetMemoryLimit(0);
    JSWorkerRelease(small);
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_budget(ctx, "calls", "postMessage('started'); var a = []; function add(i) { a.push({i: i, s: 'x' + i}) }"
                              " for (var i = 0; ; i++) add(i)");
    test_budget(ctx, "loop", "postMessage('started'); var a = [], i = 0; for (;;) { a[i] = {i: i}; i++ }");
    test_no_false_kill(ctx);
    test_process_cap(ctx);
    ZJSSetMemoryLimit(0); /* no cap: nothing happens */
    JSGlobalContextRelease(ctx);
    return check_done();
}
