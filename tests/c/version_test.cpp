// version_test.cpp - include/jsworker.h compiles as C++ (extern "C", no C-only constructs) and links against
// libjsworker.so from a C++ translation unit; the version pair matches, from the main thread and four threads.
//
// Prints one line per check and exits non-zero if any check fails.
#include "jsworker.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

static_assert(JSWORKER_VERSION_NUMBER ==
                  JSWORKER_VERSION_MAJOR * 1000000 + JSWORKER_VERSION_MINOR * 1000 + JSWORKER_VERSION_PATCH,
              "JSWORKER_VERSION_NUMBER disagrees with MAJOR/MINOR/PATCH");

// The declarations have C linkage and exactly these types.
static int (*const getNumber)(void) = ZJSGetVersionNumber;
static const char *(*const getString)(void) = ZJSGetVersionString;

namespace {

constexpr int kThreads = 4;
constexpr int kCallsPerThread = 10000;

int failures = 0;

void check(bool ok, const char *what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) {
        failures++;
    }
}

bool versionMatches() {
    const char *s = getString();
    return getNumber() == JSWORKER_VERSION_NUMBER && s != nullptr && std::strcmp(s, JSWORKER_VERSION_STRING) == 0;
}

}  // namespace

int main() {
    const char *s = ZJSGetVersionString();
    std::printf("header %s (%d), library %s (%d)\n", JSWORKER_VERSION_STRING, JSWORKER_VERSION_NUMBER,
                s ? s : "(null)", ZJSGetVersionNumber());
    check(ZJSGetVersionNumber() == JSWORKER_VERSION_NUMBER, "ZJSGetVersionNumber() == JSWORKER_VERSION_NUMBER");
    check(s != nullptr && std::strcmp(s, JSWORKER_VERSION_STRING) == 0,
          "strcmp(ZJSGetVersionString(), JSWORKER_VERSION_STRING) == 0");

    std::atomic<long> bad{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; i++) {
        threads.emplace_back([&bad] {
            for (int j = 0; j < kCallsPerThread; j++) {
                if (!versionMatches()) {
                    bad++;
                }
            }
        });
    }
    for (auto &t : threads) {
        t.join();
    }
    check(bad == 0, "4 threads x 10000 concurrent calls of each function returned the header's version");

    if (failures != 0) {
        std::printf("FAIL: %d check(s) failed\n", failures);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
