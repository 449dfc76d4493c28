/*
 * capi_message_bench - the message path through the C API, beside Node's bench/node programs (issue 17):
 *
 *   one way  {i, s: "hello"} main -> worker, 200,000 messages, until the worker confirms the last (throughput.js):
 *            per message (JSValueMakeNumber + JSObjectSetProperty + JSWorkerPostMessage), batched
 *            (ZJSWorkerPostMessages, 1,000 per call) and as JSON text (ZJSWorkerPostJSON of `{"i":N,"s":"hello"}`,
 *            formatted by the host: one library entry per message); "post loop" is the posting loop alone, per
 *            message (the host's side; the rest is the worker consuming);
 *   round trip a number, the worker posts it back, the host blocked in the receive (rtt.js, parentPort): values
 *            (JSWorkerPostMessage + JSWorkerReceive, in a handle scope) and JSON (ZJSWorkerPostJSON +
 *            ZJSWorkerReceiveJSON); the median of 20,000 after 1,000 warm-up, in µs;
 *   clone    clone.js's graph (10,000 objects, ~1.06 MB as JSON) main -> worker -> main, 2 warm-up + 20 timed round
 *            trips; MB/s = 2 * JSON bytes * 20 / time, clone.js's formula: as a value (the graph made once in the
 *            host's context by clone.js's own makeGraph, through JSEvaluateScript; JSWorkerPostMessage +
 *            JSWorkerReceive) and as JSON (the graph's JSON text, made once; ZJSWorkerPostJSON +
 *            ZJSWorkerReceiveJSON; the worker receives and posts back real objects).
 *
 *   capi_message_bench [runs [only]]   median of runs (default 5); one line per run, then the medians; only
 *                                      ("rtt", "oneway" or "graph", "-value" or "-json" appended for half of
 *                                      it) runs that group alone, for profiles
 *
 * The JSON calls are looked up at run time (dlsym), so that the same program measures a library without them (the
 * rows are then skipped): base and new builds can be run alternately with LD_LIBRARY_PATH.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* RTLD_DEFAULT */
#include "jsworker.h"
#include "bench_common.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 25
#define ONE_WAY 200000
#define RTT_WARM 1000
#define RTT_N 20000
#define GRAPH_ITER 20

static bool (*postJSON)(JSWorkerRef, JSContextRef, const char *, size_t, JSValueRef *);
static char *(*receiveJSON)(JSWorkerRef, JSContextRef, uint64_t, size_t *, JSValueRef *);

static void die(const char *what) {
    fprintf(stderr, "capi_message_bench: %s failed\n", what);
    exit(1);
}

/* counter makes the one-way worker: it counts messages whose s is "hello" and replies after the last. */
static JSWorkerRef counter(void) {
    char script[256];
    snprintf(script, sizeof script,
             "let n = 0; onmessage = (e) => { if (e.data.s === 'hello' && ++n === %d) postMessage(n); };", ONE_WAY);
    JSStringRef src = JSStringCreateWithUTF8CString(script);
    ZJSWorkerOptions o = {.size = sizeof o, .inbox = {.maxQueuedMessages = 4 << 20, .maxQueuedBytes = 1u << 30}};
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &o, NULL);
    JSStringRelease(src);
    if (w == NULL) {
        die("worker");
    }
    return w;
}

static double post_loop_us[3]; /* the last one_way's posting loop alone, per message, by mode */

static double finish_one_way(JSWorkerRef w, JSContextRef ctx, double t0) {
    if (JSWorkerReceive(w, ctx, kJSWorkerWaitForever, NULL) == NULL) {
        die("one-way reply");
    }
    double per_s = ONE_WAY / ((now_ms() - t0) / 1000);
    JSWorkerRelease(w);
    return per_s;
}

