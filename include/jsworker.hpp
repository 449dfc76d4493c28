// jsworker.hpp - C++17 RAII wrappers over the C API in jsworker.h. Header-only; nothing here is exported by the
// library, and everything in jsworker.h stays usable alongside it (get() gives the raw handle).
//
// Ownership: each wrapper owns one reference and releases it in its destructor (String: JSStringRelease, Context:
// JSGlobalContextRelease, Worker: JSWorkerRelease, HandleScope: ZJSHandleScopeClose). Wrappers are movable, not
// copyable. Threads: the wrappers add no synchronization; the thread rules of jsworker.h apply to them unchanged (an
// object belongs to the thread that created it, and so must be destroyed on that thread).
//
// Errors: a JavaScript exception or a library failure is thrown as jsworker::Error, whose what() is the exception's
// string form ("DataCloneError: ...", "RangeError: ...").
#ifndef JSWORKER_HPP
#define JSWORKER_HPP

#include "jsworker.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace jsworker {

// Error is a JavaScript exception or a library failure.
class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// String owns a JSStringRef.
class String {
  public:
    explicit String(const char *utf8) : s_(JSStringCreateWithUTF8CString(utf8)) {}
    explicit String(const std::string &utf8) : String(utf8.c_str()) {}
    // adopt takes over a reference the caller owns (a Create or Copy result); s may be NULL.
    static String adopt(JSStringRef s) { return String(s); }
    String(String &&o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
    String &operator=(String &&o) noexcept {
        std::swap(s_, o.s_);
        return *this;
    }
    String(const String &) = delete;
    String &operator=(const String &) = delete;
    ~String() { JSStringRelease(s_); } // NULL is a no-op

    JSStringRef get() const { return s_; }
    explicit operator bool() const { return s_ != nullptr; }

    // utf8 converts the string to UTF-8 ("" for NULL).
    std::string utf8() const {
        if (s_ == nullptr) {
            return {};
        }
        std::string out(JSStringGetMaximumUTF8CStringSize(s_), '\0');
        size_t n = JSStringGetUTF8CString(s_, out.data(), out.size());
        out.resize(n > 0 ? n - 1 : 0);
        return out;
    }

  private:
    explicit String(JSStringRef s) : s_(s) {}
    JSStringRef s_;
};

// Context owns a main context (JSGlobalContextRef).
class Context {
  public:
    Context() : ctx_(JSGlobalContextCreate(nullptr)) {
        if (ctx_ == nullptr) {
            throw Error("jsworker: JSGlobalContextCreate failed");
        }
    }
    Context(Context &&o) noexcept : ctx_(std::exchange(o.ctx_, nullptr)) {}
    Context &operator=(Context &&o) noexcept {
        std::swap(ctx_, o.ctx_);
        return *this;
    }
    Context(const Context &) = delete;
    Context &operator=(const Context &) = delete;
    ~Context() { JSGlobalContextRelease(ctx_); }

    JSGlobalContextRef get() const { return ctx_; }

    // text returns v's string form ("" if it has none).
    std::string text(JSValueRef v) const { return String::adopt(JSValueToStringCopy(ctx_, v, nullptr)).utf8(); }

    // check throws the exception exc, if any.
    void check(JSValueRef exc) const {
        if (exc != nullptr) {
            throw Error(text(exc));
        }
    }

    // eval evaluates a script and returns its value; it throws the script's exception.
    JSValueRef eval(const std::string &script, const char *sourceURL = nullptr) const {
        String src(script);
        String url(sourceURL != nullptr ? sourceURL : "");
        JSValueRef exc = nullptr;
        JSValueRef v = JSEvaluateScript(ctx_, src.get(), nullptr, sourceURL != nullptr ? url.get() : nullptr, 1, &exc);
        check(exc);
        return v;
    }

    JSValueRef number(double d) const { return JSValueMakeNumber(ctx_, d); }

    double toNumber(JSValueRef v) const {
        JSValueRef exc = nullptr;
        double d = JSValueToNumber(ctx_, v, &exc);
        check(exc);
        return d;
    }

    // json serializes v (indent spaces per level); it throws for values without a JSON form.
    std::string json(JSValueRef v, unsigned indent = 0) const {
        JSValueRef exc = nullptr;
        String s = String::adopt(JSValueCreateJSONString(ctx_, v, indent, &exc));
        check(exc);
        if (!s) {
            throw Error("jsworker: the value has no JSON form");
        }
        return s.utf8();
    }

    // fromJSON parses JSON; it throws for invalid input.
    JSValueRef fromJSON(const std::string &json) const {
        String s(json);
        JSValueRef v = JSValueMakeFromJSONString(ctx_, s.get());
        if (v == nullptr) {
            throw Error("jsworker: invalid JSON");
        }
        return v;
    }

  private:
    JSGlobalContextRef ctx_;
};

// HandleScope opens a handle scope for its lifetime: the values made in it are released when it is destroyed
// (except protected ones). Use one per iteration of a long loop.
class HandleScope {
  public:
    explicit HandleScope(const Context &ctx) : ctx_(ctx.get()), scope_(ZJSHandleScopeOpen(ctx_)) {}
    HandleScope(const HandleScope &) = delete;
    HandleScope &operator=(const HandleScope &) = delete;
    ~HandleScope() { ZJSHandleScopeClose(ctx_, scope_); }

  private:
    JSContextRef ctx_;
    ZJSHandleScopeRef scope_;
};

// Worker owns a worker. The destructor ends it (JSWorkerRelease terminates, then waits).
class Worker {
  public:
    // Worker starts source; it throws Error with the reason (a syntax error) if the worker cannot be made.
    explicit Worker(const std::string &source, const ZJSWorkerOptions *options = nullptr) {
        String src(source);
        JSStringRef why = nullptr;
        w_ = ZJSWorkerCreateWithOptions(src.get(), options, &why);
        if (w_ == nullptr) {
            throw Error(String::adopt(why).utf8());
        }
    }
    Worker(Worker &&o) noexcept : w_(std::exchange(o.w_, nullptr)) {}
    Worker &operator=(Worker &&o) noexcept {
        std::swap(w_, o.w_);
        return *this;
    }
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;
    ~Worker() { JSWorkerRelease(w_); }

    JSWorkerRef get() const { return w_; }

    // post sends a copy of v; it throws the DataCloneError, RangeError (limits) or InvalidStateError (closed).
    void post(const Context &ctx, JSValueRef v) const {
        JSValueRef exc = nullptr;
        if (!JSWorkerPostMessage(w_, ctx.get(), v, &exc)) {
            ctx.check(exc);
            throw Error("jsworker: JSWorkerPostMessage failed");
        }
    }

    // receive returns the next message in ctx, or nullptr on timeout or once the worker has ended and was drained.
    JSValueRef receive(const Context &ctx, uint64_t timeoutMs = kJSWorkerWaitForever) const {
        JSValueRef exc = nullptr;
        JSValueRef v = JSWorkerReceive(w_, ctx.get(), timeoutMs, &exc);
        ctx.check(exc);
        return v;
    }

    void terminate() const { JSWorkerTerminate(w_); }
    void close() const { ZJSWorkerClose(w_); }

    ZJSInspectorTargetInfo info() const {
        ZJSInspectorTargetInfo i{};
        if (!ZJSWorkerGetInspectorTargetInfo(w_, &i)) {
            throw Error("jsworker: not a live worker of this thread");
        }
        return i;
    }

  private:
    JSWorkerRef w_ = nullptr;
};

} // namespace jsworker

#endif // JSWORKER_HPP
