/* bench_common.h - the clock and median every C API benchmark program of bench/capi uses. */
#ifndef JSWORKER_BENCH_COMMON_H
#define JSWORKER_BENCH_COMMON_H

#include <stdlib.h>
#include <time.h>

static inline double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline double now_ms(void) { return now_ns() / 1e6; }

static inline int bench_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median sorts v (n values) and returns its median. */
static inline double median(double *v, int n) {
    qsort(v, n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