/* mode 0: per message; 1: ZJSWorkerPostMessages of 1,000; 2: JSON text. Messages per second. */
static double one_way(JSContextRef ctx, int mode) {
    JSWorkerRef w = counter();
    JSStringRef iKey = JSStringCreateWithUTF8CString("i"), sKey = JSStringCreateWithUTF8CString("s");
    JSStringRef hello = JSStringCreateWithUTF8CString("hello");
    static JSValueRef msgs[1000];
    ZJSHandleScopeRef outer = ZJSHandleScopeOpen(ctx);
    for (int j = 0; j < (mode == 1 ? 1000 : 1); j++) {
        JSObjectRef m = JSObjectMake(ctx, NULL, NULL);
        JSObjectSetProperty(ctx, m, sKey, JSValueMakeString(ctx, hello), 0, NULL);
        msgs[j] = m;
    }
    char text[64];
    double t0 = now_ms();
    for (int i = 0; i < ONE_WAY; i += 1000) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        for (int j = 0; j < 1000; j++) {
            bool ok = true;
            if (mode == 2) {
                int n = snprintf(text, sizeof text, "{\"i\":%d,\"s\":\"hello\"}", i + j);
                ok = postJSON(w, ctx, text, (size_t)n, NULL);
            } else {
                JSObjectSetProperty(ctx, (JSObjectRef)msgs[mode == 1 ? j : 0], iKey, JSValueMakeNumber(ctx, i + j), 0,
                                    NULL);
                if (mode == 0) {
                    ok = JSWorkerPostMessage(w, ctx, msgs[0], NULL);
                }
            }
            if (!ok) {
                die("one-way post");
            }
        }
        if (mode == 1 && ZJSWorkerPostMessages(w, ctx, 1000, msgs, NULL) != 1000) {
            die("one-way batch post");
        }
        ZJSHandleScopeClose(ctx, scope);
    }
    post_loop_us[mode] = (now_ms() - t0) * 1000 / ONE_WAY;
    double r = finish_one_way(w, ctx, t0);
    ZJSHandleScopeClose(ctx, outer);
    JSStringRelease(iKey);
    JSStringRelease(sKey);
    JSStringRelease(hello);
    return r;
}

/* round_trip: the median round trip in µs; json selects the JSON calls. */
static double round_trip(JSContextRef ctx, int json) {
    JSStringRef src = JSStringCreateWithUTF8CString("onmessage = (e) => postMessage(e.data);");
    JSWorkerRef w = JSWorkerCreate(src);
    JSStringRelease(src);
    static double lat[RTT_N];
    char text[32];
    for (int i = -RTT_WARM; i < RTT_N; i++) {
        double t = now_ms();
        if (json) {
            int n = snprintf(text, sizeof text, "%d", i);
            char *back = NULL;
            if (!postJSON(w, ctx, text, (size_t)n, NULL) ||
                (back = receiveJSON(w, ctx, kJSWorkerWaitForever, NULL, NULL)) == NULL || atoi(back) != i) {
                die("JSON round trip");
            }
            free(back);
        } else {
            ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
            JSValueRef v;
            if (!JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, i), NULL) ||
                (v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, NULL)) == NULL ||
                JSValueToNumber(ctx, v, NULL) != i) {
                die("round trip");
            }
            ZJSHandleScopeClose(ctx, scope);
        }
        if (i >= 0) {
            lat[i] = (now_ms() - t) * 1000;
        }
    }
    JSWorkerRelease(w);
    return median(lat, RTT_N);
}

/* clone.js's makeGraph, evaluated in the host's context. */
static const char *graphSource =
    "(function makeGraph(n) { const a = new Array(n); for (let i = 0; i < n; i++) { a[i] = { id: i, name: 'item-' + i,"
    " kind: 'k' + (i % 17), price: Math.round(i * 137.31) / 100, qty: (i * 7) % 1000, ok: (i % 3) === 0,"
    " tags: ['alpha', 'beta', i % 10] }; } return a; })(10000)";

static JSValueRef eval(JSContextRef ctx, const char *code) {
    JSStringRef s = JSStringCreateWithUTF8CString(code);
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, NULL);
    JSStringRelease(s);
    if (v == NULL) {
        die("eval");
    }
    return v;
}

