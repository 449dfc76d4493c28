/*
 * capi_fuzz.c - a libFuzzer harness for the C ABI: each input is a program of up to 64 calls, each taking its
 * handles from pools of live, released (stale), other-kind (foreign) and made-up handles, or NULL, and its strings
 * and scripts from the input. The library must answer every call — NULL/false, an exception, a documented error —
 * and never crash, corrupt memory (AddressSanitizer) or hang. Everything still live is released at the end of each
 * input, so that inputs are independent — with one exception, made because creating a context (a realm with all
 * its globals) is most of what an input costs: a context the input left pristine goes back to a pool that later
 * inputs take their new contexts from (see "The context pool" below).
 *
 * Build: make fuzz-capi (clang -fsanitize=fuzzer,address against build/libjsworker.so). Run:
 *   build/fuzz/capi_fuzz -max_total_time=60 build/fuzz/corpus tests/fuzz/corpus
 * CAPI_FUZZ_STATS=N in the environment prints, every N inputs, the rate, the mean input length, the process's
 * threads and resident memory, and the milliseconds per input each op took (see stats below).
 */
#include "jsworker.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POOL 8
#define MAX_OPS 64

/* in reads the input. */
typedef struct {
    const uint8_t *p;
    size_t n;
} in;

static uint8_t byte(in *r) {
    if (r->n == 0) {
        return 0;
    }
    r->n--;
    return *r->p++;
}

/* text copies up to 255 bytes of the input into buf as a NUL-terminated string (the first byte is the length). */
static const char *text(in *r, char *buf) {
    size_t len = byte(r);
    if (len > r->n) {
        len = r->n;
    }
    memcpy(buf, r->p, len);
    buf[len] = 0;
    r->p += len;
    r->n -= len;
    return buf;
}

/* Scripts the programs run: each a realistic use, a misuse or a hostile one. */
static const char *scripts[] = {
    "1 + 1",
    "({ a: [1, 2, { b: 'c' }], d: new Date(0), m: new Map([[1, 2]]) })",
    "function f() { return f() + 1 } try { f() } catch (e) { e.message }",
    "throw new TypeError('boom')",
    "[1, 2, 3].map(x => x * 2)",
    "(function () { return this })()",
    "new Proxy({}, { get() { throw new Error('trap') } })",
    "JSON.parse('[' .repeat(200000))",
    "Symbol('s')",
    "new Promise(r => setTimeout(r, 1))",
    "let big = 'x'.repeat(1 << 20); big.length",
    "globalThis.x = (globalThis.x || 0) + 1",
    "syntax error here (",
    "new SharedArrayBuffer(16)",
};
#define NSCRIPTS (sizeof scripts / sizeof scripts[0])

static const char *worker_sources[] = {
    "onmessage = (e) => postMessage(e.data)",
    "postMessage(1); close()",
    "throw new Error('at start')",
    "function f() { return f() } onmessage = () => { try { f() } catch (e) { postMessage(e.message) } }",
};

typedef struct {
    JSGlobalContextRef ctx[POOL];
    int nctx;
    bool dirty[POOL]; /* ctx[i] was given to a call that may change what its JavaScript sees */
    int uses[POOL];   /* how many inputs ctx[i] has served before this one */
    JSGlobalContextRef deadctx[POOL];
    int ndeadctx;
    JSValueRef val[POOL];
    JSGlobalContextRef valctx[POOL]; /* the context val[i] was made in */
    int nval;
    JSStringRef str[POOL];
    int nstr;
    JSStringRef deadstr[POOL];
    int ndeadstr;
    JSWorkerRef worker;
    JSWorkerRef deadworker;
    ZJSInspectorSessionRef cs;
    ZJSInspectorSessionRef deadcs;
    ZJSWorkerInspectorSessionRef ws;
    ZJSWorkerInspectorSessionRef deadws;
} state;

static void on_message(const char *message, size_t length, void *userData) {
    (void)message;
    (void)length;
    (void)userData;
}

/* handle picks a handle for a parameter: a live one of the right kind, a stale one, one of another kind, a
 * made-up number, or NULL. */
