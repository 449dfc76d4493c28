/*
 * inspector_test.c - Chrome DevTools Protocol sessions through the C ABI: worker sessions (dispatch, pump, release
 * in every order, from inside the callback), two sessions on one worker, main-context sessions (the inspectable
 * opt-in, the synchronous transport, console events), protocol errors, and misuse (NULL, empty, stale, wrong kind,
 * another thread).
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#define _DEFAULT_SOURCE /* syscall */
#include "cdp.h"
#include "check.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *eval_object =
    "{\"id\":3,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"({ answer: 42, nested: { ok: true } })\","
    "\"objectGroup\":\"g\"}}";

static void get_properties(char *buf, size_t size, int id, const char *oid) {
    snprintf(buf, size, "{\"id\":%d,\"method\":\"Runtime.getProperties\",\"params\":{\"objectId\":\"%s\"}}", id, oid);
}

static const char *doubler = "onmessage = (e) => postMessage(e.data * 2);";

static void test_marshalling(JSContextRef ctx) {
    JSWorkerRef w = new_worker(doubler);
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    check(s != NULL, "ZJSWorkerInspectorSessionCreate returns a session");
    check(ZJSWorkerInspectorSessionPump(s, 0) == kZJSWorkerInspectorPumpMessage && in.n == 1 &&
              strstr(in.msgs[0], "\"Runtime.executionContextsCleared\"") != NULL,
          "the first pump (timeout 0) delivers Runtime.executionContextsCleared (%s)", in.n ? in.msgs[0] : "-");
    check(ZJSWorkerInspectorSessionPump(s, 0) == kZJSWorkerInspectorPumpTimeout, "then a poll times out");
    check(wdispatch(s, "{\"id\":1,\"method\":\"Schema.getDomains\"}") &&
              wdispatch(s, "{\"id\":2,\"method\":\"Runtime.enable\"}"),
          "dispatch Schema.getDomains and Runtime.enable");
    check(in.n == 1, "dispatch does not call the callback");
    const char *domains = pump_for(s, &in, "\"id\":1,", "\"name\":\"Runtime\"");
    check(domains != NULL, "Schema.getDomains lists Runtime");
    check(pump_for(s, &in, "\"id\":2,", "\"result\"") != NULL, "Runtime.enable answered");
    ZJSInspectorTargetInfo info;
    ZJSWorkerGetInspectorTargetInfo(w, &info);
    char want[64];
    snprintf(want, sizeof want, "\"id\":%llu,", (unsigned long long)info.id);
    check(find(&in, "\"Runtime.executionContextCreated\"", want) != NULL,
          "Runtime.executionContextCreated carries the worker's id (%s)", want);
    int same = 1;
    for (size_t i = 0; i < in.n; i++) {
        same &= in.tids[i] == tid();
    }
    check(same && in.n >= 4, "all %zu messages were delivered on the owner thread (%ld)", in.n, tid());
    check(in.bad_termination == 0, "every message is NUL-terminated at its length");

    JSValueRef exc = NULL;
    JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 21), &exc);
    JSValueRef v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 42, "the worker still answers its messages");

    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

