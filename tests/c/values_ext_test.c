/*
 * values_ext_test.c - the rest of JavaScriptCore's value API: deferred promises settled from C (and when their
 * reactions run), ZJSPromiseGetState, symbols as keys, the ...ForKey property functions, prototypes, Date, RegExp,
 * functions from source (with their source positions), BigInts and the 64-bit conversions, and misuse.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "check.h"

#include <pthread.h>
#include <stdint.h>

static int exc_has(JSContextRef ctx, JSValueRef exc, const char *text) {
    return exc != NULL && strstr(value_text(ctx, exc), text) != NULL;
}

static void set_global(JSContextRef ctx, const char *name, JSValueRef v) {
    JSStringRef n = str(name);
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, v, 0, NULL);
    JSStringRelease(n);
}

static const char *eval_str(JSContextRef ctx, const char *src) {
    JSStringRef s = str(src);
    JSValueRef exc = NULL;
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    JSStringRelease(s);
    return value_text(ctx, v != NULL ? v : exc);
}

static JSValueRef js_str(JSContextRef ctx, const char *s) {
    JSStringRef j = str(s);
    JSValueRef v = JSValueMakeString(ctx, j);
    JSStringRelease(j);
    return v;
}

static void test_promises(JSGlobalContextRef ctx) {
    JSObjectRef resolve = NULL, reject = NULL;
    JSValueRef exc = NULL;
    JSObjectRef p = JSObjectMakeDeferredPromise(ctx, &resolve, &reject, &exc);
    check(p != NULL && resolve != NULL && reject != NULL && exc == NULL, "JSObjectMakeDeferredPromise");
    check(strcmp(eval_str(ctx, "1"), "1") == 0, "(warm-up)");
    set_global(ctx, "p", p);
    eval(ctx, "var seen = 'nothing'; p.then(function (v) { seen = 'fulfilled with ' + v; });");
    JSValueRef result = (JSValueRef)1;
    check(ZJSPromiseGetState(ctx, p, &result) == kZJSPromiseStatePending && result == NULL,
          "a new promise is pending, result NULL");
    check(strcmp(eval_str(ctx, "p instanceof Promise"), "true") == 0, "it is a Promise of the realm");
    JSValueRef arg = JSValueMakeNumber(ctx, 42);
    JSObjectCallAsFunction(ctx, resolve, NULL, 1, &arg, &exc);
    check(strcmp(eval_str(ctx, "seen"), "fulfilled with 42") == 0,
          "the reaction ran before JSObjectCallAsFunction(resolve) returned: %s", eval_str(ctx, "seen"));
    check(ZJSPromiseGetState(ctx, p, &result) == kZJSPromiseStateFulfilled && result != NULL &&
              JSValueToNumber(ctx, result, NULL) == 42,
          "ZJSPromiseGetState: fulfilled, result 42");
    check(ZJSPromiseGetState(ctx, p, NULL) == kZJSPromiseStateFulfilled, "result may be NULL");

    JSObjectRef q = JSObjectMakeDeferredPromise(ctx, NULL, &reject, NULL);
    set_global(ctx, "q", q);
    eval(ctx, "var why = ''; q.catch(function (e) { why = e.message; });");
    JSValueRef m = js_str(ctx, "no luck");
    JSValueRef err = JSObjectMakeError(ctx, 1, &m, NULL);
    JSObjectCallAsFunction(ctx, reject, NULL, 1, &err, NULL);
    check(ZJSPromiseGetState(ctx, q, &result) == kZJSPromiseStateRejected && JSValueIsStrictEqual(ctx, result, err) &&
              strcmp(eval_str(ctx, "why"), "no luck") == 0,
          "reject: rejected with the reason, and the catch handler ran");
    JSValueRef js = eval(ctx, "Promise.resolve(7)");
    check(ZJSPromiseGetState(ctx, (JSObjectRef)js, &result) == kZJSPromiseStateFulfilled &&
              JSValueToNumber(ctx, result, NULL) == 7,
          "a promise made by JavaScript");
    JSObjectRef plain = JSObjectMake(ctx, NULL, NULL);
    result = (JSValueRef)1;
    check(ZJSPromiseGetState(ctx, plain, &result) == kZJSPromiseStateInvalid && result == NULL,
          "a plain object: Invalid, result NULL");
    check(ZJSPromiseGetState(ctx, NULL, NULL) == kZJSPromiseStateInvalid &&
              ZJSPromiseGetState(NULL, p, NULL) == kZJSPromiseStateInvalid,
          "NULL handles: Invalid");
    check(JSObjectMakeDeferredPromise(NULL, NULL, NULL, NULL) == NULL, "JSObjectMakeDeferredPromise(NULL ctx): NULL");
}

static void test_symbols_and_keys(JSGlobalContextRef ctx) {
    JSStringRef d = str("tag");
    JSValueRef sym = JSValueMakeSymbol(ctx, d);
    JSStringRelease(d);
    check(sym != NULL && JSValueIsSymbol(ctx, sym) && JSValueGetType(ctx, sym) == kJSTypeSymbol,
          "JSValueMakeSymbol makes a symbol");
    set_global(ctx, "sym", sym);
    check(strcmp(eval_str(ctx, "sym.description"), "tag") == 0, "with its description");
    JSValueRef anon = JSValueMakeSymbol(ctx, NULL);
    set_global(ctx, "anon", anon);
    check(strcmp(eval_str(ctx, "anon.description === undefined"), "true") == 0, "NULL: no description");
    check(!JSValueIsStrictEqual(ctx, sym, JSValueMakeSymbol(ctx, NULL)), "every symbol is new");

    JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
    set_global(ctx, "o", o);
    JSValueRef exc = NULL;
    JSObjectSetPropertyForKey(ctx, o, sym, JSValueMakeNumber(ctx, 5), kJSPropertyAttributeNone, &exc);
    check(exc == NULL && strcmp(eval_str(ctx, "o[sym]"), "5") == 0, "JSObjectSetPropertyForKey with a symbol key");
    check(JSObjectHasPropertyForKey(ctx, o, sym, NULL), "JSObjectHasPropertyForKey");
    JSValueRef v = JSObjectGetPropertyForKey(ctx, o, sym, NULL);
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 5, "JSObjectGetPropertyForKey");
    JSValueRef numKey = JSValueMakeNumber(ctx, 3);
    JSObjectSetPropertyForKey(ctx, o, numKey, js_str(ctx, "three"), kJSPropertyAttributeReadOnly, NULL);
    check(strcmp(eval_str(ctx, "o['3']"), "three") == 0, "a number key becomes a property key");
    check(strcmp(eval_str(ctx, "Object.getOwnPropertyDescriptor(o, 3).writable"), "false") == 0,
          "attributes apply (ReadOnly)");
    check(JSObjectDeletePropertyForKey(ctx, o, sym, NULL) && !JSObjectHasPropertyForKey(ctx, o, sym, NULL),
          "JSObjectDeletePropertyForKey");
    eval(ctx, "Object.defineProperty(o, 'fixed', {value: 1})");
    check(!JSObjectDeletePropertyForKey(ctx, o, js_str(ctx, "fixed"), NULL), "a non-configurable property: false");
    JSValueRef badKey = eval(ctx, "({toString() { throw new Error('bad key'); }})");
    exc = NULL;
    check(!JSObjectHasPropertyForKey(ctx, o, badKey, &exc) && exc_has(ctx, exc, "bad key"),
          "a key whose conversion throws: false and the exception");
    exc = NULL;
    check(JSObjectGetPropertyForKey(ctx, o, NULL, &exc) == NULL && exc != NULL, "a NULL key: NULL and an exception");
    exc = NULL;
    check(JSObjectGetPropertyForKey(ctx, (JSObjectRef)numKey, sym, &exc) == NULL && exc_has(ctx, exc, "not an object"),
          "a primitive as the object: refused");

    /* Prototypes */
    JSObjectRef proto = JSObjectMake(ctx, NULL, NULL);
    JSObjectSetPropertyForKey(ctx, proto, js_str(ctx, "inherited"), js_str(ctx, "yes"), 0, NULL);
    JSObjectSetPrototype(ctx, o, proto);
    check(strcmp(eval_str(ctx, "o.inherited"), "yes") == 0, "JSObjectSetPrototype");
    check(JSValueIsStrictEqual(ctx, JSObjectGetPrototype(ctx, o), proto), "JSObjectGetPrototype");
    JSObjectSetPrototype(ctx, o, JSValueMakeUndefined(ctx));
    check(JSValueIsNull(ctx, JSObjectGetPrototype(ctx, o)), "a non-object prototype sets null");
    JSValueRef frozen = eval(ctx, "Object.preventExtensions({})");
    JSObjectSetPrototype(ctx, (JSObjectRef)frozen, proto); /* refused by the object: ignored */
    check(!JSValueIsStrictEqual(ctx, JSObjectGetPrototype(ctx, (JSObjectRef)frozen), proto),
          "a non-extensible object keeps its prototype, without a crash");
    check(JSObjectGetPrototype(ctx, NULL) == NULL, "JSObjectGetPrototype(NULL): NULL");
}

