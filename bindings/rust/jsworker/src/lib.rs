//! JavaScript workers for Rust: a safe API over libjsworker.so.
//!
//! ```no_run
//! use std::time::Duration;
//! use jsworker::{Context, Worker};
//!
//! let ctx = Context::new()?;
//! let worker = Worker::new("onmessage = (e) => postMessage(e.data * 2);")?;
//! worker.post(&ctx.number(21.0))?;
//! let reply = worker.receive(&ctx, Duration::from_secs(5))?.expect("a reply");
//! assert_eq!(reply.to_number()?, 42.0);
//! # Ok::<(), jsworker::Error>(())
//! ```
//!
//! # Threads
//!
//! Every object of the library belongs to the OS thread that created it, and the library refuses calls from any
//! other. Here that rule is the type system's: `Context`, `Value`, `Worker` and the inspector sessions are neither
//! `Send` nor `Sync`, so they cannot reach another thread. Each thread may create its own. The code that runs
//! elsewhere — native closures and setups of a worker (`Natives`), a module worker's loader — runs on the worker's
//! thread and so must be `Send`. Shared memory (`SharedMemory`, `SharedSlice`) is atomics only: `Send + Sync`.
//!
//! # The host API
//!
//! Rust closures as JavaScript functions (`Context::function`, `Natives`, `Worker::with_natives`,
//! `set_default_setup`), console output to Rust (`Natives::console`, `Context::set_console`), `Vec`s moved into
//! ArrayBuffers and typed arrays without a copy (`Context::array_buffer`, `Context::typed_array`,
//! `Worker::post_transfer`), buffers read in place (`Value::with_bytes`, `Value::with_typed_array`),
//! SharedArrayBuffers as atomics (`SharedMemory`, `Value::shared_memory`, `notify_i32`), promises
//! (`Context::deferred_promise`, `Value::promise_state`). See docs/bindings.md.
//!
//! # Errors
//!
//! Fallible calls return `Result<T, Error>`; a JavaScript exception keeps its `name`, `message` and `stack`.
//!
//! # Finding the library
//!
//! `jsworker-sys` links `libjsworker.so` from `JSWORKER_LIB_DIR`, else `pkg-config`'s `jsworker` package, else the
//! repository's `build/` directory, and this crate's tests and examples get that directory as their rpath.

mod bytes;
mod context;
mod error;
mod inspector;
mod native;
mod shared;
mod string;
mod values;
mod worker;

pub use bytes::{live_buffers, Element, TypedArrayType};
pub use context::{Context, Type, Value};
pub use error::{Error, ErrorKind, Result};
pub use inspector::{ContextInspectorSession, Dispatcher, PumpResult, WorkerInspectorSession};
pub use native::{set_default_setup, ConsoleLevel, NativeFn, Natives};
pub use shared::{notify_i32, notify_i64, SharedMemory, SharedSlice};
pub use values::{Deferred, PromiseState};
pub use worker::{Limits, LoadError, LoadResult, TargetInfo, TargetKind, TargetState, Worker, WorkerOptions, FOREVER};

/// The raw declarations, for what the safe API does not cover.
pub use jsworker_sys as sys;

/// Whether this build has module workers (`Worker::module`): the library it linked exports them.
pub const HAS_MODULE_WORKERS: bool = cfg!(jsworker_modules);

/// The loaded library's version, e.g. "0.2.0".
pub fn library_version() -> &'static str {
    unsafe { std::ffi::CStr::from_ptr(sys::ZJSGetVersionString()) }.to_str().unwrap_or("")
}

#[cfg(test)]
mod tests {
    // Compile-time checks that the owner-thread types are neither Send nor Sync: if one were, the trait
    // selection below would be ambiguous and this would not compile.
    trait AmbiguousIfSend<A> {
        fn check() {}
    }
    impl<T: ?Sized> AmbiguousIfSend<()> for T {}
    impl<T: ?Sized + Send> AmbiguousIfSend<u8> for T {}
    trait AmbiguousIfSync<A> {
        fn check() {}
    }
    impl<T: ?Sized> AmbiguousIfSync<()> for T {}
    impl<T: ?Sized + Sync> AmbiguousIfSync<u8> for T {}

    #[test]
    fn owner_thread_types_are_not_send_or_sync() {
        <crate::Context as AmbiguousIfSend<_>>::check();
        <crate::Context as AmbiguousIfSync<_>>::check();
        <crate::Value<'static> as AmbiguousIfSend<_>>::check();
        <crate::Value<'static> as AmbiguousIfSync<_>>::check();
        <crate::Worker as AmbiguousIfSend<_>>::check();
        <crate::Worker as AmbiguousIfSync<_>>::check();
        <crate::WorkerInspectorSession as AmbiguousIfSend<_>>::check();
        <crate::WorkerInspectorSession as AmbiguousIfSync<_>>::check();
        <crate::ContextInspectorSession as AmbiguousIfSend<_>>::check();
        <crate::ContextInspectorSession as AmbiguousIfSync<_>>::check();
        // Errors and options are plain data and do cross threads.
        fn send_sync<T: Send + Sync>() {}
        send_sync::<crate::Error>();
        send_sync::<crate::WorkerOptions>();
        send_sync::<crate::SharedMemory>();
        send_sync::<crate::SharedSlice<'static>>();
        <crate::Natives as AmbiguousIfSync<_>>::check();
        fn send<T: Send>() {}
        send::<crate::Natives>();
    }
}
