//! Inspector sessions: Chrome DevTools Protocol JSON in and out, with a closure receiving the session's messages.
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_void};
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::time::Duration;

use jsworker_sys as sys;

use crate::context::{Context, OwnerThread};
use crate::error::{Error, Result};
use crate::worker::{millis, Worker};

/// What `WorkerInspectorSession::pump` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PumpResult {
    /// One message was delivered to the callback.
    Message,
    /// Nothing came in time.
    Timeout,
    /// The worker ended and every message was delivered; drop the session.
    Closed,
}

#[derive(Clone, Copy)]
enum Kind {
    Worker,
    Context,
}

/// Lets a session's callback send commands to its own session (for example `Debugger.resume` on
/// `Debugger.paused`). Valid only during the callback.
pub struct Dispatcher {
    kind: Kind,
    raw: Cell<*mut c_void>,
}

impl Dispatcher {
    /// Sends a CDP command (JSON text). False if the session refused it (released, or its target ended).
    pub fn dispatch(&self, message: &str) -> bool {
        let raw = self.raw.get();
        if raw.is_null() {
            return false; // the first message of a context session arrives before the session exists
        }
        unsafe {
            match self.kind {
                Kind::Worker => {
                    sys::ZJSWorkerInspectorSessionDispatch(raw.cast(), message.as_ptr().cast(), message.len())
                }
                Kind::Context => sys::ZJSInspectorSessionDispatch(raw.cast(), message.as_ptr().cast(), message.len()),
            }
        }
    }
}

type Callback = Box<dyn FnMut(&Dispatcher, &str)>;

/// What the C callback's user data points at; boxed, so its address is stable while the session lives.
struct State {
    callback: RefCell<Callback>,
    dispatcher: Dispatcher,
    panic: Cell<Option<Box<dyn Any + Send>>>,
}

impl State {
    fn new(kind: Kind, callback: Callback) -> Box<State> {
        Box::new(State {
            callback: RefCell::new(callback),
            dispatcher: Dispatcher { kind, raw: Cell::new(std::ptr::null_mut()) },
            panic: Cell::new(None),
        })
    }

    /// Resumes a panic the callback raised, on the caller's side of the library call.
    fn rethrow(&self) {
        if let Some(p) = self.panic.take() {
            resume_unwind(p);
        }
    }
}

unsafe extern "C" fn on_message(message: *const c_char, length: usize, user_data: *mut c_void) {
    let state = &*(user_data as *const State);
    let bytes = std::slice::from_raw_parts(message.cast::<u8>(), length);
    let text = String::from_utf8_lossy(bytes);
    let r = catch_unwind(AssertUnwindSafe(|| match state.callback.try_borrow_mut() {
        Ok(mut cb) => cb(&state.dispatcher, &text),
        Err(_) => unreachable!("jsworker: an inspector callback was re-entered"),
    }));
    if let Err(p) = r {
        // Unwinding into C is undefined behaviour: keep the first panic and resume it after the library call.
        let first = state.panic.take();
        state.panic.set(Some(first.unwrap_or(p)));
    }
}

/// An inspector session attached to a Worker (`ZJSWorkerInspectorSession*`), asynchronous: `dispatch` queues a
/// command for the worker's thread and returns at once; `pump` delivers one message to the callback, on this
/// thread. Neither `Send` nor `Sync`. Dropping it detaches it (it may outlive its worker: it then pumps `Closed`).
///
/// The callback gets a Dispatcher to answer from inside it, and the message (UTF-8 JSON). A panic in the callback
/// is caught at the C boundary and resumed when `pump` returns.
pub struct WorkerInspectorSession {
    raw: sys::ZJSWorkerInspectorSessionRef,
    state: Box<State>,
    _owner: OwnerThread,
}

impl Worker {
    /// Attaches an inspector session (any worker; the Debugger domain needs `WorkerOptions::inspectable`).
    pub fn inspector<F>(&self, callback: F) -> Result<WorkerInspectorSession>
    where
        F: FnMut(&Dispatcher, &str) + 'static,
    {
        let state = State::new(Kind::Worker, Box::new(callback));
        let user_data = &*state as *const State as *mut c_void;
        let raw = unsafe { sys::ZJSWorkerInspectorSessionCreate(self.raw(), Some(on_message), user_data) };
        if raw.is_null() {
            return Err(Error::library("ZJSWorkerInspectorSessionCreate failed: the worker is ending or has ended"));
        }
        state.dispatcher.raw.set(raw.cast());
        Ok(WorkerInspectorSession { raw, state, _owner: PhantomData })
    }
}