/* graph_MBps: clone.js's round trip of its graph, as a value or as JSON text; MB/s of JSON, clone.js's formula. */
static double graph_MBps(JSContextRef ctx, int json) {
    ZJSHandleScopeRef outer = ZJSHandleScopeOpen(ctx);
    JSValueRef graph = eval(ctx, graphSource);
    JSStringRef text = JSValueCreateJSONString(ctx, graph, 0, NULL);
    size_t cap = JSStringGetMaximumUTF8CStringSize(text);
    char *buf = malloc(cap);
    size_t jsonBytes = JSStringGetUTF8CString(text, buf, cap) - 1;
    JSStringRelease(text);
    JSStringRef src = JSStringCreateWithUTF8CString(
        "onmessage = (e) => { const g = e.data; if (g.length !== 10000 || g[9999].tags[2] !== 9) throw 0;"
        " postMessage(g); };");
    JSWorkerRef w = JSWorkerCreate(src);
    JSStringRelease(src);
    double t0 = 0;
    for (int i = -2; i < GRAPH_ITER; i++) {
        if (i == 0) {
            t0 = now_ms();
        }
        if (json) {
            size_t n = 0;
            char *back = NULL;
            if (!postJSON(w, ctx, buf, jsonBytes, NULL) ||
                (back = receiveJSON(w, ctx, kJSWorkerWaitForever, &n, NULL)) == NULL || n != jsonBytes) {
                die("JSON graph round trip");
            }
            free(back);
        } else {
            ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
            if (!JSWorkerPostMessage(w, ctx, graph, NULL) || JSWorkerReceive(w, ctx, kJSWorkerWaitForever, NULL) == NULL) {
                die("graph round trip");
            }
            ZJSHandleScopeClose(ctx, scope);
        }
    }
    double ms = now_ms() - t0;
    JSWorkerRelease(w);
    free(buf);
    ZJSHandleScopeClose(ctx, outer);
    return 2.0 * jsonBytes * GRAPH_ITER / 1e6 / (ms / 1000);
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1 || runs > MAX_RUNS) {
        runs = 5;
    }
    *(void **)&postJSON = dlsym(RTLD_DEFAULT, "ZJSWorkerPostJSON");
    *(void **)&receiveJSON = dlsym(RTLD_DEFAULT, "ZJSWorkerReceiveJSON");
    int json = postJSON != NULL && receiveJSON != NULL;
    const char *only = argc > 2 ? argv[2] : "";
    int rtt = !*only || strncmp(only, "rtt", 3) == 0, oneway = !*only || strncmp(only, "oneway", 6) == 0;
    int graph = !*only || strncmp(only, "graph", 5) == 0;
    int values = strstr(only, "-json") == NULL; /* "oneway-json": the JSON rows only; "-value": no JSON rows */
    json &= strstr(only, "-value") == NULL;
    enum { ONE, BATCH, ONE_JSON, POST, POST_BATCH, POST_JSON, RTT, RTT_JSON, GRAPH, GRAPH_JSON, N };
    static const char *names[N] = {"one way msg/s",      "batched msg/s",  "JSON msg/s",     "post loop us/msg",
                                   "batched post loop us/msg", "JSON post loop us/msg", "round trip us",
                                   "JSON round trip us", "graph MB/s",     "JSON graph MB/s"};
    double v[N][MAX_RUNS] = {{0}};
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    for (int r = 0; r < runs; r++) {
        if (oneway && values) {
            v[ONE][r] = one_way(ctx, 0);
            v[POST][r] = post_loop_us[0];
            v[BATCH][r] = one_way(ctx, 1);
            v[POST_BATCH][r] = post_loop_us[1];
        }
        if (rtt && values) {
            v[RTT][r] = round_trip(ctx, 0);
        }
        if (graph && values) {
            v[GRAPH][r] = graph_MBps(ctx, 0);
        }
        if (json && oneway) {
            v[ONE_JSON][r] = one_way(ctx, 2);
            v[POST_JSON][r] = post_loop_us[2];
        }
        if (json && rtt) {
            v[RTT_JSON][r] = round_trip(ctx, 1);
        }
        if (json && graph) {
            v[GRAPH_JSON][r] = graph_MBps(ctx, 1);
        }
        printf("run %d:", r + 1);
        for (int k = 0; k < N; k++) {
            printf("%s %s %.2f", k ? "," : "", names[k], v[k][r]);
        }
        printf("\n");
        fflush(stdout);
    }
    JSGlobalContextRelease(ctx);
    printf("median of %d:", runs);
    for (int k = 0; k < N; k++) {
        printf("%s %s %.2f", k ? "," : "", names[k], median(v[k], runs));
    }
    printf("%s\n", json ? "" : " (no JSON calls in this library)");
    return 0;
}
