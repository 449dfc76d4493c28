/* load.c - time dlopen of a library and its first call (ZJSGetVersionNumber), which waits for the Go runtime to
 * finish starting, in a fresh process: bench/loadfloor's driver, run against the empty Go library, the goja-only
 * one and libjsworker itself (see bench/loadfloor/run.sh). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <sys/resource.h>

#include "../capi/bench_common.h"

/* usage_now is the process's CPU time (user + system, all threads) in ms and its minor page faults so far. */
static void usage_now(double *cpu_ms, long *faults) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    *faults = ru.ru_minflt;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: load /path/to/lib.so\n");
        return 2;
    }
    double cpu0, cpu1;
    long flt0, flt1;
    usage_now(&cpu0, &flt0);
    double t0 = now_ms();
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    double t1 = now_ms();
    if (lib == NULL) {
        fprintf(stderr, "load: %s\n", dlerror());
        return 1;
    }
    int (*version)(void);
    *(void **)&version = dlsym(lib, "ZJSGetVersionNumber");
    if (version == NULL) {
        fprintf(stderr, "load: no ZJSGetVersionNumber in %s\n", argv[1]);
        return 1;
    }
    int v = version();
    double t2 = now_ms();
    usage_now(&cpu1, &flt1);
    printf("dlopen %.2f ms, first call %.2f ms, total %.2f ms (version %d); cpu %.2f ms, minor faults %ld\n", t1 - t0,
           t2 - t1, t2 - t0, v, cpu1 - cpu0, flt1 - flt0);
    return 0;
}