static void test_objects(void) {
    JSWorkerRef w = new_worker(doubler);
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    wdispatch(s, eval_object);
    char oid[128], cmd[256];
    object_id(pump_for(s, &in, "\"id\":3,", NULL), oid, sizeof oid);
    check(oid[0] != '\0', "Runtime.evaluate with an objectGroup returns an objectId (%s)", oid);
    get_properties(cmd, sizeof cmd, 4, oid);
    wdispatch(s, cmd);
    check(pump_for(s, &in, "\"id\":4,", "\"name\":\"answer\"") != NULL, "Runtime.getProperties lists answer");
    wdispatch(s, "{\"id\":5,\"method\":\"Runtime.releaseObjectGroup\",\"params\":{\"objectGroup\":\"g\"}}");
    check(pump_for(s, &in, "\"id\":5,", "\"result\"") != NULL, "Runtime.releaseObjectGroup answered");
    get_properties(cmd, sizeof cmd, 6, oid);
    wdispatch(s, cmd);
    check(pump_for(s, &in, "\"id\":6,", "\"error\"") != NULL, "the released objectId answers an error");
    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

static void test_release_paths(void) {
    /* Session, then worker. */
    JSWorkerRef w = new_worker(doubler);
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    wdispatch(s, eval_object);
    pump_for(s, &in, "\"id\":3,", NULL);
    ZJSWorkerInspectorSessionRelease(s);
    check(ZJSWorkerInspectorSessionPump(s, 0) == kZJSWorkerInspectorPumpError && !wdispatch(s, "{}"),
          "a released session pumps Error and refuses dispatch");
    ZJSWorkerInspectorSessionRelease(s); /* stale: a no-op */
    JSWorkerRelease(w);
    inbox_free(&in);

    /* Worker first: the session pumps its last messages, then Closed, and is released afterwards. */
    w = new_worker(doubler);
    s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    wdispatch(s, "{\"id\":2,\"method\":\"Runtime.enable\"}");
    wdispatch(s, eval_object);
    pump_for(s, &in, "\"id\":3,", NULL);
    JSWorkerRelease(w);
    ZJSWorkerInspectorPumpResult r;
    int pumps = 0;
    while ((r = ZJSWorkerInspectorSessionPump(s, 5000)) == kZJSWorkerInspectorPumpMessage && pumps < 100) {
        pumps++;
    }
    check(r == kZJSWorkerInspectorPumpClosed, "after JSWorkerRelease the session pumps to Closed (%d)", r);
    check(find(&in, "\"Runtime.executionContextDestroyed\"", NULL) != NULL &&
              find(&in, "\"Inspector.detached\"", "target_closed") != NULL,
          "the last messages are executionContextDestroyed and Inspector.detached");
    check(!wdispatch(s, "{\"id\":9,\"method\":\"Schema.getDomains\"}"), "an ended session refuses dispatch");
    check(ZJSWorkerInspectorSessionCreate(w, on_message, &in) == NULL, "a released worker takes no new session");
    ZJSWorkerInspectorSessionRelease(s);
    inbox_free(&in);

    /* Release from inside the callback; a message queued behind it is never delivered. */
    w = new_worker(doubler);
    s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    in.release_on = s;
    in.release_text = "\"id\":7,";
    wdispatch(s, eval_object);
    wdispatch(s, "{\"id\":7,\"method\":\"Schema.getDomains\"}");
    wdispatch(s, "{\"id\":8,\"method\":\"Schema.getDomains\"}");
    r = kZJSWorkerInspectorPumpMessage;
    for (int i = 0; i < 100 && r == kZJSWorkerInspectorPumpMessage; i++) {
        r = ZJSWorkerInspectorSessionPump(s, 5000);
    }
    check(find(&in, "\"id\":7,", NULL) != NULL && in.release_on == NULL, "the callback released its session");
    check(in.pump_after_release == kZJSWorkerInspectorPumpError, "a pump inside the callback after the release: Error");
    check(r == kZJSWorkerInspectorPumpError && find(&in, "\"id\":8,", NULL) == NULL,
          "the outer loop then pumps Error, and nothing more was delivered");
    JSWorkerRelease(w);
    inbox_free(&in);
}

static void test_two_sessions(void) {
    JSWorkerRef w = new_worker(doubler);
    inbox a = {0}, b = {0};
    ZJSWorkerInspectorSessionRef sa = ZJSWorkerInspectorSessionCreate(w, on_message, &a);
    ZJSWorkerInspectorSessionRef sb = ZJSWorkerInspectorSessionCreate(w, on_message, &b);
    check(sa != NULL && sb != NULL && sa != sb, "two sessions attach to one worker");
    wdispatch(sa, eval_object);
    wdispatch(sb, "{\"id\":40,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"6*7\"}}");
    char oid[128], cmd[256];
    object_id(pump_for(sa, &a, "\"id\":3,", NULL), oid, sizeof oid);
    check(pump_for(sb, &b, "\"id\":40,", "\"value\":42") != NULL, "session B gets its own response");
    check(find(&a, "\"id\":40,", NULL) == NULL && find(&b, "\"id\":3,", NULL) == NULL,
          "neither session sees the other's responses");
    get_properties(cmd, sizeof cmd, 41, oid);
    wdispatch(sb, cmd);
    check(pump_for(sb, &b, "\"id\":41,", "\"error\"") != NULL, "session B cannot use A's objectId");
    get_properties(cmd, sizeof cmd, 4, oid);
    wdispatch(sa, cmd);
    check(pump_for(sa, &a, "\"id\":4,", "\"name\":\"answer\"") != NULL, "session A still can");
    ZJSWorkerInspectorSessionRelease(sa);
    ZJSWorkerInspectorSessionRelease(sb);
    JSWorkerRelease(w);
    inbox_free(&a);
    inbox_free(&b);
}

static void test_protocol_errors(void) {
    JSWorkerRef w = new_worker(doubler);
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    check(wdispatch(s, "{\"id\":10,\"method\":\"Nope.nothing\"}") &&
              pump_for(s, &in, "\"id\":10,", "\"code\":-32601") != NULL,
          "an unknown method answers -32601");
    check(wdispatch(s, "{\"id\":11,\"method\":") && pump_for(s, &in, "\"code\":-32700", NULL) != NULL,
          "malformed JSON answers -32700");
    wdispatch(s, "{\"id\":12,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"6*7\"}}");
    check(pump_for(s, &in, "\"id\":12,", "\"value\":42") != NULL, "the session keeps working after errors");
    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

/* test_debugger: ZJSWorkerOptions.inspectable turns the Debugger domain on; a worker pauses at `debugger;`, answers
 * Runtime.evaluate while paused, and replies once resumed. A plain worker's Debugger.enable is an error. */
static void test_debugger(JSContextRef ctx) {
    JSWorkerRef plain = new_worker(doubler);
    inbox pin = {0};
    ZJSWorkerInspectorSessionRef ps = ZJSWorkerInspectorSessionCreate(plain, on_message, &pin);
    wdispatch(ps, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    check(pump_for(ps, &pin, "\"id\":1,", "inspectable") != NULL,
          "Debugger.enable on a worker that is not inspectable answers an error naming the option");
    ZJSWorkerInspectorSessionRelease(ps);
    JSWorkerRelease(plain);
    inbox_free(&pin);

    JSStringRef src = JSStringCreateWithUTF8CString(
        "var secret = 41;\n"
        "onmessage = function (e) {\n"
        "  debugger;\n"
        "  postMessage(e.data + secret);\n"
        "};\n");
    ZJSWorkerOptions o = {.size = sizeof o, .inspectable = true};
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &o, NULL);
    JSStringRelease(src);
    check(w != NULL, "an inspectable worker starts");
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    wdispatch(s, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    check(pump_for(s, &in, "\"id\":1,", "debuggerId") != NULL || pump_for(s, &in, "\"id\":1,\"result\"", NULL) != NULL,
          "Debugger.enable succeeds on an inspectable worker");
    check(JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 1), NULL), "post to the inspectable worker");
    const char *paused = pump_for(s, &in, "Debugger.paused", NULL);
    check(paused != NULL && strstr(paused, "\"lineNumber\":2") != NULL, "the worker pauses at debugger; (line 2, 0-based)");
    wdispatch(s, "{\"id\":2,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"secret + 1\"}}");
    check(pump_for(s, &in, "\"id\":2,", "\"value\":42") != NULL, "Runtime.evaluate answers while paused");
    check(JSWorkerReceive(w, ctx, 0, NULL) == NULL, "no reply while paused");
    wdispatch(s, "{\"id\":3,\"method\":\"Debugger.resume\"}");
    check(pump_for(s, &in, "\"id\":3,", NULL) != NULL, "Debugger.resume answers");
    JSValueRef reply = JSWorkerReceive(w, ctx, 10000, NULL);
    check(reply != NULL && JSValueToNumber(ctx, reply, NULL) == 42, "the worker replies after resuming");
    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

static void test_main_context(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    inbox in = {0};
    check(ZJSInspectorSessionCreate(ctx, on_message, &in) == NULL && in.n == 0,
          "a context that is not inspectable refuses a session");
    JSGlobalContextSetInspectable(ctx, true);
    check(ZJSInspectorSessionCreate(ctx, NULL, &in) == NULL, "a NULL callback is refused");
    ZJSInspectorSessionRef s = ZJSInspectorSessionCreate(ctx, on_message, &in);
    check(s != NULL && in.n == 1 && strstr(in.msgs[0], "\"Runtime.executionContextsCleared\"") != NULL,
          "after JSGlobalContextSetInspectable(ctx, true): a session, its first message delivered by Create");
    check(cdispatch(s, "{\"id\":1,\"method\":\"Runtime.enable\"}") &&
              find(&in, "\"Runtime.executionContextCreated\"", "jsworker-context-") != NULL &&
              find(&in, "\"id\":1,", "\"result\"") != NULL,
          "Runtime.enable: the event and the response were delivered before Dispatch returned");
    check(cdispatch(s, "{\"id\":2,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"6*7\"}}") &&
              find(&in, "\"id\":2,", "\"value\":42") != NULL,
          "Runtime.evaluate runs synchronously");
    cdispatch(s, eval_object);
    char oid[128], cmd[256];
    object_id(find(&in, "\"id\":3,", NULL), oid, sizeof oid);
    get_properties(cmd, sizeof cmd, 4, oid);
    check(oid[0] != '\0' && cdispatch(s, cmd) && find(&in, "\"id\":4,", "\"name\":\"answer\"") != NULL,
          "evaluate an object, then list its properties");
    eval(ctx, "console.log('(console output of the inspector test)')");
    check(find(&in, "\"Runtime.consoleAPICalled\"", "inspector test") != NULL,
          "a console call of the host's script reached the callback before JSEvaluateScript returned");
    check(cdispatch(s, "{\"id\":5,\"method\":\"Nope.nothing\"}") && find(&in, "\"id\":5,", "-32601") != NULL,
          "an unknown method answers -32601");
    check(cdispatch(s, "not json") && find(&in, "\"code\":-32700", NULL) != NULL &&
              cdispatch(s, "{\"id\":6,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"1+1\"}}") &&
              find(&in, "\"id\":6,", "\"value\":2") != NULL,
          "malformed JSON answers -32700 and the session keeps working");
    int same = 1;
    for (size_t i = 0; i < in.n; i++) {
        same &= in.tids[i] == tid();
    }
    check(same && in.bad_termination == 0, "every message came on the owner thread, NUL-terminated");

    /* A second session; releasing the context ends both, and they are released afterwards. */
    inbox in2 = {0};
    ZJSInspectorSessionRef s2 = ZJSInspectorSessionCreate(ctx, on_message, &in2);
    size_t before = in.n;
    ZJSInspectorSessionRelease(s);
    check(!cdispatch(s, "{\"id\":7,\"method\":\"Schema.getDomains\"}") && in.n == before,
          "a released session refuses dispatch and its callback is not called");
    cdispatch(s2, "{\"id\":1,\"method\":\"Runtime.enable\"}");
    JSGlobalContextRelease(ctx);
    check(find(&in2, "\"Runtime.executionContextDestroyed\"", NULL) != NULL &&
              find(&in2, "\"Inspector.detached\"", NULL) != NULL,
          "JSGlobalContextRelease delivers the last messages to the sessions still attached");
    check(!cdispatch(s2, "{\"id\":2,\"method\":\"Schema.getDomains\"}"),
          "a session of a released context refuses dispatch");
    ZJSInspectorSessionRelease(s2);
    inbox_free(&in);
    inbox_free(&in2);
}

/* The other thread's attempts; each result is 1 if the call was refused as it should be. */
typedef struct foreign {
    JSWorkerRef worker;
    ZJSWorkerInspectorSessionRef ws;
    ZJSInspectorSessionRef cs;
    JSGlobalContextRef ctx;
    inbox *in;
    int refused[5];
} foreign;

static void *foreign_thread(void *p) {
    foreign *f = p;
    f->refused[0] = !wdispatch(f->ws, "{\"id\":1,\"method\":\"Schema.getDomains\"}");
    f->refused[1] = ZJSWorkerInspectorSessionPump(f->ws, 0) == kZJSWorkerInspectorPumpError;
    f->refused[2] = !cdispatch(f->cs, "{\"id\":1,\"method\":\"Schema.getDomains\"}");
    f->refused[3] = ZJSWorkerInspectorSessionCreate(f->worker, on_message, f->in) == NULL;
    f->refused[4] = ZJSInspectorSessionCreate(f->ctx, on_message, f->in) == NULL;
    ZJSWorkerInspectorSessionRelease(f->ws); /* no-ops here */
    ZJSInspectorSessionRelease(f->cs);
    return NULL;
}

static void test_misuse(void) {
    check(ZJSWorkerInspectorSessionCreate(NULL, on_message, NULL) == NULL &&
              ZJSInspectorSessionCreate(NULL, on_message, NULL) == NULL,
          "Create with a NULL target returns NULL");
    check(!ZJSWorkerInspectorSessionDispatch(NULL, "{}", 2) && !ZJSInspectorSessionDispatch(NULL, "{}", 2),
          "Dispatch(NULL) returns false");
    check(ZJSWorkerInspectorSessionPump(NULL, 0) == kZJSWorkerInspectorPumpError, "Pump(NULL) returns Error");
    ZJSWorkerInspectorSessionRelease(NULL);
    ZJSInspectorSessionRelease(NULL);
    check(1, "Release(NULL) is a no-op");

    JSWorkerRef w = new_worker(doubler);
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSGlobalContextSetInspectable(ctx, true);
    inbox in = {0}, cin = {0};
    ZJSWorkerInspectorSessionRef ws = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    ZJSInspectorSessionRef cs = ZJSInspectorSessionCreate(ctx, on_message, &cin);
    check(!ZJSWorkerInspectorSessionDispatch(ws, NULL, 3) && !ZJSInspectorSessionDispatch(cs, NULL, 3),
          "a NULL message is refused");
    while (ZJSWorkerInspectorSessionPump(ws, 0) == kZJSWorkerInspectorPumpMessage) {
    } /* drain what Create queued, so that "nothing queued" below is observable */
    size_t queued = cin.n;
    check(!ZJSWorkerInspectorSessionDispatch(ws, "{}", 0) && !ZJSInspectorSessionDispatch(cs, "{}", 0) &&
              !ZJSWorkerInspectorSessionDispatch(ws, "", 0) && !ZJSInspectorSessionDispatch(cs, "", 0),
          "an empty message (length 0) is refused");
    check(ZJSWorkerInspectorSessionPump(ws, 50) == kZJSWorkerInspectorPumpTimeout && cin.n == queued,
          "the refused empty messages queued and delivered nothing");
    check(!ZJSWorkerInspectorSessionDispatch((ZJSWorkerInspectorSessionRef)cs, "{}", 2) &&
              ZJSWorkerInspectorSessionPump((ZJSWorkerInspectorSessionRef)cs, 0) == kZJSWorkerInspectorPumpError &&
              !ZJSInspectorSessionDispatch((ZJSInspectorSessionRef)ws, "{}", 2) &&
              !ZJSWorkerInspectorSessionDispatch((ZJSWorkerInspectorSessionRef)w, "{}", 2),
          "a handle of the wrong kind is refused");
    ZJSInspectorSessionRelease((ZJSInspectorSessionRef)ws); /* wrong kind: a no-op */

    size_t before = cin.n;
    foreign f = {w, ws, cs, ctx, &in, {0}};
    pthread_t th;
    pthread_create(&th, NULL, foreign_thread, &f);
    pthread_join(th, NULL);
    for (int i = 0; i < 5; i++) {
        check(f.refused[i], "call %d from another thread is refused", i);
    }
    check(cin.n == before, "the refused calls delivered nothing");
    check(wdispatch(ws, "{\"id\":2,\"method\":\"Schema.getDomains\"}") &&
              pump_for(ws, &in, "\"id\":2,", "\"result\"") != NULL,
          "the worker session still works for its owner");
    check(cdispatch(cs, "{\"id\":2,\"method\":\"Schema.getDomains\"}") && find(&cin, "\"id\":2,", "\"result\""),
          "the context session still works for its owner");
    ZJSWorkerInspectorSessionRelease(ws);
    ZJSInspectorSessionRelease(cs);
    JSWorkerRelease(w);
    JSGlobalContextRelease(ctx);
    inbox_free(&in);
    inbox_free(&cin);
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_marshalling(ctx);
    test_objects();
    test_release_paths();
    test_two_sessions();
    test_protocol_errors();
    test_debugger(ctx);
    test_main_context();
    test_misuse();
    JSGlobalContextRelease(ctx);
    return check_done();
}
