/*
 * limits_test.c - stopping scripts from any thread and time limits through the C API (issue 16, §2):
 * ZJSContextTerminateExecution and ZJSWorkerRequestTermination from a watchdog pthread, ZJSContextSetExecutionTimeLimit
 * with and without a callback, ZJSWorkerOptions.executionTimeLimit (kZJSErrorTimeLimit). The host survives every
 * case and the context stays usable. Also: huge single allocations throw catchable RangeErrors (no Go fatal
 * out-of-memory), and long JSON.parse and JSON.stringify calls stop as promptly. Stops must come within STOP_BOUND_MS on a loaded machine; the figures printed
 * are typically well under a millisecond.
 */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>

#define STOP_BOUND_MS 2000.0

/* A watchdog waits until the script called started(), then stops it from its own thread. */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cond;
    int started;
    JSContextRef ctx;
    JSWorkerRef worker;
    double stoppedAt;
} watchdog;

static watchdog dog = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, NULL, 0};

static JSValueRef started_fn(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argc,
                             const JSValueRef argv[], JSValueRef *exception) {
    (void)function, (void)thisObject, (void)argc, (void)argv, (void)exception;
    pthread_mutex_lock(&dog.mu);
    dog.started = 1;
    pthread_cond_signal(&dog.cond);
    pthread_mutex_unlock(&dog.mu);
    return JSValueMakeUndefined(ctx);
}

static void *watchdog_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&dog.mu);
    while (!dog.started) {
        pthread_cond_wait(&dog.cond, &dog.mu);
    }
    dog.started = 0;
    pthread_mutex_unlock(&dog.mu);
    dog.stoppedAt = now_ms();
    if (dog.ctx != NULL) {
        ZJSContextTerminateExecution(dog.ctx);
    }
    if (dog.worker != NULL) {
        ZJSWorkerRequestTermination(dog.worker);
    }
    return NULL;
}

/* run_stopped evaluates src with a watchdog armed and returns the exception's text, or NULL if the script was not
 * stopped; *took is the time from the stop to the call's return. */
static const char *run_stopped(JSContextRef ctx, const char *src, double *took) {
    pthread_t t;
    dog.ctx = ctx;
    dog.worker = NULL;
    pthread_create(&t, NULL, watchdog_main, NULL);
    JSStringRef s = str(src);
    JSValueRef exc = NULL;
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    *took = now_ms() - dog.stoppedAt;
    JSStringRelease(s);
    pthread_join(t, NULL);
    return v == NULL && exc != NULL ? value_text(ctx, exc) : NULL;
}

static atomic_int asked;

static bool grant_twice(JSContextRef ctx, void *userData) {
    (void)ctx;
    return atomic_fetch_add(&asked, 1) + 1 >= *(int *)userData;
}

static void test_context_terminate(JSContextRef ctx) {
    double took;
    const char *msg = run_stopped(ctx, "started(); for (;;) {}", &took);
    check(msg != NULL && strstr(msg, "terminated") != NULL, "for(;;){} stopped from another thread: %s", msg);
    check(took < STOP_BOUND_MS, "  within %.3f ms", took);
    msg = run_stopped(ctx, "try { started(); for (;;) {} } catch (e) { globalThis.caught = 1 } finally { globalThis.fin = 1 }",
                      &took);
    check(msg != NULL && strstr(msg, "terminated") != NULL, "try/catch cannot catch it (%.3f ms): %s", took, msg);
    JSValueRef v = eval(ctx, "String(globalThis.caught) + String(globalThis.fin) + 6 * 7");
    check(v != NULL && strcmp(value_text(ctx, v), "undefinedundefined42") == 0,
          "neither catch nor finally ran, and the context runs the next script: %s", value_text(ctx, v));

    msg = run_stopped(ctx, "var a = []; for (var i = 0; i < 1e5; i++) a.push(i); started(); "
                           "a.sort(function (x, y) { for (var j = 0; j < 1e4; j++); return y - x })",
                      &took);
    check(msg != NULL && took < STOP_BOUND_MS, "a sort with a slow comparator stops within %.3f ms", took);

    /* A function called through JSObjectCallAsFunction is an entry too. */
    eval(ctx, "function spin() { started(); for (;;) {} }");
    JSValueRef spin = eval(ctx, "spin");
    pthread_t t;
    pthread_create(&t, NULL, watchdog_main, NULL);
    JSValueRef exc = NULL;
    v = JSObjectCallAsFunction(ctx, (JSObjectRef)spin, NULL, 0, NULL, &exc);
    took = now_ms() - dog.stoppedAt;
    pthread_join(t, NULL);
    check(v == NULL && exc != NULL && strstr(value_text(ctx, exc), "terminated") != NULL && took < STOP_BOUND_MS,
          "JSObjectCallAsFunction stopped (%.3f ms): %s", took, value_text(ctx, exc));

    ZJSContextTerminateExecution(ctx); /* nothing runs: nothing happens */
    v = eval(ctx, "var s = 0; for (var i = 0; i < 100000; i++) s += i; s");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 4999950000.0, "a terminate while idle does nothing");
    ZJSContextTerminateExecution(NULL);
    ZJSContextTerminateExecution((JSContextRef)(uintptr_t)12345);
    check(1, "NULL and bogus contexts are ignored");
}

