// jsworker.hpp - C++17 RAII wrappers over the C API in jsworker.h. Header-only; nothing here is exported by the
// library, and everything in jsworker.h stays usable alongside it (get() gives the raw handle).
//
// Ownership: each wrapper owns one reference and releases it in its destructor (String: JSStringRelease, Context:
// JSGlobalContextRelease, Class: JSClassRelease, Worker: JSWorkerRelease, HandleScope: ZJSHandleScopeClose, Protected: JSValueUnprotect,
// WorkerInspectorSession / InspectorSession: their Release). Wrappers are movable, not copyable (HandleScope and
// Protected are neither). Threads: the wrappers add no synchronization; the thread rules of jsworker.h apply to them
// unchanged (an object belongs to the thread that created it, and so must be destroyed on that thread; a call from
// another thread is refused by the library and thrown here as an Error saying "belongs to another thread").
//
// Errors: exceptions, not expected-style results (C++17 has no std::expected). A JavaScript exception or a library
// failure is thrown as jsworker::Error, whose what() is the exception's string form ("DataCloneError: ...",
// "RangeError: ..."). Callbacks the library calls (inspector messages, module loaders) never let an exception
// unwind through the library: an inspector callback's exception is rethrown from the wrapper call that delivered
// the message (pump, dispatch); a module loader's exception fails that import with its what().
#ifndef JSWORKER_HPP
#define JSWORKER_HPP

#include "jsworker.h"

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

    // setInspectable allows inspector sessions (InspectorSession) on this context; false by default.
    void setInspectable(bool inspectable) const { JSGlobalContextSetInspectable(ctx_, inspectable); }
    bool isInspectable() const { return JSGlobalContextIsInspectable(ctx_); }

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
        if (v == nullptr) { // refused without an exception: no context of this thread to make one in
            throw Error("jsworker: JSEvaluateScript refused the context (released, or another thread's)");
        }
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

// Class owns a JSClassRef (JSClassCreate / JSClassRelease). A class belongs to no thread or context: make it once
// and use it everywhere. Movable, not copyable.
class Class {
  public:
    explicit Class(const JSClassDefinition &definition) : c_(JSClassCreate(&definition)) {
        if (c_ == nullptr) {
            throw Error("jsworker: JSClassCreate failed (a bad parentClass?)");
        }
    }
    Class(Class &&o) noexcept : c_(std::exchange(o.c_, nullptr)) {}
    Class &operator=(Class &&o) noexcept {
        std::swap(c_, o.c_);
        return *this;
    }
    Class(const Class &) = delete;
    Class &operator=(const Class &) = delete;
    ~Class() {
        if (c_ != nullptr) {
            JSClassRelease(c_);
        }
    }

    JSClassRef get() const { return c_; }

    // make creates an object of the class with private data (initialize runs); it throws if the library refuses.
    JSObjectRef make(const Context &ctx, void *data = nullptr) const {
        JSObjectRef o = JSObjectMake(ctx.get(), c_, data);
        if (o == nullptr) {
            throw Error("jsworker: JSObjectMake refused the context (released, or another thread's)");
        }
        return o;
    }

    // constructor makes a constructor whose prototype is the class's (JSObjectMakeConstructor).
    JSObjectRef constructor(const Context &ctx, JSObjectCallAsConstructorCallback callAsConstructor = nullptr) const {
        JSObjectRef o = JSObjectMakeConstructor(ctx.get(), c_, callAsConstructor);
        if (o == nullptr) {
            throw Error("jsworker: JSObjectMakeConstructor refused the context");
        }
        return o;
    }

    // isInstance reports whether v is an object of this class or of a class derived from it.
    bool isInstance(const Context &ctx, JSValueRef v) const { return JSValueIsObjectOfClass(ctx.get(), v, c_); }

  private:
    JSClassRef c_;
};

