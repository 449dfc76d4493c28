/*
 * modhost - a C host that runs a module worker whose modules are files of a directory.
 *
 *   modhost [DIR]     runs DIR/main.js (default: the app/ directory beside this file), posts it 21 and prints the
 *                     reply; exits 0 if a reply came, 1 if the module graph failed (the error is printed).
 *
 * The loader callback resolves relative specifiers ("./x", "../y") against the importing module's directory, and
 * tries the path as written, then with .js, .mjs, .ts and .json, then /index.js, as modules.FileLoader does in Go.
 * Bare specifiers ("lodash") are not found. It runs on the worker's thread; it keeps no state, so it is
 * thread-safe.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "jsworker.h"

#include <libgen.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef MODHOST_DEFAULT_DIR
#define MODHOST_DEFAULT_DIR "examples/modhost/app"
#endif

/* read_file returns the malloc'd contents of path and its length, or NULL. */
static char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            char *p = realloc(buf, cap);
            if (p == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    fclose(f);
    *length = n;
    return buf;
}

/* resolve_file sets out to the real path of the first candidate that is a regular file. */
static int resolve_file(const char *base, char out[PATH_MAX]) {
    static const char *suffixes[] = {"", ".js", ".mjs", ".ts", ".json", "/index.js"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char candidate[PATH_MAX];
        struct stat st;
        if (snprintf(candidate, sizeof candidate, "%s%s", base, suffixes[i]) >= (int)sizeof candidate) {
            continue;
        }
        if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode) && realpath(candidate, out) != NULL) {
            return 1;
        }
    }
    return 0;
}

/* load is the ZJSModuleLoaderCallback: it answers with the file's path and contents, or leaves the request
 * unanswered (not found). */
static void load(ZJSModuleRequestRef request, const char *specifier, const char *referrerPath, void *userData) {
    (void)userData;
    char base[PATH_MAX], dir[PATH_MAX], resolved[PATH_MAX];
    if (specifier[0] == '/') {
        snprintf(base, sizeof base, "%s", specifier);
    } else if (strncmp(specifier, "./", 2) == 0 || strncmp(specifier, "../", 3) == 0) {
        snprintf(dir, sizeof dir, "%s", referrerPath);
        snprintf(base, sizeof base, "%s/%s", dirname(dir), specifier);
    } else {
        return; /* a bare specifier: not found */
    }
    if (!resolve_file(base, resolved)) {
        return;
    }
    size_t length;
    char *source = read_file(resolved, &length);
    if (source == NULL) {
        ZJSModuleRequestFail(request, "cannot read the file");
        return;
    }
    ZJSModuleRequestResolve(request, resolved, source, length); /* copies both */
    free(source);
}

static atomic_int failed; /* set by the error callback on the worker thread */

static void on_error(JSWorkerRef worker, const ZJSErrorInfo *error, void *userData) {
    (void)worker;
    (void)userData;
    fprintf(stderr, "modhost: %s: %s\n    at %s:%u:%u\n", error->name, error->message, error->filename, error->line,
            error->column);
    atomic_store(&failed, 1);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : MODHOST_DEFAULT_DIR;
    char entry[PATH_MAX], path[PATH_MAX];
    snprintf(path, sizeof path, "%s/main.js", dir);
    if (realpath(path, entry) == NULL) {
        fprintf(stderr, "modhost: no %s\n", path);
        return 2;
    }
    size_t length;
    char *source = read_file(entry, &length);
    if (source == NULL) {
        fprintf(stderr, "modhost: cannot read %s\n", entry);
        return 2;
    }
    ZJSWorkerOptions options = {.size = sizeof options, .name = "modhost", .errorCallback = on_error};
    JSStringRef why = NULL;
    JSWorkerRef worker = ZJSWorkerCreateModule(entry, source, length, load, NULL, &options, &why);
    free(source);
    if (worker == NULL) {
        char buf[512];
        JSStringGetUTF8CString(why, buf, sizeof buf);
        fprintf(stderr, "modhost: %s\n", buf);
        JSStringRelease(why);
        return 2;
    }

    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSValueRef exception = NULL;
    JSWorkerPostMessage(worker, ctx, JSValueMakeNumber(ctx, 21), &exception);
    JSValueRef reply = JSWorkerReceive(worker, ctx, kJSWorkerWaitForever, &exception);
    int status = 1;
    if (reply != NULL) {
        JSStringRef s = JSValueToStringCopy(ctx, reply, NULL);
        char buf[1024];
        JSStringGetUTF8CString(s, buf, sizeof buf);
        JSStringRelease(s);
        printf("reply: %s\n", buf);
        status = atomic_load(&failed);
    }
    JSWorkerRelease(worker);
    JSGlobalContextRelease(ctx);
    return status;
}