static void test_context_time_limit(JSContextRef ctx) {
    ZJSContextSetExecutionTimeLimit(ctx, 0.05, NULL, NULL);
    double start = now_ms();
    JSStringRef s = str("for (;;) {}");
    JSValueRef exc = NULL;
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    double took = now_ms() - start;
    const char *msg = v == NULL && exc != NULL ? value_text(ctx, exc) : "(not stopped)";
    check(v == NULL && strstr(msg, "terminated") != NULL && strstr(msg, "time limit") != NULL,
          "a 50 ms limit with no callback stops for(;;){}: %s", msg);
    check(took >= 50 && took < 50 + STOP_BOUND_MS, "  after %.1f ms", took);

    int answers = 3;
    atomic_store(&asked, 0);
    ZJSContextSetExecutionTimeLimit(ctx, 0.05, grant_twice, &answers);
    start = now_ms();
    exc = NULL;
    v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    took = now_ms() - start;
    check(v == NULL && atomic_load(&asked) == 3 && took >= 150,
          "a callback answering false twice grants two more periods (%d calls, %.1f ms)", atomic_load(&asked), took);
    JSStringRelease(s);

    v = eval(ctx, "1 + 1");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 2, "a short script is not affected");
    ZJSContextClearExecutionTimeLimit(ctx);
    v = eval(ctx, "var t = Date.now(); while (Date.now() - t < 150); 'done'");
    check(v != NULL && strcmp(value_text(ctx, v), "done") == 0, "after ZJSContextClearExecutionTimeLimit a long script ends");
}

/* stop_worker waits for w's message 'started', then has a watchdog thread call ZJSWorkerRequestTermination and
 * returns the time from that call until w's outbox closed (-1 if w posted anything more). */
static double stop_worker(JSContextRef ctx, JSWorkerRef w, const char *what) {
    JSValueRef exc = NULL;
    JSValueRef v = JSWorkerReceive(w, ctx, 30000, &exc);
    check(v != NULL && strcmp(value_text(ctx, v), "started") == 0, "%s", what);
    dog.ctx = NULL;
    dog.worker = w;
    pthread_t t;
    pthread_create(&t, NULL, watchdog_main, NULL);
    started_fn(ctx, NULL, NULL, 0, NULL, NULL); /* let the watchdog go */
    pthread_join(t, NULL);
    v = JSWorkerReceive(w, ctx, 30000, &exc);
    return v == NULL ? now_ms() - dog.stoppedAt : -1;
}

static atomic_int limitKind;

static void on_error(JSWorkerRef worker, const ZJSErrorInfo *error, void *userData) {
    (void)worker, (void)userData;
    atomic_store(&limitKind, (int)error->kind);
}

static void test_worker_limits(JSContextRef ctx) {
    /* executionTimeLimit: a message handler that spins ends the worker with kZJSErrorTimeLimit. */
    ZJSWorkerOptions o = {.size = sizeof(ZJSWorkerOptions), .executionTimeLimit = 0.1, .errorCallback = on_error};
    JSStringRef src = str("onmessage = function (e) { if (e.data === 'spin') for (;;) {} ; postMessage(e.data * 2) }");
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &o, NULL);
    JSStringRelease(src);
    JSValueRef exc = NULL;
    JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 21), &exc);
    JSValueRef v = JSWorkerReceive(w, ctx, 10000, &exc);
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 42, "a worker with a time limit answers short tasks");
    JSStringRef spin = str("spin");
    JSWorkerPostMessage(w, ctx, JSValueMakeString(ctx, spin), &exc);
    JSStringRelease(spin);
    double start = now_ms();
    v = JSWorkerReceive(w, ctx, 10000, &exc);
    double took = now_ms() - start;
    check(v == NULL && atomic_load(&limitKind) == kZJSErrorTimeLimit && took < 100 + STOP_BOUND_MS,
          "a spinning task ends the worker with kZJSErrorTimeLimit after %.1f ms (kind %d)", took,
          atomic_load(&limitKind));
    JSWorkerRelease(w);

    /* ZJSWorkerRequestTermination from a watchdog thread. */
    w = new_worker("postMessage('started'); for (;;) {}");
    took = stop_worker(ctx, w, "the spinning worker started");
    check(took >= 0 && took < STOP_BOUND_MS, "ZJSWorkerRequestTermination from another thread ended it (%.3f ms)", took);
    JSWorkerRelease(w);
    ZJSWorkerRequestTermination(w); /* released: nothing happens */
    ZJSWorkerRequestTermination(NULL);
    check(1, "a released or NULL worker is ignored");
}

