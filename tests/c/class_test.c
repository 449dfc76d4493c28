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

static int exc_has(JSContextRef ctx, JSValueRef exc, const char *text) {
    return exc != NULL && strstr(value_text(ctx, exc), text) != NULL;
}

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

/* ----- A "Bag" class with property callbacks: a fixed set of slots in C. ----- */

static double slots[3] = {10, 20, 30};
static const char *slotNames[3] = {"a", "b", "c"};
static int deleted[3];

static int slot_of(JSStringRef name) {
    for (int i = 0; i < 3; i++) {
        if (!deleted[i] && JSStringIsEqualToUTF8CString(name, slotNames[i])) {
            return i;
        }
    }
    return -1;
}

static bool bag_has(JSContextRef ctx, JSObjectRef object, JSStringRef name) {
    (void)ctx;
    (void)object;
    return slot_of(name) >= 0 || JSStringIsEqualToUTF8CString(name, "boom"); /* has, so getProperty is asked */
}

static JSValueRef bag_get(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef *exception) {
    (void)object;
    if (JSStringIsEqualToUTF8CString(name, "boom")) {
        JSStringRef m = str("bag: boom");
        JSValueRef mv = JSValueMakeString(ctx, m);
        JSStringRelease(m);
        *exception = JSObjectMakeError(ctx, 1, &mv, NULL);
        return NULL;
    }
    int i = slot_of(name);
    return i >= 0 ? num(ctx, slots[i]) : NULL;
}

static bool bag_set(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef value, JSValueRef *exception) {
    (void)object;
    int i = slot_of(name);
    if (i < 0) {
        return false; /* an ordinary property */
    }
    slots[i] = JSValueToNumber(ctx, value, exception);
    return true;
}

static bool bag_delete(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef *exception) {
    (void)ctx;
    (void)object;
    (void)exception;
    int i = slot_of(name);
    if (i < 0) {
        return false;
    }
    deleted[i] = 1;
    return true;
}

static JSPropertyNameAccumulatorRef keptAccumulator;

static void bag_names(JSContextRef ctx, JSObjectRef object, JSPropertyNameAccumulatorRef names) {
    (void)ctx;
    (void)object;
    keptAccumulator = names;
    for (int i = 0; i < 3; i++) {
        if (!deleted[i]) {
            JSStringRef s = str(slotNames[i]);
            JSPropertyNameAccumulatorAddName(names, s);
            JSStringRelease(s);
        }
    }
}

static void test_bag(JSGlobalContextRef ctx) {
    JSClassDefinition d = kJSClassDefinitionEmpty;
    d.className = "Bag";
    d.hasProperty = bag_has;
    d.getProperty = bag_get;
    d.setProperty = bag_set;
    d.deleteProperty = bag_delete;
    d.getPropertyNames = bag_names;
    JSClassRef bag = JSClassCreate(&d);
    JSObjectRef o = JSObjectMake(ctx, bag, NULL);
    set_global(ctx, "bag", o);
    check(eval_num(ctx, "bag.a + bag.b + bag.c") == 60, "getProperty serves a, b, c");
    check(strcmp(eval_str(ctx, "'a' in bag"), "true") == 0 && strcmp(eval_str(ctx, "'zz' in bag"), "false") == 0,
          "hasProperty answers `in`");
    eval(ctx, "bag.b = 99");
    check(slots[1] == 99, "setProperty writes the C slot: %g", slots[1]);
    eval(ctx, "bag.extra = 'own'");
    check(strcmp(eval_str(ctx, "bag.extra"), "own") == 0, "a name the callbacks decline is an ordinary property");
    check(strcmp(eval_str(ctx, "Object.keys(bag).join()"), "extra,a,b,c") == 0,
          "getPropertyNames adds to Object.keys: %s", eval_str(ctx, "Object.keys(bag).join()"));
    check(strcmp(eval_str(ctx, "var ks = []; for (var k in bag) ks.push(k); ks.join()"), "extra,a,b,c") == 0,
          "and to for...in");
    JSPropertyNameArrayRef names = JSObjectCopyPropertyNames(ctx, o);
    check(names != NULL && JSPropertyNameArrayGetCount(names) == 4, "and to JSObjectCopyPropertyNames");
    JSPropertyNameArrayRelease(names);
    check(strcmp(eval_str(ctx, "delete bag.a"), "true") == 0 && deleted[0] &&
              strcmp(eval_str(ctx, "'a' in bag"), "false") == 0,
          "deleteProperty removes a slot");
    check(strcmp(eval_str(ctx, "try { bag.boom; 'no throw' } catch (e) { e.message }"), "bag: boom") == 0,
          "an exception stored by getProperty is thrown to the script");
    check(strcmp(eval_str(ctx, "bag.zz"), "undefined") == 0,
          "a name hasProperty denies is not asked of getProperty: the ordinary lookup answers");
    JSStringRef bn = str("b");
    JSValueRef exc = NULL;
    JSValueRef v = JSObjectGetProperty(ctx, o, bn, &exc);
    JSStringRelease(bn);
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 99, "JSObjectGetProperty goes through the callbacks too");
    check(strcmp(eval_str(ctx, "JSON.stringify(bag)"), "{\"extra\":\"own\",\"b\":99,\"c\":30}") == 0,
          "JSON.stringify sees the callback properties: %s", eval_str(ctx, "JSON.stringify(bag)"));
    JSStringRef late = str("late");
    JSPropertyNameAccumulatorAddName(keptAccumulator, late); /* after its callback: stale, refused */
    JSPropertyNameAccumulatorAddName(NULL, late);
    JSPropertyNameAccumulatorAddName((JSPropertyNameAccumulatorRef)o, late); /* the wrong kind of handle */
    JSStringRelease(late);
    check(strcmp(eval_str(ctx, "Object.keys(bag).join()"), "extra,b,c") == 0,
          "JSPropertyNameAccumulatorAddName outside its callback, NULL or of the wrong kind: refused, no crash");
    JSClassRelease(bag);
    check(eval_num(ctx, "bag.c") == 30, "objects keep working after the class's last release");
}

