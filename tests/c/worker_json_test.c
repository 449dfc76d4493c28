/*
 * worker_json_test.c - the JSON message calls through the C ABI: ZJSWorkerPostJSON and ZJSWorkerReceiveJSON (the
 * worker sees JSON.parse's value, in order with JSWorkerPostMessage; replies come back as JSON.stringify's text,
 * through the direct path and through the context; invalid text, limits, a closed worker, NULL, released, wrong-kind
 * and other threads' handles).
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

#include <pthread.h>
#include <stdint.h>

static const char *echo = "onmessage = (e) => postMessage(e.data === 'map' ? new Map([[1, 2]]) :"
                          " e.data === 'undefined' ? undefined : e.data === 'bigint' ? 1n :"
                          " {got: e.data, keys: Object.keys(e.data ?? {})});";

static int exception_contains(JSContextRef ctx, JSValueRef exc, const char *text) {
    return exc != NULL && strstr(value_text(ctx, exc), text) != NULL;
}

static bool post(JSWorkerRef w, JSContextRef ctx, const char *json, JSValueRef *exc) {
    return ZJSWorkerPostJSON(w, ctx, json, strlen(json), exc);
}

/* receive_is receives one message as JSON and compares it with want; it frees the text. */
static int receive_is(JSWorkerRef w, JSContextRef ctx, const char *want) {
    size_t n = 0;
    JSValueRef exc = NULL;
    char *got = ZJSWorkerReceiveJSON(w, ctx, kJSWorkerWaitForever, &n, &exc);
    int ok = got != NULL && exc == NULL && n == strlen(want) && strcmp(got, want) == 0;
    if (!ok) {
        printf("     (received %s, exception %s; want %s)\n", got ? got : "NULL", value_text(ctx, exc), want);
    }
    free(got);
    return ok;
}

static void test_round_trip(JSContextRef ctx) {
    JSWorkerRef w = new_worker(echo);
    JSValueRef exc = NULL;
    const char *text = "{\"i\":1,\"s\":\"h\\u00e9llo \xe2\x82\xac\"}"; /* é escaped, € as UTF-8 */
    check(ZJSWorkerPostJSON(w, ctx, text, strlen(text), &exc) && exc == NULL, "a JSON message is posted");
    check(JSWorkerPostMessage(w, ctx, eval(ctx, "[1, 2]"), &exc), "... then a value through JSWorkerPostMessage");
    char part[] = "[true,null]garbage";
    check(ZJSWorkerPostJSON(w, ctx, part, 11, &exc), "... then a text that is not NUL-terminated (length 11)");
    check(receive_is(w, ctx, "{\"got\":{\"i\":1,\"s\":\"h\xc3\xa9llo \xe2\x82\xac\"},\"keys\":[\"i\",\"s\"]}"),
          "the worker saw JSON.parse's object; its reply comes back as UTF-8 JSON text");
    check(receive_is(w, ctx, "{\"got\":[1,2],\"keys\":[\"0\",\"1\"]}"), "the value posted second arrived second");
    check(receive_is(w, ctx, "{\"got\":[true,null],\"keys\":[\"0\",\"1\"]}"), "only length bytes were read");
    check(post(w, ctx, "\"map\"", NULL) && receive_is(w, ctx, "{}"),
          "a Map reply is given to JSON.stringify in the context: {}");
    exc = NULL;
    char *s = NULL;
    check(post(w, ctx, "\"undefined\"", NULL) &&
              (s = ZJSWorkerReceiveJSON(w, ctx, kJSWorkerWaitForever, NULL, &exc)) == NULL &&
              exception_contains(ctx, exc, "TypeError"),
          "an undefined reply: NULL + TypeError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(post(w, ctx, "\"bigint\"", NULL) &&
              (s = ZJSWorkerReceiveJSON(w, ctx, kJSWorkerWaitForever, NULL, &exc)) == NULL &&
              exception_contains(ctx, exc, "TypeError"),
          "a BigInt reply: NULL + JSON.stringify's TypeError (%s)", value_text(ctx, exc));
    exc = NULL;
    size_t n = 99;
    double t0 = now_ms();
    check(ZJSWorkerReceiveJSON(w, ctx, 50, &n, &exc) == NULL && exc == NULL && n == 0 && now_ms() - t0 >= 45,
          "a 50 ms receive with nothing queued waits and returns NULL without an exception");
    ZJSWorkerClose(w);
    check(ZJSWorkerReceiveJSON(w, ctx, kJSWorkerWaitForever, NULL, &exc) == NULL && exc == NULL,
          "a closed and drained worker: NULL without an exception");
    exc = NULL;
    check(!post(w, ctx, "1", &exc) && exception_contains(ctx, exc, "InvalidStateError"),
          "a post to a closed worker: false + InvalidStateError (%s)", value_text(ctx, exc));
    JSWorkerRelease(w);
    exc = NULL;
    check(!post(w, ctx, "1", &exc) && exception_contains(ctx, exc, "no live handle"),
          "a released worker: false + TypeError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(ZJSWorkerReceiveJSON(w, ctx, 0, NULL, &exc) == NULL && exception_contains(ctx, exc, "no live handle"),
          "a released worker's receive: NULL + TypeError (%s)", value_text(ctx, exc));
}