/* Long JSON calls (one native call each: goja never looks at its interrupt flag inside one) are stopped too: a
 * 100 MB parse and a space-indented stringify of ten million elements in a context, from a watchdog thread and by a
 * time limit, and a 100 MB parse in a worker by ZJSWorkerRequestTermination. A value nested too deeply for
 * JSON.stringify throws a catchable RangeError. */
static void test_json_limits(JSContextRef ctx) {
    static const char *const calls[] = {
        "var big = '[' + ('\"' + 'x'.repeat(1000) + '\",').repeat(100000) + '1]'; started(); JSON.parse(big)",
        "var big = new Array(1e7); started(); JSON.stringify(big, null, 10)",
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        double took;
        const char *msg = run_stopped(ctx, calls[i], &took);
        check(msg != NULL && strstr(msg, "terminated") != NULL && took < STOP_BOUND_MS,
              "a long JSON call is stopped from another thread within %.3f ms: %s", took, msg);
    }
    JSValueRef v = eval(ctx, "JSON.stringify(JSON.parse('[6,7]'))");
    check(v != NULL && strcmp(value_text(ctx, v), "[6,7]") == 0, "the context goes on using JSON");

    eval(ctx, "var text = '[' + ('\"' + 'x'.repeat(1000) + '\",').repeat(100000) + '1]'"); /* String.prototype.repeat: not stoppable */
    ZJSContextSetExecutionTimeLimit(ctx, 0.05, NULL, NULL);
    double start = now_ms();
    JSStringRef s = str("JSON.parse(text); JSON.parse(text); JSON.parse(text); JSON.parse(text)");
    JSValueRef exc = NULL;
    v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    double took = now_ms() - start;
    JSStringRelease(s);
    ZJSContextClearExecutionTimeLimit(ctx);
    const char *msg = v == NULL && exc != NULL ? value_text(ctx, exc) : "(not stopped)";
    check(v == NULL && strstr(msg, "time limit") != NULL, "a 50 ms limit stops long parses after %.1f ms: %s", took, msg);

    v = eval(ctx, "let o = {}; for (let i = 0; i < 1e5; i++) o = {o};"
                  " try { JSON.stringify(o); 'returned' } catch (e) { e instanceof RangeError && e.message }");
    check(v != NULL && strcmp(value_text(ctx, v), "Maximum call stack size exceeded") == 0,
          "a value 100,000 levels deep: JSON.stringify throws a catchable RangeError: %s", value_text(ctx, v));

    JSWorkerRef w = new_worker("var big = '[' + ('\"' + 'x'.repeat(1000) + '\",').repeat(100000) + '1]';"
                               " postMessage('started'); JSON.parse(big); postMessage('returned')");
    took = stop_worker(ctx, w, "the parsing worker started");
    check(took >= 0 && took < STOP_BOUND_MS, "ZJSWorkerRequestTermination stopped a worker inside JSON.parse (%.3f ms)",
          took);
    JSWorkerRelease(w);
}

/* Huge single allocations throw a catchable RangeError in a context and in a worker; both live on. */
static const char *alloc_probe =
    "(function () { var out = [];"
    " [function () { return new ArrayBuffer(Math.pow(2, 40)) }, function () { return new Float64Array(Math.pow(2, 37)) },"
    "  function () { return 'x'.repeat(Math.pow(2, 30)) }, function () { return new Array(Math.pow(2, 32) - 1).fill(0) }]"
    " .forEach(function (f) { try { f(); out.push('no error') } catch (e) { out.push(e instanceof RangeError) } });"
    " return out.join() })()";

static void test_allocations(JSContextRef ctx) {
    JSValueRef v = eval(ctx, alloc_probe);
    check(v != NULL && strcmp(value_text(ctx, v), "true,true,true,true") == 0,
          "huge allocations in a context throw RangeErrors: %s", value_text(ctx, v));
    char src[1024];
    snprintf(src, sizeof src, "postMessage(%s)", alloc_probe);
    JSWorkerRef w = new_worker(src);
    JSValueRef exc = NULL;
    v = JSWorkerReceive(w, ctx, 10000, &exc);
    check(v != NULL && strcmp(value_text(ctx, v), "true,true,true,true") == 0,
          "huge allocations in a worker throw RangeErrors: %s", value_text(ctx, v));
    JSWorkerRelease(w);
    v = eval(ctx, "6 * 7");
    check(v != NULL && JSValueToNumber(ctx, v, NULL) == 42, "the host lives on");
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSStringRef name = str("started");
    JSObjectRef fn = JSObjectMakeFunctionWithCallback(ctx, name, started_fn);
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), name, fn, 0, NULL);
    JSStringRelease(name);

    test_context_terminate(ctx);
    test_context_time_limit(ctx);
    test_worker_limits(ctx);
    test_json_limits(ctx);
    test_allocations(ctx);

    JSGlobalContextRelease(ctx);
    return check_done();
}