static void test_makers(JSGlobalContextRef ctx) {
    JSValueRef ms = JSValueMakeNumber(ctx, 86400000);
    JSValueRef exc = NULL;
    JSObjectRef date = JSObjectMakeDate(ctx, 1, &ms, &exc);
    check(date != NULL && JSValueIsDate(ctx, date), "JSObjectMakeDate");
    set_global(ctx, "d", date);
    check(strcmp(eval_str(ctx, "d.toISOString()"), "1970-01-02T00:00:00.000Z") == 0, "new Date(86400000)");
    check(JSValueIsDate(ctx, JSObjectMakeDate(ctx, 0, NULL, NULL)), "no arguments: now");

    JSValueRef args[2] = {js_str(ctx, "a+b"), js_str(ctx, "gi")};
    JSObjectRef re = JSObjectMakeRegExp(ctx, 2, args, &exc);
    check(re != NULL, "JSObjectMakeRegExp");
    set_global(ctx, "re", re);
    check(strcmp(eval_str(ctx, "'xAABy'.replace(re, '-') + re.flags"), "x-ygi") == 0, "new RegExp('a+b', 'gi')");
    JSValueRef bad = js_str(ctx, "(");
    exc = NULL;
    check(JSObjectMakeRegExp(ctx, 1, &bad, &exc) == NULL && exc_has(ctx, exc, "SyntaxError"),
          "a bad pattern: NULL and %s", value_text(ctx, exc));

    JSStringRef name = str("sum"), a = str("a"), b = str("b");
    JSStringRef params[2] = {a, b};
    JSStringRef body = str("return a + b;"), url = str("host.js");
    JSObjectRef f = JSObjectMakeFunction(ctx, name, 2, params, body, url, 10, &exc);
    check(f != NULL && JSObjectIsFunction(ctx, f), "JSObjectMakeFunction");
    set_global(ctx, "sum", f);
    check(strcmp(eval_str(ctx, "sum(2, 3) + ':' + sum.name + ':' + sum.length"), "5:sum:2") == 0,
          "sum(2, 3), its name and length: %s", eval_str(ctx, "sum(2, 3) + ':' + sum.name + ':' + sum.length"));
    JSStringRef throwing = str("\nthrow new Error('line');");
    JSObjectRef g = JSObjectMakeFunction(ctx, NULL, 0, NULL, throwing, url, 20, &exc);
    set_global(ctx, "g", g);
    check(strcmp(eval_str(ctx, "g.name"), "anonymous") == 0, "NULL name: anonymous");
    const char *stack = eval_str(ctx, "try { g() } catch (e) { e.stack }");
    check(strstr(stack, "host.js:21") != NULL, "stack positions are the host's: line 21 of host.js (%s)", stack);
    JSStringRef escape = str("}); globalThis.escaped = 1; (function () {");
    exc = NULL;
    check(JSObjectMakeFunction(ctx, NULL, 0, NULL, escape, NULL, 1, &exc) == NULL && exc_has(ctx, exc, "SyntaxError") &&
              strcmp(eval_str(ctx, "typeof escaped"), "undefined") == 0,
          "a body that would close the function early: SyntaxError, nothing ran");
    exc = NULL;
    check(JSObjectMakeFunction(ctx, NULL, 1, NULL, body, NULL, 1, &exc) == NULL && exc != NULL,
          "parameterNames NULL with a count: refused");
    JSStringRelease(name);
    JSStringRelease(a);
    JSStringRelease(b);
    JSStringRelease(body);
    JSStringRelease(url);
    JSStringRelease(throwing);
    JSStringRelease(escape);
}

