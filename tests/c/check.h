/*
 * check.h - the tiny harness shared by the C test hosts: CHECK prints "ok" or "FAIL" and a description per check and
 * counts failures; check_done prints the verdict and returns the exit status. Plus helpers for JSStrings and
 * exceptions. Header-only (static functions) so that every test is one translation unit.
 */
#ifndef JSWORKER_TESTS_CHECK_H
#define JSWORKER_TESTS_CHECK_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthreads under -std=c11 */
#endif

#include "jsworker.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int check_failures;

/* check prints "ok" or "FAIL" and the printf-style description, and counts failures. The condition is evaluated
 * before the description's arguments, so they may show what it did (an exception it stored). A statement. */
#define check(cond, ...)                                                                                           \
    do {                                                                                                           \
        int check_ok_ = (cond);                                                                                    \
        check_report(check_ok_, __VA_ARGS__);                                                                      \
    } while (0)

static inline int check_report(int ok, const char *format, ...) {
    va_list args;
    printf("%s ", ok ? "ok  " : "FAIL");
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
    fflush(stdout);
    if (!ok) {
        check_failures++;
    }
    return ok;
}

static inline int check_done(void) {
    if (check_failures != 0) {
        printf("FAIL: %d check(s) failed\n", check_failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}

/* str makes a JSString from UTF-8; the caller releases it. */
static inline JSStringRef str(const char *s) { return JSStringCreateWithUTF8CString(s); }

/* take_utf8 copies s into a new malloc'd C string and releases s (NULL gives "(null)"). */
static char *take_utf8(JSStringRef s) {
    if (s == NULL) {
        char *p = malloc(7);
        memcpy(p, "(null)", 7);
        return p;
    }
    size_t n = JSStringGetMaximumUTF8CStringSize(s);
    char *p = malloc(n);
    JSStringGetUTF8CString(s, p, n);
    JSStringRelease(s);
    return p;
}

/* value_text returns the string form of v (or "(none)" for NULL) in a static buffer overwritten by the next call. */
static const char *value_text(JSContextRef ctx, JSValueRef v) {
    static char buf[1024];
    if (v == NULL) {
        return "(none)";
    }
    char *p = take_utf8(JSValueToStringCopy(ctx, v, NULL));
    snprintf(buf, sizeof buf, "%s", p);
    free(p);
    return buf;
}

/* eval runs src in ctx and returns the result, or NULL with the exception printed. */
static inline JSValueRef eval(JSContextRef ctx, const char *src) {
    JSStringRef s = str(src);
    JSValueRef exc = NULL;
    JSValueRef v = JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
    JSStringRelease(s);
    if (v == NULL) {
        printf("     (eval of %s threw %s)\n", src, value_text(ctx, exc));
    }
    return v;
}

/* now_ms is a monotonic clock in milliseconds. */
static inline double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* new_worker makes a worker from a script, or NULL. */
static inline JSWorkerRef new_worker(const char *src) {
    JSStringRef s = str(src);
    JSWorkerRef w = JSWorkerCreate(s);
    JSStringRelease(s);
    return w;
}

#endif
