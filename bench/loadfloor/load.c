/* load.c - time dlopen of a library and its first call (ZJSGetVersionNumber), which waits for the Go runtime to
 * finish starting, in a fresh process: bench/loadfloor's driver, run against the empty Go library, the goja-only
 * one and libjsworker itself (see bench/loadfloor/run.sh). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>

#include "../capi/bench_common.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: load /path/to/lib.so\n");
        return 2;
    }
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
    printf("dlopen %.2f ms, first call %.2f ms, total %.2f ms (version %d)\n", t1 - t0, t2 - t1, t2 - t0, v);
    return 0;
}
