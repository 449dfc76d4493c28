/*
 * setup_test.c - native functions inside workers (ZJSWorkerSetupCallback in ZJSWorkerOptions and the process-wide
 * ZJSSetWorkerSetupCallback, for C-created and JavaScript-created workers) and console output to the host
 * (ZJSConsoleCallback, ZJSContextSetConsoleCallback): natives called from worker JavaScript, a failing setup failing
 * the creation with its exception's text, a class finalizer in a worker context running exactly once when the
 * worker ends, and misuse: the worker's context refused on the host's thread, stale after the worker ended.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* host.add(a, b): a native function installed by a setup, called from worker JavaScript. */
static int add_calls; /* under mu */
static JSValueRef host_add(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
    (void)function, (void)thisObject;
    if (argc < 2) {
        *exception = JSValueMakeString(ctx, str("host.add needs two numbers"));
        return NULL;
    }
    pthread_mutex_lock(&mu);
    add_calls++;
    pthread_mutex_unlock(&mu);
    return JSValueMakeNumber(ctx, JSValueToNumber(ctx, argv[0], NULL) + JSValueToNumber(ctx, argv[1], NULL));
}

/* A class whose finalizer counts, for objects a setup makes in the worker's realm. */
static int finalized; /* atomic */
static void plugin_finalize(JSObjectRef object) {
    (void)object;
    __atomic_add_fetch(&finalized, 1, __ATOMIC_SEQ_CST);
}
static JSClassRef plugin_class;

static JSGlobalContextRef saved_ctx; /* the last worker context a setup saw (to misuse it later) */

/* install defines name as a native function on ctx's global object. */
static void install(JSContextRef ctx, const char *name, JSObjectCallAsFunctionCallback fn) {
    JSStringRef n = str(name);
    JSObjectRef f = JSObjectMakeFunctionWithCallback(ctx, n, fn);
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, f, 0, NULL);
    JSStringRelease(n);
}

static bool setup_ok(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    (void)exception;
    *(int *)userData += 1;
    saved_ctx = ctx;
    install(ctx, "hostAdd", host_add);
    JSObjectRef plugin = JSObjectMake(ctx, plugin_class, NULL);
    JSStringRef n = str("plugin");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, plugin, 0, NULL);
    JSStringRelease(n);
    return plugin != NULL;
}

static bool setup_fail(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    (void)userData;
    *exception = eval(ctx, "new Error('no plugin for you')");
    return false;
}

/* The console lines a callback received. */
static char lines[8][128];
static int levels[8], nlines; /* under mu */
static void on_console(JSContextRef ctx, ZJSConsoleLevel level, const char *message, size_t length, void *userData) {
    (void)ctx, (void)userData;
    pthread_mutex_lock(&mu);
    if (nlines < 8 && length < sizeof lines[0] && message[length] == '\0') {
        memcpy(lines[nlines], message, length + 1);
        levels[nlines++] = (int)level;
    }
    pthread_mutex_unlock(&mu);
}

static JSWorkerRef create(const char *src, const ZJSWorkerOptions *o, char *why, size_t whyLen) {
    JSStringRef s = str(src), msg = NULL;
    JSWorkerRef w = ZJSWorkerCreateWithOptions(s, o, &msg);
    JSStringRelease(s);
    why[0] = '\0';
    if (msg != NULL) {
        JSStringGetUTF8CString(msg, why, whyLen);
        JSStringRelease(msg);
    }
    return w;
}

/* receive_text receives one message and copies its string form into out. */
static void receive_text(JSWorkerRef w, JSContextRef ctx, char *out, size_t n) {
    JSValueRef exc = NULL;
    JSValueRef v = JSWorkerReceive(w, ctx, 20000, &exc);
    snprintf(out, n, "%s", v != NULL ? value_text(ctx, v) : "(nothing)");
}

