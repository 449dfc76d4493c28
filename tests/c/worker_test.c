/*
 * worker_test.c - the worker surface through the C ABI: create/post/receive, clone and limit failures, NULL and
 * foreign-thread handles, terminate of an endless loop, close and drain, target info, the notify and error
 * callbacks, the options struct, the transfer-list post.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#define _DEFAULT_SOURCE /* syscall, usleep */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *doubler = "onmessage = (e) => postMessage(e.data * 2);";

/* exception_contains reports whether exc's string form contains text. */
static int exception_contains(JSContextRef ctx, JSValueRef exc, const char *text) {
    return exc != NULL && strstr(value_text(ctx, exc), text) != NULL;
}

static void test_round_trip(JSContextRef ctx) {
    JSWorkerRef w = new_worker(doubler);
    check(w != NULL, "JSWorkerCreate returns a worker");
    JSValueRef exc = NULL;
    check(JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 21), &exc) && exc == NULL, "post 21");
    JSValueRef v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    check(v != NULL && JSValueIsNumber(ctx, v) && JSValueToNumber(ctx, v, NULL) == 42, "receive 42 (got %s)",
          value_text(ctx, v));
    check(JSWorkerReceive(w, ctx, 0, &exc) == NULL && exc == NULL, "a poll with nothing queued returns NULL");
    double t0 = now_ms();
    check(JSWorkerReceive(w, ctx, 50, &exc) == NULL && exc == NULL && now_ms() - t0 >= 45,
          "a 50 ms receive with nothing queued waits and returns NULL");
    JSWorkerRelease(w);
}

static void test_post_failures(JSContextRef ctx) {
    JSWorkerRef w = new_worker(doubler);
    JSValueRef exc = NULL;
    JSValueRef fn = eval(ctx, "(function notCloneable() {})");
    check(!JSWorkerPostMessage(w, ctx, fn, &exc) && exception_contains(ctx, exc, "DataCloneError"),
          "posting a function fails with a DataCloneError (%s)", value_text(ctx, exc));

    exc = NULL;
    JSValueRef transfer[1] = {eval(ctx, "({})")};
    bool ok = ZJSWorkerPostMessageWithTransfer(w, ctx, JSValueMakeNumber(ctx, 1), 1, transfer, &exc);
    check(ok ? exc == NULL : exception_contains(ctx, exc, "DataCloneError"),
          "a transfer-list post goes through the clone and reports its verdict (%s)",
          ok ? "accepted" : value_text(ctx, exc));
    exc = NULL;
    check(ZJSWorkerPostMessageWithTransfer(w, ctx, JSValueMakeNumber(ctx, 1), 0, NULL, &exc) && exc == NULL,
          "a post with an empty transfer list succeeds");
    JSWorkerRelease(w);

    JSStringRef src = str(doubler);
    w = JSWorkerCreateWithLimits(src, 1, 1, 1);
    exc = NULL;
    check(w != NULL && !JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 1), &exc) &&
              exception_contains(ctx, exc, "message too large for the worker's limit"),
          "JSWorkerCreateWithLimits(src, 1, 1, 1): posting a number fails (%s)", value_text(ctx, exc));
    JSWorkerRelease(w);

    w = JSWorkerCreateWithLimits(src, 1024, 1 << 20, 0);
    exc = NULL;
    check(w != NULL && !JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 1), &exc) &&
              exception_contains(ctx, exc, "queue full"),
          "maxQueuedMessages 0 is a real zero limit (%s)", value_text(ctx, exc));
    JSWorkerRelease(w);

    w = JSWorkerCreateWithLimits(src, 1024, 1 << 20, 1);
    ZJSWorkerClose(w);
    exc = NULL;
    check(!JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 1), &exc) &&
              exception_contains(ctx, exc, "worker is closed"),
          "posting to a closed worker fails (%s)", value_text(ctx, exc));
    JSWorkerRelease(w);
    JSStringRelease(src);

    exc = NULL;
    check(!JSWorkerPostMessage(NULL, ctx, JSValueMakeNumber(ctx, 1), &exc) &&
              exception_contains(ctx, exc, "not a worker"),
          "post to a NULL worker fails (%s)", value_text(ctx, exc));
    exc = NULL;
    check(JSWorkerReceive(NULL, ctx, 0, &exc) == NULL && exception_contains(ctx, exc, "not a worker"),
          "receive from a NULL worker fails (%s)", value_text(ctx, exc));
    exc = NULL;
    check(!JSWorkerPostMessage((JSWorkerRef)fn, ctx, fn, &exc) && exception_contains(ctx, exc, "not a worker"),
          "a value passed as a worker is refused (%s)", value_text(ctx, exc));
    exc = NULL;
    check(!JSWorkerPostMessage(w, ctx, fn, &exc) && exception_contains(ctx, exc, "no live handle"),
          "a released worker is refused (%s)", value_text(ctx, exc));
    exc = NULL;
    check(!JSWorkerPostMessage(w, NULL, fn, &exc) && exc == NULL,
          "with a NULL context the post fails and *exception stays NULL");
    JSWorkerTerminate(NULL);
    ZJSWorkerClose(NULL);
    JSWorkerRelease(NULL);
    JSWorkerRelease(w);
    check(1, "terminate, close and release of NULL or a stale worker are no-ops");
}

