/*
 * hostcall_test - the host function call path (JSObjectMakeFunctionWithCallback) that the native-call benchmark
 * measures: arguments and this as the callback sees them, nested calls that grow the library's argument array while
 * an outer call still reads its own arguments and then throws, argument handles stale once the call returned (and
 * kept alive by JSValueProtect), value handles that outlive a block of 256 and stay distinct, a worker's native
 * called from its JavaScript, and a value of another context refused inside a callback.
 */
#include "check.h"

#include <stdint.h>

static JSValueRef kept;        /* argv[0] of the last call to keep(), protected */
static JSValueRef stale;       /* argv[0] of the last call to remember(), not protected */
static JSGlobalContextRef alien; /* another context, for the wrong-context check */
static int alienRefused;

/* sum adds its numeric arguments. */
static JSValueRef sum(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                      const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    double s = 0;
    for (size_t i = 0; i < argc; i++) {
        s += JSValueToNumber(ctx, argv[i], exception);
    }
    return JSValueMakeNumber(ctx, s);
}

/* outer calls back into JavaScript (inner(), which calls sum with 300 arguments), then checks that its own arguments
 * are intact and throws an error carrying argv[0] + the inner result. */
static JSValueRef outer(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                        const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    if (argc != 2) {
        return NULL;
    }
    JSValueRef inner = argv[1];
    JSValueRef r = JSObjectCallAsFunction(ctx, (JSObjectRef)inner, NULL, 0, NULL, exception);
    if (r == NULL) {
        return NULL;
    }
    double total = JSValueToNumber(ctx, argv[0], NULL) + JSValueToNumber(ctx, r, NULL);
    char msg[64];
    snprintf(msg, sizeof msg, "outer %.0f", total);
    JSStringRef m = str(msg);
    JSValueRef args[1] = {JSValueMakeString(ctx, m)};
    JSStringRelease(m);
    *exception = JSObjectMakeError(ctx, 1, args, NULL);
    return NULL;
}

static JSValueRef keep(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                       const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    (void)exception;
    if (argc > 0) {
        JSValueProtect(ctx, argv[0]);
        kept = argv[0];
    }
    return NULL;
}

static JSValueRef remember(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
    (void)ctx;
    (void)function;
    (void)thisObject;
    (void)exception;
    stale = argc > 0 ? argv[0] : NULL;
    return NULL;
}

/* self_this returns this: the receiver of a method call. */
static JSValueRef self_this(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                            const JSValueRef argv[], JSValueRef *exception) {
    (void)ctx;
    (void)function;
    (void)argc;
    (void)argv;
    (void)exception;
    return thisObject;
}

/* cross tries its argument in another context: refused with an exception naming the other context. */
static JSValueRef cross(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                        const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    (void)exception;
    JSValueRef exc = NULL;
    JSValueRef r = argc > 0 ? JSValueToObject(alien, argv[0], &exc) : NULL;
    alienRefused = r == NULL && exc != NULL && strstr(value_text(alien, exc), "another context") != NULL;
    return JSValueMakeBoolean(ctx, alienRefused);
}

static void install(JSGlobalContextRef ctx, const char *name, JSObjectCallAsFunctionCallback cb) {
    JSStringRef n = str(name);
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, JSObjectMakeFunctionWithCallback(ctx, n, cb), 0, NULL);
    JSStringRelease(n);
}

static bool setup_sum(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    (void)userData;
    (void)exception;
    install(ctx, "sum", sum);
    install(ctx, "outer", outer);
    return true;
}

