//! Worker: a script on its own thread, exchanging copies of values with its owner.
use std::ffi::CString;
use std::marker::PhantomData;
use std::ptr;
use std::time::Duration;

use jsworker_sys as sys;

use crate::context::{Context, OwnerThread, Value};
use crate::error::{Error, ErrorKind, Result};
use crate::string::JSString;

/// The limits of one message queue; 0 fields take the defaults (64 MiB per message, 256 MiB and 1024 messages
/// queued).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    pub max_message_bytes: usize,
    pub max_queued_bytes: usize,
    pub max_queued_messages: usize,
}

/// Options for `Worker::with_options` (and module workers). `Default` is every default.
#[derive(Debug, Clone, Default)]
pub struct WorkerOptions {
    /// The worker's `self.name`.
    pub name: Option<String>,
    /// The script's file name in stack traces.
    pub filename: Option<String>,
    /// Turns on the inspector's Debugger domain (pauses, breakpoints); costs time on every statement.
    pub inspectable: bool,
    /// Runs the worker on one dedicated OS thread for its whole life.
    pub dedicated_thread: bool,
    /// 0: the default call-stack limit.
    pub max_call_stack_size: usize,
    pub inbox: Limits,
    pub outbox: Limits,
}

/// The options in C form; the CStrings must outlive the call.
struct COptions {
    raw: sys::ZJSWorkerOptions,
    _strings: (Option<CString>, Option<CString>),
}

impl WorkerOptions {
    fn to_c(&self) -> Result<COptions> {
        let cstr = |s: &Option<String>| -> Result<Option<CString>> {
            s.as_deref()
                .map(|s| CString::new(s).map_err(|_| Error::library("an option contains a NUL byte")))
                .transpose()
        };
        let name = cstr(&self.name)?;
        let filename = cstr(&self.filename)?;
        let limits = |l: &Limits| sys::ZJSChannelLimits {
            maxMessageBytes: l.max_message_bytes,
            maxQueuedBytes: l.max_queued_bytes,
            maxQueuedMessages: l.max_queued_messages,
        };
        let raw = sys::ZJSWorkerOptions {
            inbox: limits(&self.inbox),
            outbox: limits(&self.outbox),
            name: name.as_ref().map_or(ptr::null(), |s| s.as_ptr()),
            filename: filename.as_ref().map_or(ptr::null(), |s| s.as_ptr()),
            maxCallStackSize: self.max_call_stack_size,
            dedicatedThread: self.dedicated_thread,
            inspectable: self.inspectable,
            ..Default::default()
        };
        Ok(COptions { raw, _strings: (name, filename) })
    }
}

/// How a worker was started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    Script,
    Module,
}

/// A worker's life-cycle stage; it only moves forward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TargetState {
    Starting,
    Running,
    Closing,
    Closed,
}

/// A worker as a debugging target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TargetInfo {
    /// Process-wide, never 0, never reused.
    pub id: u64,
    pub kind: TargetKind,
    pub state: TargetState,
}

/// Waits until a message comes or the worker has ended: `worker.receive(&ctx, FOREVER)`.
pub const FOREVER: Duration = Duration::MAX;

pub(crate) fn millis(d: Duration) -> u64 {
    if d == Duration::MAX {
        sys::kJSWorkerWaitForever
    } else {
        // Round up so that a non-zero wait never becomes a poll; stay below the "forever" value.
        let ms = d.as_nanos().div_ceil(1_000_000);
        ms.min((sys::kJSWorkerWaitForever - 1) as u128) as u64
    }
}