static void *handle(in *r, state *s, const void *live, const void *dead) {
    switch (byte(r) % 8) {
    case 0:
        return NULL;
    case 1:
        return (void *)(uintptr_t)dead;
    case 2:
        return s->nval ? (void *)(uintptr_t)s->val[byte(r) % s->nval] : NULL;
    case 3:
        return s->nstr ? (void *)s->str[byte(r) % s->nstr] : NULL;
    case 4:
        return (void *)(uintptr_t)(byte(r) | (uintptr_t)byte(r) << 8);
    case 5:
        return s->nctx ? (void *)s->ctx[byte(r) % s->nctx] : NULL;
    default:
        return (void *)(uintptr_t)live;
    }
}

#define PICK(arr, n) ((n) ? (arr)[byte(r) % (n)] : NULL)
#define CTX() ((JSGlobalContextRef)handle(r, s, PICK(s->ctx, s->nctx), PICK(s->deadctx, s->ndeadctx)))
#define VAL() ((JSValueRef)handle(r, s, PICK(s->val, s->nval), NULL))
#define STR() ((JSStringRef)handle(r, s, PICK(s->str, s->nstr), PICK(s->deadstr, s->ndeadstr)))

/* keep_value keeps v, made in ctx, for later calls: values are kept whatever their context, since another
 * context's value is a foreign handle. */
static void keep_value(state *s, JSGlobalContextRef ctx, JSValueRef v) {
    if (v != NULL && s->nval < POOL) {
        s->valctx[s->nval] = ctx;
        s->val[s->nval++] = v;
    }
}

/*
 * The context pool. A context is taken from the pool (or created) by op 0 and, at the end of the input, returned
 * to the pool only if it is still pristine: no call that could change anything its JavaScript can observe was
 * given it, or a value made in it, as any parameter (M marks them: scripts, property writes, calls, protection,
 * handle scopes, inspector sessions, events). A pristine context has run no script, so it holds only built-in
 * objects, unchanged, and values no later input can name (handles start at 42 << 32, so a made-up handle never
 * names one): a later input cannot tell it from a new one. A pooled context serves at most REUSES inputs, so
 * that the values earlier inputs made in it do not pile up.
 */
#define REUSES 64
static JSGlobalContextRef idle[POOL];
static int idle_uses[POOL];
static int nidle;

/* dirty_ctx marks the context of s->ctx that is c. */
static void dirty_ctx(state *s, const void *c) {
    for (int i = 0; i < s->nctx; i++) {
        if ((const void *)s->ctx[i] == c) {
            s->dirty[i] = true;
        }
    }
}

/* M marks whatever live context p is, or the value p was made in, as no longer pristine, and returns p. */
#define M(p) ((__typeof__(p))mark(s, (const void *)(p)))
static const void *mark(state *s, const void *p) {
    if (p == NULL) {
        return p;
    }
    dirty_ctx(s, p);
    for (int i = 0; i < s->nval; i++) {
        if ((const void *)s->val[i] == p) {
            dirty_ctx(s, s->valctx[i]);
        }
    }
    return p;
}

/* new_context takes a context from the pool, or creates one. */
static void new_context(state *s) {
    if (nidle > 0) {
        nidle--;
        s->ctx[s->nctx] = idle[nidle];
        s->uses[s->nctx] = idle_uses[nidle];
    } else {
        s->ctx[s->nctx] = JSGlobalContextCreate(NULL);
        s->uses[s->nctx] = 0;
    }
    s->dirty[s->nctx] = false;
    if (s->ctx[s->nctx] != NULL) {
        s->nctx++;
    }
}

/* end_context returns s->ctx[i] to the pool if it is pristine, or releases it. */
static void end_context(state *s, int i) {
    if (!s->dirty[i] && s->uses[i] + 1 < REUSES && nidle < POOL) {
        idle_uses[nidle] = s->uses[i] + 1;
        idle[nidle++] = s->ctx[i];
    } else {
        JSGlobalContextRelease(s->ctx[i]);
    }
}

/*
 * JSGarbageCollect is a full, blocking collection of the Go heap (runtime.GC): 5-10 ms on this machine under load,
 * where every other op costs well under 1 ms. Run after every op 23, it was half to two thirds of a grown corpus's
 * wall time per input (docs/limits.md, "Why capi_fuzz slowed down"). It now
 * follows one op 23 in GC_EVERY, chosen by the same input byte that picks the op's wait, so an input still decides
 * where collections happen and every program the harness could run before, it can still run (the byte's other
 * values); the Go runtime also collects on its own every few MiB of allocation, several times a second here.
 */
#define GC_EVERY 4

