/*
 * pluginhost - a C host loading four plugin workers, as a game engine or a server would. Every plugin gets, from the
 * host's setup callback (ZJSWorkerOptions.setup, run on the plugin's thread before its script):
 *
 *   host.log(...)          a native function: the host prints the line with the plugin's name;
 *   host.readAsset(name)   an ArrayBuffer over the host's own asset memory, without a copy (NoCopy);
 *   host.texture           a native object of a JSClass with private data and a finalizer (run when the plugin ends).
 *
 * The plugins' console output goes to the host too (consoleCallback). Then a C producer thread feeds one more
 * worker through a SharedArrayBuffer ring buffer: C atomics on one side, Atomics.wait on the other, and
 * ZJSAtomicsNotify to wake it. Exits non-zero if anything is off, so `make test` (CTest) runs it as a test.
 *
 * It uses only include/jsworker.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "jsworker.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGINS 4

static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER; /* plugins print from their own threads */
static int failures;

static void fail(const char *what) {
    pthread_mutex_lock(&out);
    fprintf(stderr, "pluginhost: FAIL %s\n", what);
    failures++;
    pthread_mutex_unlock(&out);
}

/* ---- assets: memory the host owns; plugins read it in place ---- */

static const char *assetNames[] = {"sprites.bin", "level1.map"};
static unsigned char *assets[2];
static size_t assetSizes[2] = {4096, 1024};
static int assetReleases; /* atomic: a NoCopy deallocator may run on any thread */

static void asset_released(void *bytes, void *context) {
    (void)bytes, (void)context; /* the host keeps its assets; it only counts the views given back */
    __atomic_add_fetch(&assetReleases, 1, __ATOMIC_SEQ_CST);
}

/* ---- the texture class: a native object with private data ---- */

struct texture {
    int width, height;
    char owner[32];
};
static JSClassRef textureClass;
static int texturesFreed; /* atomic */

static void texture_finalize(JSObjectRef object) {
    free(JSObjectGetPrivate(object));
    __atomic_add_fetch(&texturesFreed, 1, __ATOMIC_SEQ_CST);
}

static JSValueRef texture_area(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
    (void)function, (void)argc, (void)argv, (void)exception;
    struct texture *t = JSObjectGetPrivate(thisObject);
    return JSValueMakeNumber(ctx, t ? (double)t->width * t->height : 0);
}

/* ---- the natives ---- */

static char *to_utf8(JSContextRef ctx, JSValueRef v) {
    JSStringRef s = JSValueToStringCopy(ctx, v, NULL);
    if (s == NULL) return NULL;
    size_t n = JSStringGetMaximumUTF8CStringSize(s);
    char *buf = malloc(n);
    JSStringGetUTF8CString(s, buf, n);
    JSStringRelease(s);
    return buf;
}

static JSValueRef host_log(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
    (void)function, (void)thisObject, (void)exception;
    JSStringRef nameKey = JSStringCreateWithUTF8CString("name");
    char *who = to_utf8(ctx, JSObjectGetProperty(ctx, JSContextGetGlobalObject(ctx), nameKey, NULL));
    JSStringRelease(nameKey);
    pthread_mutex_lock(&out);
    printf("[%s]", who ? who : "?");
    for (size_t i = 0; i < argc; i++) {
        char *s = to_utf8(ctx, argv[i]);
        printf(" %s", s ? s : "?");
        free(s);
    }
    printf("\n");
    pthread_mutex_unlock(&out);
    free(who);
    return JSValueMakeUndefined(ctx);
}

static JSValueRef host_read_asset(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                                  const JSValueRef argv[], JSValueRef *exception) {
    (void)function, (void)thisObject;
    char *name = argc > 0 ? to_utf8(ctx, argv[0]) : NULL;
    for (int i = 0; name != NULL && i < 2; i++) {
        if (strcmp(name, assetNames[i]) == 0) {
            free(name);
            return JSObjectMakeArrayBufferWithBytesNoCopy(ctx, assets[i], assetSizes[i], asset_released, NULL,
                                                          exception);
        }
    }
    free(name);
    JSStringRef msg = JSStringCreateWithUTF8CString("host.readAsset: no such asset");
    JSValueRef arg = JSValueMakeString(ctx, msg);
    JSStringRelease(msg);
    *exception = JSObjectMakeError(ctx, 1, &arg, NULL);
    return NULL;
}

