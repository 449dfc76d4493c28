//! Values the plain `Context` constructors do not make: promises the host settles, symbols, BigInts.
use std::ptr;

use jsworker_sys as sys;

use crate::context::{Context, Value};
use crate::error::Result;
use crate::string::JSString;

/// A promise and the functions that settle it (`JSObjectMakeDeferredPromise`). Call `resolve` or `reject` with
/// `Value::call`; the promise's reactions run before that call returns.
pub struct Deferred<'c> {
    pub promise: Value<'c>,
    pub resolve: Value<'c>,
    pub reject: Value<'c>,
}

/// A promise's state (`ZJSPromiseGetState`), with the value or reason once settled.
#[derive(Debug)]
pub enum PromiseState<'c> {
    Pending,
    Fulfilled(Value<'c>),
    Rejected(Value<'c>),
}

impl Context {
    /// A new pending promise with its resolve and reject functions.
    pub fn deferred_promise(&self) -> Result<Deferred<'_>> {
        let (mut resolve, mut reject) = (ptr::null_mut(), ptr::null_mut());
        let mut exc = ptr::null();
        let p = unsafe { sys::JSObjectMakeDeferredPromise(self.raw(), &mut resolve, &mut reject, &mut exc) };
        let promise = self.wrap(p, exc)?;
        Ok(Deferred { promise, resolve: Value::new(self, resolve), reject: Value::new(self, reject) })
    }

    /// A new symbol, as `Symbol(description)`.
    pub fn symbol(&self, description: Option<&str>) -> Value<'_> {
        let d = description.map(JSString::new);
        Value::new(self, unsafe { sys::JSValueMakeSymbol(self.raw(), d.as_ref().map_or(ptr::null_mut(), |s| s.0)) })
    }

    /// A BigInt from an i64.
    pub fn bigint(&self, i: i64) -> Value<'_> {
        Value::new(self, unsafe { sys::JSBigIntCreateWithInt64(self.raw(), i, ptr::null_mut()) })
    }

    /// A BigInt from a u64.
    pub fn bigint_u64(&self, u: u64) -> Value<'_> {
        Value::new(self, unsafe { sys::JSBigIntCreateWithUInt64(self.raw(), u, ptr::null_mut()) })
    }
}

impl<'c> Value<'c> {
    /// The state of this promise; None for a value that is not a promise.
    pub fn promise_state(&self) -> Option<PromiseState<'c>> {
        if !self.is_object() {
            return None;
        }
        let mut result = ptr::null();
        let s = unsafe { sys::ZJSPromiseGetState(self.c(), self.raw() as sys::JSObjectRef, &mut result) };
        let ctx = self.context();
        match s {
            sys::kZJSPromiseStatePending => Some(PromiseState::Pending),
            sys::kZJSPromiseStateFulfilled => Some(PromiseState::Fulfilled(Value::new(ctx, result))),
            sys::kZJSPromiseStateRejected => Some(PromiseState::Rejected(Value::new(ctx, result))),
            _ => None,
        }
    }

    /// ToBigInt64 semantics of `JSValueToInt64`: a BigInt's low 64 bits, a Number truncated (modulo 2^64).
    pub fn to_i64(&self) -> Result<i64> {
        self.context().may_run_js()?;
        let mut exc = ptr::null();
        let i = unsafe { sys::JSValueToInt64(self.c(), self.raw(), &mut exc) };
        if !exc.is_null() {
            return Err(self.context().exception(exc));
        }
        Ok(i)
    }
}
