/*
 * capi_native_bench - the cost of calling C from JavaScript in a main context (`make bench-c`), beside a plain
 * JavaScript call: a host function (JSObjectMakeFunctionWithCallback) that converts its argument and makes its
 * result, one that calls nothing (the cost of the transition and the handles), a class's static function, a property served
 * by a getProperty callback, and making a 16 MiB NoCopy ArrayBuffer over host memory. Medians of runs (default 5).
 * Not run by `make test`.
 *
 *   capi_native_bench [runs]
 */
#define _POSIX_C_SOURCE 200809L
#include "jsworker.h"
#include "bench_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_RUNS 25
#define CALLS 1000000
#define NOCOPY_MIB 16
#define NOCOPY_REPS 200

static void die(const char *what) {
    fprintf(stderr, "capi_native_bench: %s failed\n", what);
    exit(1);
}

/* inc returns its argument plus one. */
static JSValueRef inc(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                      const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    return JSValueMakeNumber(ctx, (argc > 0 ? JSValueToNumber(ctx, argv[0], exception) : 0) + 1);
}

/* nop returns undefined without calling the library: the cost of the call itself. */
static JSValueRef nop(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                      const JSValueRef argv[], JSValueRef *exception) {
    (void)ctx;
    (void)function;
    (void)thisObject;
    (void)argc;
    (void)argv;
    (void)exception;
    return NULL;
}

static JSValueRef get_seven(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef *exception) {
    (void)object;
    (void)exception;
    return JSStringIsEqualToUTF8CString(name, "seven") ? JSValueMakeNumber(ctx, 7) : NULL;
}

/* per_call_ns runs `loop` (which makes CALLS calls and returns a number) and returns ns per call. */
static double per_call_ns(JSContextRef ctx, const char *loop) {
    JSStringRef src = JSStringCreateWithUTF8CString(loop);
    JSValueRef exc = NULL;
    JSEvaluateScript(ctx, src, NULL, NULL, 1, &exc); /* warm-up */
    double t0 = now_ns();
    JSValueRef v = JSEvaluateScript(ctx, src, NULL, NULL, 1, &exc);
    double ns = (now_ns() - t0) / CALLS;
    JSStringRelease(src);
    if (v == NULL || exc != NULL) {
        die(loop);
    }
    return ns;
}

static void noop_free(void *bytes, void *context) {
    (void)bytes;
    (*(int *)context)++;
}

/* nocopy_us: JSObjectMakeArrayBufferWithBytesNoCopy over 16 MiB and a Uint8Array over it, read back by a script;
 * mean µs per buffer. */
