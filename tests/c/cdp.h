/*
 * cdp.h - what the C inspector tests share: an inbox that records the CDP messages a session callback receives (with
 * the thread each arrived on, and an optional command to dispatch from inside the callback), and helpers to
 * dispatch, pump until a message arrives, and read string fields such as objectId. Header-only (static inline
 * functions), like check.h.
 */
#ifndef JSWORKER_TESTS_CDP_H
#define JSWORKER_TESTS_CDP_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* syscall */
#endif

#include "check.h"

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline long tid(void) { return (long)syscall(SYS_gettid); }

/* An inbox records what a session's callback received. */
#define INBOX_MAX 512
typedef struct inbox {
    char *msgs[INBOX_MAX];
    size_t n;
    long tids[INBOX_MAX];
    int bad_termination; /* messages not NUL-terminated at length, or with an embedded NUL */
    int depth, max_depth;
    /* Optional actions inside the callback. */
    ZJSWorkerInspectorSessionRef release_on; /* release this worker session when a message contains release_text */
    const char *release_text;
    ZJSWorkerInspectorPumpResult pump_after_release;
    /* When a message contains act_text, dispatch act_command once, from inside the callback, to the worker session
     * act_worker or (if that is NULL) the context session act_context. */
    const char *act_text, *act_command;
    ZJSWorkerInspectorSessionRef act_worker;
    ZJSInspectorSessionRef act_context;
    bool act_done;
} inbox;

static inline void on_message(const char *message, size_t length, void *userData) {
    inbox *in = userData;
    in->depth++;
    if (in->depth > in->max_depth) {
        in->max_depth = in->depth;
    }
    if (message[length] != '\0' || strlen(message) != length) {
        in->bad_termination++;
    }
    if (in->n < INBOX_MAX) {
        char *copy = malloc(length + 1);
        memcpy(copy, message, length + 1);
        in->msgs[in->n] = copy;
        in->tids[in->n] = tid();
        in->n++;
    }
    if (in->release_on != NULL && strstr(message, in->release_text) != NULL) {
        ZJSWorkerInspectorSessionRef s = in->release_on;
        in->release_on = NULL;
        ZJSWorkerInspectorSessionRelease(s);
        in->pump_after_release = ZJSWorkerInspectorSessionPump(s, 0);
    }
    if (in->act_text != NULL && !in->act_done && strstr(message, in->act_text) != NULL) {
        in->act_done = true;
        if (in->act_worker != NULL) {
            ZJSWorkerInspectorSessionDispatch(in->act_worker, in->act_command, strlen(in->act_command));
        } else {
            ZJSInspectorSessionDispatch(in->act_context, in->act_command, strlen(in->act_command));
        }
    }
    in->depth--;
}

static inline void inbox_free(inbox *in) {
    for (size_t i = 0; i < in->n; i++) {
        free(in->msgs[i]);
    }
    memset(in, 0, sizeof *in);
}

/* find returns the first message containing every one of up to two needles (b may be NULL), or NULL. */
static inline const char *find(const inbox *in, const char *a, const char *b) {
    for (size_t i = 0; i < in->n; i++) {
        if (strstr(in->msgs[i], a) != NULL && (b == NULL || strstr(in->msgs[i], b) != NULL)) {
            return in->msgs[i];
        }
    }
    return NULL;
}

static inline bool wdispatch(ZJSWorkerInspectorSessionRef s, const char *json) {
    return ZJSWorkerInspectorSessionDispatch(s, json, strlen(json));
}

static inline bool cdispatch(ZJSInspectorSessionRef s, const char *json) {
    return ZJSInspectorSessionDispatch(s, json, strlen(json));
}

/* pump_for pumps s until a message containing a (and b) arrived, the session stops delivering, or 5 s pass per
 * message. Returns the message or NULL. */
static inline const char *pump_for(ZJSWorkerInspectorSessionRef s, inbox *in, const char *a, const char *b) {
    for (int i = 0; i < 1000; i++) {
        const char *m = find(in, a, b);
        if (m != NULL) {
            return m;
        }
        if (ZJSWorkerInspectorSessionPump(s, 5000) != kZJSWorkerInspectorPumpMessage) {
            return NULL;
        }
    }
    return NULL;
}

/* string_field copies the first string value of "key" in msg into buf ("" if none). */
static inline void string_field(const char *msg, const char *key, char *buf, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    buf[0] = '\0';
    const char *p = msg != NULL ? strstr(msg, pattern) : NULL;
    if (p == NULL) {
        return;
    }
    p += strlen(pattern);
    size_t n = strcspn(p, "\"");
    if (n >= size) {
        return;
    }
    memcpy(buf, p, n);
    buf[n] = '\0';
}

/* object_id copies the first "objectId" of msg into buf ("" if none). */
static inline void object_id(const char *msg, char *buf, size_t size) { string_field(msg, "objectId", buf, size); }

#endif
