/*
 * hostcap_test.c - main contexts under the process cap through the C API (issue 16, §1): with ZJSSetMemoryLimit set,
 * a main context whose script grows without bound is the largest contributor; its script is stopped and the call
 * (JSEvaluateScript, JSObjectCallAsFunction) returns NULL with an exception saying "out of memory". The host, the
 * context, another context and a worker go on and lose no message. No timing assertions: every wait is generous.
 */
#include "check.h"

#include <stdatomic.h>

#define WAIT_MS 120000

static const char *echo = "onmessage = function (e) { postMessage(e.data) }";

/* post_all posts 0..n-1 to w; receive_all checks they all come back, in order. */
static int post_all(JSContextRef ctx, JSWorkerRef w, int from, int n) {
    JSValueRef exc = NULL;
    for (int i = from; i < from + n; i++) {
        if (!JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, i), &exc)) {
            return 0;
        }
    }
    return 1;
}

static int receive_all(JSContextRef ctx, JSWorkerRef w, int from, int n) {
    JSValueRef exc = NULL;
    for (int i = from; i < from + n; i++) {
        JSValueRef v = JSWorkerReceive(w, ctx, WAIT_MS, &exc);
        if (v == NULL || JSValueToNumber(ctx, v, NULL) != i) {
            return 0;
        }
    }
    return 1;
}

/* stopped_for_memory reports whether a call failed with the process cap's exception. */
static int stopped_for_memory(JSContextRef ctx, JSValueRef v, JSValueRef exc, const char *label) {
    const char *text = exc != NULL ? value_text(ctx, exc) : "(no exception)";
    printf("     (%s: %s)\n", label, text);
    return v == NULL && exc != NULL && strstr(text, "out of memory") != NULL &&
           strcmp(text, "Error: script execution terminated: JavaScript heap out of memory") == 0;
}

static void test_evaluate(JSGlobalContextRef ctx, JSGlobalContextRef other, JSWorkerRef w) {
    check(post_all(ctx, w, 0, 50), "messages posted to the worker before the context grows");
    JSStringRef s = str("let a = []; for (;;) a.push(new Array(1e5).fill(1))");
    JSValueRef exc = NULL;
    double t0 = now_ms();
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    JSStringRelease(s);
    check(stopped_for_memory(ctx, v, exc, "evaluate"),
          "JSEvaluateScript of a script growing without bound returns NULL, 'out of memory' (%.0f ms)", now_ms() - t0);
    v = eval(ctx, "a.length");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) > 10, "the context stays usable and keeps its global (%s)",
          value_text(ctx, v));
    v = eval(ctx, "a = null; 6 * 7");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 42, "its next entry runs normally and frees what it kept");
    check(receive_all(ctx, w, 0, 50), "the worker answered every message");
    v = eval(other, "kept.length");
    check(v != NULL && JSValueToNumber(other, v, NULL) == 1000, "the other context keeps its data");
}

static void test_call(JSGlobalContextRef ctx, JSWorkerRef w) {
    JSValueRef v = eval(ctx, "(function grow() { var b = []; for (let i = 0; ; i++) b.push('x'.repeat(1 << 16) + i) })");
    check(v != NULL && JSValueIsObject(ctx, v), "a growing function");
    check(post_all(ctx, w, 50, 50), "messages posted before the call");
    JSValueRef exc = NULL;
    JSValueRef r = JSObjectCallAsFunction(ctx, (JSObjectRef)v, NULL, 0, NULL, &exc);
    check(stopped_for_memory(ctx, r, exc, "call"), "JSObjectCallAsFunction of it returns NULL, 'out of memory'");
    check(receive_all(ctx, w, 50, 50), "the worker answered every message");
    v = eval(ctx, "6 * 7");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 42, "the context goes on");
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSGlobalContextRef other = JSGlobalContextCreate(NULL);
    JSValueRef v = eval(other, "var kept = []; for (var i = 0; i < 1000; i++) kept.push({i}); kept.length");
    check(v != NULL, "another context holds data");
    JSWorkerRef w = new_worker(echo);
    check(w != NULL && post_all(ctx, w, 0, 1) && receive_all(ctx, w, 0, 1), "an echo worker");

    ZJSSetMemoryLimit(256u << 20);
    test_evaluate(ctx, other, w);
    test_call(ctx, w);
    ZJSSetMemoryLimit(0);

    v = eval(ctx, "let c = []; for (let i = 0; i < 100; i++) c.push(new Array(1e4).fill(i)); c.length");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 100, "without a cap nothing is stopped");
    JSWorkerRelease(w);
    JSGlobalContextRelease(other);
    JSGlobalContextRelease(ctx);
    return check_done();
}
