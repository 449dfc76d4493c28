/*
 * eventloop_test.c - the main context's event loop: a C host context creates a web Worker from JavaScript
 * (`new Worker(file)`), posts to it, and gets its reply, its error event and its end through
 * ZJSContextRunPendingEvents; a MessageChannel inside the context; timers; wrong-thread and stale-handle calls; releasing a
 * context with a live worker.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "check.h"

#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

static char dir[64];
static char file[128];

static void write_worker_file(void) {
    snprintf(dir, sizeof dir, "/tmp/jsworker-eventloop-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
    snprintf(file, sizeof file, "%s/doubler.js", dir);
    FILE *f = fopen(file, "w");
    if (f == NULL) {
        perror("fopen");
        exit(2);
    }
    fputs("onmessage = function (e) {\n"
          "  if (e.data === 'throw') throw new RangeError('bad input');\n"
          "  postMessage(e.data * 2);\n"
          "};\n",
          f);
    fclose(f);
}

static void set_global_string(JSContextRef ctx, const char *name, const char *value) {
    JSStringRef n = str(name), v = str(value);
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, JSValueMakeString(ctx, v), 0, NULL);
    JSStringRelease(n);
    JSStringRelease(v);
}

/* run_until_dry pumps ctx until nothing is alive, at most 30 s; it returns the last result. */
static int run_until_dry(JSContextRef ctx) {
    double t0 = now_ms();
    int r;
    while ((r = ZJSContextRunPendingEvents(ctx, 100)) > 0 && now_ms() - t0 < 30000) {
    }
    return r;
}

static void test_worker_reply_through_the_pump(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    set_global_string(ctx, "file", file);
    check(ZJSContextRunPendingEvents(ctx, 0) == 0, "a fresh context's loop is dry");
    check(eval(ctx, "var log = [];\n"
                    "var w = new Worker(file);\n"
                    "w.onmessage = function (e) { log.push('message ' + e.data); if (e.data === 42) w.postMessage('throw'); };\n"
                    "w.onerror = function (e) { log.push('error ' + e.message); w.terminate(); };\n"
                    "w.postMessage(21);") != NULL,
          "a script of the context creates a Worker and posts to it");
    check(ZJSContextRunPendingEvents(ctx, 0) >= 0, "a zero-timeout call returns at once");
    int r = run_until_dry(ctx);
    check(r == 0, "the loop runs dry once the worker is terminated (last result %d)", r);
    const char *got = value_text(ctx, eval(ctx, "log.join('|')"));
    check(strcmp(got, "message 42|error Uncaught RangeError: bad input") == 0,
          "the reply and the error event arrived through the pump (%s)", got);
    JSGlobalContextRelease(ctx);
}

static void test_message_channel_in_the_context(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    check(eval(ctx, "var got = [];\n"
                    "var ch = new MessageChannel();\n"
                    "ch.port2.onmessage = function (e) { got.push(e.data); if (got.length === 2) ch.port2.close(); };\n"
                    "ch.port1.postMessage('a'); ch.port1.postMessage({ b: 1 });") != NULL,
          "a MessageChannel inside the context");
    check(strcmp(value_text(ctx, eval(ctx, "got.length")), "0") == 0, "nothing is delivered before the pump runs");
    check(run_until_dry(ctx) == 0, "the loop runs dry once the port is closed");
    check(strcmp(value_text(ctx, eval(ctx, "JSON.stringify(got)")), "[\"a\",{\"b\":1}]") == 0,
          "port messages arrive in order");
    JSGlobalContextRelease(ctx);
}

/* Timers of a main context fire only while the host pumps, in deadline order, and keep the loop alive. */
static void test_timers(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    check(eval(ctx, "var order = [];\n"
                    "setTimeout(function () { order.push('late'); }, 30);\n"
                    "setTimeout(function (x) { order.push(x); }, 1, 'early');\n"
                    "setImmediate(function () { order.push('now'); });\n"
                    "clearTimeout(setTimeout(function () { order.push('cleared'); }, 1)); 1") != NULL,
          "setTimeout, setImmediate and clearTimeout exist in a main context");
    check(strcmp(value_text(ctx, eval(ctx, "order.length")), "0") == 0, "no timer fires before the host pumps");
    check(ZJSContextRunPendingEvents(ctx, 0) == 1, "pending timers keep the loop alive");
    check(run_until_dry(ctx) == 0, "the loop runs dry once the timers fired");
    check(strcmp(value_text(ctx, eval(ctx, "order.join(',')")), "now,early,late") == 0, "they fired in order: %s",
          value_text(ctx, eval(ctx, "order.join(',')")));
    JSGlobalContextRelease(ctx);
}

static JSContextRef shared_ctx;
static void *other_thread(void *arg) {
    (void)arg;
    return (void *)(intptr_t)ZJSContextRunPendingEvents(shared_ctx, 0);
}

static void test_misuse(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    shared_ctx = ctx;
    pthread_t t;
    void *res = NULL;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, &res);
    check((intptr_t)res == -1, "another thread's call is refused with -1");
    check(ZJSContextRunPendingEvents(NULL, 0) == -1, "NULL is refused with -1");

    /* Releasing a context with a live worker terminates it. */
    set_global_string(ctx, "file", file);
    check(eval(ctx, "new Worker(file); 1") != NULL, "a worker that never ends");
    check(ZJSContextRunPendingEvents(ctx, 10) == 1, "a live worker keeps the loop alive");
    JSGlobalContextRelease(ctx);
    check(ZJSContextRunPendingEvents(ctx, 0) == -1, "a released context is refused with -1");
}

int main(void) {
    write_worker_file();
    test_worker_reply_through_the_pump();
    test_message_channel_in_the_context();
    test_timers();
    test_misuse();
    unlink(file);
    rmdir(dir);
    return check_done();
}
