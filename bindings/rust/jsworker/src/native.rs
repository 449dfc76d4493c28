//! Rust closures as JavaScript functions (`Context::function`), worker setups that install them in a worker's realm
//! (`Natives`, `Worker::with_natives`), and console output to Rust.
//!
//! A native function is an object of one process-wide class (`JSClassCreate` with `callAsFunction` and
//! `finalize`) whose private data is the boxed closure: the library calls the trampoline below with the object, the
//! trampoline finds the closure through `JSObjectGetPrivate`, and the class's finalizer drops the box exactly once,
//! on the context's thread, when the function is collected or at the latest when its realm is released.
use std::any::Any;
use std::ffi::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::OnceLock;

use jsworker_sys as sys;

use crate::context::{Context, Value};
use crate::error::{Error, Result};
use crate::string::JSString;
use crate::worker::{Worker, WorkerOptions};

/// The closure behind a native function. It runs on the thread of the context it was installed in (a worker's, for
/// natives of a worker), with that context lent as `&Context`; the values it gets and makes cannot outlive the call.
pub type NativeFn = dyn for<'c> Fn(&'c Context, &[Value<'c>]) -> Result<Value<'c>> + Send + 'static;

/// A console line's method: `console.log`, `info`, `warn`, `error` (also `assert`, `trace` go where Node sends
/// them), `debug`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsoleLevel {
    Log,
    Info,
    Warn,
    Error,
    Debug,
}

pub(crate) type ConsoleBox = Box<dyn Fn(ConsoleLevel, &str) + Send + 'static>;

/// The class of native functions, created once for the process (a class belongs to no thread or context).
fn native_class() -> sys::JSClassRef {
    static CLASS: OnceLock<usize> = OnceLock::new();
    *CLASS.get_or_init(|| {
        let def = sys::JSClassDefinition {
            callAsFunction: Some(call_native),
            finalize: Some(finalize_native),
            ..Default::default()
        };
        unsafe { sys::JSClassCreate(&def) as usize }
    }) as sys::JSClassRef
}

unsafe extern "C" fn finalize_native(object: sys::JSObjectRef) {
    let p = sys::JSObjectGetPrivate(object) as *mut Box<NativeFn>;
    if !p.is_null() {
        sys::JSObjectSetPrivate(object, ptr::null_mut());
        // A closure's Drop that panics must not unwind into the library.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(p))));
    }
}

unsafe extern "C" fn call_native(
    ctx: sys::JSContextRef,
    function: sys::JSObjectRef,
    _this: sys::JSObjectRef,
    argc: usize,
    argv: *const sys::JSValueRef,
    exception: *mut sys::JSValueRef,
) -> sys::JSValueRef {
    let cx = Context::lent(ctx);
    let f = sys::JSObjectGetPrivate(function) as *const Box<NativeFn>;
    let outcome = if f.is_null() {
        Err(Error::library("the native function was already finalized"))
    } else {
        let raw: &[sys::JSValueRef] =
            if argc == 0 || argv.is_null() { &[] } else { std::slice::from_raw_parts(argv, argc) };
        catch_unwind(AssertUnwindSafe(|| {
            let args: Vec<Value<'_>> = raw.iter().map(|&v| Value::new(&cx, v)).collect();
            // The values stay alive for the library to read: the call's handle scope releases them.
            (*f)(&cx, &args).map(Value::into_raw)
        }))
        .unwrap_or_else(|p| Err(Error::library(format!("the native function panicked: {}", panic_text(&*p)))))
    };
    match outcome {
        Ok(v) => v,
        Err(e) => {
            if !exception.is_null() {
                *exception = cx.error_value(&e).into_raw();
            }
            ptr::null()
        }
    }
}