static void set(JSContextRef ctx, JSObjectRef obj, const char *name, JSValueRef v) {
    JSStringRef n = JSStringCreateWithUTF8CString(name);
    JSObjectSetProperty(ctx, obj, n, v, kJSPropertyAttributeReadOnly, NULL);
    JSStringRelease(n);
}

static void set_fn(JSContextRef ctx, JSObjectRef obj, const char *name, JSObjectCallAsFunctionCallback cb) {
    JSStringRef n = JSStringCreateWithUTF8CString(name);
    JSObjectSetProperty(ctx, obj, n, JSObjectMakeFunctionWithCallback(ctx, n, cb), kJSPropertyAttributeReadOnly,
                        NULL);
    JSStringRelease(n);
}

/* setup runs on each plugin's thread before its script: the plugin's `host` object. */
static bool setup(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    (void)exception;
    JSObjectRef host = JSObjectMake(ctx, NULL, NULL);
    set_fn(ctx, host, "log", host_log);
    set_fn(ctx, host, "readAsset", host_read_asset);
    struct texture *t = calloc(1, sizeof *t);
    t->width = 64 * (1 + (int)(intptr_t)userData);
    t->height = 32;
    snprintf(t->owner, sizeof t->owner, "plugin-%d", (int)(intptr_t)userData);
    set(ctx, host, "texture", JSObjectMake(ctx, textureClass, t));
    set(ctx, JSContextGetGlobalObject(ctx), "host", host);
    return true;
}

static void on_console(JSContextRef ctx, ZJSConsoleLevel level, const char *message, size_t length, void *userData) {
    (void)ctx, (void)length;
    pthread_mutex_lock(&out);
    printf("[plugin-%d console%s] %s\n", (int)(intptr_t)userData, level >= kZJSConsoleLevelWarn ? " !" : "",
           message);
    pthread_mutex_unlock(&out);
}

/* The plugin script: read an asset in place, use the texture, report. */
static const char *pluginSource =
    "const sprites = new Uint8Array(host.readAsset('sprites.bin'));\n"
    "let checksum = 0;\n"
    "for (let i = 0; i < sprites.length; i++) checksum = (checksum + sprites[i]) % 65521;\n"
    "host.log('sprites', sprites.length, 'bytes, checksum', checksum);\n"
    "console.log('texture area %d', host.texture.area());\n"
    "try { host.readAsset('missing.bin'); } catch (e) { console.warn(e.message); }\n"
    "postMessage({ checksum, area: host.texture.area() });\n"
    "close();\n";

/* ---- the ring buffer: a C producer thread and a consumer worker ---- */

enum { CAP = 256, SLOTS = 4, WORDS = SLOTS + CAP, ITEMS = 100000 };

static void *produce(void *arg) {
    int32_t *ring = arg; /* [0] head, [1] tail, [2] consumer waiting, [SLOTS..] items */
    for (int i = 0; i < ITEMS; i++) {
        while (i - __atomic_load_n(&ring[1], __ATOMIC_ACQUIRE) >= CAP) sched_yield();
        ring[SLOTS + i % CAP] = i % 1000;
        __atomic_store_n(&ring[0], i + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&ring[2], __ATOMIC_SEQ_CST)) ZJSAtomicsNotify(&ring[0], SIZE_MAX);
    }
    while (__atomic_load_n(&ring[1], __ATOMIC_ACQUIRE) < ITEMS) { /* it may sleep after our last check */
        ZJSAtomicsNotify(&ring[0], SIZE_MAX);
        sched_yield();
    }
    return NULL;
}

static const char *consumerSource =
    "onmessage = (e) => {\n"
    "  const ia = new Int32Array(e.data), cap = 256; let tail = 0, sum = 0;\n"
    "  while (tail < 100000) {\n"
    "    let head = Atomics.load(ia, 0);\n"
    "    if (head === tail) {\n"
    "      Atomics.store(ia, 2, 1);\n"
    "      if (Atomics.load(ia, 0) === tail) Atomics.wait(ia, 0, tail, 10000);\n"
    "      Atomics.store(ia, 2, 0);\n"
    "      continue;\n"
    "    }\n"
    "    for (; tail < head; tail++) sum += ia[4 + (tail % cap)];\n"
    "    Atomics.store(ia, 1, tail);\n"
    "  }\n"
    "  postMessage(sum);\n"
    "};\n";

