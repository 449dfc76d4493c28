// cpp_bindings_test.cpp - the binding test set through the RAII header include/jsworker.hpp: round trip, a worker
// doubling numbers, DataCloneError as a C++ exception, terminate of a spinning worker, another thread's use refused,
// an inspector session pausing at `debugger;` and resumed from its callback, a main-context session, Protected
// values, module workers with a std::function loader, and no leaked handles (stale
// handles after destruction, a flat resident set over repeated creation).
//
// Prints one line per check and exits non-zero if any check fails.
#include "jsworker.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    std::fflush(stdout);
    if (!ok) {
        failures++;
    }
}

bool contains(std::string_view s, std::string_view needle) { return s.find(needle) != std::string_view::npos; }

double rssMiB() {
    long size = 0, resident = 0;
    FILE *f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) {
        return -1;
    }
    int n = std::fscanf(f, "%ld %ld", &size, &resident);
    std::fclose(f);
    return n == 2 ? resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20) : -1;
}

double seconds(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const char *kDoubler = "onmessage = (e) => postMessage(e.data * 2);";

void testRoundTrips() {
    jsworker::Context ctx;
    jsworker::Worker doubler(kDoubler);
    long wrong = 0;
    for (int i = 0; i < 100; i++) {
        jsworker::HandleScope scope(ctx);
        doubler.post(ctx, ctx.number(i));
        wrong += ctx.toNumber(doubler.receive(ctx, 10000)) != 2.0 * i;
    }
    check(wrong == 0, "a worker doubles 100 numbers");

    jsworker::Worker echo("onmessage = (e) => postMessage({ got: e.data });");
    echo.post(ctx, ctx.fromJSON(R"({"list":[1,"two",{"three":3}],"ok":true,"none":null})"));
    std::string json = ctx.json(echo.receive(ctx, 10000));
    check(json == R"({"got":{"list":[1,"two",{"three":3}],"ok":true,"none":null}})", "structured round trip: " + json);
}

void testErrors() {
    jsworker::Context ctx;
    jsworker::Worker echo("onmessage = (e) => postMessage(e.data);");
    try {
        echo.post(ctx, ctx.eval("({ f() {} })"));
        check(false, "posting a function throws");
    } catch (const jsworker::Error &e) {
        check(std::strncmp(e.what(), "DataCloneError", 14) == 0, std::string("DataCloneError thrown: ") + e.what());
    }
    echo.post(ctx, ctx.number(7));
    check(ctx.toNumber(echo.receive(ctx, 10000)) == 7, "the worker still answers after the failed post");
    try {
        ctx.eval("function f() { throw new RangeError('too far') }\nf()");
        check(false, "a script exception throws");
    } catch (const jsworker::Error &e) {
        check(std::string(e.what()) == "RangeError: too far", std::string("the script's exception: ") + e.what());
    }
}

void testTerminate() {
    jsworker::Context ctx;
    jsworker::Worker spinner("postMessage('spinning'); for (;;) {}");
    check(ctx.text(spinner.receive(ctx, 10000)) == "spinning", "the spinning worker started");
    auto t0 = std::chrono::steady_clock::now();
    spinner.terminate();
    check(spinner.receive(ctx) == nullptr && spinner.info().state == kZJSInspectorTargetStateClosed,
          "after terminate the worker ended and receive returns nullptr");
    check(seconds(t0) < 5, "terminate took " + std::to_string(seconds(t0)) + " s");
    t0 = std::chrono::steady_clock::now();
    { jsworker::Worker loop("for (;;) {}"); } // the destructor interrupts it
    check(seconds(t0) < 5, "destroying a spinning worker returns promptly");
}

void testWrongThread() {
    jsworker::Context ctx;
    jsworker::Worker w(kDoubler);
    std::string postError, contextError;
    bool sessionRefused = false;
    std::thread([&] {
        jsworker::Context mine; // a context of this thread, for the exception
        try {
            w.post(mine, mine.number(1));
        } catch (const jsworker::Error &e) {
            postError = e.what();
        }
        try {
            ctx.eval("1");
        } catch (const jsworker::Error &e) {
            contextError = e.what();
        }
        try {
            jsworker::WorkerInspectorSession s(w, [](jsworker::WorkerInspectorSession &, std::string_view) {});
        } catch (const jsworker::Error &) {
            sessionRefused = true;
        }
    }).join();
    check(contains(postError, "belongs to another thread"), "another thread's post throws: " + postError);
    check(!contextError.empty(), "another thread's eval throws: " + contextError);
    check(sessionRefused, "another thread cannot attach an inspector session");
    w.post(ctx, ctx.number(21));
    check(ctx.toNumber(w.receive(ctx, 10000)) == 42, "the owner thread still uses both");
}

void testDebugger() {
    jsworker::Context ctx;
    ZJSWorkerOptions o{};
    o.size = sizeof o;
    o.inspectable = true;
    jsworker::Worker w("var secret = 41;\nonmessage = function (e) {\n  debugger;\n  postMessage(e.data + secret);\n};\n",
                       &o);
    std::vector<std::string> msgs;
    auto has = [&](const char *a, const char *b = nullptr) {
        for (auto &m : msgs) {
            if (contains(m, a) && (b == nullptr || contains(m, b))) {
                return true;
            }
        }
        return false;
    };
    jsworker::WorkerInspectorSession session(w, [&](jsworker::WorkerInspectorSession &s, std::string_view m) {
        msgs.emplace_back(m);
        if (contains(m, "\"method\":\"Debugger.paused\"")) {
            s.dispatch(R"({"id":3,"method":"Debugger.resume"})"); // resume from inside the callback
        }
    });
    check(session.pump(10000) == kZJSWorkerInspectorPumpMessage && has("Runtime.executionContextsCleared"),
          "the first pump delivers Runtime.executionContextsCleared");
    session.dispatch(R"({"id":1,"method":"Debugger.enable"})");
    session.pumpUntil([&] { return has("\"id\":1,"); });
    w.post(ctx, ctx.number(1));
    session.pumpUntil([&] { return has("\"id\":3,"); });
    check(has("Debugger.paused", "\"lineNumber\":2"), "the worker paused at debugger; (line 2)");
    check(ctx.toNumber(w.receive(ctx, 10000)) == 42, "resumed from the callback, the worker replied 42");

    // A callback's exception comes out of pump, never through the library.
    jsworker::WorkerInspectorSession thrower(w, [](jsworker::WorkerInspectorSession &, std::string_view) {
        throw std::runtime_error("callback failed");
    });
    try {
        thrower.pump(10000);
        check(false, "a callback's exception is rethrown by pump");
    } catch (const std::runtime_error &e) {
        check(std::string(e.what()) == "callback failed", "a callback's exception is rethrown by pump");
    }
}

void testContextSession() {
    jsworker::Context ctx;
    try {
        jsworker::InspectorSession s(ctx, [](jsworker::InspectorSession &, std::string_view) {});
        check(false, "a context that is not inspectable refuses a session");
    } catch (const jsworker::Error &) {
        check(true, "a context that is not inspectable refuses a session");
    }
    ctx.setInspectable(true);
    std::vector<std::string> msgs;
    jsworker::InspectorSession s(ctx, [&](jsworker::InspectorSession &, std::string_view m) { msgs.emplace_back(m); });
    check(msgs.size() == 1 && contains(msgs[0], "executionContextsCleared"), "the first message came in the constructor");
    s.dispatch(R"({"id":1,"method":"Runtime.evaluate","params":{"expression":"6*7"}})");
    check(!msgs.empty() && contains(msgs.back(), "\"value\":42"), "Runtime.evaluate answered inside dispatch");
    jsworker::InspectorSession moved = std::move(s);
    moved.dispatch(R"({"id":2,"method":"Schema.getDomains"})");
    check(contains(msgs.back(), "\"id\":2,"), "a moved session keeps its callback");
}

void testProtected() {
    jsworker::Context ctx;
    JSValueRef kept;
    {
        jsworker::HandleScope outer(ctx);
        JSValueRef v;
        std::optional<jsworker::Protected> p;
        {
            jsworker::HandleScope inner(ctx);
            v = ctx.eval("({ answer: 42 })");
            p.emplace(ctx, v);
        }
        check(ctx.json(p->get()) == R"({"answer":42})", "a Protected value survives its handle scope");
        kept = v;
        p.reset();
    }
    check(!JSValueIsObject(ctx.get(), kept), "unprotected, it died with the enclosing scope");
}

void testModules() {
    jsworker::Context ctx;
    std::map<std::string, std::string> files = {
        {"/app/math.js", "export const double = (x) => x * 2;"},
    };
    std::vector<std::thread::id> loaderThreads;
    jsworker::Worker w = jsworker::Worker::module(
        "/app/main.js",
        "import { double } from './math.js';\nonmessage = (e) => postMessage(double(e.data));\n",
        [&](const std::string &spec, const std::string &referrer) -> std::optional<jsworker::Worker::Module> {
            loaderThreads.push_back(std::this_thread::get_id());
            std::string path = spec.rfind("./", 0) == 0 ? referrer.substr(0, referrer.rfind('/') + 1) + spec.substr(2)
                                                         : spec;
            auto it = files.find(path);
            if (it == files.end()) {
                return std::nullopt;
            }
            return jsworker::Worker::Module{path, it->second};
        });
    w.post(ctx, ctx.number(21));
    JSValueRef v = w.receive(ctx, 10000);
    check(v != nullptr && ctx.toNumber(v) == 42, "a module worker imports through the std::function loader");
    check(w.info().kind == kZJSInspectorTargetKindModule, "its target kind is module");
    check(!loaderThreads.empty() && loaderThreads[0] != std::this_thread::get_id(),
          "the loader ran on the worker's thread");

    // A module the loader does not find (nullopt), or a loader that throws: the graph fails, no module runs, and
    // the worker ends (the error goes to the worker's error report).
    for (bool throws : {false, true}) {
        jsworker::Worker broken = jsworker::Worker::module(
            "/app/main.js", "import './missing.js';\npostMessage('ran');\n",
            [throws](const std::string &, const std::string &) -> std::optional<jsworker::Worker::Module> {
                if (throws) {
                    throw std::runtime_error("disk on fire");
                }
                return std::nullopt;
            });
        check(broken.receive(ctx, 10000) == nullptr && broken.info().state == kZJSInspectorTargetStateClosed,
              std::string("a loader that ") + (throws ? "throws" : "finds nothing") + " fails the graph: no module ran");
    }
}

void testNoLeaks() {
    JSWorkerRef rawWorker;
    JSGlobalContextRef rawCtx;
    ZJSWorkerInspectorSessionRef rawSession;
    {
        jsworker::Context ctx;
        jsworker::Worker w(kDoubler);
        jsworker::WorkerInspectorSession s(w, [](jsworker::WorkerInspectorSession &, std::string_view) {});
        rawWorker = w.get();
        rawCtx = ctx.get();
        rawSession = s.get();
    }
    ZJSInspectorTargetInfo info;
    check(!ZJSWorkerGetInspectorTargetInfo(rawWorker, &info), "a destroyed Worker's handle is stale");
    check(JSGlobalContextRetain(rawCtx) == nullptr, "a destroyed Context's handle is stale");
    check(ZJSWorkerInspectorSessionPump(rawSession, 0) == kZJSWorkerInspectorPumpError,
          "a destroyed session's handle is stale");

    auto cycle = [](int n) {
        for (int i = 0; i < n; i++) {
            jsworker::Context ctx;
            jsworker::Worker w("onmessage = (e) => postMessage(e.data.length);");
            jsworker::WorkerInspectorSession s(w, [](jsworker::WorkerInspectorSession &, std::string_view) {});
            w.post(ctx, ctx.eval("Array.from({ length: 100 }, (_, i) => i)"));
            ctx.toNumber(w.receive(ctx, 10000));
        }
    };
    cycle(50);
    double before = rssMiB();
    cycle(300);
    double grown = rssMiB() - before;
    char buf[128];
    std::snprintf(buf, sizeof buf, "300 contexts + workers + sessions grew the resident set by %+.1f MiB (< 20)", grown);
    check(before > 0 && grown < 20, buf);
}

} // namespace

int main() {
    try {
        testRoundTrips();
        testErrors();
        testTerminate();
        testWrongThread();
        testDebugger();
        testContextSession();
        testProtected();
        testModules();
        testNoLeaks();
    } catch (const std::exception &e) {
        check(false, std::string("unexpected exception: ") + e.what());
    }
    if (failures != 0) {
        std::printf("FAIL: %d check(s) failed\n", failures);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
