/*
 * memory_test.c - value lifetime in a long loop (issue 5, §5): post/receive round trips through the C API, each
 * iteration inside a handle scope, must not grow the process's resident memory beyond a small constant.
 *
 *   memory_test [round_trips]     default 20000 (the CTest run); `make memtest-full` runs 1,000,000
 *
 * The resident set is read from /proc/self/statm after a warm-up (so that the Go heap, the worker and the handle
 * table have reached their working size) and again at the end. Prints one line per check and the figures; exits
 * non-zero if a check fails.
 */
#include "check.h"

#include <unistd.h>

#define WARMUP 2000
#define MAX_GROWTH_MIB 16.0

/* rss_mib returns the resident set size in MiB, or -1. */
static double rss_mib(void) {
    long size, resident;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) {
        return -1;
    }
    int n = fscanf(f, "%ld %ld", &size, &resident);
    fclose(f);
    return n == 2 ? resident * (double)sysconf(_SC_PAGESIZE) / (1 << 20) : -1;
}

/* round_trips does n post/receive round trips, each in its own handle scope; it returns the number that failed. */
static long round_trips(JSContextRef ctx, JSWorkerRef w, long n) {
    long bad = 0;
    for (long i = 0; i < n; i++) {
        ZJSHandleScopeRef scope = ZJSHandleScopeOpen(ctx);
        JSValueRef exc = NULL;
        if (!JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, (double)i), &exc)) {
            bad++;
        } else {
            JSValueRef v = JSWorkerReceive(w, ctx, kJSWorkerWaitForever, &exc);
            if (v == NULL || JSValueToNumber(ctx, v, NULL) != 2.0 * i) {
                bad++;
            }
        }
        ZJSHandleScopeClose(ctx, scope);
    }
    return bad;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 20000;
    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSWorkerRef w = new_worker("onmessage = (e) => postMessage(e.data * 2);");
    check(ctx != NULL && w != NULL, "a context and a worker");

    check(round_trips(ctx, w, WARMUP) == 0, "%d warm-up round trips", WARMUP);
    double before = rss_mib();
    double t0 = now_ms();
    long bad = round_trips(ctx, w, n);
    double ms = now_ms() - t0;
    double after = rss_mib();
    check(bad == 0, "%ld round trips, each in a handle scope, all answered correctly (%ld wrong)", n, bad);
    printf("     resident set: %.1f MiB after warm-up, %.1f MiB after %ld round trips (%+.1f MiB); %.2f us each\n",
           before, after, n, after - before, ms * 1000 / n);
    check(before > 0 && after - before < MAX_GROWTH_MIB, "the resident set grew less than %.0f MiB (%+.1f MiB)",
          MAX_GROWTH_MIB, after - before);

    JSWorkerRelease(w);
    JSGlobalContextRelease(ctx);
    return check_done();
}