/// A JavaScript worker: its script runs on a thread of its own, with its own realm and event loop; the owner posts
/// copies of values to it and receives copies of what it posts.
///
/// A Worker belongs to the thread that created it (the library refuses calls from any other), so it is neither
/// `Send` nor `Sync`. Dropping it terminates the worker, waits for its thread and frees it (`JSWorkerRelease`);
/// for a graceful end, `close()` and receive until `Ok(None)` first.
///
/// ```compile_fail,E0277
/// let w = jsworker::Worker::new("onmessage = () => {}").unwrap();
/// std::thread::spawn(move || w.terminate()); // a Worker cannot move to another thread
/// ```
pub struct Worker {
    w: sys::JSWorkerRef,
    _loader: Option<Box<dyn std::any::Any>>,
    /// What the worker's callbacks use (a console closure): dropped after the worker's thread ended.
    pub(crate) host: Option<Box<dyn std::any::Any>>,
    _owner: OwnerThread,
}

impl Worker {
    /// Starts a worker running source with the default options. A syntax error is the Err.
    pub fn new(source: &str) -> Result<Worker> {
        Worker::with_options(source, &WorkerOptions::default())
    }

    /// Starts a worker with options.
    pub fn with_options(source: &str, options: &WorkerOptions) -> Result<Worker> {
        Worker::create(source, options, |_| {})
    }

    /// Creates a worker with options that `customize` may complete (callbacks) before the call.
    pub(crate) fn create(
        source: &str,
        options: &WorkerOptions,
        customize: impl FnOnce(&mut sys::ZJSWorkerOptions),
    ) -> Result<Worker> {
        let mut opts = options.to_c()?;
        customize(&mut opts.raw);
        let src = JSString::new(source);
        let mut why: sys::JSStringRef = ptr::null_mut();
        let w = unsafe { sys::ZJSWorkerCreateWithOptions(src.0, &opts.raw, &mut why) };
        if w.is_null() {
            let message = JSString::adopt(why).map(|s| s.to_string_lossy()).unwrap_or_default();
            return Err(Error { kind: ErrorKind::Exception, name: "SyntaxError".into(), message, stack: None });
        }
        Ok(Worker { w, _loader: None, host: None, _owner: PhantomData })
    }

    /// The raw handle, for calls into `jsworker_sys`; it stays owned by this Worker.
    pub fn raw(&self) -> sys::JSWorkerRef {
        self.w
    }

    /// Posts a copy of value (structured clone). Err: `DataCloneError` (a function, a symbol, ...), `RangeError`
    /// (a limit), `InvalidStateError` (closing or ended); nothing is queued then. Never blocks.
    pub fn post(&self, value: &Value<'_>) -> Result<()> {
        self.post_transfer(value, &[])
    }

