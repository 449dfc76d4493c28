// cpp_host_test.cpp - a C++ host using the RAII wrappers of include/jsworker.hpp: the round trip (post 21, receive
// 42), a JSON round trip through a worker, errors as C++ exceptions, handle scopes in a loop, move semantics.
//
// Prints one line per check and exits non-zero if any check fails.
#include "jsworker.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) {
        failures++;
    }
}

} // namespace

int main() {
    try {
        jsworker::Context ctx;
        jsworker::Worker doubler("onmessage = (e) => postMessage(e.data * 2);");
        doubler.post(ctx, ctx.number(21));
        double got = ctx.toNumber(doubler.receive(ctx));
        check(got == 42, "post 21, receive " + std::to_string(got));

        jsworker::Worker echo("onmessage = (e) => postMessage({ got: e.data, from: name });");
        doubler.post(ctx, ctx.number(1)); // the original keeps working while others exist
        echo.post(ctx, ctx.fromJSON(R"({"list":[1,"two",{"three":3}],"ok":true})"));
        std::string json = ctx.json(echo.receive(ctx));
        check(json == R"({"got":{"list":[1,"two",{"three":3}],"ok":true},"from":""})", "JSON round trip: " + json);
        check(ctx.toNumber(doubler.receive(ctx)) == 2, "the first worker answered too");

        try {
            echo.post(ctx, ctx.eval("(function () {})"));
            check(false, "posting a function throws");
        } catch (const jsworker::Error &e) {
            check(std::strstr(e.what(), "DataCloneError") != nullptr,
                  std::string("posting a function throws ") + e.what());
        }
        try {
            jsworker::Worker bad("onmessage = (");
            check(false, "a syntax error throws");
        } catch (const jsworker::Error &e) {
            check(true, std::string("a syntax error throws: ") + e.what());
        }

        long wrong = 0;
        for (int i = 0; i < 2000; i++) {
            jsworker::HandleScope scope(ctx);
            doubler.post(ctx, ctx.number(i));
            if (ctx.toNumber(doubler.receive(ctx)) != 2.0 * i) {
                wrong++;
            }
        }
        check(wrong == 0, "2000 round trips in handle scopes");

        jsworker::Worker moved = std::move(echo);
        check(echo.get() == nullptr && moved.info().id != 0, "a moved worker keeps its handle");
        moved.close();
        check(moved.receive(ctx) == nullptr, "after close the worker drains and receive returns nullptr");
        check(moved.info().state == kZJSInspectorTargetStateClosed, "... and the state is closed");
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
