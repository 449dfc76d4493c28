// cpp_classes_test.cpp - the RAII wrappers for classes and buffers in include/jsworker.hpp: a NativeClass<T> whose
// objects own a C++ object deleted exactly once by the finalizer (when dropped, and at the latest when the context
// goes), a Class with a constructor, ArrayBuffers over a moved vector and over host memory with a release callback
// (run exactly once), and bytes() over typed arrays and ArrayBuffers, wrong kinds thrown as jsworker::Error.
//
// Prints one line per check and exits non-zero if any check fails.
#include "jsworker.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) {
        failures++;
    }
}

struct Counter {
    static int alive;
    int n;
    explicit Counter(int start) : n(start) { alive++; }
    ~Counter() { alive--; }
};
int Counter::alive = 0;

JSValueRef counterNext(JSContextRef ctx, JSObjectRef, JSObjectRef thisObject, size_t, const JSValueRef[],
                       JSValueRef *) {
    Counter *c = jsworker::NativeClass<Counter>::from(thisObject);
    return JSValueMakeNumber(ctx, c != nullptr ? ++c->n : -1);
}

// asObject views a value known to be an object as a JSObjectRef (the C API's types differ only in const).
JSObjectRef asObject(JSValueRef v) { return const_cast<JSObjectRef>(v); }

void setGlobal(const jsworker::Context &ctx, const char *name, JSValueRef v) {
    jsworker::String n(name);
    JSObjectSetProperty(ctx.get(), JSContextGetGlobalObject(ctx.get()), n.get(), v, 0, nullptr);
}

} // namespace

int main() {
    try {
        static const JSStaticFunction funcs[] = {{"next", counterNext, 0}, {nullptr, nullptr, 0}};
        JSClassDefinition d = kJSClassDefinitionEmpty;
        d.className = "Counter";
        d.staticFunctions = funcs;
        jsworker::NativeClass<Counter> counters(d);
        {
            jsworker::Context ctx;
            setGlobal(ctx, "c", counters.make(ctx, 41));
            check(Counter::alive == 1, "make allocates the T");
            check(ctx.toNumber(ctx.eval("c.next()")) == 42, "a static function reaches the T: c.next() = 42");
            check(ctx.text(ctx.eval("Object.prototype.toString.call(c)")) == "[object Counter]", "className");
            for (int i = 0; i < 100; i++) {
                jsworker::HandleScope scope(ctx);
                counters.make(ctx, i);
            }
            check(counters.cls().isInstance(ctx, ctx.eval("c")), "isInstance");
            JSObjectRef ctor = counters.cls().constructor(ctx);
            setGlobal(ctx, "Counter", ctor);
            check(ctx.text(ctx.eval("c instanceof Counter")) == "true", "constructor: instanceof");
        }
        check(Counter::alive == 0, "after the context: every T deleted exactly once (" +
                                       std::to_string(Counter::alive) + " alive)");

        int released = 0;
        static std::uint8_t host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        {
            jsworker::Context ctx;
            setGlobal(ctx, "hb", jsworker::arrayBuffer(ctx, host, sizeof host, [&released] { released++; }));
            check(ctx.toNumber(ctx.eval("new Uint8Array(hb).reduce((a, b) => a + b)")) == 36,
                  "arrayBuffer over host memory: JavaScript sums it");
            ctx.eval("new Uint8Array(hb)[0] = 100");
            check(host[0] == 100, "and writes it");
            setGlobal(ctx, "vb", jsworker::arrayBuffer(ctx, std::vector<std::uint8_t>(1000, 7)));
            check(ctx.toNumber(ctx.eval("vb.byteLength")) == 1000, "arrayBuffer over a moved vector");
            jsworker::Bytes b = jsworker::bytes(ctx, asObject((
                                                         ctx.eval("new Uint16Array(vb, 10, 4)"))));
            check(b.size == 8 && b.data != nullptr && static_cast<std::uint8_t *>(b.data)[0] == 7,
                  "bytes() of a view: from its offset, its byte length");
            jsworker::Bytes hbb =
                jsworker::bytes(ctx, asObject((ctx.eval("hb"))));
            check(hbb.data == host && hbb.size == 8, "bytes() of an ArrayBuffer: the host's memory");
            bool threw = false;
            try {
                jsworker::bytes(ctx, asObject((ctx.eval("({})"))));
            } catch (const jsworker::Error &e) {
                threw = std::strstr(e.what(), "TypeError") != nullptr;
            }
            check(threw, "bytes() of a plain object throws a TypeError");
            check(released == 0, "release has not run while the buffer lives");
        }
        check(released == 1, "release ran exactly once when the context went");

        bool threw = false;
        try {
            JSClassDefinition bad = kJSClassDefinitionEmpty;
            bad.parentClass = reinterpret_cast<JSClassRef>(static_cast<std::uintptr_t>(99));
            jsworker::Class c(bad);
        } catch (const jsworker::Error &) {
            threw = true;
        }
        check(threw, "a Class with a bogus parent throws");
    } catch (const std::exception &e) {
        check(false, std::string("unexpected exception: ") + e.what());
    }
    std::printf(failures == 0 ? "PASS\n" : "FAIL\n");
    return failures == 0 ? 0 : 1;
}
