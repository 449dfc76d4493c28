/*
 * endpoint_test.c - the DevTools endpoint from a C host: ZJSInspectorEndpointStart refuses bad addresses with a
 * message, lists an inspectable worker at /json/list (fetched with a plain socket), refuses a DNS-rebinding Host
 * header, and ZJSInspectorEndpointStop closes it.
 */
#include "check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* http_get sends "GET path" with the given Host header to 127.0.0.1:port and reads the whole answer into buf
 * (NUL-terminated). It returns the number of bytes read, or -1 if the connection failed. */
static long http_get(uint16_t port, const char *path, const char *host, char *buf, size_t size) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        return -1;
    }
    struct timeval tv = {.tv_sec = 20};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, host);
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return -1;
    }
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, buf + got, size - 1 - got);
        if (r <= 0) {
            break;
        }
        got += (size_t)r;
        if (got == size - 1) {
            break;
        }
    }
    buf[got] = '\0';
    close(fd);
    return (long)got;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void) {
    char err[256];
    uint16_t port = 0;

    /* Bad input: refused with a code and a message, nothing listens. */
    check(ZJSInspectorEndpointStart("0.0.0.0:9229", &port, err, sizeof err) == kZJSInspectorEndpointInvalidAddress,
          "a non-loopback address is refused");
    check(strstr(err, "loopback") != NULL && port == 0, "  with a message naming loopback: %s", err);
    check(ZJSInspectorEndpointStart("nonsense", NULL, NULL, 0) == kZJSInspectorEndpointInvalidAddress,
          "a malformed address is refused (NULL outputs are fine)");
    ZJSInspectorEndpointStop(); /* not running: nothing happens */

    /* Start on a free port. */
    ZJSInspectorEndpointResult r = ZJSInspectorEndpointStart("127.0.0.1:0", &port, err, sizeof err);
    check(r == kZJSInspectorEndpointOK && port != 0, "the endpoint starts on a free port (%u) %s", port, err);
    check(ZJSInspectorEndpointStart(NULL, NULL, err, sizeof err) == kZJSInspectorEndpointAlreadyRunning,
          "a second start is refused: %s", err);

    /* An inspectable worker is listed. */
    JSStringRef src = str("var answer = 42;");
    ZJSWorkerOptions opts = {.size = sizeof(ZJSWorkerOptions), .name = "c-endpoint", .inspectable = true};
    JSWorkerRef w = ZJSWorkerCreateWithOptions(src, &opts, NULL);
    JSStringRelease(src);
    check(w != NULL, "an inspectable worker is created");

    char host[64];
    snprintf(host, sizeof host, "127.0.0.1:%u", port);
    static char body[65536];
    int listed = 0;
    double deadline = now_seconds() + 20;
    while (!listed && now_seconds() < deadline) {
        if (http_get(port, "/json/list", host, body, sizeof body) > 0 && strstr(body, "c-endpoint") != NULL) {
            listed = 1;
        } else {
            struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    check(listed, "/json/list lists the worker");
    check(strncmp(body, "HTTP/1.1 200", 12) == 0, "  with status 200");
    char ws[96];
    snprintf(ws, sizeof ws, "\"webSocketDebuggerUrl\": \"ws://%s/", host);
    check(strstr(body, ws) != NULL, "  and its WebSocket URL on the endpoint's address");

    JSGlobalContextRef mainctx = JSGlobalContextCreate(NULL);
    check(http_get(port, "/json/list", host, body, sizeof body) > 0 && strstr(body, "jsworker://context-") == NULL,
          "a main context is not listed before it is inspectable");
    JSGlobalContextSetInspectable(mainctx, true);
    check(http_get(port, "/json/list", host, body, sizeof body) > 0 && strstr(body, "\"main context ") != NULL &&
              strstr(body, "jsworker://context-") != NULL,
          "an inspectable main context is listed");
    JSGlobalContextRelease(mainctx);
    check(http_get(port, "/json/list", host, body, sizeof body) > 0 && strstr(body, "jsworker://context-") == NULL,
          "a released main context is no longer listed");

    check(http_get(port, "/json/version", host, body, sizeof body) > 0 && strstr(body, "\"Protocol-Version\"") != NULL,
          "/json/version answers");
    check(http_get(port, "/json/list", "evil.example:9229", body, sizeof body) > 0 &&
              strncmp(body, "HTTP/1.1 403", 12) == 0,
          "a DNS-rebinding Host header is refused with 403");

    /* Stop: nothing listens any more; the worker goes on. */
    ZJSInspectorEndpointStop();
    check(http_get(port, "/json/list", host, body, sizeof body) < 0, "after Stop the port refuses connections");
    ZJSInspectorTargetInfo info;
    check(ZJSWorkerGetInspectorTargetInfo(w, &info) && info.state != kZJSInspectorTargetStateClosed,
          "the worker still runs");
    JSWorkerRelease(w);
    return check_done();
}
