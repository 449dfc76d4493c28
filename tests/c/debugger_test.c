/*
 * debugger_test.c - the Debugger domain through the C ABI: a pause at `debugger;` resumed from inside the session
 * callback; a URL breakpoint with local-scope reads, evaluateOnCallFrame writes, object groups, stepOver and a
 * caught-exception pause; detach and terminate while paused; owner and observer sessions; stepping into, over and out
 * across nested calls, a conditional breakpoint and getPossibleBreakpoints; and two workers paused at once while an
 * inspectable main context pauses inside JSEvaluateScript and resumes from its callback.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#define _DEFAULT_SOURCE /* syscall */
#include "cdp.h"
#include "check.h"

static JSWorkerRef inspectable_worker(const char *source, const char *filename) {
    JSStringRef src = JSStringCreateWithUTF8CString(source);
    ZJSWorkerOptions o = {.size = sizeof o, .inspectable = true, .filename = filename};
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &o, NULL);
    JSStringRelease(src);
    return w;
}

static bool post_number(JSWorkerRef w, JSContextRef ctx, double n) {
    return JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, n), NULL);
}

/* reply returns the worker's next message as a number, or -1 if none came within the timeout. */
static double reply(JSWorkerRef w, JSContextRef ctx, uint64_t timeoutMs) {
    JSValueRef v = JSWorkerReceive(w, ctx, timeoutMs, NULL);
    return v != NULL ? JSValueToNumber(ctx, v, NULL) : -1;
}

static bool all_on_this_thread(const inbox *in) {
    for (size_t i = 0; i < in->n; i++) {
        if (in->tids[i] != tid()) {
            return false;
        }
    }
    return in->n > 0;
}

