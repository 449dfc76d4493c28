/*
 * console_test - console callbacks and the workers JavaScript creates: a host context's callback (ZJSContextSetConsoleCallback)
 * receives the lines of the Workers its JavaScript creates and of their nested workers, each with the worker's own
 * context, usable on the callback's thread; clearing it sends new lines to stdout again; a C-created worker's
 * consoleCallback and a callback its setup sets on its own context are inherited by its nested workers the same way.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "check.h"

#include <pthread.h>
#include <unistd.h>

static char dir[64], child[128], nested[128];

static void write_file(const char *path, const char *src) {
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror("fopen");
        exit(2);
    }
    fputs(src, f);
    fclose(f);
}

/* A received line: its text, level, the callback's userData, whether ctx was the host's, and whether ctx worked as
 * a worker's context in the callback (its global has postMessage). */
typedef struct {
    char text[96];
    int level;
    const char *tag;
    int fromHost;
    int workerCtx;
} line_t;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static line_t lines[32];
static int nlines;
static JSContextRef host_ctx;

static void on_console(JSContextRef ctx, ZJSConsoleLevel level, const char *message, size_t length, void *userData) {
    JSStringRef pm = str("postMessage");
    JSValueRef v = JSObjectGetProperty(ctx, JSContextGetGlobalObject(ctx), pm, NULL);
    JSStringRelease(pm);
    pthread_mutex_lock(&mu);
    if (nlines < 32 && length < sizeof lines[0].text) {
        line_t *l = &lines[nlines++];
        memcpy(l->text, message, length);
        l->text[length] = '\0';
        l->level = (int)level;
        l->tag = userData;
        l->fromHost = ctx == host_ctx;
        l->workerCtx = v != NULL && JSValueIsObject(ctx, v);
    }
    pthread_mutex_unlock(&mu);
}

/* find returns the line with text, or NULL. */
static const line_t *find(const char *text) {
    const line_t *r = NULL;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nlines; i++) {
        if (strcmp(lines[i].text, text) == 0) {
            r = &lines[i];
        }
    }
    pthread_mutex_unlock(&mu);
    return r;
}

static void reset(void) {
    pthread_mutex_lock(&mu);
    nlines = 0;
    pthread_mutex_unlock(&mu);
}

static void set_global_string(JSContextRef ctx, const char *name, const char *value) {
    JSStringRef n = str(name), v = str(value);
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, JSValueMakeString(ctx, v), 0, NULL);
    JSStringRelease(n);
    JSStringRelease(v);
}

static int run_until_dry(JSContextRef ctx) {
    double t0 = now_ms();
    int r;
    while ((r = ZJSContextRunPendingEvents(ctx, 100)) > 0 && now_ms() - t0 < 30000) {
    }
    return r;
}

static const char spawn_chain[] = "var log = [];\n"
                                  "var w = new Worker(child);\n"
                                  "w.onmessage = function (e) { log.push(e.data); w.terminate(); };\n"
                                  "console.log('host line');";

static void test_host_context(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    host_ctx = ctx;
    ZJSContextSetConsoleCallback(ctx, on_console, "host");
    set_global_string(ctx, "child", child);
    check(eval(ctx, spawn_chain) != NULL, "the host's JavaScript creates a Worker, which creates a nested one");
    check(run_until_dry(ctx) == 0, "the chain answered and ended");
    check(strcmp(value_text(ctx, eval(ctx, "log.join()")), "nested ok") == 0, "the answer went through both: %s",
          value_text(ctx, eval(ctx, "log.join()")));
    const line_t *h = find("host line"), *c = find("child 1"), *n = find("grandchild");
    check(h != NULL && h->fromHost && h->level == kZJSConsoleLevelLog && strcmp(h->tag, "host") == 0,
          "the host context's own line, with the host context");
    check(c != NULL && !c->fromHost && c->workerCtx && c->level == kZJSConsoleLevelLog && strcmp(c->tag, "host") == 0,
          "the JavaScript-created worker's line reaches the host's callback, with the worker's own context");
    check(n != NULL && !n->fromHost && n->workerCtx && n->level == kZJSConsoleLevelWarn && strcmp(n->tag, "host") == 0,
          "its nested worker's line too (console.warn, level warn)");

    /* Cleared: new workers' lines go to stdout again. */
    reset();
    ZJSContextSetConsoleCallback(ctx, NULL, NULL);
    check(eval(ctx, spawn_chain) != NULL && run_until_dry(ctx) == 0, "the chain again, without a callback");
    check(find("child 1") == NULL && find("grandchild") == NULL && find("host line") == NULL,
          "with the callback cleared, no line reaches it (they were printed)");
    JSGlobalContextRelease(ctx);
    host_ctx = NULL;
}

/* The worker's setup gives its own context a callback; its nested worker inherits it. */
static bool setup_console(JSGlobalContextRef ctx, void *userData, JSValueRef *exception) {
    (void)exception;
    ZJSContextSetConsoleCallback(ctx, on_console, userData);
    return true;
}

static void test_c_worker(const ZJSWorkerOptions *o, const char *tag, JSContextRef host) {
    reset();
    char src[512];
    snprintf(src, sizeof src,
             "console.info('top');\n"
             "const w = new Worker('%s'); w.onmessage = (e) => { postMessage('nested ' + e.data); w.terminate(); };",
             nested);
    JSStringRef s = str(src), why = NULL;
    JSWorkerRef w = ZJSWorkerCreateWithOptions(s, o, &why);
    JSStringRelease(s);
    check(w != NULL, "[%s] a C-created worker whose script creates a nested worker", tag);
    if (why != NULL) JSStringRelease(why);
    if (w == NULL) return;
    JSValueRef v = JSWorkerReceive(w, host, 30000, NULL);
    check(v != NULL && strcmp(value_text(host, v), "nested ok") == 0, "[%s] it answered", tag);
    const line_t *t = find("top"), *n = find("grandchild");
    check(t != NULL && t->workerCtx && t->level == kZJSConsoleLevelInfo && strcmp(t->tag, tag) == 0,
          "[%s] the worker's own line reaches its callback", tag);
    check(n != NULL && n->workerCtx && strcmp(n->tag, tag) == 0, "[%s] its nested worker's line reaches the same one",
          tag);
    JSWorkerRelease(w);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/jsworker-console-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(child, sizeof child, "%s/child.js", dir);
    snprintf(nested, sizeof nested, "%s/nested.js", dir);
    char src[512];
    snprintf(src, sizeof src,
             "console.log('child', 1);\n"
             "const w = new Worker('%s'); w.onmessage = (e) => { postMessage('nested ' + e.data); w.terminate(); };",
             nested);
    write_file(child, src);
    write_file(nested, "console.warn('grandchild'); postMessage('ok');");

    test_host_context();
    JSGlobalContextRef host = JSGlobalContextCreate(NULL);
    ZJSWorkerOptions withCallback = {.size = sizeof withCallback, .consoleCallback = on_console,
                                     .consoleUserData = "options"};
    test_c_worker(&withCallback, "options", host);
    ZJSWorkerOptions withSetup = {.size = sizeof withSetup, .setup = setup_console, .setupUserData = "setup"};
    test_c_worker(&withSetup, "setup", host);
    JSGlobalContextRelease(host);
    unlink(child);
    unlink(nested);
    rmdir(dir);
    return check_done();
}