    /// Posts value with a transfer list (`postMessage(value, transfer)`): each ArrayBuffer listed moves to the
    /// worker without a copy and is detached here (a NoCopy one, e.g. from `Context::array_buffer(vec)`, takes its
    /// memory along: the Vec is dropped when the worker's last reference goes). Err as for `post`.
    pub fn post_transfer(&self, value: &Value<'_>, transfer: &[&Value<'_>]) -> Result<()> {
        let ctx = value.context();
        ctx.may_run_js()?;
        let list: Vec<sys::JSValueRef> = transfer.iter().map(|v| v.raw()).collect();
        let mut exc = ptr::null();
        let ok = unsafe {
            sys::ZJSWorkerPostMessageWithTransfer(self.w, ctx.raw(), value.raw(), list.len(), list.as_ptr(), &mut exc)
        };
        if ok {
            return Ok(());
        }
        if exc.is_null() {
            return Err(Error::library("ZJSWorkerPostMessageWithTransfer failed"));
        }
        Err(ctx.exception(exc))
    }

    /// Receives the oldest message the worker posted, as a value of ctx, waiting up to timeout (`FOREVER`: until
    /// one comes or the worker has ended). Ok(None): nothing came in time, or the worker has ended and every
    /// message was received (`is_closed()` tells which). Err: the message could not be read.
    pub fn receive<'c>(&self, ctx: &'c Context, timeout: Duration) -> Result<Option<Value<'c>>> {
        let mut exc = ptr::null();
        let v = unsafe { sys::JSWorkerReceive(self.w, ctx.raw(), millis(timeout), &mut exc) };
        if !exc.is_null() {
            return Err(ctx.exception(exc));
        }
        Ok(if v.is_null() { None } else { Some(Value::new(ctx, v)) })
    }

    /// Posts JSON text as a message (`ZJSWorkerPostJSON`): the worker receives the value `JSON.parse` gives for
    /// it, with no value made in ctx (which only carries the exception). Err: `SyntaxError` for invalid JSON
    /// (nothing is queued), and the errors of `post`.
    pub fn post_json(&self, ctx: &Context, json: &str) -> Result<()> {
        ctx.may_run_js()?;
        let mut exc = ptr::null();
        if unsafe { sys::ZJSWorkerPostJSON(self.w, ctx.raw(), json.as_ptr().cast(), json.len(), &mut exc) } {
            return Ok(());
        }
        if exc.is_null() {
            return Err(Error::library("ZJSWorkerPostJSON failed"));
        }
        Err(ctx.exception(exc))
    }

    /// Receives the oldest message as the text `JSON.stringify` gives for it (`ZJSWorkerReceiveJSON`), waiting as
    /// `receive` does. Ok(None) as for `receive`; Err: the message could not be read or has no JSON text
    /// (undefined, a BigInt), and is consumed.
    pub fn receive_json(&self, ctx: &Context, timeout: Duration) -> Result<Option<String>> {
        let mut exc = ptr::null();
        let mut n = 0usize;
        let p = unsafe { sys::ZJSWorkerReceiveJSON(self.w, ctx.raw(), millis(timeout), &mut n, &mut exc) };
        if !exc.is_null() {
            return Err(ctx.exception(exc));
        }
        if p.is_null() {
            return Ok(None);
        }
        let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
        let text = String::from_utf8_lossy(bytes).into_owned(); // always UTF-8: lone surrogates are escaped
        unsafe { sys::free(p.cast()) };
        Ok(Some(text))
    }

    /// Stops the worker at once: running JavaScript is interrupted, queued messages are dropped. What it already
    /// posted can still be received.
    pub fn terminate(&self) {
        unsafe { sys::JSWorkerTerminate(self.w) }
    }

    /// Asks the worker to end gracefully: it handles the messages already queued, then ends.
    pub fn close(&self) {
        unsafe { sys::ZJSWorkerClose(self.w) }
    }

    /// The worker as a debugging target.
    pub fn info(&self) -> Result<TargetInfo> {
        let mut i = sys::ZJSInspectorTargetInfo::default();
        if !unsafe { sys::ZJSWorkerGetInspectorTargetInfo(self.w, &mut i) } {
            return Err(Error::library("ZJSWorkerGetInspectorTargetInfo failed"));
        }
        Ok(TargetInfo {
            id: i.id,
            kind: if i.kind == sys::kZJSInspectorTargetKindModule { TargetKind::Module } else { TargetKind::Script },
            state: match i.state {
                sys::kZJSInspectorTargetStateStarting => TargetState::Starting,
                sys::kZJSInspectorTargetStateRunning => TargetState::Running,
                sys::kZJSInspectorTargetStateClosing => TargetState::Closing,
                _ => TargetState::Closed,
            },
        })
    }

    /// Whether the worker has ended (its outbox is closed; messages may still wait to be received).
    pub fn is_closed(&self) -> bool {
        self.info().map_or(true, |i| i.state == TargetState::Closed)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        unsafe { sys::JSWorkerRelease(self.w) }
        // _loader drops after this: the worker's thread, which calls it, has ended.
    }
}

/// Why a module loader could not load a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// No such module.
    NotFound,
    /// The module exists but could not be loaded; the message fails the import.
    Failed(String),
}

/// The loader's result: `(resolved_path, source)`.
pub type LoadResult = std::result::Result<(String, String), LoadError>;

#[cfg(jsworker_modules)]
mod modules {
    use super::*;
    use std::ffi::{c_char, c_void, CStr};
    use std::panic::{catch_unwind, AssertUnwindSafe};