impl WorkerInspectorSession {
    /// Sends a CDP command (JSON text). Err if the session refused it (its worker ended).
    pub fn dispatch(&self, message: &str) -> Result<()> {
        if self.state.dispatcher.dispatch(message) {
            Ok(())
        } else {
            Err(Error::library("the inspector session refused the command (its worker has ended)"))
        }
    }

    /// Delivers the oldest queued message to the callback, waiting up to timeout (`FOREVER` waits until one comes
    /// or the session ends). Err if called from inside this session's own callback, or if the library refused.
    pub fn pump(&self, timeout: Duration) -> Result<PumpResult> {
        if self.state.callback.try_borrow_mut().is_err() {
            return Err(Error::library("pump was called from inside the session's own callback"));
        }
        let r = unsafe { sys::ZJSWorkerInspectorSessionPump(self.raw, millis(timeout)) };
        self.state.rethrow();
        match r {
            sys::kZJSWorkerInspectorPumpMessage => Ok(PumpResult::Message),
            sys::kZJSWorkerInspectorPumpTimeout => Ok(PumpResult::Timeout),
            sys::kZJSWorkerInspectorPumpClosed => Ok(PumpResult::Closed),
            _ => Err(Error::library("ZJSWorkerInspectorSessionPump refused the session")),
        }
    }

    /// Pumps until `done()` is true. Err if a pump waited `timeout` in vain or the session ended first.
    pub fn pump_until(&self, timeout: Duration, mut done: impl FnMut() -> bool) -> Result<()> {
        while !done() {
            match self.pump(timeout)? {
                PumpResult::Message => {}
                PumpResult::Timeout => return Err(Error::library("no inspector message came in time")),
                PumpResult::Closed => return Err(Error::library("the inspector session ended")),
            }
        }
        Ok(())
    }

    /// The raw handle; it stays owned by this session.
    pub fn raw(&self) -> sys::ZJSWorkerInspectorSessionRef {
        self.raw
    }
}

impl Drop for WorkerInspectorSession {
    fn drop(&mut self) {
        unsafe { sys::ZJSWorkerInspectorSessionRelease(self.raw) }
        // state drops after the release: no callback can run any more.
    }
}

/// An inspector session attached to a main Context (`ZJSInspectorSession*`), synchronous: the callback receives
/// the first message inside `Context::inspector`, each response (and the events it causes) inside `dispatch`, and
/// console events inside the `eval` that logged them. The context must be inspectable. Neither `Send` nor `Sync`;
/// it may outlive its context.
pub struct ContextInspectorSession {
    raw: sys::ZJSInspectorSessionRef,
    state: Box<State>,
    _owner: OwnerThread,
}

impl Context {
    /// Attaches a synchronous inspector session; Err unless `set_inspectable(true)` was called.
    pub fn inspector<F>(&self, callback: F) -> Result<ContextInspectorSession>
    where
        F: FnMut(&Dispatcher, &str) + 'static,
    {
        let state = State::new(Kind::Context, Box::new(callback));
        let user_data = &*state as *const State as *mut c_void;
        let raw = unsafe { sys::ZJSInspectorSessionCreate(self.raw(), Some(on_message), user_data) };
        state.rethrow();
        if raw.is_null() {
            return Err(Error::library("ZJSInspectorSessionCreate failed: is the context inspectable?"));
        }
        state.dispatcher.raw.set(raw.cast());
        Ok(ContextInspectorSession { raw, state, _owner: PhantomData })
    }
}

impl ContextInspectorSession {
    /// Runs a CDP command; its response reaches the callback before this returns (after the callback returns,
    /// when called from inside it). A panic of the callback is resumed here.
    pub fn dispatch(&self, message: &str) -> Result<()> {
        let ok = self.state.dispatcher.dispatch(message);
        self.state.rethrow();
        if ok {
            Ok(())
        } else {
            Err(Error::library("the inspector session refused the command (its context was released)"))
        }
    }

    pub fn raw(&self) -> sys::ZJSInspectorSessionRef {
        self.raw
    }
}

impl Drop for ContextInspectorSession {
    fn drop(&mut self) {
        unsafe { sys::ZJSInspectorSessionRelease(self.raw) }
    }
}