static void test_bigint(JSGlobalContextRef ctx) {
    JSValueRef exc = NULL;
    JSValueRef big = JSBigIntCreateWithInt64(ctx, INT64_MIN, &exc);
    check(big != NULL && JSValueIsBigInt(ctx, big) && JSValueGetType(ctx, big) == kJSTypeBigInt,
          "JSBigIntCreateWithInt64(INT64_MIN)");
    set_global(ctx, "big", big);
    check(strcmp(eval_str(ctx, "String(big)"), "-9223372036854775808") == 0, "its value");
    JSValueRef ubig = JSBigIntCreateWithUInt64(ctx, UINT64_MAX, NULL);
    set_global(ctx, "ubig", ubig);
    check(strcmp(eval_str(ctx, "String(ubig)"), "18446744073709551615") == 0, "JSBigIntCreateWithUInt64(UINT64_MAX)");
    JSValueRef fromD = JSBigIntCreateWithDouble(ctx, 1e20, NULL);
    set_global(ctx, "fromD", fromD);
    check(strcmp(eval_str(ctx, "String(fromD)"), "100000000000000000000") == 0, "JSBigIntCreateWithDouble(1e20)");
    exc = NULL;
    check(JSBigIntCreateWithDouble(ctx, 1.5, &exc) == NULL && exc_has(ctx, exc, "RangeError"),
          "a fraction: RangeError (%s)", value_text(ctx, exc));
    JSStringRef s = str("0x1fffffffffffffffff");
    JSValueRef fromS = JSBigIntCreateWithString(ctx, s, NULL);
    JSStringRelease(s);
    set_global(ctx, "fromS", fromS);
    check(strcmp(eval_str(ctx, "String(fromS)"), "590295810358705651711") == 0, "JSBigIntCreateWithString (hex)");
    s = str("12abc");
    exc = NULL;
    check(JSBigIntCreateWithString(ctx, s, &exc) == NULL && exc_has(ctx, exc, "SyntaxError"),
          "not an integer: SyntaxError");
    JSStringRelease(s);
    check(!JSValueIsBigInt(ctx, JSValueMakeNumber(ctx, 1)), "a number is not a BigInt");

    /* The conversions, against what BigInt.asIntN/asUintN of the truncated value give (as in Node). */
    check(JSValueToInt64(ctx, fromS, NULL) == -1, "JSValueToInt64 keeps a BigInt's low 64 bits: -1");
    check(JSValueToUInt64(ctx, fromS, NULL) == UINT64_MAX, "JSValueToUInt64: UINT64_MAX");
    check(JSValueToInt64(ctx, big, NULL) == INT64_MIN && JSValueToUInt64(ctx, ubig, NULL) == UINT64_MAX,
          "round trips of INT64_MIN and UINT64_MAX");
    check(JSValueToInt64(ctx, JSValueMakeNumber(ctx, -3.9), NULL) == -3, "a Number is truncated: -3.9 -> -3");
    check(JSValueToInt64(ctx, JSValueMakeNumber(ctx, 18446744073709551616.0 + 4096), NULL) == 4096,
          "and wrapped modulo 2^64");
    check(JSValueToUInt64(ctx, JSValueMakeNumber(ctx, -1), NULL) == UINT64_MAX, "JSValueToUInt64(-1) = UINT64_MAX");
    check(JSValueToInt64(ctx, eval(ctx, "NaN"), NULL) == 0 && JSValueToInt64(ctx, eval(ctx, "Infinity"), NULL) == 0,
          "NaN and Infinity give 0");
    check(JSValueToInt64(ctx, js_str(ctx, "  77 "), NULL) == 77, "a string is converted by ToNumber");
    check(JSValueToInt64(ctx, eval(ctx, "({valueOf() { return 2n ** 63n; }})"), NULL) == INT64_MIN,
          "ToNumeric: an object whose valueOf returns a BigInt");
    exc = NULL;
    check(JSValueToInt64(ctx, eval(ctx, "Symbol()"), &exc) == 0 && exc_has(ctx, exc, "TypeError"),
          "a symbol: 0 and a TypeError");
    exc = NULL;
    check(JSValueToUInt64(ctx, eval(ctx, "({valueOf() { throw new Error('nope'); }})"), &exc) == 0 &&
              exc_has(ctx, exc, "nope"),
          "a throwing valueOf: 0 and its exception");
    exc = NULL;
    check(JSValueToInt64(ctx, NULL, &exc) == 0 && exc != NULL, "NULL: 0 and an exception");
    check(JSBigIntCreateWithInt64(NULL, 1, NULL) == NULL, "a NULL context: NULL");
}

