/*
 * class_test.c - JavaScriptCore's class API: JSClassCreate with kJSClassDefinitionEmpty, private data, static
 * functions and values, parent classes, initialize and finalize (exactly once, on the owner thread, when the
 * collector drops an object and at the latest at JSGlobalContextRelease), the property callbacks (has, get, set,
 * delete, getPropertyNames), callAsFunction, callAsConstructor, hasInstance, convertToType, JSObjectMakeConstructor,
 * JSObjectCallAsConstructor, JSObjectIsConstructor, JSValueIsObjectOfClass, a global object class, one class used
 * in two contexts of two threads, and misuse.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

#include <pthread.h>

static JSValueRef num(JSContextRef ctx, double d) { return JSValueMakeNumber(ctx, d); }

static JSValueRef evalv(JSContextRef ctx, const char *src, JSValueRef *exc) {
    JSStringRef s = str(src);
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, exc);
    JSStringRelease(s);
    return v;
}

static void set_global(JSContextRef ctx, const char *name, JSValueRef v) {
    JSStringRef n = str(name);
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, v, 0, NULL);
    JSStringRelease(n);
}

static double eval_num(JSContextRef ctx, const char *src) {
    JSValueRef exc = NULL;
    JSValueRef v = evalv(ctx, src, &exc);
    if (v == NULL) {
        printf("     (%s threw %s)\n", src, value_text(ctx, exc));
        return -999999;
    }
    return JSValueToNumber(ctx, v, NULL);
}

static const char *eval_str(JSContextRef ctx, const char *src) {
    JSValueRef exc = NULL;
    JSValueRef v = evalv(ctx, src, &exc);
    return value_text(ctx, v != NULL ? v : exc);
}

/* ----- A "Point" class: private data, statics, initialize, finalize. ----- */

struct point {
    double x, y;
};

static int initialized, finalized, baseInitialized, baseFinalized, order[8], orderLen;
static pthread_t finalizeThread;
static int finalizeSawPrivate;

static void point_init(JSContextRef ctx, JSObjectRef object) {
    (void)ctx;
    (void)object;
    initialized++;
    order[orderLen++ % 8] = 2;
}

static void point_finalize(JSObjectRef object) {
    struct point *p = JSObjectGetPrivate(object);
    finalizeSawPrivate += p != NULL;
    free(p);
    JSObjectSetPrivate(object, NULL);
    finalized++;
    finalizeThread = pthread_self();
    order[orderLen++ % 8] = 3;
}

static void base_init(JSContextRef ctx, JSObjectRef object) {
    (void)ctx;
    (void)object;
    baseInitialized++;
    order[orderLen++ % 8] = 1;
}

static void base_finalize(JSObjectRef object) {
    (void)object;
    baseFinalized++;
    order[orderLen++ % 8] = 4;
}

static JSValueRef point_norm2(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                              const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)argc;
    (void)argv;
    struct point *p = JSObjectGetPrivate(thisObject);
    if (p == NULL) {
        JSStringRef m = str("norm2: not a Point");
        JSValueRef mv = JSValueMakeString(ctx, m);
        JSStringRelease(m);
        *exception = JSObjectMakeError(ctx, 1, &mv, NULL);
        return NULL;
    }
    return num(ctx, p->x * p->x + p->y * p->y);
}

static JSValueRef point_get_x(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef *exception) {
    (void)name;
    (void)exception;
    struct point *p = JSObjectGetPrivate(object);
    return p ? num(ctx, p->x) : NULL;
}

static bool point_set_x(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef value,
                        JSValueRef *exception) {
    (void)name;
    struct point *p = JSObjectGetPrivate(object);
    if (p == NULL) {
        return false;
    }
    p->x = JSValueToNumber(ctx, value, exception);
    return true;
}

static JSValueRef point_get_y(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef *exception) {
    (void)name;
    (void)exception;
    struct point *p = JSObjectGetPrivate(object);
    return p ? num(ctx, p->y) : NULL;
}

static JSValueRef base_hello(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                             const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    (void)argc;
    (void)argv;
    (void)exception;
    JSStringRef s = str("hello from Base");
    JSValueRef v = JSValueMakeString(ctx, s);
    JSStringRelease(s);
    return v;
}

