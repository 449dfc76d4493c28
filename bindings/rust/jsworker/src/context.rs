//! Context and Value.
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::ptr;

use jsworker_sys as sys;

use crate::error::{Error, ErrorKind, Result};
use crate::string::JSString;

/// Makes a type neither Send nor Sync: every handle belongs to the thread that created it.
pub(crate) type OwnerThread = PhantomData<*mut ()>;

/// A main JavaScript context (`JSGlobalContextCreate`): a realm with the standard built-ins plus `console`,
/// `performance`, `queueMicrotask`, `SharedArrayBuffer` and `Atomics`, without an event loop.
///
/// A Context belongs to the thread that created it, so it is neither `Send` nor `Sync`; so are its values. Dropping
/// it releases the context and everything made in it (the borrow checker makes sure no Value outlives it).
///
/// ```compile_fail,E0277
/// fn needs_send<T: Send>(_: T) {}
/// needs_send(jsworker::Context::new().unwrap()); // a Context cannot move to another thread
/// ```
pub struct Context {
    ctx: sys::JSGlobalContextRef,
    /// false for a worker's context lent to a callback (setup, native function): not released on drop.
    pub(crate) owned: bool,
    /// Borrows of buffer bytes (`Value::with_bytes`): n > 0 shared, -1 exclusive. No JavaScript runs meanwhile.
    pub(crate) byte_borrows: Cell<isize>,
    /// The console callback set with `set_console`, freed after the context.
    pub(crate) console: RefCell<Option<Box<crate::native::ConsoleBox>>>,
    _owner: OwnerThread,
}

impl Context {
    /// Creates a context.
    pub fn new() -> Result<Context> {
        let ctx = unsafe { sys::JSGlobalContextCreate(ptr::null_mut()) };
        if ctx.is_null() {
            return Err(Error::library("JSGlobalContextCreate failed"));
        }
        Ok(Context::from_raw(ctx, true))
    }

    fn from_raw(ctx: sys::JSGlobalContextRef, owned: bool) -> Context {
        Context { ctx, owned, byte_borrows: Cell::new(0), console: RefCell::new(None), _owner: PhantomData }
    }

    /// A Context for a context the library lends to a callback (a worker's, or a host context calling a native
    /// function): it is not released when dropped.
    pub(crate) fn lent(ctx: sys::JSContextRef) -> Context {
        Context::from_raw(ctx as sys::JSGlobalContextRef, false)
    }

    /// Ok unless buffer bytes of this context are borrowed: JavaScript must not run (and detach or write a buffer)
    /// while Rust holds a slice of its bytes.
    pub(crate) fn may_run_js(&self) -> Result<()> {
        if self.byte_borrows.get() != 0 {
            return Err(Error::library(
                "buffer bytes of this context are borrowed (inside with_bytes): no JavaScript may run meanwhile",
            ));
        }
        Ok(())
    }

    /// The raw handle, for calls into `jsworker_sys`; it stays owned by this Context.
    pub fn raw(&self) -> sys::JSGlobalContextRef {
        self.ctx
    }