static void ring_demo(JSGlobalContextRef ctx) {
    JSObjectRef sab = ZJSSharedArrayBufferCreate(ctx, WORDS * 4, NULL);
    int32_t *ring = ZJSSharedArrayBufferGetBytesPtr(ctx, sab, NULL, NULL);
    JSStringRef src = JSStringCreateWithUTF8CString(consumerSource);
    JSWorkerRef w = JSWorkerCreate(src);
    JSStringRelease(src);
    if (sab == NULL || ring == NULL || w == NULL || !JSWorkerPostMessage(w, ctx, sab, NULL)) {
        fail("ring buffer setup");
        return;
    }
    pthread_t t;
    pthread_create(&t, NULL, produce, ring);
    JSValueRef v = JSWorkerReceive(w, ctx, 60000, NULL);
    pthread_join(t, NULL);
    double want = 0;
    for (int i = 0; i < ITEMS; i++) want += i % 1000;
    double got = v ? JSValueToNumber(ctx, v, NULL) : -1;
    printf("ring buffer: the worker consumed %d items from the C thread, sum %.0f\n", ITEMS, got);
    if (got != want) fail("ring buffer sum");
    JSWorkerRelease(w);
}

int main(void) {
    for (int i = 0; i < 2; i++) {
        assets[i] = malloc(assetSizes[i]);
        for (size_t j = 0; j < assetSizes[i]; j++) assets[i][j] = (unsigned char)(j * 7 + i);
    }
    JSStaticFunction textureFns[] = {{"area", texture_area, kJSPropertyAttributeReadOnly}, {NULL, NULL, 0}};
    JSClassDefinition def = kJSClassDefinitionEmpty;
    def.className = "Texture";
    def.staticFunctions = textureFns;
    def.finalize = texture_finalize;
    textureClass = JSClassCreate(&def);

    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSStringRef src = JSStringCreateWithUTF8CString(pluginSource);
    JSWorkerRef plugins[PLUGINS];
    for (int i = 0; i < PLUGINS; i++) {
        char name[16];
        snprintf(name, sizeof name, "plugin-%d", i);
        ZJSWorkerOptions o = {.size = sizeof o, .name = name, .setup = setup, .setupUserData = (void *)(intptr_t)i,
                              .consoleCallback = on_console, .consoleUserData = (void *)(intptr_t)i};
        JSStringRef why = NULL;
        plugins[i] = ZJSWorkerCreateWithOptions(src, &o, &why);
        if (plugins[i] == NULL) {
            fail("a plugin did not start");
            if (why) JSStringRelease(why);
        }
    }
    JSStringRelease(src);
    unsigned expected = 0;
    for (size_t j = 0; j < assetSizes[0]; j++) expected = (expected + assets[0][j]) % 65521;
    for (int i = 0; i < PLUGINS; i++) {
        JSValueRef v = plugins[i] ? JSWorkerReceive(plugins[i], ctx, 20000, NULL) : NULL;
        JSStringRef k = JSStringCreateWithUTF8CString("checksum"), a = JSStringCreateWithUTF8CString("area");
        double sum = v ? JSValueToNumber(ctx, JSObjectGetProperty(ctx, (JSObjectRef)v, k, NULL), NULL) : -1;
        double area = v ? JSValueToNumber(ctx, JSObjectGetProperty(ctx, (JSObjectRef)v, a, NULL), NULL) : -1;
        JSStringRelease(k);
        JSStringRelease(a);
        if (sum != expected || area != 64.0 * (1 + i) * 32) fail("a plugin's report");
        /* close() ends the plugin: Receive answers NULL once it is gone and its finalizers have run. */
        if (plugins[i] && JSWorkerReceive(plugins[i], ctx, 20000, NULL) != NULL) fail("a plugin did not close");
        JSWorkerRelease(plugins[i]);
    }
    int freed = __atomic_load_n(&texturesFreed, __ATOMIC_SEQ_CST);
    printf("textures finalized: %d of %d\n", freed, PLUGINS);
    if (freed != PLUGINS) fail("every texture is finalized exactly once when its plugin ends");

    ring_demo(ctx);
    JSGlobalContextRelease(ctx);
    JSClassRelease(textureClass);
    /* Each plugin's asset view was given back when the plugin ended (its realm's NoCopy deallocators run then). */
    int released = __atomic_load_n(&assetReleases, __ATOMIC_SEQ_CST);
    printf("asset views given back: %d of %d\n", released, PLUGINS);
    if (released != PLUGINS) fail("every asset view is given back exactly once");
    for (int i = 0; i < 2; i++) free(assets[i]);
    if (failures == 0) printf("pluginhost: OK\n");
    return failures == 0 ? 0 : 1;
}
