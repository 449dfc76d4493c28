/*
 * module_test.c - module workers through the C ABI: ZJSWorkerCreateModule with a loader callback that serves modules
 * from a table, issue 8's SharedArrayBuffer scenario, TypeScript and import(), the callback's thread and user data,
 * ZJSModuleRequestResolve/Fail misuse (NULL, stale, answered twice, another thread), graph errors reported to the
 * error callback with the module's path and original line, and ZJSWorkerCreateModule's argument checks.
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#define _DEFAULT_SOURCE /* syscall */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A module table: specifier "./name" resolves to "/mods/name". */
struct module {
    const char *name, *source;
};

struct loader {
    const struct module *modules;
    atomic_int calls;
    atomic_long tid;        /* the thread of the last call */
    ZJSModuleRequestRef last; /* the last request, to test it once stale */
    int misuse_refused;       /* every misuse tried in the callback was refused */
};

struct other_thread {
    ZJSModuleRequestRef request;
    bool accepted;
};

static void *answer_from_other_thread(void *arg) {
    struct other_thread *o = arg;
    o->accepted = ZJSModuleRequestResolve(o->request, "/mods/x.js", "", 0) || ZJSModuleRequestFail(o->request, NULL);
    return NULL;
}

static void load(ZJSModuleRequestRef request, const char *specifier, const char *referrerPath, void *userData) {
    (void)referrerPath;
    struct loader *l = userData;
    atomic_fetch_add(&l->calls, 1);
    atomic_store(&l->tid, (long)syscall(SYS_gettid));
    l->last = request;
    struct other_thread o = {.request = request};
    pthread_t t;
    pthread_create(&t, NULL, answer_from_other_thread, &o);
    pthread_join(t, NULL);
    l->misuse_refused = !o.accepted && !ZJSModuleRequestResolve(NULL, "/mods/x.js", "", 0) &&
                        !ZJSModuleRequestResolve(request, NULL, "", 0) &&
                        !ZJSModuleRequestResolve(request, "", "", 0) &&
                        !ZJSModuleRequestResolve(request, "/mods/x.js", NULL, 3) && !ZJSModuleRequestFail(NULL, NULL);
    if (strncmp(specifier, "./", 2) != 0) {
        return; /* not found: no answer */
    }
    for (const struct module *m = l->modules; m->name != NULL; m++) {
        if (strcmp(specifier + 2, m->name) == 0) {
            char path[256];
            snprintf(path, sizeof path, "/mods/%s", m->name);
            /* Not NUL-terminated on purpose: the length counts; the copy is taken before this returns. */
            char *copy = malloc(strlen(m->source) + 1);
            memcpy(copy, m->source, strlen(m->source) + 1);
            bool ok = ZJSModuleRequestResolve(request, path, copy, strlen(copy));
            memset(copy, 'X', strlen(copy));
            free(copy);
            l->misuse_refused &= ok && !ZJSModuleRequestResolve(request, path, "", 0) &&
                                 !ZJSModuleRequestFail(request, "late");
            return;
        }
    }
    if (strcmp(specifier, "./broken.js") == 0) {
        ZJSModuleRequestFail(request, "disk on fire");
    }
}

struct errors {
    atomic_int count;
    char name[64], message[256], filename[128];
    unsigned line, column;
    int kind;
};

static void on_error(JSWorkerRef w, const ZJSErrorInfo *e, void *userData) {
    (void)w;
    struct errors *errs = userData;
    snprintf(errs->name, sizeof errs->name, "%s", e->name);
    snprintf(errs->message, sizeof errs->message, "%s", e->message);
    snprintf(errs->filename, sizeof errs->filename, "%s", e->filename);
    errs->line = e->line;
    errs->column = e->column;
    errs->kind = e->kind;
    atomic_fetch_add(&errs->count, 1);
}

static JSWorkerRef create(const char *entry, struct loader *l, const ZJSWorkerOptions *o) {
    JSStringRef why = NULL;
    JSWorkerRef w = ZJSWorkerCreateModule("/mods/main.js", entry, strlen(entry), load, l, o, &why);
    if (w == NULL) {
        char *text = take_utf8(why);
        printf("     (ZJSWorkerCreateModule: %s)\n", text);
        free(text);
    }
    return w;
}