static void test_errors(JSContextRef ctx) {
    JSStringRef src = str("onmessage = (e) => postMessage(e.data);");
    JSWorkerRef w = JSWorkerCreateWithLimits(src, 64, 1 << 20, 2);
    JSStringRelease(src);
    JSValueRef exc = NULL;
    check(!post(w, ctx, "{\"a\":}", &exc) && exception_contains(ctx, exc, "SyntaxError") &&
              exception_contains(ctx, exc, "offset 5"),
          "invalid JSON: false + SyntaxError with the offset (%s)", value_text(ctx, exc));
    exc = NULL;
    check(!post(w, ctx, "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]", &exc) &&
              exception_contains(ctx, exc, "message too large for the worker's limit"),
          "beyond the 64-byte limit: false + RangeError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(!ZJSWorkerPostJSON(w, ctx, NULL, 4, &exc) && exception_contains(ctx, exc, "NULL"),
          "NULL json with a length: false + TypeError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(!ZJSWorkerPostJSON(w, ctx, "x", 0, &exc) && exception_contains(ctx, exc, "SyntaxError"),
          "empty text: false + SyntaxError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(!post(NULL, ctx, "1", &exc) && exception_contains(ctx, exc, "NULL"), "NULL worker: false + TypeError");
    exc = NULL;
    check(!post((JSWorkerRef)ctx, ctx, "1", &exc) && exception_contains(ctx, exc, "not a worker"),
          "a context as the worker: false + TypeError (%s)", value_text(ctx, exc));
    exc = NULL;
    check(ZJSWorkerReceiveJSON(NULL, ctx, 0, NULL, &exc) == NULL && exc != NULL, "NULL worker receive: NULL + exc");
    check(!post(w, NULL, "1", NULL) && ZJSWorkerReceiveJSON(w, NULL, 0, NULL, NULL) == NULL, "NULL context: refused");
    JSWorkerRelease(w);
    src = str("while (true) {}"); /* never takes a message */
    w = JSWorkerCreateWithLimits(src, 1024, 1 << 20, 2);
    JSStringRelease(src);
    check(post(w, ctx, "1", &exc) && post(w, ctx, "2", &exc), "two posts fill a 2-message inbox");
    exc = NULL;
    check(!post(w, ctx, "3", &exc) && exception_contains(ctx, exc, "queue full"),
          "a third: false + the queue-full RangeError (%s)", value_text(ctx, exc));
    JSWorkerTerminate(w);
    JSWorkerRelease(w);
}

struct foreign {
    JSWorkerRef w;
    int refused;
};

static void *foreign_thread(void *arg) {
    struct foreign *f = arg;
    JSGlobalContextRef own = JSGlobalContextCreate(NULL);
    JSValueRef exc = NULL;
    int posted = ZJSWorkerPostJSON(f->w, own, "1", 1, &exc);
    f->refused = !posted && exception_contains(own, exc, "belongs to another thread");
    exc = NULL;
    char *s = ZJSWorkerReceiveJSON(f->w, own, 0, NULL, &exc);
    f->refused &= s == NULL && exception_contains(own, exc, "belongs to another thread");
    JSGlobalContextRelease(own);
    return NULL;
}

static void test_threads(JSContextRef ctx) {
    struct foreign f = {.w = new_worker(echo)};
    pthread_t t;
    pthread_create(&t, NULL, foreign_thread, &f);
    pthread_join(t, NULL);
    check(f.refused, "another thread's worker is refused by both JSON calls");
    check(post(f.w, ctx, "{}", NULL) && receive_is(f.w, ctx, "{\"got\":{},\"keys\":[]}"),
          "... and still works from its owner");
    JSWorkerRelease(f.w);
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_round_trip(ctx);
    test_errors(ctx);
    test_threads(ctx);
    JSGlobalContextRelease(ctx);
    return check_done();
}
