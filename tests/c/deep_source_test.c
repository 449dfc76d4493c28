/*
 * deep_source_test.c - source nested far deeper than any parser should recurse (100,000 parentheses: it overflowed
 * goja's parser's Go stack and ended the host) is refused at every C entry point that compiles text with the
 * catchable RangeError V8 throws, "Maximum call stack size exceeded", and never ends the context, the worker or the
 * host: JSEvaluateScript in a main context (plain and inspectable), JSCheckScriptSyntax, JSObjectMakeFunction, eval /
 * Function inside a context, a worker whose script is too deep, and a module worker whose loader serves a module too
 * deep. After each, the same context still runs script.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

#include <stdatomic.h>

#define DEPTH 100000

/* deep returns "(((…1…)))", DEPTH parentheses each side (malloc'd). */
static char *deep(void) {
    char *s = malloc(2 * DEPTH + 2);
    memset(s, '(', DEPTH);
    s[DEPTH] = '1';
    memset(s + DEPTH + 1, ')', DEPTH);
    s[2 * DEPTH + 1] = 0;
    return s;
}

/* is_range_error reports whether v is an instance of ctx's RangeError with V8's message. */
static bool is_range_error(JSContextRef ctx, JSValueRef v) {
    if (v == NULL || !JSValueIsObject(ctx, v)) return false;
    JSValueRef ctor = eval(ctx, "RangeError");
    return ctor != NULL && JSValueIsInstanceOfConstructor(ctx, v, (JSObjectRef)ctor, NULL) &&
           strstr(value_text(ctx, v), "Maximum call stack size exceeded") != NULL;
}

static bool still_runs(JSContextRef ctx) {
    JSValueRef v = eval(ctx, "6 * 7");
    return v != NULL && JSValueToNumber(ctx, v, NULL) == 42;
}

static void test_main_context(bool inspectable) {
    const char *kind = inspectable ? "an inspectable main context" : "a main context";
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    if (inspectable) JSGlobalContextSetInspectable(ctx, true);
    char *src = deep();
    JSStringRef s = str(src);

    JSValueRef exc = NULL;
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    check(v == NULL && is_range_error(ctx, exc), "JSEvaluateScript in %s: NULL and a RangeError (%s)", kind,
          exc != NULL ? value_text(ctx, exc) : "(none)");
    check(still_runs(ctx), "%s still runs script", kind);

    exc = NULL;
    bool ok = JSCheckScriptSyntax(ctx, s, NULL, 1, &exc);
    check(!ok && is_range_error(ctx, exc), "JSCheckScriptSyntax in %s: false and a RangeError (%s)", kind,
          exc != NULL ? value_text(ctx, exc) : "(none)");

    exc = NULL;
    JSObjectRef f = JSObjectMakeFunction(ctx, NULL, 0, NULL, s, NULL, 1, &exc);
    check(f == NULL && is_range_error(ctx, exc), "JSObjectMakeFunction in %s: NULL and a RangeError (%s)", kind,
          exc != NULL ? value_text(ctx, exc) : "(none)");

    JSValueRef got = eval(ctx, "var src = '('.repeat(1e5) + '1' + ')'.repeat(1e5);"
                               "[() => eval(src), () => (0, eval)(src), () => new Function(src)].map(function (f) {"
                               "  try { f(); return 'none' } catch (e) { return e instanceof RangeError } }).join()");
    check(got != NULL && strcmp(value_text(ctx, got), "true,true,true") == 0,
          "eval, indirect eval, Function in %s: %s", kind, got != NULL ? value_text(ctx, got) : "(threw)");
    check(still_runs(ctx), "%s still runs script after them", kind);
    JSStringRelease(s);
    free(src);
    JSGlobalContextRelease(ctx);
}

struct errors {
    atomic_int count;
    char name[64], message[256];
    int kind;
};

static void on_error(JSWorkerRef w, const ZJSErrorInfo *e, void *userData) {
    (void)w;
    struct errors *errs = userData;
    snprintf(errs->name, sizeof errs->name, "%s", e->name);
    snprintf(errs->message, sizeof errs->message, "%s", e->message);
    errs->kind = e->kind;
    atomic_fetch_add(&errs->count, 1);
}

/* A worker's script, too deep: the worker ends with an uncaught RangeError reported, the host goes on. */
static void test_worker_script(JSGlobalContextRef host) {
    static struct errors errs;
    ZJSWorkerOptions o = {.size = sizeof o, .errorCallback = on_error, .errorUserData = &errs};
    char *src = deep();
    JSStringRef s = str(src), msg = NULL;
    JSWorkerRef w = ZJSWorkerCreateWithOptions(s, &o, &msg);
    char *why = msg != NULL ? take_utf8(msg) : NULL;
    JSValueRef exc = NULL;
    bool ended = w == NULL || JSWorkerReceive(w, host, 20000, &exc) == NULL;
    check(ended && (w == NULL ? why != NULL && strstr(why, "Maximum call stack size exceeded") != NULL
                              : atomic_load(&errs.count) == 1 && strcmp(errs.name, "RangeError") == 0),
          "a worker whose script is too deep: refused or ended with a RangeError (%s%s %s)", why ? why : "",
          errs.name, errs.message);
    if (w != NULL) JSWorkerRelease(w);
    free(why);
    JSStringRelease(s);
    free(src);
    check(still_runs(host), "the host context still runs script");
}

static void load(ZJSModuleRequestRef request, const char *specifier, const char *referrerPath, void *userData) {
    (void)referrerPath;
    (void)userData;
    if (strcmp(specifier, "./deep.js") == 0) {
        char *src = deep();
        ZJSModuleRequestResolve(request, "/mods/deep.js", src, strlen(src));
        free(src);
    }
}

/* A module worker whose loader serves a module too deep: reported with the RangeError, the host goes on. */
static void test_module_worker(JSGlobalContextRef host) {
    static struct errors errs;
    ZJSWorkerOptions o = {.size = sizeof o, .errorCallback = on_error, .errorUserData = &errs};
    const char *entry = "import './deep.js';\npostMessage('ran');";
    JSStringRef why = NULL;
    JSWorkerRef w = ZJSWorkerCreateModule("/mods/main.js", entry, strlen(entry), load, NULL, &o, &why);
    JSValueRef exc = NULL;
    check(w != NULL && JSWorkerReceive(w, host, 20000, &exc) == NULL && atomic_load(&errs.count) == 1 &&
              errs.kind == kZJSErrorUncaught && strcmp(errs.name, "RangeError") == 0 &&
              strstr(errs.message, "Maximum call stack size exceeded") != NULL,
          "a module worker importing a module too deep: nothing ran, a RangeError reported (%s: %s)", errs.name,
          errs.message);
    if (w != NULL) JSWorkerRelease(w);
    if (why != NULL) JSStringRelease(why);
    check(still_runs(host), "the host context still runs script after the module worker");
}

int main(void) {
    test_main_context(false);
    test_main_context(true);
    JSGlobalContextRef host = JSGlobalContextCreate(NULL);
    test_worker_script(host);
    test_module_worker(host);
    JSGlobalContextRelease(host);
    return check_done();
}