    /// Evaluates a script; its exception (a SyntaxError for bad syntax) is the Err.
    pub fn eval(&self, script: &str) -> Result<Value<'_>> {
        self.eval_at(script, None, 1)
    }

    /// Evaluates a script with a source URL and first line number for stack traces.
    pub fn eval_at(&self, script: &str, source_url: Option<&str>, line: i32) -> Result<Value<'_>> {
        self.may_run_js()?;
        let src = JSString::new(script);
        let url = source_url.map(JSString::new);
        let mut exc: sys::JSValueRef = ptr::null();
        let v = unsafe {
            sys::JSEvaluateScript(
                self.ctx,
                src.0,
                ptr::null_mut(),
                url.as_ref().map_or(ptr::null_mut(), |u| u.0),
                line,
                &mut exc,
            )
        };
        self.wrap(v, exc)
    }

    pub fn undefined(&self) -> Value<'_> {
        Value::new(self, unsafe { sys::JSValueMakeUndefined(self.ctx) })
    }

    pub fn null(&self) -> Value<'_> {
        Value::new(self, unsafe { sys::JSValueMakeNull(self.ctx) })
    }

    pub fn boolean(&self, b: bool) -> Value<'_> {
        Value::new(self, unsafe { sys::JSValueMakeBoolean(self.ctx, b) })
    }

    pub fn number(&self, d: f64) -> Value<'_> {
        Value::new(self, unsafe { sys::JSValueMakeNumber(self.ctx, d) })
    }

    pub fn string(&self, s: &str) -> Value<'_> {
        let js = JSString::new(s);
        Value::new(self, unsafe { sys::JSValueMakeString(self.ctx, js.0) })
    }

    /// Parses JSON (`JSON.parse`).
    pub fn from_json(&self, json: &str) -> Result<Value<'_>> {
        let js = JSString::new(json);
        let v = unsafe { sys::JSValueMakeFromJSONString(self.ctx, js.0) };
        if v.is_null() {
            return Err(Error {
                kind: ErrorKind::Exception,
                name: "SyntaxError".into(),
                message: "invalid JSON".into(),
                stack: None,
            });
        }
        Ok(Value::new(self, v))
    }

    /// The global object.
    pub fn global(&self) -> Value<'_> {
        Value::new(self, unsafe { sys::JSContextGetGlobalObject(self.ctx) })
    }

    /// Allows inspector sessions (`ctx.inspector`); false by default.
    pub fn set_inspectable(&self, inspectable: bool) {
        unsafe { sys::JSGlobalContextSetInspectable(self.ctx, inspectable) }
    }

    /// Runs the garbage collector (`JSGarbageCollect`), then the finalizers and deallocators of what it found
    /// unreachable in this context.
    pub fn garbage_collect(&self) {
        unsafe { sys::JSGarbageCollect(self.ctx) }
    }

    pub fn is_inspectable(&self) -> bool {
        unsafe { sys::JSGlobalContextIsInspectable(self.ctx) }
    }

    /// A Value for v, or the exception exc as an Error.
    pub(crate) fn wrap(&self, v: sys::JSValueRef, exc: sys::JSValueRef) -> Result<Value<'_>> {
        if !exc.is_null() {
            return Err(self.exception(exc));
        }
        if v.is_null() {
            return Err(Error::library("the call failed without an exception"));
        }
        Ok(Value::new(self, v))
    }

    /// The Error for an exception value (which is released).
    pub(crate) fn exception(&self, exc: sys::JSValueRef) -> Error {
        let e = Value::new(self, exc);
        let prop = |name: &str| -> Option<String> {
            if !e.is_object() {
                return None;
            }
            let v = e.get(name).ok()?;
            if v.is_undefined() {
                None
            } else {
                v.to_string().ok()
            }
        };
        match (prop("name"), prop("message")) {
            (Some(name), message) => {
                Error { kind: ErrorKind::Exception, name, message: message.unwrap_or_default(), stack: prop("stack") }
            }
            (None, _) => Error {
                kind: ErrorKind::Exception,
                name: String::new(),
                message: e.to_string().unwrap_or_default(),
                stack: None,
            },
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        if self.owned {
            unsafe { sys::JSGlobalContextRelease(self.ctx) }
        }
        // console drops after this: the context that called it is gone.
    }
}

/// The type of a Value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Undefined,
    Null,
    Boolean,
    Number,
    String,
    Object,
    Symbol,
    BigInt,
}

/// A JavaScript value of a Context, which it cannot outlive. Each Value owns one value handle and releases it when
/// dropped (`ZJSValueRelease`), so a loop that makes values does not grow its context. Not `Clone`: evaluate or
/// read again for another handle.
pub struct Value<'c> {
    ctx: &'c Context,
    v: sys::JSValueRef,
}

impl<'c> Value<'c> {
    pub(crate) fn new(ctx: &'c Context, v: sys::JSValueRef) -> Value<'c> {
        Value { ctx, v }
    }

    /// The raw handle; it stays owned by this Value.
    pub fn raw(&self) -> sys::JSValueRef {
        self.v
    }

    /// Gives the handle up without releasing it (it lives until its handle scope closes or its context is
    /// released).
    pub fn into_raw(self) -> sys::JSValueRef {
        let v = self.v;
        std::mem::forget(self);
        v
    }

    /// The context this value belongs to.
    pub fn context(&self) -> &'c Context {
        self.ctx
    }

    pub(crate) fn c(&self) -> sys::JSContextRef {
        self.ctx.ctx
    }

    pub fn js_type(&self) -> Type {
        match unsafe { sys::JSValueGetType(self.c(), self.v) } {
            sys::kJSTypeNull => Type::Null,
            sys::kJSTypeBoolean => Type::Boolean,
            sys::kJSTypeNumber => Type::Number,
            sys::kJSTypeString => Type::String,
            sys::kJSTypeObject => Type::Object,
            sys::kJSTypeSymbol => Type::Symbol,
            sys::kJSTypeBigInt => Type::BigInt,
            _ => Type::Undefined,
        }
    }

    pub fn is_undefined(&self) -> bool {
        self.js_type() == Type::Undefined
    }

    pub fn is_null(&self) -> bool {
        self.js_type() == Type::Null
    }