static JSClassRef baseClass, pointClass;

static void make_classes(void) {
    static const JSStaticFunction baseFuncs[] = {{"hello", base_hello, kJSPropertyAttributeDontEnum}, {NULL, NULL, 0}};
    JSClassDefinition b = kJSClassDefinitionEmpty;
    b.className = "Base";
    b.staticFunctions = baseFuncs;
    b.initialize = base_init;
    b.finalize = base_finalize;
    baseClass = JSClassCreate(&b);

    static const JSStaticFunction funcs[] = {{"norm2", point_norm2, kJSPropertyAttributeDontEnum}, {NULL, NULL, 0}};
    static const JSStaticValue values[] = {{"x", point_get_x, point_set_x, kJSPropertyAttributeNone},
                                           {"y", point_get_y, NULL, kJSPropertyAttributeReadOnly},
                                           {NULL, NULL, NULL, 0}};
    JSClassDefinition d = kJSClassDefinitionEmpty;
    d.className = "Point";
    d.parentClass = baseClass;
    d.staticFunctions = funcs;
    d.staticValues = values;
    d.initialize = point_init;
    d.finalize = point_finalize;
    pointClass = JSClassCreate(&d);
}

static JSObjectRef new_point(JSContextRef ctx, double x, double y) {
    struct point *p = malloc(sizeof *p);
    p->x = x;
    p->y = y;
    return JSObjectMake(ctx, pointClass, p);
}

static void test_point(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    initialized = finalized = baseInitialized = baseFinalized = orderLen = 0;
    JSObjectRef p = new_point(ctx, 3, 4);
    check(p != NULL && initialized == 1 && baseInitialized == 1 && order[0] == 1 && order[1] == 2,
          "JSObjectMake with a class runs initialize, the parent's first");
    check(JSObjectGetPrivate(p) != NULL && ((struct point *)JSObjectGetPrivate(p))->x == 3,
          "JSObjectGetPrivate returns the data given to JSObjectMake");
    set_global(ctx, "p", p);
    check(eval_num(ctx, "p.norm2()") == 25, "a static function reads the private data: p.norm2() = 25");
    check(eval_num(ctx, "p.x") == 3 && eval_num(ctx, "p.y") == 4, "static values: p.x = 3, p.y = 4");
    eval(ctx, "p.x = 6");
    check(((struct point *)JSObjectGetPrivate(p))->x == 6 && eval_num(ctx, "p.norm2()") == 52,
          "a static value's setter writes the private data");
    eval(ctx, "p.y = 100");
    check(eval_num(ctx, "p.y") == 4, "a read-only static value ignores assignment (sloppy)");
    check(strcmp(eval_str(ctx, "(function () { 'use strict'; try { p.y = 1; return 'no throw'; } catch (e) { return e.name; } })()"),
                 "TypeError") == 0,
          "and throws in strict code");
    check(strcmp(eval_str(ctx, "p.hello()"), "hello from Base") == 0, "the parent class's static function");
    check(strcmp(eval_str(ctx, "Object.prototype.toString.call(p)"), "[object Point]") == 0,
          "className is the toString tag: %s", eval_str(ctx, "Object.prototype.toString.call(p)"));
    check(strcmp(eval_str(ctx, "Object.keys(p).join()"), "") == 0 && strcmp(eval_str(ctx, "'norm2' in p"), "true") == 0,
          "DontEnum statics are not enumerated but exist");
    check(strcmp(eval_str(ctx, "try { p.norm2.call({}) } catch (e) { e.message }"), "norm2: not a Point") == 0,
          "a static function called on another object gets NULL private data");
    check(JSValueIsObjectOfClass(ctx, p, pointClass) && JSValueIsObjectOfClass(ctx, p, baseClass),
          "JSValueIsObjectOfClass: of its class and of the parent");
    JSObjectRef plain = JSObjectMake(ctx, NULL, NULL);
    check(!JSValueIsObjectOfClass(ctx, plain, pointClass) && JSObjectGetPrivate(plain) == NULL &&
              !JSObjectSetPrivate(plain, (void *)1),
          "a plain object: not of the class, no private data, SetPrivate false");
    JSObjectRef b = JSObjectMake(ctx, baseClass, NULL);
    check(!JSValueIsObjectOfClass(ctx, b, pointClass), "a Base object is not a Point");
    int dummy;
    check(JSObjectSetPrivate(b, &dummy) && JSObjectGetPrivate(b) == &dummy, "JSObjectSetPrivate replaces the data");

    /* Objects dropped by JavaScript are finalized by the collector, before the context is released. */
    enum { N = 200 };
    int before = finalized;
    for (int i = 0; i < N; i++) {
        ZJSHandleScopeRef s = ZJSHandleScopeOpen(ctx);
        new_point(ctx, i, i);
        ZJSHandleScopeClose(ctx, s);
    }
    double deadline = now_ms() + 20000;
    while (finalized == before && now_ms() < deadline) {
        JSGarbageCollect(ctx);
    }
    check(finalized > before && pthread_equal(finalizeThread, pthread_self()),
          "dropped objects are finalized before the release, on the owner thread (%d of %d)", finalized - before, N);
    int total = 1 + 1 + N; /* p, b and the loop's */
    JSGlobalContextRelease(ctx);
    check(finalized == total - 1 && baseFinalized == total,
          "after JSGlobalContextRelease every object was finalized exactly once: Point %d of %d, Base %d of %d",
          finalized, total - 1, baseFinalized, total);
    check(finalizeSawPrivate == finalized, "each finalizer read its object's private data");
}

