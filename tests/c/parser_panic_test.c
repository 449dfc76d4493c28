/*
 * parser_panic_test.c - source text goja's parser panics on (found by fuzzing) is a catchable SyntaxError at every
 * C entry point that compiles text, as a syntax error is in Node, and never ends the context or the worker:
 * JSEvaluateScript in a main context (plain and inspectable) and in a worker's context (inside its setup callback:
 * the library's fallback after a compile error), JSCheckScriptSyntax, and eval / Function / importScripts-free
 * JavaScript paths inside both. After each, the same context still runs script.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

/* PANIC_SRC makes goja's parser panic (slice bounds out of range in its error recovery). As a C string literal,
 * and as the body of a JavaScript string literal (PANIC_JS). */
#define PANIC_SRC                                                                                                  \
    "function e,b,p={f r)on* take(it, n) { for (const v of it) { if (n-- <= 0) return; yield v; } }\n"            \
    "function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }\n"                       \
    "console.log([...range(0, 10, 3)], [...take("
#define PANIC_JS                                                                                                   \
    "'function e,b,p={f r)on* take(it, n) { for (const v of it) { if (n-- <= 0) return; yield v; } }\\n"          \
    "function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }\\n"                      \
    "console.log([...range(0, 10, 3)], [...take('"

/* is_syntax_error reports whether v is an instance of ctx's SyntaxError. */
static bool is_syntax_error(JSContextRef ctx, JSValueRef v) {
    if (v == NULL || !JSValueIsObject(ctx, v)) return false;
    JSValueRef ctor = eval(ctx, "SyntaxError");
    return ctor != NULL && JSValueIsInstanceOfConstructor(ctx, v, (JSObjectRef)ctor, NULL);
}

/* evaluate_panic runs PANIC_SRC in ctx; it must answer NULL with a SyntaxError exception. */
static bool evaluate_panic(JSContextRef ctx, char *why, size_t n) {
    JSStringRef s = str(PANIC_SRC);
    JSValueRef exc = NULL;
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    JSStringRelease(s);
    snprintf(why, n, "%s", exc != NULL ? value_text(ctx, exc) : "(no exception)");
    return v == NULL && is_syntax_error(ctx, exc) && strstr(why, "the parser failed") != NULL;
}

/* in_script evaluates, inside ctx, each JavaScript way of compiling the text; all must throw a SyntaxError. */
static const char *in_script(JSContextRef ctx) {
    JSValueRef v = eval(ctx, "var src = " PANIC_JS ";"
                             "[() => eval(src), () => (0, eval)(src), () => new Function(src),"
                             " () => (function () { 'use strict'; return eval(src + '') })()].map(function (f) {"
                             "  try { f(); return 'none' } catch (e) { return e instanceof SyntaxError } }).join()");
    return v != NULL ? value_text(ctx, v) : "(threw)";
}

static bool still_runs(JSContextRef ctx) {
    JSValueRef v = eval(ctx, "6 * 7");
    return v != NULL && JSValueToNumber(ctx, v, NULL) == 42;
}

static void test_main_context(bool inspectable) {
    const char *kind = inspectable ? "an inspectable main context" : "a main context";
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    if (inspectable) JSGlobalContextSetInspectable(ctx, true);
    char why[1024];
    check(evaluate_panic(ctx, why, sizeof why), "JSEvaluateScript in %s: NULL and a SyntaxError (%s)", kind, why);
    check(still_runs(ctx), "%s still runs script", kind);
    const char *got = in_script(ctx);
    check(strcmp(got, "true,true,true,true") == 0, "eval, indirect eval, Function, strict eval in %s: %s", kind,
          got);
    check(still_runs(ctx), "%s still runs script after them", kind);

    JSStringRef s = str(PANIC_SRC);
    JSValueRef exc = NULL;
    bool ok = JSCheckScriptSyntax(ctx, s, NULL, 1, &exc);
    JSStringRelease(s);
    check(!ok && is_syntax_error(ctx, exc), "JSCheckScriptSyntax in %s: false and a SyntaxError (%s)", kind,
          exc != NULL ? value_text(ctx, exc) : "(none)");
    JSGlobalContextRelease(ctx);
}

/* The worker's setup callback runs the checks in the worker's own context (the library's guarded-compile fallback)
 * and stores the outcome in userData. */
struct setup_result {
    bool evaluated, ran_after;
    char why[512], in_script[128];
};

static bool setup(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    (void)exception;
    struct setup_result *r = userData;
    r->evaluated = evaluate_panic(ctx, r->why, sizeof r->why);
    snprintf(r->in_script, sizeof r->in_script, "%s", in_script(ctx));
    r->ran_after = still_runs(ctx);
    return true;
}

static void test_worker_context(JSGlobalContextRef host) {
    struct setup_result r = {0};
    ZJSWorkerOptions o = {.size = sizeof o, .setup = setup, .setupUserData = &r};
    JSStringRef s = str("postMessage('alive ' + (6 * 7))"), msg = NULL;
    JSWorkerRef w = ZJSWorkerCreateWithOptions(s, &o, &msg);
    JSStringRelease(s);
    if (msg != NULL) JSStringRelease(msg);
    check(w != NULL, "a worker whose setup evaluates parser-panic text starts");
    check(r.evaluated, "JSEvaluateScript in the worker's context: NULL and a SyntaxError (%s)", r.why);
    check(strcmp(r.in_script, "true,true,true,true") == 0, "eval, indirect eval, Function in the worker: %s",
          r.in_script);
    check(r.ran_after, "the worker's context still runs script");
    JSValueRef v = w != NULL ? JSWorkerReceive(w, host, 20000, NULL) : NULL;
    check(v != NULL && strcmp(value_text(host, v), "alive 42") == 0, "the worker runs its script afterwards: %s",
          value_text(host, v));
    if (w != NULL) JSWorkerRelease(w);
}

/* A worker whose own script evaluates the text catches the SyntaxError and goes on. */
static void test_worker_script(JSGlobalContextRef host) {
    JSWorkerRef w = new_worker("var src = " PANIC_JS ";"
                               "try { eval(src); postMessage('none') } catch (e) {"
                               "  postMessage(e.name + ' ' + (e instanceof SyntaxError)) }");
    JSValueRef v = w != NULL ? JSWorkerReceive(w, host, 20000, NULL) : NULL;
    check(v != NULL && strcmp(value_text(host, v), "SyntaxError true") == 0,
          "a worker's script catches the SyntaxError of eval: %s", value_text(host, v));
    if (w != NULL) JSWorkerRelease(w);
}

int main(void) {
    test_main_context(false);
    test_main_context(true);
    JSGlobalContextRef host = JSGlobalContextCreate(NULL);
    test_worker_context(host);
    test_worker_script(host);
    JSGlobalContextRelease(host);
    return check_done();
}