static void test_main_context(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    alien = JSGlobalContextCreate(NULL);
    install(ctx, "sum", sum);
    install(ctx, "outer", outer);
    install(ctx, "keep", keep);
    install(ctx, "remember", remember);
    install(ctx, "selfThis", self_this);
    install(ctx, "cross", cross);

    JSValueRef v = eval(ctx, "sum(1, 2, 3.5)");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 6.5, "a host function gets its arguments: sum(1, 2, 3.5)");
    v = eval(ctx, "var o = {selfThis: selfThis}; o.selfThis() === o");
    check(v != NULL && JSValueToBoolean(ctx, v), "this is the receiver");
    v = eval(ctx, "var s = 0; for (var i = 0; i < 100000; i++) s = sum(s, 1); s");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 100000, "100,000 calls in a loop: %g",
          v ? JSValueToNumber(ctx, v, NULL) : -1);

    /* outer's arguments survive a nested call with 300 arguments; its exception reaches the script. */
    v = eval(ctx, "var big = []; for (var i = 1; i <= 300; i++) big.push(i);\n"
                  "try { outer(7, function () { return sum.apply(null, big); }); 'no throw' }\n"
                  "catch (e) { e.message }");
    check(v != NULL && strcmp(value_text(ctx, v), "outer 45157") == 0,
          "nested calls: the outer call reads its arguments after an inner call of 300, then throws: %s",
          v ? value_text(ctx, v) : "(null)");
    v = eval(ctx, "var r = []; for (var k = 0; k < 50; k++) { try { outer(k, function () { return sum(k, k); }); }"
                  " catch (e) { r.push(e.message); } } r.join()");
    check(v != NULL && strncmp(value_text(ctx, v), "outer 0,outer 3,outer 6", 23) == 0,
          "50 nested calls in a row throw each their own exception");

    /* An argument dies with the call unless protected. */
    eval(ctx, "remember({a: 1}); keep({b: 2})");
    JSValueRef exc = NULL;
    check(JSValueToObject(ctx, stale, &exc) == NULL && exc != NULL &&
              strstr(value_text(ctx, exc), "no live handle") != NULL,
          "an argument handle is stale after the call: %s", exc ? value_text(ctx, exc) : "(none)");
    JSStringRef b = str("b");
    JSValueRef bv = JSObjectGetProperty(ctx, (JSObjectRef)kept, b, NULL);
    check(bv != NULL && JSValueToNumber(ctx, bv, NULL) == 2, "a protected argument outlives the call");
    JSStringRelease(b);
    JSValueUnprotect(ctx, kept);

    /* Many values at once: distinct handles beyond one block, each still its own value. */
    ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
    enum { N = 1000 };
    static JSValueRef vals[N];
    for (int i = 0; i < N; i++) {
        vals[i] = JSValueMakeNumber(ctx, i);
    }
    int good = 1;
    for (int i = 0; i < N; i++) {
        good &= JSValueToNumber(ctx, vals[i], NULL) == i && (i == 0 || vals[i] != vals[i - 1]);
    }
    check(good, "1,000 live values in one scope: distinct handles, each its own number");
    ZJSValueRelease(ctx, vals[10]);
    exc = NULL;
    JSValueToObject(ctx, vals[10], &exc);
    check(exc != NULL && strstr(value_text(ctx, exc), "no live handle") != NULL && JSValueToNumber(ctx, vals[11], NULL) == 11,
          "one released among them is stale, its neighbour lives");
    ZJSHandleScopeClose(ctx, scope);
    check(JSValueGetType(ctx, vals[500]) == kJSTypeUndefined && JSValueToNumber(ctx, vals[500], NULL) != 500,
          "after the scope closed they are stale");
    uintptr_t before = (uintptr_t)vals[N - 1];
    JSValueRef fresh = JSValueMakeNumber(ctx, 1);
    int reused = 0;
    for (int i = 0; i < N; i++) {
        reused |= vals[i] == fresh;
    }
    check(!reused && (uintptr_t)fresh != before, "a new value never gets a released value's handle");

    v = eval(ctx, "cross({})");
    check(v != NULL && alienRefused, "inside a callback, an argument used with another context is refused");

    /* A value handle used as another kind of handle is refused by kind. */
    exc = NULL;
    check(!JSWorkerPostMessage((JSWorkerRef)fresh, ctx, fresh, &exc) && exc != NULL &&
              strstr(value_text(ctx, exc), "is a value (JSValueRef)") != NULL,
          "a value passed as a worker is refused by kind: %s", exc ? value_text(ctx, exc) : "(none)");
    JSGlobalContextRelease(alien);
    JSGlobalContextRelease(ctx);
}

static void test_worker(void) {
    JSGlobalContextRef host = JSGlobalContextCreate(NULL);
    ZJSWorkerOptions o = {.size = sizeof o, .setup = setup_sum};
    JSStringRef src = str("var s = 0; for (var i = 0; i < 20000; i++) s = sum(s, i % 3);\n"
                          "var big = []; for (var i = 1; i <= 300; i++) big.push(i);\n"
                          "var m; try { outer(1, function () { return sum.apply(null, big); }); } catch (e) { m = e.message; }\n"
                          "postMessage(s + ' ' + m)");
    JSStringRef why = NULL;
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &o, &why);
    JSStringRelease(src);
    char *text = why ? take_utf8(why) : NULL;
    check(w != NULL, "a worker with natives from its setup (%s)", text ? text : "");
    free(text);
    if (w != NULL) {
        JSValueRef v = JSWorkerReceive(w, host, 30000, NULL);
        check(v != NULL && strcmp(value_text(host, v), "19999 outer 45151") == 0,
              "the worker's JavaScript calls its natives, nested and throwing: %s", v ? value_text(host, v) : "(none)");
        JSWorkerRelease(w);
    }
    JSGlobalContextRelease(host);
}

int main(void) {
    test_main_context();
    test_worker();
    return check_done();
}