/* ----- The global object's class. ----- */

static int globalInit, globalFinal;
static void global_init(JSContextRef ctx, JSObjectRef object) {
    (void)ctx;
    (void)object;
    globalInit++;
}
static void global_finalize(JSObjectRef object) {
    globalFinal += JSObjectGetPrivate(object) == &globalFinal;
}
static JSValueRef global_answer(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                                const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    (void)argc;
    (void)argv;
    (void)exception;
    return num(ctx, 42);
}

static void test_global_class(void) {
    static const JSStaticFunction funcs[] = {{"answer", global_answer, 0}, {NULL, NULL, 0}};
    JSClassDefinition d = kJSClassDefinitionEmpty;
    d.className = "HostGlobal";
    d.staticFunctions = funcs;
    d.initialize = global_init;
    d.finalize = global_finalize;
    JSClassRef cls = JSClassCreate(&d);
    JSGlobalContextRef ctx = JSGlobalContextCreate(cls);
    check(ctx != NULL && globalInit == 1, "JSGlobalContextCreate with a class: initialize ran on the global object");
    check(eval_num(ctx, "answer()") == 42, "its static function is a global: answer() = 42");
    JSObjectRef g = JSContextGetGlobalObject(ctx);
    check(JSValueIsObjectOfClass(ctx, g, cls) && JSObjectSetPrivate(g, &globalFinal),
          "the global object is of the class and holds private data");
    check(strcmp(eval_str(ctx, "typeof console.log + typeof JSON"), "functionobject") == 0,
          "the standard globals are still there");
    JSGlobalContextRelease(ctx);
    check(globalFinal == 1, "the global object's finalizer ran in JSGlobalContextRelease, with its private data");
    JSClassRelease(cls);
}

/* ----- One class, two threads. ----- */

static void *other_thread(void *arg) {
    int *ok = arg;
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    int before = finalized;
    JSObjectRef p = new_point(ctx, 1, 2);
    set_global(ctx, "p", p);
    *ok = eval_num(ctx, "p.norm2()") == 5 && JSValueIsObjectOfClass(ctx, p, pointClass);
    JSGlobalContextRelease(ctx);
    *ok = *ok && finalized == before + 1 && pthread_equal(finalizeThread, pthread_self());
    return NULL;
}

struct foreign {
    JSGlobalContextRef ctx;
    JSObjectRef p;
    int refused;
};

static void *foreign_private(void *arg) {
    struct foreign *f = arg;
    f->refused = JSObjectGetPrivate(f->p) == NULL && !JSObjectSetPrivate(f->p, NULL) &&
                 !JSValueIsObjectOfClass(f->ctx, f->p, pointClass) && JSObjectMake(f->ctx, pointClass, NULL) == NULL;
    return NULL;
}