static double nocopy_us(JSContextRef ctx, unsigned char *mem, int *frees) {
    JSStringRef name = JSStringCreateWithUTF8CString("buf");
    JSStringRef read = JSStringCreateWithUTF8CString("new Uint8Array(buf)[buf.byteLength - 1]");
    JSObjectRef global = JSContextGetGlobalObject(ctx);
    double t0 = now_ns();
    for (int i = 0; i < NOCOPY_REPS; i++) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, mem, (size_t)NOCOPY_MIB << 20, noop_free, frees,
                                                                NULL);
        JSObjectSetProperty(ctx, global, name, ab, 0, NULL);
        JSValueRef v = JSEvaluateScript(ctx, read, NULL, NULL, 1, NULL);
        if (v == NULL || JSValueToNumber(ctx, v, NULL) != 0xAB) {
            die("nocopy read");
        }
        ZJSHandleScopeClose(ctx, scope);
    }
    double us = (now_ns() - t0) / 1e3 / NOCOPY_REPS;
    JSStringRelease(name);
    JSStringRelease(read);
    return us;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1 || runs > MAX_RUNS) {
        runs = 5;
    }
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSObjectRef global = JSContextGetGlobalObject(ctx);
    JSStringRef incName = JSStringCreateWithUTF8CString("nativeInc");
    JSObjectSetProperty(ctx, global, incName, JSObjectMakeFunctionWithCallback(ctx, incName, inc), 0, NULL);
    JSStringRelease(incName);
    JSStringRef nopName = JSStringCreateWithUTF8CString("nativeNop");
    JSObjectSetProperty(ctx, global, nopName, JSObjectMakeFunctionWithCallback(ctx, nopName, nop), 0, NULL);
    JSStringRelease(nopName);

    static const JSStaticFunction funcs[] = {{"inc", inc, 0}, {NULL, NULL, 0}};
    JSClassDefinition d = kJSClassDefinitionEmpty;
    d.className = "Native";
    d.staticFunctions = funcs;
    JSClassRef plainClass = JSClassCreate(&d);
    JSClassDefinition g = kJSClassDefinitionEmpty;
    g.getProperty = get_seven;
    JSClassRef getterClass = JSClassCreate(&g);
    JSStringRef on = JSStringCreateWithUTF8CString("obj"), pn = JSStringCreateWithUTF8CString("bag");
    JSObjectSetProperty(ctx, global, on, JSObjectMake(ctx, plainClass, NULL), 0, NULL);
    JSObjectSetProperty(ctx, global, pn, JSObjectMake(ctx, getterClass, NULL), 0, NULL);
    JSStringRelease(on);
    JSStringRelease(pn);

    char js[256], native[256], empty[256], method[256], prop[256];
    snprintf(empty, sizeof empty, "(function () { for (var i = 0; i < %d; i++) nativeNop(i); return i; })()", CALLS);
    snprintf(js, sizeof js, "(function () { function jsInc(a) { return a + 1; } var s = 0; "
                            "for (var i = 0; i < %d; i++) s = jsInc(s); return s; })()", CALLS);
    snprintf(native, sizeof native, "(function () { var s = 0; for (var i = 0; i < %d; i++) s = nativeInc(s); "
                                    "return s; })()", CALLS);
    snprintf(method, sizeof method, "(function () { var s = 0; for (var i = 0; i < %d; i++) s = obj.inc(s); "
                                    "return s; })()", CALLS);
    snprintf(prop, sizeof prop, "(function () { var s = 0; for (var i = 0; i < %d; i++) s += bag.seven; "
                                "return s; })()", CALLS);
    unsigned char *mem = malloc((size_t)NOCOPY_MIB << 20);
    mem[((size_t)NOCOPY_MIB << 20) - 1] = 0xAB;
    int frees = 0;

    double a[MAX_RUNS], b[MAX_RUNS], n[MAX_RUNS], c[MAX_RUNS], e[MAX_RUNS], f[MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        a[r] = per_call_ns(ctx, js);
        b[r] = per_call_ns(ctx, native);
        n[r] = per_call_ns(ctx, empty);
        c[r] = per_call_ns(ctx, method);
        e[r] = per_call_ns(ctx, prop);
        f[r] = nocopy_us(ctx, mem, &frees);
        printf("run %d: JS call %.1f ns, host function %.1f ns (empty: %.1f ns), class static function %.1f ns, "
               "getProperty callback %.1f ns, 16 MiB NoCopy ArrayBuffer %.2f us\n",
               r + 1, a[r], b[r], n[r], c[r], e[r], f[r]);
        fflush(stdout);
    }
    JSGlobalContextRelease(ctx);
    JSClassRelease(plainClass);
    JSClassRelease(getterClass);
    if (frees != runs * NOCOPY_REPS) {
        fprintf(stderr, "capi_native_bench: %d deallocations for %d buffers\n", frees, runs * NOCOPY_REPS);
        return 1;
    }
    free(mem);
    printf("median of %d: JS call %.1f ns, host function %.1f ns (empty: %.1f ns), class static function %.1f ns, "
           "getProperty callback %.1f ns, 16 MiB NoCopy ArrayBuffer %.2f us\n",
           runs, median(a, runs), median(b, runs), median(n, runs), median(c, runs), median(e, runs),
           median(f, runs));
    return 0;
}