struct foreign {
    JSGlobalContextRef ctx;
    JSObjectRef o;
    int refused;
};

static void *foreign_thread(void *arg) {
    struct foreign *f = arg;
    f->refused = JSValueMakeSymbol(f->ctx, NULL) == NULL && JSObjectGetPrototype(f->ctx, f->o) == NULL &&
                 JSObjectMakeDeferredPromise(f->ctx, NULL, NULL, NULL) == NULL &&
                 JSBigIntCreateWithInt64(f->ctx, 1, NULL) == NULL &&
                 ZJSPromiseGetState(f->ctx, f->o, NULL) == kZJSPromiseStateInvalid;
    return NULL;
}

/* sweep calls every function of this change with NULL and bogus handles: each must answer its failure value. */
static void sweep(JSGlobalContextRef good) {
    JSContextRef ctxs[3] = {NULL, (JSContextRef)(uintptr_t)0x1234, good};
    JSObjectRef bogus = (JSObjectRef)(uintptr_t)0x42;
    int ok = 1;
    for (int i = 0; i < 3; i++) {
        JSContextRef c = ctxs[i];
        JSObjectRef o = i == 2 ? NULL : bogus;
        ok &= JSObjectMakeTypedArray(c, kJSTypedArrayTypeNone, 1, NULL) == NULL;
        ok &= JSObjectMakeTypedArrayWithArrayBuffer(c, kJSTypedArrayTypeUint8Array, o, NULL) == NULL;
        ok &= JSObjectMakeTypedArrayWithArrayBufferAndOffset(c, kJSTypedArrayTypeUint8Array, o, 0, 1, NULL) == NULL;
        ok &= JSObjectGetTypedArrayBytesPtr(c, o, NULL) == NULL && JSObjectGetTypedArrayLength(c, o, NULL) == 0;
        ok &= JSObjectGetTypedArrayByteLength(c, o, NULL) == 0 && JSObjectGetTypedArrayByteOffset(c, o, NULL) == 0;
        ok &= JSObjectGetTypedArrayBuffer(c, o, NULL) == NULL && JSObjectGetArrayBufferBytesPtr(c, o, NULL) == NULL;
        ok &= JSObjectGetArrayBufferByteLength(c, o, NULL) == 0;
        ok &= JSValueGetTypedArrayType(c, o, NULL) == kJSTypedArrayTypeNone;
        ok &= ZJSPromiseGetState(c, o, NULL) == kZJSPromiseStateInvalid;
        ok &= !JSObjectHasPropertyForKey(c, o, o, NULL) && JSObjectGetPropertyForKey(c, o, o, NULL) == NULL;
        JSObjectSetPropertyForKey(c, o, o, o, 0, NULL);
        ok &= !JSObjectDeletePropertyForKey(c, o, o, NULL);
        ok &= JSObjectGetPrototype(c, o) == NULL;
        JSObjectSetPrototype(c, o, o);
        ok &= JSObjectMakeDate(c, 1, NULL, NULL) == NULL && JSObjectMakeRegExp(c, 1, NULL, NULL) == NULL;
        ok &= JSObjectMakeFunction(c, NULL, 0, NULL, NULL, NULL, 1, NULL) == NULL;
        ok &= !JSValueIsBigInt(c, o) && JSBigIntCreateWithString(c, NULL, NULL) == NULL;
        ok &= JSValueToInt64(c, o, NULL) == 0 && JSValueToUInt64(c, o, NULL) == 0;
        ok &= !JSObjectIsConstructor(c, o) && JSObjectCallAsConstructor(c, o, 0, NULL, NULL) == NULL;
        ok &= JSObjectMakeConstructor(c, (JSClassRef)bogus, NULL) == NULL;
        ok &= !JSValueIsObjectOfClass(c, o, (JSClassRef)bogus);
        if (i < 2) {
            ok &= JSValueMakeSymbol(c, NULL) == NULL && JSObjectMakeDeferredPromise(c, NULL, NULL, NULL) == NULL;
            ok &= JSBigIntCreateWithDouble(c, 1, NULL) == NULL && JSBigIntCreateWithUInt64(c, 1, NULL) == NULL;
        }
    }
    ok &= JSObjectGetPrivate(bogus) == NULL && !JSObjectSetPrivate(bogus, NULL) && JSClassRetain((JSClassRef)bogus) == NULL;
    JSClassRelease((JSClassRef)bogus);
    JSPropertyNameAccumulatorAddName((JSPropertyNameAccumulatorRef)bogus, NULL);
    check(ok, "every new function given NULL or bogus handles answers its failure value, never a crash");
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    test_promises(ctx);
    test_symbols_and_keys(ctx);
    test_makers(ctx);
    test_bigint(ctx);
    sweep(ctx);
    struct foreign f = {.ctx = ctx, .o = JSObjectMake(ctx, NULL, NULL)};
    pthread_t t;
    pthread_create(&t, NULL, foreign_thread, &f);
    pthread_join(t, NULL);
    check(f.refused, "another thread's context is refused by every new function tried");
    JSGlobalContextRelease(ctx);
    return check_done();
}