/* Issue 8's scenario: the entry imports bump from a helper; the host posts a SharedArrayBuffer and the counter is 1. */
static void test_shared_counter(JSContextRef ctx) {
    static const struct module mods[] = {
        {"helper.js", "export const bump = (sab) => Atomics.add(new Int32Array(sab), 0, 1);"}, {NULL, NULL}};
    static struct loader l = {.modules = mods};
    JSWorkerRef w = create("import { bump } from \"./helper.js\";\n"
                           "onmessage = (e) => { bump(e.data.sab); postMessage({ done: true }); close(); }",
                           &l, NULL);
    check(w != NULL, "ZJSWorkerCreateModule returns a worker");
    ZJSInspectorTargetInfo info;
    check(ZJSWorkerGetInspectorTargetInfo(w, &info) && info.kind == kZJSInspectorTargetKindModule,
          "its target kind is kZJSInspectorTargetKindModule");
    JSValueRef msg = eval(ctx, "globalThis.sab = new SharedArrayBuffer(4); ({ sab })");
    JSValueRef exc = NULL;
    check(JSWorkerPostMessage(w, ctx, msg, &exc), "post a message holding a SharedArrayBuffer");
    JSValueRef v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    JSStringRef doneName = str("done");
    JSValueRef done = v ? JSObjectGetProperty(ctx, (JSObjectRef)v, doneName, NULL) : NULL;
    JSStringRelease(doneName);
    check(done != NULL && JSValueToBoolean(ctx, done), "the reply { done: true } arrives");
    JSValueRef n = eval(ctx, "new Int32Array(sab)[0]");
    check(n != NULL && JSValueToNumber(ctx, n, NULL) == 1, "the shared counter is 1 (%s)", value_text(ctx, n));
    check(JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc) == NULL && exc == NULL, "close() ended the worker");
    check(atomic_load(&l.calls) == 1 && atomic_load(&l.tid) != (long)syscall(SYS_gettid),
          "the loader ran once, on the worker's thread");
    check(l.misuse_refused, "every misuse of the request inside the callback was refused (NULL, empty path, NULL "
                            "source with a length, another thread, a second answer)");
    check(!ZJSModuleRequestResolve(l.last, "/mods/x.js", "", 0) && !ZJSModuleRequestFail(l.last, NULL),
          "a request is refused once its callback has returned");
    JSWorkerRelease(w);
}

static void test_typescript_and_dynamic_import(JSContextRef ctx) {
    static const struct module mods[] = {
        {"calc.ts", "type N = number;\nexport const twice = (n: N): N => n * 2;\n"},
        {"lazy.js", "export const where = import.meta.url;"},
        {NULL, NULL}};
    static struct loader l = {.modules = mods};
    JSWorkerRef w = create("import { twice } from './calc.ts';\n"
                           "onmessage = async (e) => {\n"
                           "  const { where } = await import('./lazy.js');\n"
                           "  const err = await import('./broken.js').catch((x) => x.message);\n"
                           "  postMessage(twice(e.data) + ' ' + where + ' ' + err);\n"
                           "};",
                           &l, NULL);
    JSValueRef exc = NULL;
    JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 21), &exc);
    JSValueRef v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
    check(v != NULL && strcmp(value_text(ctx, v), "42 /mods/lazy.js Cannot load module './broken.js' imported from "
                                                  "/mods/main.js: disk on fire") == 0,
          "TypeScript, import() and ZJSModuleRequestFail's message: %s", value_text(ctx, v));
    JSWorkerRelease(w);
}

static void test_graph_errors(JSContextRef ctx) {
    static const struct module mods[] = {{"bad.js", "export const a = 1;\nexport const b = ;\n"}, {NULL, NULL}};
    static struct loader l = {.modules = mods};
    static struct errors errs;
    ZJSWorkerOptions o = {.size = sizeof o, .errorCallback = on_error, .errorUserData = &errs};
    JSWorkerRef w = create("postMessage('ran');\nimport './bad.js';", &l, &o);
    JSValueRef exc = NULL;
    check(JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc) == NULL && exc == NULL,
          "a syntax error in a dependency: no module ran and the worker ended");
    check(atomic_load(&errs.count) == 1 && errs.kind == kZJSErrorUncaught && strcmp(errs.name, "SyntaxError") == 0 &&
              strcmp(errs.filename, "/mods/bad.js") == 0 && errs.line == 2 && errs.column == 18,
          "... reported once with the module's path and original position: %s: %s at %s:%u:%u", errs.name,
          errs.message, errs.filename, errs.line, errs.column);
    JSWorkerRelease(w);

    static struct errors errs2;
    o.errorUserData = &errs2;
    w = create("import './nowhere.js';", &l, &o);
    check(JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc) == NULL && atomic_load(&errs2.count) == 1 &&
              strstr(errs2.message, "Cannot find module './nowhere.js' imported from /mods/main.js") != NULL &&
              strcmp(errs2.filename, "/mods/main.js") == 0 && errs2.line == 1,
          "a module not found is reported at the import: %s at %s:%u", errs2.message, errs2.filename, errs2.line);
    JSWorkerRelease(w);
}

static void test_bad_arguments(void) {
    JSStringRef why = NULL;
    check(ZJSWorkerCreateModule(NULL, "", 0, load, NULL, NULL, &why) == NULL, "a NULL entryPath is refused");
    char *text = take_utf8(why);
    check(strstr(text, "entryPath is NULL or empty") != NULL, "... and says why: %s", text);
    free(text);
    why = NULL;
    check(ZJSWorkerCreateModule("/m.js", NULL, 5, load, NULL, NULL, &why) == NULL,
          "a NULL entrySource with a length is refused");
    JSStringRelease(why);
    ZJSWorkerOptions o = {.size = 3};
    check(ZJSWorkerCreateModule("/m.js", "", 0, NULL, NULL, &o, NULL) == NULL, "a bad options->size is refused");
    JSWorkerRef w = ZJSWorkerCreateModule("/solo.js", "postMessage(1)", 14, NULL, NULL, NULL, NULL);
    check(w != NULL, "a NULL loader is allowed (every import is then not found)");
    JSWorkerRelease(w);
}

int main(void) {
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    check(ctx != NULL, "JSGlobalContextCreate(NULL)");
    test_shared_counter(ctx);
    test_typescript_and_dynamic_import(ctx);
    test_graph_errors(ctx);
    test_bad_arguments();
    JSGlobalContextRelease(ctx);
    return check_done();
}