// NativeClass<T> is a class whose objects own a T: make(ctx, args...) allocates it with new T(args...) as the
// object's private data, and the class's finalizer deletes it — exactly once, on the context's thread, when the
// collector drops the object or at the latest when the context is released. The definition's own finalize is
// replaced; everything else (statics, callbacks, parentClass) is kept. Callbacks reach the T with from(object).
template <typename T> class NativeClass {
  public:
    explicit NativeClass(JSClassDefinition definition) : cls_(withFinalizer(definition)) {}

    template <typename... Args> JSObjectRef make(const Context &ctx, Args &&...args) const {
        std::unique_ptr<T> p(new T(std::forward<Args>(args)...));
        JSObjectRef o = cls_.make(ctx, p.get());
        p.release(); // the object owns it now
        return o;
    }

    // from returns the T of an object of this class (nullptr for other objects).
    static T *from(JSObjectRef object) { return static_cast<T *>(JSObjectGetPrivate(object)); }

    const Class &cls() const { return cls_; }

  private:
    static void finalize(JSObjectRef object) {
        delete from(object);
        JSObjectSetPrivate(object, nullptr);
    }
    static JSClassDefinition withFinalizer(JSClassDefinition d) {
        d.finalize = &finalize;
        return d;
    }
    Class cls_;
};

// arrayBuffer hands size bytes at data to JavaScript as an ArrayBuffer without a copy; release runs exactly once
// when the library no longer uses them (see "Typed arrays and ArrayBuffers" in jsworker.h), on the context's thread.
// If the call fails, release has run when it throws.
inline JSObjectRef arrayBuffer(const Context &ctx, void *data, size_t size, std::function<void()> release) {
    auto *owned = new std::function<void()>(std::move(release));
    JSValueRef exc = nullptr;
    JSObjectRef o = JSObjectMakeArrayBufferWithBytesNoCopy(
        ctx.get(), data, size,
        [](void *, void *context) {
            auto *f = static_cast<std::function<void()> *>(context);
            if (*f) {
                (*f)();
            }
            delete f;
        },
        owned, &exc);
    ctx.check(exc);
    if (o == nullptr) {
        throw Error("jsworker: JSObjectMakeArrayBufferWithBytesNoCopy refused the context");
    }
    return o;
}

// arrayBuffer moves a vector into an ArrayBuffer without copying its bytes; the library frees the vector.
inline JSObjectRef arrayBuffer(const Context &ctx, std::vector<std::uint8_t> bytes) {
    auto *v = new std::vector<std::uint8_t>(std::move(bytes));
    return arrayBuffer(ctx, v->data(), v->size(), [v] { delete v; });
}

// Bytes is a view of the bytes of a typed array (from its byteOffset) or of an ArrayBuffer. It is valid while the
// object is alive and its buffer not detached.
struct Bytes {
    void *data = nullptr;
    size_t size = 0;
};

// bytes returns the view of a typed array or an ArrayBuffer; it throws (TypeError) for other objects.
inline Bytes bytes(const Context &ctx, JSObjectRef object) {
    JSValueRef exc = nullptr;
    JSTypedArrayType t = JSValueGetTypedArrayType(ctx.get(), object, &exc);
    ctx.check(exc);
    Bytes b;
    if (t == kJSTypedArrayTypeArrayBuffer) {
        b.data = JSObjectGetArrayBufferBytesPtr(ctx.get(), object, &exc);
        b.size = JSObjectGetArrayBufferByteLength(ctx.get(), object, &exc);
    } else {
        auto *base = static_cast<std::uint8_t *>(JSObjectGetTypedArrayBytesPtr(ctx.get(), object, &exc));
        size_t off = JSObjectGetTypedArrayByteOffset(ctx.get(), object, &exc);
        b.size = JSObjectGetTypedArrayByteLength(ctx.get(), object, &exc);
        b.data = base != nullptr ? base + off : nullptr;
    }
    ctx.check(exc);
    return b;
}

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

// Protected keeps one value alive beyond the handle scope it was made in (JSValueProtect) for its lifetime
// (JSValueUnprotect); the value still dies with its context, so a Protected must not outlive the Context.
class Protected {
  public:
    Protected(const Context &ctx, JSValueRef v) : ctx_(ctx.get()), v_(v) { JSValueProtect(ctx_, v_); }
    Protected(const Protected &) = delete;
    Protected &operator=(const Protected &) = delete;
    ~Protected() { JSValueUnprotect(ctx_, v_); }

    JSValueRef get() const { return v_; }