    pub fn is_object(&self) -> bool {
        self.js_type() == Type::Object
    }

    pub fn is_array(&self) -> bool {
        unsafe { sys::JSValueIsArray(self.c(), self.v) }
    }

    /// `===`.
    pub fn strict_equals(&self, other: &Value<'_>) -> bool {
        unsafe { sys::JSValueIsStrictEqual(self.c(), self.v, other.v) }
    }

    /// ToBoolean.
    pub fn to_bool(&self) -> bool {
        unsafe { sys::JSValueToBoolean(self.c(), self.v) }
    }

    /// ToNumber; a throwing `valueOf` is the Err.
    pub fn to_number(&self) -> Result<f64> {
        self.ctx.may_run_js()?;
        let mut exc = ptr::null();
        let d = unsafe { sys::JSValueToNumber(self.c(), self.v, &mut exc) };
        if !exc.is_null() {
            return Err(self.ctx.exception(exc));
        }
        Ok(d)
    }

    /// ToString, as Rust UTF-8 (lone surrogates become U+FFFD); a symbol or a throwing `toString` is the Err.
    #[allow(clippy::inherent_to_string_shadow_display, clippy::inherent_to_string)]
    pub fn to_string(&self) -> Result<String> {
        self.ctx.may_run_js()?;
        let mut exc = ptr::null();
        let s = unsafe { sys::JSValueToStringCopy(self.c(), self.v, &mut exc) };
        if !exc.is_null() {
            return Err(self.ctx.exception(exc));
        }
        Ok(JSString::adopt(s).map(|s| s.to_string_lossy()).unwrap_or_default())
    }

    /// `JSON.stringify(value, null, indent)`; Ok(None) for a value without a JSON form (undefined, a function).
    pub fn to_json(&self, indent: u32) -> Result<Option<String>> {
        self.ctx.may_run_js()?;
        let mut exc = ptr::null();
        let s = unsafe { sys::JSValueCreateJSONString(self.c(), self.v, indent, &mut exc) };
        if !exc.is_null() {
            return Err(self.ctx.exception(exc));
        }
        Ok(JSString::adopt(s).map(|s| s.to_string_lossy()))
    }

    pub(crate) fn object(&self) -> Result<sys::JSObjectRef> {
        if !self.is_object() {
            return Err(Error {
                kind: ErrorKind::Exception,
                name: "TypeError".into(),
                message: "the value is not an object".into(),
                stack: None,
            });
        }
        Ok(self.v as sys::JSObjectRef)
    }

    /// `value[name]`.
    pub fn get(&self, name: &str) -> Result<Value<'c>> {
        self.ctx.may_run_js()?;
        let o = self.object()?;
        let key = JSString::new(name);
        let mut exc = ptr::null();
        let v = unsafe { sys::JSObjectGetProperty(self.c(), o, key.0, &mut exc) };
        self.ctx.wrap(v, exc)
    }

    /// `value[index]`.
    pub fn get_index(&self, index: u32) -> Result<Value<'c>> {
        self.ctx.may_run_js()?;
        let o = self.object()?;
        let mut exc = ptr::null();
        let v = unsafe { sys::JSObjectGetPropertyAtIndex(self.c(), o, index, &mut exc) };
        self.ctx.wrap(v, exc)
    }

    /// `value[name] = v`.
    pub fn set(&self, name: &str, v: &Value<'_>) -> Result<()> {
        self.ctx.may_run_js()?;
        let o = self.object()?;
        let key = JSString::new(name);
        let mut exc = ptr::null();
        unsafe { sys::JSObjectSetProperty(self.c(), o, key.0, v.v, sys::kJSPropertyAttributeNone, &mut exc) };
        if !exc.is_null() {
            return Err(self.ctx.exception(exc));
        }
        Ok(())
    }

    /// Calls the value as a function with `this` undefined.
    pub fn call(&self, args: &[&Value<'_>]) -> Result<Value<'c>> {
        self.ctx.may_run_js()?;
        let o = self.object()?;
        let argv: Vec<sys::JSValueRef> = args.iter().map(|a| a.v).collect();
        let mut exc = ptr::null();
        let v =
            unsafe { sys::JSObjectCallAsFunction(self.c(), o, ptr::null_mut(), argv.len(), argv.as_ptr(), &mut exc) };
        self.ctx.wrap(v, exc)
    }
}

impl Drop for Value<'_> {
    fn drop(&mut self) {
        unsafe { sys::ZJSValueRelease(self.ctx.ctx, self.v) }
    }
}

impl std::fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.to_json(0) {
            Ok(Some(j)) => write!(f, "Value({})", j),
            _ => write!(f, "Value({:?})", self.js_type()),
        }
    }
}