/// The message of a panic payload.
pub(crate) fn panic_text(p: &(dyn Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

impl Context {
    /// Makes a JavaScript function that calls `f` (its `this` is not passed). `f` runs on this context's thread
    /// each time JavaScript calls the function; an `Err` it returns is thrown as a JavaScript error with the
    /// Error's name and message, and a panic is caught and thrown as an `Error`. The closure is dropped exactly
    /// once, when the function is collected or the context released.
    ///
    /// ```no_run
    /// let ctx = jsworker::Context::new()?;
    /// let add = ctx.function("add", |cx, args| {
    ///     let sum: f64 = args.iter().map(|a| a.to_number().unwrap_or(f64::NAN)).sum();
    ///     Ok(cx.number(sum))
    /// })?;
    /// ctx.global().set("add", &add)?;
    /// assert_eq!(ctx.eval("add(40, 2)")?.to_number()?, 42.0);
    /// # Ok::<(), jsworker::Error>(())
    /// ```
    pub fn function<F>(&self, name: &str, f: F) -> Result<Value<'_>>
    where
        F: for<'c> Fn(&'c Context, &[Value<'c>]) -> Result<Value<'c>> + Send + 'static,
    {
        self.function_boxed(name, Box::new(f))
    }

    pub(crate) fn function_boxed(&self, name: &str, f: Box<NativeFn>) -> Result<Value<'_>> {
        let data = Box::into_raw(Box::new(f));
        let obj = unsafe { sys::JSObjectMake(self.raw(), native_class(), data.cast()) };
        if obj.is_null() {
            drop(unsafe { Box::from_raw(data) });
            return Err(Error::library("JSObjectMake failed for a native function"));
        }
        // From here the class's finalizer owns the box.
        let v = Value::new(self, obj);
        // A callable class object's prototype is its class's: give it Function.prototype (call, apply, bind) and
        // its name, as a function made by JSObjectMakeFunctionWithCallback has.
        let dress = self.eval(
            "(f, n) => (Object.setPrototypeOf(f, Function.prototype), \
             Object.defineProperty(f, 'name', { value: n, configurable: true }))",
        )?;
        dress.call(&[&v, &self.string(name)])?;
        Ok(v)
    }

    /// A JavaScript error object for e (`new Error(message)` with e's `name`), e.g. to reject a promise with.
    pub fn error_value(&self, e: &Error) -> Value<'_> {
        let msg = self.string(&e.message);
        let argv = [msg.raw()];
        let obj = unsafe { sys::JSObjectMakeError(self.raw(), 1, argv.as_ptr(), ptr::null_mut()) };
        if obj.is_null() {
            return msg;
        }
        let v = Value::new(self, obj);
        if !e.name.is_empty() && e.name != "Error" {
            let key = JSString::new("name");
            let name = self.string(&e.name);
            unsafe { sys::JSObjectSetProperty(self.raw(), obj, key.0, name.raw(), 0, ptr::null_mut()) };
        }
        v
    }

    /// Sends this context's console output to `f(level, line)` instead of stdout/stderr (`None` restores them).
    /// `line` is what the console would print, without its newline. `f` runs on this thread, inside the call that
    /// ran the script. Err on a context lent to a callback (a worker's): give a worker's console callback with
    /// `Natives::console`, which lives as long as the worker.
    pub fn set_console<F>(&self, f: Option<F>) -> Result<()>
    where
        F: Fn(ConsoleLevel, &str) + Send + 'static,
    {
        if !self.owned {
            return Err(Error::library("set_console on a lent context: use Natives::console for a worker"));
        }
        let mut slot = self.console.borrow_mut();
        match f {
            Some(f) => {
                let b: Box<ConsoleBox> = Box::new(Box::new(f));
                let user_data = &*b as *const ConsoleBox as *mut c_void;
                unsafe { sys::ZJSContextSetConsoleCallback(self.raw(), Some(console_trampoline), user_data) };
                *slot = Some(b); // the old callback is no longer referenced by the library
            }
            None => {
                unsafe { sys::ZJSContextSetConsoleCallback(self.raw(), None, ptr::null_mut()) };
                *slot = None;
            }
        }
        Ok(())
    }
}

unsafe extern "C" fn console_trampoline(
    _ctx: sys::JSContextRef,
    level: sys::ZJSConsoleLevel,
    message: *const c_char,
    length: usize,
    user_data: *mut c_void,
) {
    let f = &*(user_data as *const ConsoleBox);
    let bytes = if message.is_null() { &[][..] } else { std::slice::from_raw_parts(message.cast::<u8>(), length) };
    let line = String::from_utf8_lossy(bytes);
    let level = match level {
        sys::kZJSConsoleLevelInfo => ConsoleLevel::Info,
        sys::kZJSConsoleLevelWarn => ConsoleLevel::Warn,
        sys::kZJSConsoleLevelError => ConsoleLevel::Error,
        sys::kZJSConsoleLevelDebug => ConsoleLevel::Debug,
        _ => ConsoleLevel::Log,
    };
    let _ = catch_unwind(AssertUnwindSafe(|| f(level, &line))); // nowhere to report a console callback's panic
}

type SetupFn = Box<dyn FnOnce(&Context) -> Result<()> + Send + 'static>;

/// What a worker's realm gets before its script runs: native functions, a setup closure, a console callback. Give
/// it to `Worker::with_natives`; it moves into the worker, whose thread runs every closure (hence `Send`).
///
/// ```no_run
/// use std::time::Duration;
/// use jsworker::{Context, Natives, Worker, WorkerOptions};
///
/// let natives = Natives::new()
///     .function("hostAdd", |cx, args| Ok(cx.number(args[0].to_number()? + args[1].to_number()?)))
///     .setup(|cx| cx.global().set("version", &cx.string("1.0")))
///     .console(|level, line| eprintln!("[worker {:?}] {}", level, line));
/// let w = Worker::with_natives("postMessage(hostAdd(40, 2) + ' ' + version)", &WorkerOptions::default(), natives)?;
/// let ctx = Context::new()?;
/// assert_eq!(w.receive(&ctx, Duration::from_secs(5))?.unwrap().to_string()?, "42 1.0");
/// # Ok::<(), jsworker::Error>(())
/// ```
#[derive(Default)]
pub struct Natives {
    functions: Vec<(String, Box<NativeFn>)>,
    setup: Option<SetupFn>,
    console: Option<ConsoleBox>,
}

impl Natives {
    /// No natives yet.
    pub fn new() -> Natives {
        Natives::default()
    }

    /// Installs `f` as the global function `name` of the worker (see `Context::function`).
    pub fn function<F>(mut self, name: &str, f: F) -> Natives
    where
        F: for<'c> Fn(&'c Context, &[Value<'c>]) -> Result<Value<'c>> + Send + 'static,
    {
        self.functions.push((name.to_string(), Box::new(f)));
        self
    }

    /// Runs `f` with the worker's context after the functions are installed, before the script: it may install
    /// anything (objects, values, more functions). An `Err` (or a panic) fails the worker's creation with it.
    pub fn setup<F>(mut self, f: F) -> Natives
    where
        F: FnOnce(&Context) -> Result<()> + Send + 'static,
    {
        self.setup = Some(Box::new(f));
        self
    }

    /// Receives the worker's console lines instead of stdout/stderr, on the worker's thread.
    pub fn console<F>(mut self, f: F) -> Natives
    where
        F: Fn(ConsoleLevel, &str) + Send + 'static,
    {
        self.console = Some(Box::new(f));
        self
    }
}

/// What the setup trampoline gets: the natives, and where it leaves a failure.
struct SetupState {
    functions: Vec<(String, Box<NativeFn>)>,
    setup: Option<SetupFn>,
    failure: Option<Error>,
}

unsafe extern "C" fn setup_trampoline(
    ctx: sys::JSGlobalContextRef,
    user_data: *mut c_void,
    exception: *mut sys::JSValueRef,
) -> bool {
    // The creating thread waits in ZJSWorkerCreateWithOptions while this runs: the state is ours alone.
    let state = &mut *(user_data as *mut SetupState);
    let cx = Context::lent(ctx);
    let run = catch_unwind(AssertUnwindSafe(|| -> Result<()> {
        let global = cx.global();
        for (name, f) in state.functions.drain(..) {
            let v = cx.function_boxed(&name, f)?;
            global.set(&name, &v)?;
        }
        match state.setup.take() {
            Some(f) => f(&cx),
            None => Ok(()),
        }
    }))
    .unwrap_or_else(|p| Err(Error::library(format!("the worker setup panicked: {}", panic_text(&*p)))));
    match run {
        Ok(()) => true,
        Err(e) => {
            if !exception.is_null() {
                *exception = cx.error_value(&e).into_raw();
            }
            state.failure = Some(e);
            false
        }
    }
}

type DefaultSetup = Box<dyn Fn(&Context) -> Result<()> + Send + Sync + 'static>;

/// Every default setup ever set: the library may still be calling an old one for a worker being created while a
/// new one is set, so none is freed (there are as many as `set_default_setup` calls). Boxed twice: the library
/// holds the address of the inner Box, which must not move when the Vec grows.
#[allow(clippy::vec_box)]
static DEFAULT_SETUPS: std::sync::Mutex<Vec<Box<DefaultSetup>>> = std::sync::Mutex::new(Vec::new());

unsafe extern "C" fn default_setup_trampoline(
    ctx: sys::JSGlobalContextRef,
    user_data: *mut c_void,
    exception: *mut sys::JSValueRef,
) -> bool {
    let f = &*(user_data as *const DefaultSetup);
    let cx = Context::lent(ctx);
    let run = catch_unwind(AssertUnwindSafe(|| f(&cx)))
        .unwrap_or_else(|p| Err(Error::library(format!("the default worker setup panicked: {}", panic_text(&*p)))));
    match run {
        Ok(()) => true,
        Err(e) => {
            if !exception.is_null() {
                *exception = cx.error_value(&e).into_raw();
            }
            false
        }
    }
}

/// Sets the process-wide worker setup (`ZJSSetWorkerSetupCallback`): `f` runs, on the new worker's thread, for
/// every worker created afterwards that has no setup of its own — workers created from JavaScript (`new Worker`,
/// `worker_threads`, nested workers) and `Worker::new`/`with_options` workers — so that a plugin's own workers get
/// the same natives. `None` removes it. `f` is `Sync` because workers start concurrently. An `Err` fails that
/// worker's start (an `'error'` event for a worker created from JavaScript).
pub fn set_default_setup<F>(f: Option<F>)
where
    F: Fn(&Context) -> Result<()> + Send + Sync + 'static,
{
    let mut all = DEFAULT_SETUPS.lock().unwrap_or_else(|e| e.into_inner());
    match f {
        Some(f) => {
            let b: Box<DefaultSetup> = Box::new(Box::new(f));
            let user_data = &*b as *const DefaultSetup as *mut c_void;
            all.push(b);
            unsafe { sys::ZJSSetWorkerSetupCallback(Some(default_setup_trampoline), user_data) };
        }
        None => unsafe { sys::ZJSSetWorkerSetupCallback(None, ptr::null_mut()) },
    }
}

/// Natives made ready for one creation: the setup's state (no longer referenced once the creating call returned,
/// which waits for the setup) and the console callback (referenced until the worker is released).
pub(crate) struct Prepared {
    state: Box<SetupState>,
    console: Option<Box<ConsoleBox>>,
}

impl Natives {
    pub(crate) fn prepare(self) -> Prepared {
        let Natives { functions, setup, console } = self;
        Prepared { state: Box::new(SetupState { functions, setup, failure: None }), console: console.map(Box::new) }
    }
}

impl Prepared {
    /// Points the options' setup and console callbacks at this.
    pub(crate) fn apply(&mut self, raw: &mut sys::ZJSWorkerOptions) {
        raw.setup = Some(setup_trampoline);
        raw.setupUserData = (&mut *self.state) as *mut SetupState as *mut c_void;
        if let Some(c) = &self.console {
            raw.consoleCallback = Some(console_trampoline);
            raw.consoleUserData = &**c as *const ConsoleBox as *mut c_void;
        }
    }

    /// The creation's outcome: the worker keeps the console callback; a failed setup's own Error replaces the
    /// library's message.
    pub(crate) fn finish(mut self, created: Result<Worker>) -> Result<Worker> {
        match created {
            Ok(mut w) => {
                w.host = self.console.map(|c| c as Box<dyn Any>);
                Ok(w)
            }
            Err(e) => Err(self.state.failure.take().unwrap_or(e)),
        }
    }
}

impl Worker {
    /// Starts a worker whose realm first gets `natives` (functions, setup, console; see `Natives`), then runs
    /// `source`. Err: the setup's own Error if it failed, a SyntaxError for the script.
    pub fn with_natives(source: &str, options: &WorkerOptions, natives: Natives) -> Result<Worker> {
        let mut prepared = natives.prepare();
        let created = Worker::create(source, options, |raw| prepared.apply(raw));
        prepared.finish(created)
    }
}