  private:
    JSContextRef ctx_;
    JSValueRef v_;
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
    Worker(Worker &&o) noexcept : w_(std::exchange(o.w_, nullptr)), loader_(std::move(o.loader_)) {}
    Worker &operator=(Worker &&o) noexcept {
        std::swap(w_, o.w_);
        std::swap(loader_, o.loader_);
        return *this;
    }
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;
    ~Worker() { JSWorkerRelease(w_); } // then loader_ is destroyed: the worker's thread, its caller, has ended

    // A module's resolved path and source, as a module loader returns them.
    struct Module {
        std::string path;
        std::string source;
    };
    // A module loader: (specifier, referrer path) -> the module, or std::nullopt for "not found"; an exception
    // fails the import with its what(). It runs on the worker's thread (each Worker has its own loader), and must
    // return promptly: terminate cannot interrupt it.
    using ModuleLoader = std::function<std::optional<Module>(const std::string &specifier, const std::string &referrer)>;

    // module starts a module worker: source is the ES module at entryPath; each import is resolved by loader, which
    // lives as long as the Worker. It throws Error if the worker cannot be made.
    static Worker module(const std::string &entryPath, const std::string &source, ModuleLoader loader,
                         const ZJSWorkerOptions *options = nullptr) {
        auto owned = std::make_unique<ModuleLoader>(std::move(loader));
        JSStringRef why = nullptr;
        JSWorkerRef w = ZJSWorkerCreateModule(entryPath.c_str(), source.data(), source.size(), &Worker::loadModule,
                                              owned.get(), options, &why);
        if (w == nullptr) {
            throw Error("jsworker: the module worker " + entryPath + " could not be created: " +
                        String::adopt(why).utf8());
        }
        return Worker(w, std::move(owned));
    }

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
    Worker(JSWorkerRef w, std::unique_ptr<ModuleLoader> loader) : w_(w), loader_(std::move(loader)) {}

    static void loadModule(ZJSModuleRequestRef request, const char *specifier, const char *referrer, void *userData) {
        try {
            auto &loader = *static_cast<ModuleLoader *>(userData);
            std::optional<Module> m = loader(specifier != nullptr ? specifier : "", referrer != nullptr ? referrer : "");
            if (m) {
                ZJSModuleRequestResolve(request, m->path.c_str(), m->source.data(), m->source.size());
            } else {
                ZJSModuleRequestFail(request, nullptr);
            }
        } catch (const std::exception &e) {
            ZJSModuleRequestFail(request, e.what());
        } catch (...) {
            ZJSModuleRequestFail(request, "the module loader threw");
        }
    }

    JSWorkerRef w_ = nullptr;
    std::unique_ptr<ModuleLoader> loader_;
};

namespace detail {

// SessionState is what an inspector session's C callback reaches through userData: the C++ callback, the session
// object (kept current across moves) and the first exception the callback threw.
template <class Session> struct SessionState {
    std::function<void(Session &, std::string_view)> callback;
    Session *session = nullptr;
    std::exception_ptr error;

    static void deliver(const char *message, size_t length, void *userData) {
        auto *st = static_cast<SessionState *>(userData);
        try {
            st->callback(*st->session, std::string_view(message, length));
        } catch (...) {
            if (!st->error) {
                st->error = std::current_exception();
            }
        }
    }

    void rethrow() {
        if (error) {
            std::rethrow_exception(std::exchange(error, nullptr));
        }
    }
};

} // namespace detail

// WorkerInspectorSession is an inspector session attached to a worker (ZJSWorkerInspectorSession*): dispatch queues
// a CDP command for the worker's thread; pump delivers one message to the callback on this thread. The callback
// gets the session (to dispatch from inside it, e.g. Debugger.resume on Debugger.paused) and the message's JSON.
class WorkerInspectorSession {
  public:
    using Callback = std::function<void(WorkerInspectorSession &, std::string_view)>;

    WorkerInspectorSession(const Worker &worker, Callback callback) : st_(std::make_unique<State>()) {
        st_->callback = std::move(callback);
        st_->session = this;
        s_ = ZJSWorkerInspectorSessionCreate(worker.get(), &State::deliver, st_.get());
        if (s_ == nullptr) {
            throw Error("jsworker: ZJSWorkerInspectorSessionCreate failed (the worker is ending or has ended)");
        }
    }
    WorkerInspectorSession(WorkerInspectorSession &&o) noexcept
        : s_(std::exchange(o.s_, nullptr)), st_(std::move(o.st_)) {
        if (st_) {
            st_->session = this;
        }
    }
    WorkerInspectorSession(const WorkerInspectorSession &) = delete;
    WorkerInspectorSession &operator=(const WorkerInspectorSession &) = delete;
    WorkerInspectorSession &operator=(WorkerInspectorSession &&) = delete;
    ~WorkerInspectorSession() { ZJSWorkerInspectorSessionRelease(s_); } // then st_: no callback runs any more