/* The first scenario: resume dispatched from inside the callback that delivered the pause. */
static void test_resume_from_callback(JSContextRef ctx) {
    JSWorkerRef w = inspectable_worker(
        "onmessage = (e) => { let x = e.data; debugger; x += 2; postMessage(x); close(); }", "resume.js");
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    in.act_text = "\"method\":\"Debugger.paused\"";
    in.act_command = "{\"id\":2,\"method\":\"Debugger.resume\"}";
    in.act_worker = s;
    wdispatch(s, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    check(pump_for(s, &in, "\"id\":1,\"result\"", NULL) != NULL, "Debugger.enable answers");
    check(post_number(w, ctx, 40), "post 40");
    check(pump_for(s, &in, "Debugger.paused", "\"reason\":\"other\"") != NULL, "the worker pauses at debugger;");
    check(pump_for(s, &in, "\"id\":2,\"result\"", NULL) != NULL, "the resume dispatched from the callback answers");
    check(pump_for(s, &in, "Debugger.resumed", NULL) != NULL, "Debugger.resumed follows");
    check(reply(w, ctx, 10000) == 42, "the worker replies 42");
    check(all_on_this_thread(&in) && in.bad_termination == 0, "every callback ran on the owner thread (%zu messages)",
          in.n);
    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

/* The second scenario: a URL breakpoint, scopes, frame evaluation, object groups, stepOver, and a pause on a
 * caught exception. */
static void test_breakpoint_walkthrough(JSContextRef ctx) {
    JSWorkerRef w = inspectable_worker("onmessage = (e) => {\n"
                                       "  let x = e.data;\n"
                                       "  x += 1;\n"
                                       "  x += 2;\n"
                                       "  try { throw x; } catch (caught) { x = caught + 1; }\n"
                                       "  postMessage(x);\n"
                                       "};\n",
                                       "handler.js");
    inbox in = {0};
    char url[256], buf[512], frame[128], oid[128];
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    wdispatch(s, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    string_field(pump_for(s, &in, "Debugger.scriptParsed", NULL), "url", url, sizeof url);
    check(strcmp(url, "handler.js") == 0, "scriptParsed names the script (url %s)", url);
    snprintf(buf, sizeof buf,
             "{\"id\":2,\"method\":\"Debugger.setBreakpointByUrl\",\"params\":{\"url\":\"%s\",\"lineNumber\":2}}", url);
    wdispatch(s, buf);
    check(pump_for(s, &in, "\"id\":2,", "\"lineNumber\":2") != NULL, "the URL breakpoint resolves on line 2");
    wdispatch(s, "{\"id\":3,\"method\":\"Debugger.setPauseOnExceptions\",\"params\":{\"state\":\"all\"}}");
    check(pump_for(s, &in, "\"id\":3,\"result\"", NULL) != NULL, "setPauseOnExceptions all");
    check(post_number(w, ctx, 7), "post 7");

    const char *p = pump_for(s, &in, "Debugger.paused", "hitBreakpoints\":[\"");
    check(p != NULL && strstr(p, "\"lineNumber\":2") != NULL, "paused at the breakpoint, line 2");
    string_field(p, "callFrameId", frame, sizeof frame);
    const char *local = p != NULL ? strstr(p, "\"type\":\"local\"") : NULL;
    object_id(local, oid, sizeof oid);
    snprintf(buf, sizeof buf,
             "{\"id\":4,\"method\":\"Runtime.getProperties\",\"params\":{\"objectId\":\"%s\",\"ownProperties\":true}}",
             oid);
    wdispatch(s, buf);
    check(pump_for(s, &in, "\"id\":4,", "\"name\":\"x\",\"value\":{\"type\":\"number\",\"value\":7") != NULL,
          "the local scope holds x = 7");
    snprintf(buf, sizeof buf,
             "{\"id\":5,\"method\":\"Debugger.evaluateOnCallFrame\",\"params\":{\"callFrameId\":\"%s\","
             "\"expression\":\"x = 100; x\"}}",
             frame);
    wdispatch(s, buf);
    check(pump_for(s, &in, "\"id\":5,", "\"value\":100") != NULL, "evaluateOnCallFrame x = 100; x answers 100");
    snprintf(buf, sizeof buf,
             "{\"id\":6,\"method\":\"Debugger.evaluateOnCallFrame\",\"params\":{\"callFrameId\":\"%s\","
             "\"expression\":\"({ seen: x })\",\"objectGroup\":\"watch\"}}",
             frame);
    wdispatch(s, buf);
    object_id(pump_for(s, &in, "\"id\":6,", NULL), oid, sizeof oid);
    snprintf(buf, sizeof buf,
             "{\"id\":7,\"method\":\"Runtime.getProperties\",\"params\":{\"objectId\":\"%s\",\"ownProperties\":true}}",
             oid);
    wdispatch(s, buf);
    check(pump_for(s, &in, "\"id\":7,", "\"name\":\"seen\",\"value\":{\"type\":\"number\",\"value\":100") != NULL,
          "an object evaluated in the frame with an objectGroup expands");
    wdispatch(s, "{\"id\":8,\"method\":\"Runtime.releaseObjectGroup\",\"params\":{\"objectGroup\":\"watch\"}}");
    check(pump_for(s, &in, "\"id\":8,\"result\"", NULL) != NULL, "releaseObjectGroup");

    size_t before = in.n;
    wdispatch(s, "{\"id\":9,\"method\":\"Debugger.stepOver\"}");
    check(pump_for(s, &in, "\"id\":9,\"result\"", NULL) != NULL, "stepOver answers");
    const char *step = NULL;
    for (int i = 0; i < 100 && step == NULL; i++) {
        for (size_t j = before; j < in.n && step == NULL; j++) {
            if (strstr(in.msgs[j], "Debugger.paused") != NULL) {
                step = in.msgs[j];
            }
        }
        if (step == NULL && ZJSWorkerInspectorSessionPump(s, 5000) != kZJSWorkerInspectorPumpMessage) {
            break;
        }
    }
    check(step != NULL && strstr(step, "\"lineNumber\":3") != NULL && strstr(step, "\"reason\":\"other\"") != NULL,
          "the step pauses on the next line (3)");

    wdispatch(s, "{\"id\":10,\"method\":\"Debugger.resume\"}");
    const char *exc = pump_for(s, &in, "Debugger.paused", "\"reason\":\"exception\"");
    check(exc != NULL && strstr(exc, "\"value\":103") != NULL, "the caught throw pauses with the thrown value 103");
    wdispatch(s, "{\"id\":11,\"method\":\"Debugger.resume\"}");
    check(reply(w, ctx, 10000) == 104, "the worker replies 104 (the write to x stuck)");
    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

static const char *pausing = "onmessage = (e) => { debugger; postMessage(e.data + 1); };";

/* Releasing the only session while paused resumes the worker; terminating a paused worker ends it. */
static void test_detach_and_terminate(JSContextRef ctx) {
    JSWorkerRef w = inspectable_worker(pausing, NULL);
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    wdispatch(s, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    post_number(w, ctx, 1);
    check(pump_for(s, &in, "Debugger.paused", NULL) != NULL, "paused");
    ZJSWorkerInspectorSessionRelease(s);
    check(reply(w, ctx, 10000) == 2, "releasing the session while paused resumes the worker, which replies");
    JSWorkerRelease(w);
    inbox_free(&in);

    w = inspectable_worker(pausing, NULL);
    s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    wdispatch(s, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    post_number(w, ctx, 1);
    check(pump_for(s, &in, "Debugger.paused", NULL) != NULL, "paused again");
    JSWorkerTerminate(w);
    check(JSWorkerReceive(w, ctx, 10000, NULL) == NULL, "terminate while paused ends the worker: no reply");
    ZJSInspectorTargetInfo info = {0};
    check(ZJSWorkerGetInspectorTargetInfo(w, &info) && info.state == kZJSInspectorTargetStateClosed,
          "the terminated worker is closed");
    check(pump_for(s, &in, "Inspector.detached", NULL) != NULL, "the session hears the target go");
    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

/* The first session to enable owns the pause; an observer sees it but cannot resume; releasing the owner resumes. */
static void test_owner_and_observer(JSContextRef ctx) {
    JSWorkerRef w = inspectable_worker(pausing, NULL);
    inbox ain = {0}, bin = {0};
    ZJSWorkerInspectorSessionRef a = ZJSWorkerInspectorSessionCreate(w, on_message, &ain);
    ZJSWorkerInspectorSessionRef b = ZJSWorkerInspectorSessionCreate(w, on_message, &bin);
    wdispatch(a, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    check(pump_for(a, &ain, "\"id\":1,\"result\"", NULL) != NULL, "owner enables first");
    wdispatch(b, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    check(pump_for(b, &bin, "\"id\":1,\"result\"", NULL) != NULL, "observer enables second");
    post_number(w, ctx, 5);
    check(pump_for(a, &ain, "Debugger.paused", NULL) != NULL, "the owner gets the pause");
    check(pump_for(b, &bin, "Debugger.paused", NULL) != NULL, "the observer gets the pause");
    wdispatch(b, "{\"id\":2,\"method\":\"Debugger.resume\"}");
    check(pump_for(b, &bin, "\"id\":2,\"error\"", "owns this pause") != NULL, "the observer's resume is refused");
    wdispatch(b, "{\"id\":3,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"6 * 7\"}}");
    check(pump_for(b, &bin, "\"id\":3,", "\"value\":42") != NULL, "the observer may inspect the pause");
    check(JSWorkerReceive(w, ctx, 0, NULL) == NULL, "still paused");
    ZJSWorkerInspectorSessionRelease(a);
    check(pump_for(b, &bin, "Debugger.resumed", NULL) != NULL, "releasing the owner resumes: the observer hears it");
    check(reply(w, ctx, 10000) == 6, "the worker replies");
    ZJSWorkerInspectorSessionRelease(b);
    JSWorkerRelease(w);
    inbox_free(&ain);
    inbox_free(&bin);
}

/* Two workers paused at once while a main context pauses inside JSEvaluateScript and resumes from its callback;
 * then each worker resumes on its own. */
static void test_two_workers_and_a_context(JSContextRef ctx) {
    JSWorkerRef w1 = inspectable_worker(pausing, "one.js");
    JSWorkerRef w2 = inspectable_worker(pausing, "two.js");
    inbox in1 = {0}, in2 = {0}, cin = {0};
    ZJSWorkerInspectorSessionRef s1 = ZJSWorkerInspectorSessionCreate(w1, on_message, &in1);
    ZJSWorkerInspectorSessionRef s2 = ZJSWorkerInspectorSessionCreate(w2, on_message, &in2);
    wdispatch(s1, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    wdispatch(s2, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    post_number(w1, ctx, 1);
    post_number(w2, ctx, 2);
    check(pump_for(s1, &in1, "Debugger.paused", "one.js") != NULL, "worker one pauses");
    check(pump_for(s2, &in2, "Debugger.paused", "two.js") != NULL, "worker two pauses");

    JSGlobalContextRef main = JSGlobalContextCreate(NULL);
    JSGlobalContextSetInspectable(main, true);
    ZJSInspectorSessionRef cs = ZJSInspectorSessionCreate(main, on_message, &cin);
    cdispatch(cs, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    check(find(&cin, "\"id\":1,\"result\"", NULL) != NULL, "the context's Debugger.enable answers synchronously");
    cin.act_text = "\"method\":\"Debugger.paused\"";
    cin.act_command = "{\"id\":2,\"method\":\"Debugger.resume\"}";
    cin.act_context = cs;
    JSStringRef script = JSStringCreateWithUTF8CString("debugger; 40 + 2;");
    JSStringRef name = JSStringCreateWithUTF8CString("main.js");
    JSValueRef exception = NULL;
    JSValueRef v = JSEvaluateScript(main, script, NULL, name, 1, &exception);
    JSStringRelease(script);
    JSStringRelease(name);
    check(v != NULL && JSValueToNumber(main, v, NULL) == 42,
          "the main context paused at debugger;, resumed from its callback, and the script returned 42");
    check(find(&cin, "Debugger.paused", "main.js") != NULL && find(&cin, "\"id\":2,\"result\"", NULL) != NULL &&
              find(&cin, "Debugger.resumed", NULL) != NULL,
          "the context session saw paused, the resume's answer and resumed");
    check(all_on_this_thread(&cin), "the context's callbacks ran on the owner thread");

    check(JSWorkerReceive(w1, ctx, 0, NULL) == NULL && JSWorkerReceive(w2, ctx, 0, NULL) == NULL,
          "both workers are still paused");
    wdispatch(s2, "{\"id\":2,\"method\":\"Debugger.resume\"}");
    check(reply(w2, ctx, 10000) == 3, "worker two resumes alone and replies 3");
    check(JSWorkerReceive(w1, ctx, 0, NULL) == NULL, "worker one is still paused");
    wdispatch(s1, "{\"id\":2,\"method\":\"Debugger.resume\"}");
    check(reply(w1, ctx, 10000) == 2, "worker one resumes and replies 2");

    ZJSInspectorSessionRelease(cs);
    JSGlobalContextRelease(main);
    ZJSWorkerInspectorSessionRelease(s1);
    ZJSWorkerInspectorSessionRelease(s2);
    JSWorkerRelease(w1);
    JSWorkerRelease(w2);
    inbox_free(&in1);
    inbox_free(&in2);
    inbox_free(&cin);
}

/* next_paused pumps s until a Debugger.paused arrives after message index from, and returns it (NULL if none). */
static const char *next_paused(ZJSWorkerInspectorSessionRef s, inbox *in, size_t from) {
    for (int i = 0; i < 100; i++) {
        for (size_t j = from; j < in->n; j++) {
            if (strstr(in->msgs[j], "\"method\":\"Debugger.paused\"") != NULL) {
                return in->msgs[j];
            }
        }
        if (ZJSWorkerInspectorSessionPump(s, 5000) != kZJSWorkerInspectorPumpMessage) {
            return NULL;
        }
    }
    return NULL;
}

/* top_line returns the lineNumber of the first call frame of a Debugger.paused message, or -1. */
static int top_line(const char *paused) {
    const char *p = paused != NULL ? strstr(paused, "\"lineNumber\":") : NULL;
    return p != NULL ? atoi(p + strlen("\"lineNumber\":")) : -1;
}

/* Stepping into, over and out across nested calls; a conditional breakpoint; getPossibleBreakpoints. */
static void test_stepping_and_conditions(JSContextRef ctx) {
    JSWorkerRef w = inspectable_worker("function c() {\n"
                                       "  return 1;\n"
                                       "}\n"
                                       "function b(n) {\n"
                                       "  var r = c();\n"
                                       "  return r + n;\n"
                                       "}\n"
                                       "onmessage = function (e) {\n"
                                       "  debugger;\n"
                                       "  var v = b(e.data);\n"
                                       "  for (var i = 0; i < 3; i++) { v += i; }\n"
                                       "  postMessage(v);\n"
                                       "};\n",
                                       "step.js");
    inbox in = {0};
    ZJSWorkerInspectorSessionRef s = ZJSWorkerInspectorSessionCreate(w, on_message, &in);
    char buf[512], script_id[32], frame[64];
    wdispatch(s, "{\"id\":1,\"method\":\"Debugger.enable\"}");
    string_field(pump_for(s, &in, "Debugger.scriptParsed", NULL), "scriptId", script_id, sizeof script_id);
    post_number(w, ctx, 10);
    int lines[6];
    const char *steps[] = {NULL, "stepOver", "stepInto", "stepInto", "stepOut", "stepOut"};
    for (int i = 0; i < 6; i++) {
        size_t from = in.n;
        if (steps[i] != NULL) {
            snprintf(buf, sizeof buf, "{\"id\":%d,\"method\":\"Debugger.%s\"}", 10 + i, steps[i]);
            wdispatch(s, buf);
        }
        lines[i] = top_line(next_paused(s, &in, from));
    }
    check(lines[0] == 8 && lines[1] == 9 && lines[2] == 4 && lines[3] == 1 && lines[4] == 5 && lines[5] == 10,
          "debugger; stepOver, stepInto, stepInto, stepOut, stepOut pause at lines 8 9 4 1 5 10 (got %d %d %d %d %d %d)",
          lines[0], lines[1], lines[2], lines[3], lines[4], lines[5]);

    int col = (int)(strstr("  for (var i = 0; i < 3; i++) { v += i; }", "v += i") -
                    "  for (var i = 0; i < 3; i++) { v += i; }");
    snprintf(buf, sizeof buf,
             "{\"id\":20,\"method\":\"Debugger.getPossibleBreakpoints\",\"params\":{\"start\":{\"scriptId\":\"%s\","
             "\"lineNumber\":10,\"columnNumber\":0},\"end\":{\"scriptId\":\"%s\",\"lineNumber\":11,\"columnNumber\":0}}}",
             script_id, script_id);
    wdispatch(s, buf);
    const char *possible = pump_for(s, &in, "\"id\":20,", NULL);
    char want[64];
    snprintf(want, sizeof want, "\"lineNumber\":10,\"columnNumber\":%d", col);
    check(possible != NULL && strstr(possible, "\"lineNumber\":10,\"columnNumber\":2") != NULL &&
              strstr(possible, want) != NULL && strstr(possible, "\"lineNumber\":11") == NULL,
          "getPossibleBreakpoints lists the for statement and its body on line 10");
    snprintf(buf, sizeof buf,
             "{\"id\":21,\"method\":\"Debugger.setBreakpointByUrl\",\"params\":{\"url\":\"step.js\",\"lineNumber\":10,"
             "\"columnNumber\":%d,\"condition\":\"i === 2\"}}",
             col);
    wdispatch(s, buf);
    check(pump_for(s, &in, "\"id\":21,\"result\"", NULL) != NULL, "a conditional breakpoint inside the loop");
    size_t from = in.n;
    wdispatch(s, "{\"id\":22,\"method\":\"Debugger.resume\"}");
    const char *hit = next_paused(s, &in, from);
    check(hit != NULL && strstr(hit, "hitBreakpoints\":[\"") != NULL, "the conditional breakpoint hits");
    string_field(hit, "callFrameId", frame, sizeof frame);
    snprintf(buf, sizeof buf,
             "{\"id\":23,\"method\":\"Debugger.evaluateOnCallFrame\",\"params\":{\"callFrameId\":\"%s\","
             "\"expression\":\"i\"}}",
             frame);
    wdispatch(s, buf);
    check(pump_for(s, &in, "\"id\":23,", "\"value\":2") != NULL, "only when its condition holds: i is 2");
    wdispatch(s, "{\"id\":24,\"method\":\"Debugger.resume\"}");
    check(reply(w, ctx, 10000) == 14, "the worker replies 11 + 0 + 1 + 2 = 14");
    ZJSWorkerInspectorSessionRelease(s);
    JSWorkerRelease(w);
    inbox_free(&in);
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_resume_from_callback(ctx);
    test_breakpoint_walkthrough(ctx);
    test_detach_and_terminate(ctx);
    test_owner_and_observer(ctx);
    test_stepping_and_conditions(ctx);
    test_two_workers_and_a_context(ctx);
    JSGlobalContextRelease(ctx);
    return check_done();
}