static void test_own_setup(JSGlobalContextRef host) {
    int runs = 0;
    ZJSWorkerOptions o = {.size = sizeof o, .setup = setup_ok, .setupUserData = &runs};
    char why[256], got[256];
    JSWorkerRef w = create("postMessage(String(hostAdd(40, 2)) + ' ' + typeof plugin)", &o, why, sizeof why);
    check(w != NULL && runs == 1, "ZJSWorkerCreateWithOptions returns after the setup ran (runs %d) %s", runs, why);
    receive_text(w, host, got, sizeof got);
    check(strcmp(got, "42 object") == 0, "worker JavaScript calls the native the setup installed: %s", got);
    check(JSContextGetGlobalObject(saved_ctx) == NULL, "the worker's context is refused on the host's thread");
    JSValueRef exc = NULL;
    check(JSEvaluateScript(saved_ctx, NULL, NULL, NULL, 0, &exc) == NULL, "JSEvaluateScript on it too");
    JSWorkerTerminate(w);
    check(JSWorkerReceive(w, host, 20000, NULL) == NULL, "the terminated worker ends");
    check(__atomic_load_n(&finalized, __ATOMIC_SEQ_CST) == 1,
          "the class finalizer of the setup's object ran exactly once when the worker ended (%d)", finalized);
    JSWorkerRelease(w);
    check(JSContextGetGlobalObject(saved_ctx) == NULL, "the ended worker's context is stale");
}

/* A worker terminated mid-flight (spinning in JavaScript, holding a NoCopy buffer and a class object the setup
 * made): the finalizer and the deallocator still run exactly once, on the worker's thread, when it ends. */
static int buf_frees; /* atomic */
static pthread_t buf_thread, main_thread;
static void count_buf_free(void *bytes, void *context) {
    (void)bytes, (void)context;
    buf_thread = pthread_self();
    __atomic_add_fetch(&buf_frees, 1, __ATOMIC_SEQ_CST);
}
static int64_t spin_mem[4];
static bool setup_spin(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    if (!setup_ok(ctx, userData, exception)) return false;
    JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, spin_mem, sizeof spin_mem, count_buf_free, NULL,
                                                            exception);
    JSStringRef n = str("hostBytes");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, ab, 0, NULL);
    JSStringRelease(n);
    return ab != NULL;
}

static void test_terminate_mid_flight(JSGlobalContextRef host) {
    int runs = 0;
    int before = __atomic_load_n(&finalized, __ATOMIC_SEQ_CST);
    ZJSWorkerOptions o = {.size = sizeof o, .setup = setup_spin, .setupUserData = &runs};
    char why[256], got[256];
    JSWorkerRef w = create("postMessage('spinning'); const u = new Uint8Array(hostBytes); for (;;) u[0]++;", &o, why,
                           sizeof why);
    receive_text(w, host, got, sizeof got);
    check(w != NULL && strcmp(got, "spinning") == 0, "a worker spins over the host's bytes");
    check(__atomic_load_n(&buf_frees, __ATOMIC_SEQ_CST) == 0, "no deallocation while it runs");
    JSWorkerTerminate(w);
    check(JSWorkerReceive(w, host, 20000, NULL) == NULL, "terminated mid-flight, it ends");
    check(__atomic_load_n(&finalized, __ATOMIC_SEQ_CST) == before + 1 &&
              __atomic_load_n(&buf_frees, __ATOMIC_SEQ_CST) == 1 && !pthread_equal(buf_thread, main_thread),
          "its finalizer and its NoCopy deallocator ran exactly once, on the worker's thread (%d, %d)",
          __atomic_load_n(&finalized, __ATOMIC_SEQ_CST) - before, buf_frees);
    JSWorkerRelease(w);
}

static void test_failing_setup(void) {
    ZJSWorkerOptions o = {.size = sizeof o, .setup = setup_fail};
    char why[256];
    JSWorkerRef w = create("postMessage('ran')", &o, why, sizeof why);
    check(w == NULL && strstr(why, "no plugin for you") != NULL,
          "a setup returning false fails the creation with the exception's text: %s", why);
}