    ZJSWorkerInspectorSessionRef get() const { return s_; }

    // dispatch sends a CDP command (JSON text); it throws Error if the session refused it (its worker ended).
    void dispatch(std::string_view message) const {
        if (!ZJSWorkerInspectorSessionDispatch(s_, message.data(), message.size())) {
            throw Error("jsworker: the inspector session refused the command (its worker has ended)");
        }
    }

    // pump delivers one queued message to the callback, waiting up to timeoutMs: kZJSWorkerInspectorPumpMessage,
    // ...Timeout or ...Closed. It throws what the callback threw, and Error if the library refused the session.
    ZJSWorkerInspectorPumpResult pump(uint64_t timeoutMs = kJSWorkerWaitForever) const {
        ZJSWorkerInspectorPumpResult r = ZJSWorkerInspectorSessionPump(s_, timeoutMs);
        st_->rethrow();
        if (r == kZJSWorkerInspectorPumpError) {
            throw Error("jsworker: ZJSWorkerInspectorSessionPump refused the session");
        }
        return r;
    }

    // pumpUntil pumps until done() is true; it throws Error if a pump waits timeoutMs in vain or the session ends.
    template <class Done> void pumpUntil(Done done, uint64_t timeoutMs = 10000) const {
        while (!done()) {
            ZJSWorkerInspectorPumpResult r = pump(timeoutMs);
            if (r == kZJSWorkerInspectorPumpTimeout) {
                throw Error("jsworker: no inspector message came in time");
            }
            if (r == kZJSWorkerInspectorPumpClosed) {
                throw Error("jsworker: the inspector session ended");
            }
        }
    }

  private:
    using State = detail::SessionState<WorkerInspectorSession>;
    ZJSWorkerInspectorSessionRef s_ = nullptr;
    std::unique_ptr<State> st_;
};

// InspectorSession is a synchronous inspector session attached to a main context (ZJSInspectorSession*); the
// context must be inspectable (Context::setInspectable). The callback receives the first message inside the
// constructor, each response inside dispatch, and console events inside the call that ran the script; what it
// throws is rethrown from the constructor or dispatch (or from the next dispatch, for messages delivered during
// other calls).
class InspectorSession {
  public:
    using Callback = std::function<void(InspectorSession &, std::string_view)>;

    InspectorSession(const Context &ctx, Callback callback) : st_(std::make_unique<State>()) {
        st_->callback = std::move(callback);
        st_->session = this;
        s_ = ZJSInspectorSessionCreate(ctx.get(), &State::deliver, st_.get());
        if (s_ == nullptr) {
            throw Error("jsworker: ZJSInspectorSessionCreate failed (is the context inspectable?)");
        }
        st_->rethrow();
    }
    InspectorSession(InspectorSession &&o) noexcept : s_(std::exchange(o.s_, nullptr)), st_(std::move(o.st_)) {
        if (st_) {
            st_->session = this;
        }
    }
    InspectorSession(const InspectorSession &) = delete;
    InspectorSession &operator=(const InspectorSession &) = delete;
    InspectorSession &operator=(InspectorSession &&) = delete;
    ~InspectorSession() { ZJSInspectorSessionRelease(s_); }

    ZJSInspectorSessionRef get() const { return s_; }

    // dispatch runs a CDP command; its response reaches the callback before dispatch returns. It throws what the
    // callback threw, and Error if the session refused the command (its context was released).
    void dispatch(std::string_view message) const {
        bool ok = ZJSInspectorSessionDispatch(s_, message.data(), message.size());
        st_->rethrow();
        if (!ok) {
            throw Error("jsworker: the inspector session refused the command (its context was released)");
        }
    }

  private:
    using State = detail::SessionState<InspectorSession>;
    ZJSInspectorSessionRef s_ = nullptr;
    std::unique_ptr<State> st_;
};

} // namespace jsworker

#endif // JSWORKER_HPP