/* ----- Callable objects and constructors. ----- */

static JSClassRef counterClass;
static int constructed;

static JSValueRef callable_call(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                                const JSValueRef argv[], JSValueRef *exception) {
    (void)function;
    (void)thisObject;
    double s = 0;
    for (size_t i = 0; i < argc; i++) {
        s += JSValueToNumber(ctx, argv[i], exception);
    }
    return num(ctx, s * 2);
}

static JSObjectRef callable_construct(JSContextRef ctx, JSObjectRef constructor, size_t argc,
                                      const JSValueRef argv[], JSValueRef *exception) {
    (void)constructor;
    constructed++;
    double *start = malloc(sizeof *start);
    *start = argc > 0 ? JSValueToNumber(ctx, argv[0], exception) : 0;
    return JSObjectMake(ctx, counterClass, start);
}

static bool callable_has_instance(JSContextRef ctx, JSObjectRef constructor, JSValueRef v, JSValueRef *exception) {
    (void)constructor;
    (void)exception;
    return JSValueIsObjectOfClass(ctx, v, counterClass);
}

static JSValueRef counter_convert(JSContextRef ctx, JSObjectRef object, JSType type, JSValueRef *exception) {
    (void)exception;
    double *start = JSObjectGetPrivate(object);
    if (type == kJSTypeNumber && start != NULL) {
        return num(ctx, *start);
    }
    return NULL; /* strings: the ordinary conversion */
}

static void counter_finalize(JSObjectRef object) { free(JSObjectGetPrivate(object)); }