/* A second thread tries the owner's worker and context. */
struct foreign {
    JSWorkerRef w;
    JSGlobalContextRef ownerCtx;
    int postOK, receiveOK, infoOK, excMentionsThread;
    char text[512];
};

static void *foreign_thread(void *arg) {
    struct foreign *f = arg;
    JSValueRef exc = NULL;
    f->postOK = JSWorkerPostMessage(f->w, f->ownerCtx, NULL, &exc);
    JSWorkerTerminate(f->w); /* refused: a no-op */
    JSWorkerRelease(f->w);   /* refused: a no-op */
    ZJSInspectorTargetInfo info;
    f->infoOK = ZJSWorkerGetInspectorTargetInfo(f->w, &info);
    JSGlobalContextRef own = JSGlobalContextCreate(NULL);
    exc = NULL;
    f->receiveOK = JSWorkerReceive(f->w, own, 0, &exc) != NULL;
    f->excMentionsThread = exception_contains(own, exc, "belongs to another thread");
    snprintf(f->text, sizeof f->text, "%s", value_text(own, exc));
    JSGlobalContextRelease(own);
    return NULL;
}

static void test_foreign_thread(JSContextRef ctx) {
    struct foreign f = {.w = new_worker(doubler), .ownerCtx = (JSGlobalContextRef)ctx};
    pthread_t t;
    pthread_create(&t, NULL, foreign_thread, &f);
    pthread_join(t, NULL);
    check(!f.postOK && !f.receiveOK && !f.infoOK, "a worker used from a second pthread is refused");
    check(f.excMentionsThread, "the exception says it belongs to another thread (%s)", f.text);
    JSValueRef exc = NULL;
    check(JSWorkerPostMessage(f.w, ctx, JSValueMakeNumber(ctx, 5), &exc), "the worker still works from its owner");
    JSValueRef v = JSWorkerReceive(f.w, ctx, kJSWorkerWaitForever, &exc);
    check(JSValueToNumber(ctx, v, NULL) == 10, "... and answers (got %s)", value_text(ctx, v));
    JSWorkerRelease(f.w);
}

static void test_terminate_and_close(JSContextRef ctx) {
    JSWorkerRef w = new_worker("postMessage('spinning'); for (;;) {}");
    JSValueRef exc = NULL;
    JSValueRef v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    check(v != NULL, "the endless loop started (%s)", value_text(ctx, v));
    double t0 = now_ms();
    JSWorkerTerminate(w);
    ZJSInspectorTargetInfo info = {0};
    check(ZJSWorkerGetInspectorTargetInfo(w, &info) &&
              (info.state == kZJSInspectorTargetStateClosing || info.state == kZJSInspectorTargetStateClosed),
          "after terminate the state is closing or closed (%d)", (int)info.state);
    JSWorkerRelease(w);
    double ms = now_ms() - t0;
    check(ms < 1000, "terminate of for(;;){} then release returned in %.2f ms", ms);

    w = new_worker("onmessage = (e) => { postMessage(e.data + 1); postMessage(e.data + 2); close(); };");
    JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 1), &exc);
    JSValueRef a = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    JSValueRef b = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    JSValueRef c = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    check(JSValueToNumber(ctx, a, NULL) == 2 && JSValueToNumber(ctx, b, NULL) == 3 && c == NULL && exc == NULL,
          "receive returns the queued messages, then NULL after the worker closed and drained");
    check(ZJSWorkerGetInspectorTargetInfo(w, &info) && info.state == kZJSInspectorTargetStateClosed,
          "the drained worker's state is closed");
    JSWorkerRelease(w);

    w = new_worker("onmessage = (e) => postMessage(e.data);");
    for (int i = 0; i < 3; i++) {
        JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, i), &exc);
    }
    ZJSWorkerClose(w);
    int got = 0;
    while ((v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc)) != NULL) {
        got++;
    }
    check(got == 3, "ZJSWorkerClose delivers the 3 queued messages before the end (%d)", got);
    JSWorkerRelease(w);
}