    type Loader = Box<dyn FnMut(&str, Option<&str>) -> LoadResult + Send>;

    unsafe extern "C" fn trampoline(
        request: sys::ZJSModuleRequestRef,
        specifier: *const c_char,
        referrer: *const c_char,
        user_data: *mut c_void,
    ) {
        let loader = &mut *(user_data as *mut Loader);
        let spec = if specifier.is_null() { String::new() } else { CStr::from_ptr(specifier).to_string_lossy().into() };
        let from = (!referrer.is_null()).then(|| CStr::from_ptr(referrer).to_string_lossy().into_owned());
        let got = catch_unwind(AssertUnwindSafe(|| loader(&spec, from.as_deref())))
            .unwrap_or_else(|_| Err(LoadError::Failed(format!("the module loader panicked loading {}", spec))));
        match got {
            Ok((path, source)) => {
                let path = CString::new(path).unwrap_or_default();
                sys::ZJSModuleRequestResolve(request, path.as_ptr(), source.as_ptr().cast(), source.len());
            }
            Err(LoadError::NotFound) => {
                sys::ZJSModuleRequestFail(request, ptr::null());
            }
            Err(LoadError::Failed(m)) => {
                let m = CString::new(m.replace('\0', " ")).unwrap_or_default();
                sys::ZJSModuleRequestFail(request, m.as_ptr());
            }
        }
    }

    impl Worker {
        /// Starts a module worker: `source` is the ES module at `entry_path`, and every `import` is resolved by
        /// `loader(specifier, referrer_path)` returning `(resolved_path, source)`. The loader runs **on the
        /// worker's thread** (hence `Send`), and lives as long as the Worker. A panic in it fails that import.
        pub fn module<F>(entry_path: &str, source: &str, loader: F, options: &WorkerOptions) -> Result<Worker>
        where
            F: FnMut(&str, Option<&str>) -> LoadResult + Send + 'static,
        {
            Worker::create_module(entry_path, source, Box::new(loader), options, |_| {})
        }

        /// `Worker::module` whose realm first gets `natives` (see `Worker::with_natives`).
        pub fn module_with_natives<F>(
            entry_path: &str,
            source: &str,
            loader: F,
            options: &WorkerOptions,
            natives: crate::Natives,
        ) -> Result<Worker>
        where
            F: FnMut(&str, Option<&str>) -> LoadResult + Send + 'static,
        {
            let mut prepared = natives.prepare();
            let created =
                Worker::create_module(entry_path, source, Box::new(loader), options, |raw| prepared.apply(raw));
            prepared.finish(created)
        }

        fn create_module(
            entry_path: &str,
            source: &str,
            loader: Loader,
            options: &WorkerOptions,
            customize: impl FnOnce(&mut sys::ZJSWorkerOptions),
        ) -> Result<Worker> {
            let mut opts = options.to_c()?;
            customize(&mut opts.raw);
            let path = CString::new(entry_path).map_err(|_| Error::library("the entry path contains a NUL byte"))?;
            let mut boxed: Box<Loader> = Box::new(loader);
            let user_data = (&mut *boxed) as *mut Loader as *mut c_void;
            let mut why: sys::JSStringRef = ptr::null_mut();
            let w = unsafe {
                sys::ZJSWorkerCreateModule(
                    path.as_ptr(),
                    source.as_ptr().cast(),
                    source.len(),
                    Some(trampoline),
                    user_data,
                    &opts.raw,
                    &mut why,
                )
            };
            if w.is_null() {
                let reason = JSString::adopt(why).map(|s| s.to_string_lossy()).unwrap_or_default();
                return Err(Error::library(format!(
                    "the module worker {} could not be created: {}",
                    entry_path, reason
                )));
            }
            Ok(Worker { w, _loader: Some(Box::new(boxed)), host: None, _owner: PhantomData })
        }
    }
}
