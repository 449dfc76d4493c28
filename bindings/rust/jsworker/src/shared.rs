//! Memory shared between Rust threads and workers: SharedArrayBuffers seen from Rust as slices of atomics, and
//! `Atomics.notify` from any thread (`ZJSAtomicsNotify`).
//!
//! Unsafe boundary: JavaScript reads and writes a SharedArrayBuffer's bytes from worker threads at any time, so
//! Rust never gets them as `&[u8]`; it gets `&[AtomicU8]`, `&[AtomicI32]` or `&[AtomicI64]` over the same memory,
//! which is sound under concurrent access (the library keeps the memory 8-byte aligned and in place while any
//! realm, message or `SharedMemory` holds it). JavaScript's `Atomics` operations and Rust's `SeqCst` atomics are
//! the same hardware operations on the same addresses.
use std::ffi::c_void;
use std::ptr;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU64, AtomicU8};
use std::sync::Arc;

use jsworker_sys as sys;

use crate::context::{Context, Value};
use crate::error::{Error, ErrorKind, Result};

/// A view of shared bytes as atomics, borrowed from a `SharedMemory` or a SharedArrayBuffer `Value`. It is `Send`
/// and `Sync` (it is only atomics), so scoped threads may use it: `std::thread::scope(|s| { s.spawn(|| ...) })`.
#[derive(Clone, Copy)]
pub struct SharedSlice<'a> {
    bytes: &'a [AtomicU8],
}

impl<'a> SharedSlice<'a> {
    /// # Safety
    /// `p` is 8-byte aligned and valid for `len` bytes, used only atomically, for 'a.
    unsafe fn from_raw(p: *const u8, len: usize) -> SharedSlice<'a> {
        let bytes = if len == 0 || p.is_null() { &[][..] } else { std::slice::from_raw_parts(p.cast(), len) };
        SharedSlice { bytes }
    }

    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes, as JavaScript's `Uint8Array` over the buffer sees them.
    pub fn as_u8(&self) -> &'a [AtomicU8] {
        self.bytes
    }

    /// The whole 32-bit elements, as an `Int32Array` over the buffer sees them (element i at byte 4*i).
    pub fn as_i32(&self) -> &'a [AtomicI32] {
        // SAFETY: the memory is 8-byte aligned (the library's guarantee, and SharedMemory's), AtomicI32 has i32's
        // layout, and every access through either view is atomic.
        unsafe { std::slice::from_raw_parts(self.bytes.as_ptr().cast(), self.bytes.len() / 4) }
    }

    /// The whole 64-bit elements, as a `BigInt64Array` over the buffer sees them (element i at byte 8*i).
    pub fn as_i64(&self) -> &'a [AtomicI64] {
        // SAFETY: as for as_i32.
        unsafe { std::slice::from_raw_parts(self.bytes.as_ptr().cast(), self.bytes.len() / 8) }
    }

    /// The address of the first byte, for C code.
    pub fn as_ptr(&self) -> *mut u8 {
        self.bytes.as_ptr() as *mut u8
    }
}

/// Wakes up to `count` workers (`None`: all) blocked in `Atomics.wait` — or waiting in `Atomics.waitAsync` — on
/// this element of a SharedArrayBuffer's `Int32Array`; returns how many woke (0 when the element is in no
/// SharedArrayBuffer). Callable from any thread, with no context. Store the new value first, as with
/// `Atomics.notify`.
pub fn notify_i32(element: &AtomicI32, count: Option<usize>) -> usize {
    // SAFETY: ZJSAtomicsNotify only compares the address with the shared buffers' ranges; it never dereferences
    // an address that is in none.
    unsafe { sys::ZJSAtomicsNotify(element as *const AtomicI32 as *mut c_void, count.unwrap_or(usize::MAX)) }
}

/// `notify_i32` for an element of a `BigInt64Array`.
pub fn notify_i64(element: &AtomicI64, count: Option<usize>) -> usize {
    // SAFETY: as for notify_i32.
    unsafe { sys::ZJSAtomicsNotify(element as *const AtomicI64 as *mut c_void, count.unwrap_or(usize::MAX)) }
}