static void test_process_setup(JSGlobalContextRef host) {
    int runs = 0;
    char path[] = "/tmp/jsworker-setup-XXXXXX";
    int fd = mkstemp(path);
    const char *nested = "postMessage(typeof hostAdd === 'function' ? hostAdd(1, 2) : 'missing')";
    check(fd >= 0 && write(fd, nested, strlen(nested)) == (ssize_t)strlen(nested), "a nested worker's script file");
    close(fd);
    ZJSSetWorkerSetupCallback(setup_ok, &runs);
    char src[512], got[256];
    snprintf(src, sizeof src,
             "const w = new Worker('%s'); w.onmessage = (e) => { postMessage('nested ' + e.data); w.terminate(); };"
             "w.onerror = (e) => { postMessage('error ' + e.message); };",
             path);
    JSWorkerRef w = new_worker(src);
    receive_text(w, host, got, sizeof got);
    check(strcmp(got, "nested 3") == 0, "the process-wide setup reaches a worker created from JavaScript: %s", got);
    check(runs == 2, "it ran for the C-created worker and its JavaScript-created child (%d)", runs);
    JSWorkerRelease(w);

    ZJSSetWorkerSetupCallback(setup_fail, NULL);
    w = new_worker(src);
    receive_text(w, host, got, sizeof got);
    check(w == NULL, "with a failing process-wide setup a C-created worker without its own setup is refused");
    JSWorkerRelease(w);
    int own = 0;
    ZJSWorkerOptions o = {.size = sizeof o, .setup = setup_ok, .setupUserData = &own};
    char why[256];
    w = create(src, &o, why, sizeof why);
    receive_text(w, host, got, sizeof got);
    check(w != NULL && strstr(got, "error") == got && strstr(got, "no plugin for you") != NULL,
          "a JavaScript-created worker whose process-wide setup fails: an 'error' event (%s)", got);
    JSWorkerRelease(w);
    ZJSSetWorkerSetupCallback(NULL, NULL);
    w = new_worker("postMessage(typeof hostAdd)");
    receive_text(w, host, got, sizeof got);
    check(strcmp(got, "undefined") == 0, "ZJSSetWorkerSetupCallback(NULL) removes it: %s", got);
    JSWorkerRelease(w);
    unlink(path);
}

static void test_console(JSGlobalContextRef host) {
    ZJSWorkerOptions o = {.size = sizeof o, .consoleCallback = on_console};
    char why[256], got[256];
    JSWorkerRef w = create("console.log('a %d', 5); console.error('bad %s', 'news', 7); postMessage('done')", &o, why,
                           sizeof why);
    receive_text(w, host, got, sizeof got);
    pthread_mutex_lock(&mu);
    check(nlines == 2 && strcmp(lines[0], "a 5") == 0 && levels[0] == kZJSConsoleLevelLog &&
              strcmp(lines[1], "bad news 7") == 0 && levels[1] == kZJSConsoleLevelError,
          "the worker's console lines reach the callback as printed, without newlines: [%s] [%s]", lines[0],
          lines[1]);
    nlines = 0;
    pthread_mutex_unlock(&mu);
    JSWorkerRelease(w);

    ZJSContextSetConsoleCallback(host, on_console, NULL);
    eval(host, "console.warn('careful'); console.debug('')");
    check(nlines == 2 && strcmp(lines[0], "careful") == 0 && levels[0] == kZJSConsoleLevelWarn &&
              lines[1][0] == '\0' && levels[1] == kZJSConsoleLevelDebug,
          "ZJSContextSetConsoleCallback: a host context's console goes to the callback");
    ZJSContextSetConsoleCallback(host, NULL, NULL);
    eval(host, "console.log('setup_test: back on stdout')");
    check(nlines == 2, "NULL restores stdout");
    ZJSContextSetConsoleCallback(NULL, on_console, NULL); /* refused, no crash */
}

int main(void) {
    JSClassDefinition def = kJSClassDefinitionEmpty;
    def.className = "Plugin";
    def.finalize = plugin_finalize;
    plugin_class = JSClassCreate(&def);
    JSGlobalContextRef host = JSGlobalContextCreate(NULL);
    test_own_setup(host);
    main_thread = pthread_self();
    test_terminate_mid_flight(host);
    test_failing_setup();
    test_process_setup(host);
    test_console(host);
    JSGlobalContextRelease(host);
    JSClassRelease(plugin_class);
    return check_done();
}