static void test_threads_and_misuse(void) {
    int ok = 0;
    pthread_t t;
    pthread_create(&t, NULL, other_thread, &ok);
    pthread_join(t, NULL);
    check(ok, "a class made on one thread works in a context of another; its finalizer runs on that thread");

    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    check(JSClassCreate(NULL) == NULL, "JSClassCreate(NULL) = NULL");
    JSClassDefinition d = kJSClassDefinitionEmpty;
    d.parentClass = (JSClassRef)(uintptr_t)12345;
    check(JSClassCreate(&d) == NULL, "a bogus parentClass is refused");
    check(JSObjectMake(ctx, (JSClassRef)(uintptr_t)12345, NULL) == NULL, "JSObjectMake with a bogus class: NULL");
    JSClassDefinition e = kJSClassDefinitionEmpty;
    JSClassRef tmp = JSClassCreate(&e);
    check(JSClassRetain(tmp) == tmp, "JSClassRetain returns the class");
    JSClassRelease(tmp);
    JSClassRelease(tmp);
    check(JSObjectMake(ctx, tmp, NULL) == NULL && JSClassRetain(tmp) == NULL,
          "after the last release the handle is stale: refused");
    JSClassRelease(tmp); /* a no-op */
    check(JSGlobalContextCreate((JSClassRef)(uintptr_t)1) == NULL, "JSGlobalContextCreate with a bogus class: NULL");
    check(JSObjectGetPrivate(NULL) == NULL && !JSObjectSetPrivate(NULL, NULL), "Get/SetPrivate(NULL): NULL/false");
    check(JSClassRetain(NULL) == NULL, "JSClassRetain(NULL) = NULL");
    JSClassRelease(NULL); /* a no-op */
    check(JSObjectMake(ctx, (JSClassRef)ctx, NULL) == NULL, "a context passed as the class: refused");
    ZJSHandleScopeRef sc = ZJSHandleScopeOpen(ctx);
    JSObjectRef dead = new_point(ctx, 1, 1);
    ZJSHandleScopeClose(ctx, sc);
    check(JSObjectGetPrivate(dead) == NULL && !JSObjectSetPrivate(dead, NULL) &&
              !JSValueIsObjectOfClass(ctx, dead, pointClass),
          "a stale object handle: no private data, not of the class");
    JSValueRef n = JSValueMakeNumber(ctx, 1);
    check(JSObjectGetPrivate((JSObjectRef)n) == NULL && !JSValueIsObjectOfClass(ctx, n, pointClass),
          "a number has no private data and no class");
    check(!JSValueIsObjectOfClass(ctx, JSObjectMake(ctx, NULL, NULL), NULL), "JSValueIsObjectOfClass(NULL class)");
    check(JSObjectMakeConstructor(ctx, (JSClassRef)(uintptr_t)7, NULL) == NULL, "JSObjectMakeConstructor: bogus class");
    check(!JSObjectIsConstructor(ctx, NULL) && JSObjectCallAsConstructor(ctx, NULL, 0, NULL, NULL) == NULL,
          "NULL objects: false/NULL");
    check(JSObjectCallAsConstructor(ctx, (JSObjectRef)eval(ctx, "Date"), 1, NULL, NULL) == NULL,
          "arguments NULL with a count: NULL");
    /* A handle from this thread used on another: GetPrivate, SetPrivate and IsObjectOfClass refuse it. */
    struct foreign f = {.ctx = ctx, .p = new_point(ctx, 1, 1)};
    pthread_create(&t, NULL, foreign_private, &f);
    pthread_join(t, NULL);
    check(f.refused, "another thread's object: JSObjectGetPrivate NULL, JSObjectSetPrivate false, "
                     "JSValueIsObjectOfClass false");
    JSGlobalContextRelease(ctx);
}

int main(void) {
    make_classes();
    test_point();
    test_global_class();
    test_threads_and_misuse();
    JSClassRelease(pointClass);
    JSClassRelease(baseClass);
    return check_done();
}