/* Time per op (CAPI_FUZZ_STATS): ops 0-23, then NOPS for the end of an input (releasing what it left). */
#define NOPS 24
static long stats_every = -1;
static double op_secs[NOPS + 1];
static long op_count[NOPS + 1];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void step(in *r, state *s) {
    char buf[256];
    JSValueRef exc = NULL;
    JSValueRef *excp = (byte(r) & 1) ? &exc : NULL;
    int which = byte(r) % NOPS;
    double t0 = stats_every > 0 ? now() : 0;
    switch (which) {
    case 0:
        if (s->nctx < POOL) {
            new_context(s);
        }
        break;
    case 1:
        if (s->nctx > 0) {
            int i = byte(r) % s->nctx;
            JSGlobalContextRef c = s->ctx[i];
            JSGlobalContextRelease(c);
            s->nctx--;
            s->ctx[i] = s->ctx[s->nctx];
            s->dirty[i] = s->dirty[s->nctx];
            s->uses[i] = s->uses[s->nctx];
            if (s->ndeadctx < POOL) {
                s->deadctx[s->ndeadctx++] = c;
            }
            /* Its values stay in the pool: stale now, they are what the next calls should be given. */
        }
        break;
    case 2: {
        JSGlobalContextRef c = CTX();
        JSStringRef src = JSStringCreateWithUTF8CString(scripts[byte(r) % NSCRIPTS]);
        keep_value(s, c, JSEvaluateScript(M(c), src, NULL, NULL, 1, excp));
        JSStringRelease(src);
        break;
    }
    case 3: {
        JSGlobalContextRef c = CTX();
        JSStringRef src = JSStringCreateWithUTF8CString(text(r, buf));
        keep_value(s, c, JSEvaluateScript(M(c), src, M((JSObjectRef)VAL()), STR(), (int)byte(r) - 128, excp));
        JSStringRelease(src);
        break;
    }
    case 4:
        if (s->nstr < POOL) {
            s->str[s->nstr++] = JSStringCreateWithUTF8CString(text(r, buf));
        }
        break;
    case 5:
        if (s->nstr > 0) {
            int i = byte(r) % s->nstr;
            JSStringRef st = s->str[i];
            JSStringRelease(st);
            s->str[i] = s->str[--s->nstr];
            if (s->ndeadstr < POOL) {
                s->deadstr[s->ndeadstr++] = st;
            }
        }
        break;
    case 6: {
        JSGlobalContextRef c = CTX();
        keep_value(s, c, JSValueMakeNumber(c, (double)byte(r) / 3.0));
        keep_value(s, c, JSValueMakeString(c, STR()));
        break;
    }
    case 7: {
        JSGlobalContextRef c = CTX();
        JSValueRef v = VAL();
        (void)JSValueGetType(c, v);
        (void)JSValueToNumber(c, v, excp);
        (void)JSValueToBoolean(c, v);
        (void)JSValueIsEqual(c, v, VAL(), excp);
        JSStringRef t = JSValueToStringCopy(c, v, excp);
        if (t != NULL) {
            char out[64];
            (void)JSStringGetUTF8CString(t, out, byte(r) % sizeof out);
            (void)JSStringGetLength(t);
            JSStringRelease(t);
        }
        break;
    }
    case 8: {
        JSGlobalContextRef c = CTX();
        JSValueRef v = JSObjectGetProperty(c, (JSObjectRef)VAL(), STR(), excp);
        keep_value(s, c, v);
        JSObjectSetProperty(M(c), M((JSObjectRef)VAL()), STR(), VAL(), byte(r) % 16, excp);
        (void)JSObjectHasProperty(c, (JSObjectRef)VAL(), STR());
        (void)JSObjectDeleteProperty(M(c), M((JSObjectRef)VAL()), STR(), excp);
        keep_value(s, c, JSObjectGetPropertyAtIndex(c, (JSObjectRef)VAL(), byte(r), excp));
        break;
    }
    case 9: {
        JSGlobalContextRef c = CTX();
        JSValueRef args[3] = {VAL(), VAL(), VAL()};
        for (int i = 0; i < 3; i++) {
            (void)M(args[i]);
        }
        keep_value(s, c, JSObjectCallAsFunction(M(c), M((JSObjectRef)VAL()), M((JSObjectRef)VAL()), byte(r) % 4, args, excp));
        keep_value(s, c, JSObjectMakeArray(c, byte(r) % 4, args, excp));
        break;
    }
    case 10: {
        JSGlobalContextRef c = CTX();
        keep_value(s, c, JSValueMakeFromJSONString(c, STR()));
        JSStringRef j = JSValueCreateJSONString(c, VAL(), byte(r) % 12, excp);
        if (j != NULL) {
            JSStringRelease(j);
        }
        break;
    }
    case 11: {
        JSGlobalContextRef c = M(CTX());
        JSValueRef v = M(VAL());
        switch (byte(r) % 3) {
        case 0:
            JSValueProtect(c, v);
            break;
        case 1:
            JSValueUnprotect(c, v);
            break;
        default:
            ZJSValueRelease(c, v);
        }
        break;
    }
    case 12: {
        JSGlobalContextRef c = M(CTX());
        ZJSHandleScopeRef sc = ZJSHandleScopeOpen(c);
        keep_value(s, c, JSValueMakeBoolean(c, true));
        ZJSHandleScopeClose((byte(r) & 1) ? c : M(CTX()), sc);
        break;
    }
    case 13:
        if (s->worker == NULL) {
            JSStringRef src = JSStringCreateWithUTF8CString(worker_sources[byte(r) % 4]);
            s->worker = JSWorkerCreate(src);
            JSStringRelease(src);
        }
        break;
    case 14: {
        JSWorkerRef w = (JSWorkerRef)handle(r, s, s->worker, s->deadworker);
        (void)JSWorkerPostMessage(w, CTX(), VAL(), excp);
        break;
    }
    case 15: {
        JSGlobalContextRef c = CTX();
        keep_value(s, c, JSWorkerReceive((JSWorkerRef)handle(r, s, s->worker, s->deadworker), c, byte(r) % 20, excp));
        break;
    }
    case 16:
        switch (byte(r) % 3) {
        case 0:
            JSWorkerTerminate((JSWorkerRef)handle(r, s, s->worker, s->deadworker));
            break;
        case 1:
            ZJSWorkerClose((JSWorkerRef)handle(r, s, s->worker, s->deadworker));
            break;
        default:
            if (s->worker != NULL) {
                if (s->ws != NULL) { /* a session outlives its worker's handle: it reports Closed */
                    (void)ZJSWorkerInspectorSessionPump(s->ws, 0);
                }
                JSWorkerRelease(s->worker);
                s->deadworker = s->worker;
                s->worker = NULL;
            }
        }
        break;
    case 17:
        if (s->cs == NULL && s->nctx > 0) {
            JSGlobalContextRef c = M(s->ctx[byte(r) % s->nctx]);
            JSGlobalContextSetInspectable(c, byte(r) & 1);
            s->cs = ZJSInspectorSessionCreate(c, (byte(r) & 7) ? on_message : NULL, NULL);
        }
        break;
    case 18: {
        const char *m = text(r, buf);
        (void)ZJSInspectorSessionDispatch((ZJSInspectorSessionRef)handle(r, s, s->cs, s->deadcs), m,
                                          byte(r) & 1 ? strlen(m) : 0);
        break;
    }
    case 19:
        if (s->cs != NULL) {
            ZJSInspectorSessionRelease(s->cs);
            s->deadcs = s->cs;
            s->cs = NULL;
        }
        break;
    case 20:
        if (s->ws == NULL && s->worker != NULL) {
            s->ws = ZJSWorkerInspectorSessionCreate(s->worker, on_message, NULL);
        }
        break;
    case 21: {
        const char *m = text(r, buf);
        ZJSWorkerInspectorSessionRef ws = (ZJSWorkerInspectorSessionRef)handle(r, s, s->ws, s->deadws);
        (void)ZJSWorkerInspectorSessionDispatch(ws, m, byte(r) & 1 ? strlen(m) : 0);
        (void)ZJSWorkerInspectorSessionPump(ws, byte(r) % 10);
        break;
    }
    case 22:
        if (s->ws != NULL) {
            ZJSWorkerInspectorSessionRelease(s->ws);
            s->deadws = s->ws;
            s->ws = NULL;
        }
        break;
    default: {
        /* One byte picks the wait (0-4 ms) and whether a full collection follows (one time in four: GC_EVERY). */
        JSGlobalContextRef c = M(CTX());
        uint8_t t = byte(r);
        (void)ZJSContextRunPendingEvents(c, t % 5);
        keep_value(s, c, (JSValueRef)JSContextGetGlobalObject(c));
        if (t / 5 % GC_EVERY == 0) {
            JSGarbageCollect(c);
        }
    }
    }
    if (stats_every > 0) {
        op_secs[which] += now() - t0;
        op_count[which]++;
    }
}

