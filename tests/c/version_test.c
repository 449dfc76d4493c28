/*
 * version_test.c - the version pair: the library loaded at run time matches the header compiled against, from the
 * main thread and from several threads at once (ZJSGetVersionNumber and ZJSGetVersionString may be called from any
 * thread).
 *
 * Prints one line per check and exits non-zero if any check fails.
 */
#include "jsworker.h"

#include <pthread.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define THREADS 4
#define CALLS_PER_THREAD 10000

_Static_assert(JSWORKER_VERSION_NUMBER ==
                   JSWORKER_VERSION_MAJOR * 1000000 + JSWORKER_VERSION_MINOR * 1000 + JSWORKER_VERSION_PATCH,
               "JSWORKER_VERSION_NUMBER disagrees with MAJOR/MINOR/PATCH");

static int failures;

/* check prints "ok" or "FAIL" and the printf-style description, and counts failures. */
static void check(int ok, const char *format, ...) {
    va_list args;
    printf("%s ", ok ? "ok  " : "FAIL");
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
    if (!ok) {
        failures++;
    }
}

/* hammer calls both functions repeatedly and returns the number of wrong answers, cast to a pointer. */
static void *hammer(void *arg) {
    intptr_t bad = 0;
    (void)arg;
    for (int i = 0; i < CALLS_PER_THREAD; i++) {
        const char *s = ZJSGetVersionString();
        if (ZJSGetVersionNumber() != JSWORKER_VERSION_NUMBER) {
            bad++;
        }
        if (s == NULL || strcmp(s, JSWORKER_VERSION_STRING) != 0) {
            bad++;
        }
    }
    return (void *)bad;
}

int main(void) {
    const char *s = ZJSGetVersionString();

    printf("header %s (%d), library %s (%d)\n", JSWORKER_VERSION_STRING, JSWORKER_VERSION_NUMBER, s ? s : "(null)",
           ZJSGetVersionNumber());
    check(ZJSGetVersionNumber() == JSWORKER_VERSION_NUMBER, "ZJSGetVersionNumber() == JSWORKER_VERSION_NUMBER");
    check(s != NULL && strcmp(s, JSWORKER_VERSION_STRING) == 0,
          "strcmp(ZJSGetVersionString(), JSWORKER_VERSION_STRING) == 0");
    check(ZJSGetVersionString() == s, "ZJSGetVersionString() returns the same static string every time");

    pthread_t threads[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; i++) {
        if (pthread_create(&threads[i], NULL, hammer, NULL) != 0) {
            break;
        }
        started++;
    }
    check(started == THREADS, "started %d of %d threads calling both functions concurrently", started, THREADS);
    long bad = 0;
    for (int i = 0; i < started; i++) {
        void *r = NULL;
        pthread_join(threads[i], &r);
        bad += (long)(intptr_t)r;
    }
    check(bad == 0, "%d concurrent calls of each function returned the header's version (%ld wrong)",
          started * CALLS_PER_THREAD, bad);

    if (failures != 0) {
        printf("FAIL: %d check(s) failed\n", failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