static void test_callable(JSGlobalContextRef ctx) {
    JSClassDefinition cd = kJSClassDefinitionEmpty;
    cd.className = "Counter";
    cd.convertToType = counter_convert;
    cd.finalize = counter_finalize;
    counterClass = JSClassCreate(&cd);

    JSClassDefinition d = kJSClassDefinitionEmpty;
    d.className = "Callable";
    d.callAsFunction = callable_call;
    d.callAsConstructor = callable_construct;
    d.hasInstance = callable_has_instance;
    JSClassRef cls = JSClassCreate(&d);
    JSObjectRef f = JSObjectMake(ctx, cls, NULL);
    set_global(ctx, "F", f);
    check(JSObjectIsFunction(ctx, f) && JSObjectIsConstructor(ctx, f), "an object with callAsFunction and "
                                                                        "callAsConstructor is a function and a constructor");
    check(eval_num(ctx, "F(1, 2, 3)") == 12, "callAsFunction: F(1, 2, 3) = 12");
    check(strcmp(eval_str(ctx, "typeof F"), "function") == 0, "typeof is function");
    check(eval_num(ctx, "+new F(41)") == 41 && constructed == 1, "callAsConstructor: +new F(41) = 41 (convertToType)");
    check(strcmp(eval_str(ctx, "String(new F(1))"), "[object Counter]") == 0,
          "convertToType returning NULL for a string: the ordinary conversion");
    check(strcmp(eval_str(ctx, "new F(1) instanceof F"), "true") == 0 && strcmp(eval_str(ctx, "({}) instanceof F"), "false") == 0,
          "hasInstance answers instanceof");
    JSValueRef args[1] = {num(ctx, 7)};
    JSValueRef exc = NULL;
    JSObjectRef made = JSObjectCallAsConstructor(ctx, f, 1, args, &exc);
    check(made != NULL && JSValueIsObjectOfClass(ctx, made, counterClass) && *(double *)JSObjectGetPrivate(made) == 7,
          "JSObjectCallAsConstructor runs callAsConstructor");
    JSValueRef r = JSObjectCallAsFunction(ctx, f, NULL, 1, args, &exc);
    check(r != NULL && JSValueToNumber(ctx, r, NULL) == 14, "JSObjectCallAsFunction runs callAsFunction");

    /* JSObjectMakeConstructor */
    JSObjectRef ctorDefault = JSObjectMakeConstructor(ctx, counterClass, NULL);
    set_global(ctx, "Counter", ctorDefault);
    check(JSObjectIsConstructor(ctx, ctorDefault), "JSObjectMakeConstructor makes a constructor");
    check(strcmp(eval_str(ctx, "var c0 = new Counter(); c0 instanceof Counter"), "true") == 0,
          "without a callback it makes objects of its class, and instanceof uses its prototype");
    JSValueRef c0 = eval(ctx, "c0");
    check(JSValueIsObjectOfClass(ctx, c0, counterClass) && JSObjectGetPrivate((JSObjectRef)c0) == NULL,
          "an object of the class without private data");
    JSObjectRef ctorCb = JSObjectMakeConstructor(ctx, counterClass, callable_construct);
    set_global(ctx, "Counter2", ctorCb);
    check(eval_num(ctx, "+new Counter2(5)") == 5 && strcmp(eval_str(ctx, "new Counter2(5) instanceof Counter2"), "true") == 0,
          "with a callback, new runs it");
    exc = NULL;
    JSObjectRef plain = JSObjectMake(ctx, NULL, NULL);
    check(!JSObjectIsConstructor(ctx, plain) && JSObjectCallAsConstructor(ctx, plain, 0, NULL, &exc) == NULL &&
              exc_has(ctx, exc, "not a constructor"),
          "JSObjectCallAsConstructor on a plain object: NULL and a TypeError");
    JSValueRef arrow = eval(ctx, "() => 1");
    check(!JSObjectIsConstructor(ctx, (JSObjectRef)arrow) && JSObjectIsConstructor(ctx, (JSObjectRef)eval(ctx, "Date")),
          "JSObjectIsConstructor: an arrow function is not, Date is");

    /* callAsFunction only */
    JSClassDefinition fd = kJSClassDefinitionEmpty;
    fd.callAsFunction = callable_call;
    JSClassRef fnOnly = JSClassCreate(&fd);
    JSObjectRef g = JSObjectMake(ctx, fnOnly, NULL);
    set_global(ctx, "G", g);
    check(JSObjectIsFunction(ctx, g) && !JSObjectIsConstructor(ctx, g) && eval_num(ctx, "G(5)") == 10,
          "callAsFunction alone: callable, not a constructor");
    JSClassRelease(fnOnly);
    JSClassRelease(cls);
}

/* ----- kJSClassAttributeNoAutomaticPrototype, and convertToType for strings. ----- */

static JSValueRef label_convert(JSContextRef ctx, JSObjectRef object, JSType type, JSValueRef *exception) {
    (void)object;
    (void)exception;
    if (type != kJSTypeString) {
        return NULL;
    }
    JSStringRef s = str("a label");
    JSValueRef v = JSValueMakeString(ctx, s);
    JSStringRelease(s);
    return v;
}

static void test_no_prototype(JSGlobalContextRef ctx) {
    static const JSStaticFunction funcs[] = {{"hello", base_hello, 0}, {NULL, NULL, 0}};
    JSClassDefinition d = kJSClassDefinitionEmpty;
    d.attributes = kJSClassAttributeNoAutomaticPrototype;
    d.staticFunctions = funcs;
    JSClassRef cls = JSClassCreate(&d);
    set_global(ctx, "np", JSObjectMake(ctx, cls, NULL));
    check(strcmp(eval_str(ctx, "Object.getPrototypeOf(np) === Object.prototype && np.hasOwnProperty('hello')"),
                 "true") == 0 &&
              strcmp(eval_str(ctx, "np.hello()"), "hello from Base") == 0,
          "kJSClassAttributeNoAutomaticPrototype: Object.prototype, the statics on the object itself");
    JSClassRelease(cls);

    JSClassDefinition l = kJSClassDefinitionEmpty;
    l.convertToType = label_convert;
    cls = JSClassCreate(&l);
    set_global(ctx, "lab", JSObjectMake(ctx, cls, NULL));
    check(strcmp(eval_str(ctx, "`${lab}` + '|' + String(lab)"), "a label|a label") == 0,
          "convertToType answers a string conversion: %s", eval_str(ctx, "`${lab}` + '|' + String(lab)"));
    check(strcmp(eval_str(ctx, "isNaN(+lab)"), "true") == 0,
          "and declines a number (NULL): the ordinary conversion gives NaN");
    JSClassRelease(cls);
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
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_bag(ctx);
    test_callable(ctx);
    test_no_prototype(ctx);
    JSGlobalContextRelease(ctx);
    test_global_class();
    test_threads_and_misuse();
    JSClassRelease(pointClass);
    JSClassRelease(baseClass);
    return check_done();
}