/*
 * handlersOnStack gives every signal handler of the process that lacks SA_ONSTACK the flag. Go requires it of
 * non-Go code (os/signal, "Go programs that use cgo or SWIG"): a signal delivered to a thread running a goroutine
 * is otherwise handled on the goroutine's stack, a few KiB that the kernel's signal frame alone can overflow into
 * the next goroutine's. libFuzzer installs its handlers (SIGALRM for -timeout, the crash signals) without it, after
 * the library's runtime started, and its timer's SIGALRM goes to any thread: after 622,073 inputs one landed on a
 * Go thread and corrupted a GC worker's stack (docs/limits.md, "Fuzzing"). Run at the first input, when libFuzzer's
 * handlers are in place; the library's own (Go's) already have the flag.
 */
static void handlersOnStack(void) {
    char changed[256] = "";
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        if (sigaction(sig, NULL, &sa) != 0 || sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN ||
            (sa.sa_flags & SA_ONSTACK) != 0) {
            continue;
        }
        sa.sa_flags |= SA_ONSTACK;
        if (sigaction(sig, &sa, NULL) == 0) {
            size_t n = strlen(changed);
            snprintf(changed + n, sizeof changed - n, " %d", sig);
        }
    }
    if (changed[0] != '\0') {
        fprintf(stderr, "capi_fuzz: SA_ONSTACK added to the handlers of signals%s\n", changed);
    }
}

