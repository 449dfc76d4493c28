/*
 * class_callbacks_test.c - JavaScriptCore's class API, part 2: the property callbacks (hasProperty, getProperty,
 * setProperty, deleteProperty, getPropertyNames and JSPropertyNameAccumulatorAddName), callAsFunction,
 * callAsConstructor, hasInstance, convertToType, JSObjectMakeConstructor, JSObjectCallAsConstructor,
 * JSObjectIsConstructor, kJSClassAttributeNoAutomaticPrototype, and their misuse. Part 1 is class_test.c.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

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

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_bag(ctx);
    test_callable(ctx);
    test_no_prototype(ctx);
    JSGlobalContextRelease(ctx);
    return check_done();
}