static void test_target_info(void) {
    JSWorkerRef a = new_worker(doubler), b = new_worker(doubler);
    ZJSInspectorTargetInfo ia = {0}, ib = {0};
    check(ZJSWorkerGetInspectorTargetInfo(a, &ia) && ZJSWorkerGetInspectorTargetInfo(b, &ib),
          "target info of two workers");
    check(ia.id != 0 && ib.id != 0 && ia.id != ib.id, "ids are non-zero and distinct (%llu, %llu)",
          (unsigned long long)ia.id, (unsigned long long)ib.id);
    check(ia.kind == kZJSInspectorTargetKindScript, "kind is script");
    check(ia.state == kZJSInspectorTargetStateStarting || ia.state == kZJSInspectorTargetStateRunning,
          "a fresh worker is starting or running (%d)", (int)ia.state);
    check(!ZJSWorkerGetInspectorTargetInfo(NULL, &ia) && !ZJSWorkerGetInspectorTargetInfo(a, NULL),
          "NULL arguments are rejected");
    JSWorkerRelease(a);
    check(!ZJSWorkerGetInspectorTargetInfo(a, &ia), "a released worker is rejected");
    JSWorkerRelease(b);
}

/* The notify and error callbacks run on the worker's thread. */
static atomic_int notified;
static atomic_long notifyTid;
static void on_notify(JSWorkerRef w, void *userData) {
    (void)w;
    atomic_fetch_add((atomic_int *)userData, 1);
    atomic_store(&notifyTid, (long)syscall(SYS_gettid));
}

struct errors {
    atomic_int count;
    char name[64], message[256], filename[128];
    unsigned line;
    int kind;
};
static void on_error(JSWorkerRef w, const ZJSErrorInfo *e, void *userData) {
    (void)w;
    struct errors *errs = userData;
    snprintf(errs->name, sizeof errs->name, "%s", e->name);
    snprintf(errs->message, sizeof errs->message, "%s", e->message);
    snprintf(errs->filename, sizeof errs->filename, "%s", e->filename);
    errs->line = e->line;
    errs->kind = e->kind;
    atomic_fetch_add(&errs->count, 1);
}

static void test_callbacks(JSContextRef ctx) {
    JSWorkerRef w = new_worker(doubler);
    check(ZJSWorkerSetNotifyCallback(w, on_notify, &notified), "ZJSWorkerSetNotifyCallback");
    check(!ZJSWorkerSetNotifyCallback(NULL, on_notify, NULL), "... refuses a NULL worker");
    JSValueRef exc = NULL;
    for (int i = 0; i < 5; i++) {
        JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, i), &exc);
        JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    }
    check(atomic_load(&notified) == 5, "the notify callback ran once per message (%d)", atomic_load(&notified));
    check(atomic_load(&notifyTid) != (long)syscall(SYS_gettid), "... on the worker's thread, not the host's");
    JSWorkerRelease(w);
    check(atomic_load(&notified) == 6, "... and once more when the worker ended, before JSWorkerRelease returned");

    static struct errors errs;
    ZJSWorkerOptions o = {
        .size = sizeof o, .name = "thrower", .filename = "thrower.js", .errorCallback = on_error,
        .errorUserData = &errs};
    JSStringRef src = str("postMessage(name);\nnull.boom;");
    JSStringRef why = NULL;
    w = ZJSWorkerCreateWithOptions(src, &o, &why);
    check(w != NULL && why == NULL, "ZJSWorkerCreateWithOptions with a name and an error callback");
    JSValueRef v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    check(v != NULL && strcmp(value_text(ctx, v), "thrower") == 0, "the name option is the worker's name (%s)",
          value_text(ctx, v));
    for (int i = 0; i < 500 && atomic_load(&errs.count) == 0; i++) {
        usleep(10000);
    }
    check(atomic_load(&errs.count) == 1 && errs.kind == kZJSErrorUncaught && strcmp(errs.name, "TypeError") == 0 &&
              errs.line == 2 && strcmp(errs.filename, "thrower.js") == 0,
          "the error callback got the first statement's error: %s: %s at %s:%u", errs.name, errs.message,
          errs.filename, errs.line);
    JSWorkerRelease(w);
    JSStringRelease(src);

    src = str("onmessage = (");
    w = ZJSWorkerCreateWithOptions(src, NULL, &why);
    char *text = take_utf8(why);
    check(w == NULL && (strstr(text, "SyntaxError") != NULL || strstr(text, "Unexpected") != NULL),
          "a syntax error fails the create and says why: %s", text);
    free(text);
    check(new_worker("onmessage = (") == NULL, "JSWorkerCreate of a syntax error returns NULL");
    JSStringRelease(src);
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    check(ctx != NULL, "JSGlobalContextCreate(NULL)");
    test_round_trip(ctx);
    test_post_failures(ctx);
    test_foreign_thread(ctx);
    test_terminate_and_close(ctx);
    test_target_info();
    test_callbacks(ctx);
    JSGlobalContextRelease(ctx);
    return check_done();
}