/// Zeroed memory that Rust owns and shares with workers: `Context::shared_array_buffer` makes SharedArrayBuffers
/// over it without a copy (post one to a worker and both sides use the same bytes). It is reference counted across
/// both worlds: the memory lives while a `SharedMemory` clone or any realm or message holds it. `Send` and `Sync`:
/// give clones to threads.
#[derive(Clone)]
pub struct SharedMemory {
    words: Arc<Box<[AtomicU64]>>,
    len: usize,
}

impl SharedMemory {
    /// `len` zero bytes, 8-byte aligned.
    pub fn new(len: usize) -> SharedMemory {
        let words: Box<[AtomicU64]> = (0..(len + 7) / 8).map(|_| AtomicU64::new(0)).collect();
        SharedMemory { words: Arc::new(words), len }
    }

    /// The bytes as atomics.
    pub fn slice(&self) -> SharedSlice<'_> {
        // SAFETY: the words are 8-byte aligned, at least len bytes, and only ever used atomically.
        unsafe { SharedSlice::from_raw(self.words.as_ptr().cast(), self.len) }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Debug for SharedMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedMemory({} bytes at {:p})", self.len, self.words.as_ptr())
    }
}

/// The deallocator of a SharedArrayBuffer over a SharedMemory: gives the buffer's reference back. It runs once, on
/// whichever thread drops the last JavaScript reference; an Arc is fine there.
unsafe extern "C" fn release_shared(_bytes: *mut c_void, words: *mut c_void) {
    drop(Arc::from_raw(words as *const Box<[AtomicU64]>));
    crate::bytes::buffer_freed();
}

impl Context {
    /// A new SharedArrayBuffer of `len` zero bytes in the library's memory (`ZJSSharedArrayBufferCreate`); read it
    /// from Rust with `Value::shared_memory`.
    pub fn new_shared_array_buffer(&self, len: usize) -> Result<Value<'_>> {
        let mut exc = ptr::null();
        let v = unsafe { sys::ZJSSharedArrayBufferCreate(self.raw(), len, &mut exc) };
        self.wrap(v, exc)
    }

    /// A SharedArrayBuffer over `memory` (`ZJSSharedArrayBufferCreateWithBytesNoCopy`): JavaScript's Atomics and
    /// Rust's atomics on `memory.slice()` use the same bytes. The buffer holds a reference to the memory until no
    /// realm or message references it.
    pub fn shared_array_buffer(&self, memory: &SharedMemory) -> Result<Value<'_>> {
        let hold = Arc::into_raw(memory.words.clone()) as *mut c_void;
        crate::bytes::buffer_made();
        let base = if memory.len == 0 { ptr::null_mut() } else { memory.words.as_ptr() as *mut c_void };
        let mut exc = ptr::null();
        let v = unsafe {
            sys::ZJSSharedArrayBufferCreateWithBytesNoCopy(
                self.raw(),
                base,
                memory.len,
                Some(release_shared),
                hold,
                &mut exc,
            )
        };
        self.wrap(v, exc) // on failure the deallocator has already given the reference back
    }
}

impl<'c> Value<'c> {
    /// This SharedArrayBuffer's bytes as atomics, in place, for as long as this Value (which keeps the buffer
    /// alive) is borrowed. Err (a TypeError) for any other value.
    pub fn shared_memory(&self) -> Result<SharedSlice<'_>> {
        let mut len = 0usize;
        let mut exc = ptr::null();
        let o = self.object()?;
        let p = unsafe { sys::ZJSSharedArrayBufferGetBytesPtr(self.c(), o, &mut len, &mut exc) };
        if !exc.is_null() {
            return Err(self.context().exception(exc));
        }
        if p.is_null() && len != 0 {
            return Err(Error::library("ZJSSharedArrayBufferGetBytesPtr failed"));
        }
        if (p as usize) % 8 != 0 {
            return Err(Error {
                kind: ErrorKind::Library,
                name: "Error".into(),
                message: "unaligned shared memory".into(),
                stack: None,
            });
        }
        // SAFETY: the library keeps the bytes valid, in place and 8-byte aligned while the buffer is held; this
        // Value holds it for the returned lifetime; every access through SharedSlice is atomic.
        Ok(unsafe { SharedSlice::from_raw(p.cast(), len) })
    }
}
