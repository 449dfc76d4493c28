/*
 * c_host.c - the C host of the real-browser test (devtools_browser.js, built by devtools_test.go against
 * libjsworker.so): the process's DevTools endpoint (ZJSInspectorEndpointStart), an inspectable main context whose
 * tick() hits `debugger;` each time the host calls it, and an inspectable worker created through the C API whose
 * timer does the same. It prints "listening PORT" and serves until its standard input closes.
 */
#define _POSIX_C_SOURCE 200809L
#include "jsworker.h"

#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static const char main_source[] = "function tick(n) {\n"
                                  "  const label = 'c-host';\n"
                                  "  const doubled = n * 2;\n"
                                  "  debugger;\n"
                                  "  return doubled;\n"
                                  "}\n";

static const char worker_source[] = "let beats = 0;\n"
                                    "setInterval(() => {\n"
                                    "  beats++;\n"
                                    "  const where = 'c-worker';\n"
                                    "  debugger;\n"
                                    "}, 100);\n";

/* evaluate runs source in ctx under the given URL and reports an exception on stderr; 1 if it ran. */
static int evaluate(JSGlobalContextRef ctx, const char *source, const char *url) {
    JSStringRef s = JSStringCreateWithUTF8CString(source);
    JSStringRef u = url ? JSStringCreateWithUTF8CString(url) : NULL;
    JSValueRef exc = NULL;
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, u, 1, &exc);
    JSStringRelease(s);
    if (u) {
        JSStringRelease(u);
    }
    if (v == NULL) {
        fprintf(stderr, "c_host: %s threw\n", url ? url : "a script");
        return 0;
    }
    return 1;
}

/* input_closed waits up to ms milliseconds for standard input and reports whether it reached its end. */
static int input_closed(int ms) {
    struct pollfd p = {.fd = 0, .events = POLLIN};
    if (poll(&p, 1, ms) <= 0) {
        return 0;
    }
    char buf[64];
    return read(0, buf, sizeof buf) <= 0;
}

int main(void) {
    char err[256];
    uint16_t port = 0;
    if (ZJSInspectorEndpointStart("127.0.0.1:0", &port, err, sizeof err) != kZJSInspectorEndpointOK) {
        fprintf(stderr, "c_host: the endpoint did not start: %s\n", err);
        return 1;
    }
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSGlobalContextSetInspectable(ctx, true);
    if (!evaluate(ctx, main_source, "file:///c_host/main.js")) {
        return 1;
    }
    JSStringRef src = JSStringCreateWithUTF8CString(worker_source);
    ZJSWorkerOptions opts = {.size = sizeof(ZJSWorkerOptions), .name = "c-worker", .inspectable = true};
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &opts, NULL);
    JSStringRelease(src);
    if (w == NULL) {
        fprintf(stderr, "c_host: the worker was not created\n");
        return 1;
    }
    printf("listening %u\n", port);
    fflush(stdout);
    /* The owner thread's loop: call tick(n) (it pauses while a session has the Debugger enabled) and serve the
     * endpoint sessions' commands, which run here (ZJSContextRunPendingEvents). */
    char call[64];
    for (int n = 1; !input_closed(50); n++) {
        snprintf(call, sizeof call, "tick(%d)", n);
        evaluate(ctx, call, NULL);
        ZJSContextRunPendingEvents(ctx, 0);
    }
    JSWorkerTerminate(w);
    JSWorkerRelease(w);
    JSGlobalContextRelease(ctx);
    ZJSInspectorEndpointStop();
    return 0;
}