/*
 * Per-input cost over a run: with CAPI_FUZZ_STATS=N in the environment, every N inputs the harness prints the
 * inputs per second and mean input length over those N, and the process's threads and resident memory (from
 * /proc/self/status), so that a rate that falls can be told apart: longer inputs, or state that grows.
 */
static long stats_n;
static size_t stats_bytes;
static double stats_t0;

static long status_field(const char *name) {
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) {
        return -1;
    }
    char line[256];
    long v = -1;
    size_t n = strlen(name);
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, name, n) == 0 && line[n] == ':') {
            v = strtol(line + n + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return v;
}

static void stats(size_t size) {
    if (stats_every < 0) {
        const char *e = getenv("CAPI_FUZZ_STATS");
        stats_every = e != NULL ? strtol(e, NULL, 10) : 0;
        stats_t0 = now();
    }
    if (stats_every <= 0) {
        return;
    }
    stats_bytes += size;
    if (++stats_n % stats_every != 0) {
        return;
    }
    double t = now();
    fprintf(stderr, "capi_fuzz stats: inputs %ld rate %.0f/s mean_len %.1f threads %ld rss_kb %ld; ms per input by op:",
            stats_n, (double)stats_every / (t - stats_t0), (double)stats_bytes / (double)stats_every,
            status_field("Threads"), status_field("VmRSS"));
    for (int i = 0; i <= NOPS; i++) {
        if (op_secs[i] * 1000 / (double)stats_every >= 0.05) {
            fprintf(stderr, " %d:%.2f(%ld)", i, op_secs[i] * 1000 / (double)stats_every, op_count[i]);
        }
        op_secs[i] = 0;
        op_count[i] = 0;
    }
    fprintf(stderr, "\n");
    stats_bytes = 0;
    stats_t0 = t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool onStack;
    if (!onStack) {
        onStack = true;
        handlersOnStack();
    }
    stats(size);
    in r = {data, size};
    state s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < MAX_OPS && r.n > 0; i++) {
        step(&r, &s);
    }
    double t0 = stats_every > 0 ? now() : 0;
    if (s.ws != NULL) {
        ZJSWorkerInspectorSessionRelease(s.ws);
    }
    if (s.worker != NULL) {
        JSWorkerTerminate(s.worker);
        JSWorkerRelease(s.worker);
    }
    if (s.cs != NULL) {
        ZJSInspectorSessionRelease(s.cs);
    }
    for (int i = 0; i < s.nstr; i++) {
        JSStringRelease(s.str[i]);
    }
    for (int i = 0; i < s.nctx; i++) {
        end_context(&s, i);
    }
    if (stats_every > 0) {
        op_secs[NOPS] += now() - t0;
        op_count[NOPS]++;
    }
    return 0;
}
