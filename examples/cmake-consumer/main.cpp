// main.cpp - a host built against the installed jsworker package (find_package or pkg-config): checks that the
// header and the loaded library agree, then runs a worker that doubles numbers. Exits 0 and prints "consumer: ok"
// if everything worked.
#include <jsworker.hpp>

#include <cstdio>
#include <cstring>

int main() {
    if (ZJSGetVersionNumber() != JSWORKER_VERSION_NUMBER) {
        std::printf("consumer: header %s but library %s\n", JSWORKER_VERSION_STRING, ZJSGetVersionString());
        return 1;
    }
    try {
        jsworker::Context ctx;
        jsworker::Worker doubler("onmessage = (e) => postMessage(e.data * 2);");
        double sum = 0;
        for (int i = 1; i <= 10; i++) {
            jsworker::HandleScope scope(ctx);
            doubler.post(ctx, ctx.number(i));
            sum += ctx.toNumber(doubler.receive(ctx));
        }
        if (sum != 110) {
            std::printf("consumer: the doubled sum is %g, want 110\n", sum);
            return 1;
        }
        std::printf("consumer: ok (jsworker %s, 10 round trips, sum %g)\n", ZJSGetVersionString(), sum);
        return 0;
    } catch (const jsworker::Error &e) {
        std::printf("consumer: %s\n", e.what());
        return 1;
    }
}
