//! Bytes between Rust and JavaScript: a `Vec` moved into an ArrayBuffer or typed array without a copy, and an
//! ArrayBuffer's or typed array's bytes read (or written) in place as a slice borrowed for one closure call.
//!
//! Unsafe boundary: a slice borrowed from a buffer is the buffer's own memory. It stays valid and unaliased only
//! while no JavaScript runs in the buffer's context (JavaScript could write it, or detach it by a transfer). So
//! `with_bytes` and its relatives mark the context borrowed, like a `RefCell`: while the closure runs, every call
//! that may run JavaScript in that context (eval, call, property access, conversions, post) returns an Err
//! instead. A SharedArrayBuffer's bytes change under other threads at any time; they are never lent as a plain
//! slice (see `shared.rs`).
use std::ffi::c_void;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use jsworker_sys as sys;

use crate::context::{Context, Value};
use crate::error::{Error, ErrorKind, Result};

/// The kind of a typed array (`JSTypedArrayType`), or an ArrayBuffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypedArrayType {
    Int8,
    Int16,
    Int32,
    Uint8,
    Uint8Clamped,
    Uint16,
    Uint32,
    Float32,
    Float64,
    BigInt64,
    BigUint64,
    /// An ArrayBuffer or a SharedArrayBuffer.
    ArrayBuffer,
}

impl TypedArrayType {
    fn from_raw(t: sys::JSTypedArrayType) -> Option<TypedArrayType> {
        use TypedArrayType::*;
        Some(match t {
            sys::kJSTypedArrayTypeInt8Array => Int8,
            sys::kJSTypedArrayTypeInt16Array => Int16,
            sys::kJSTypedArrayTypeInt32Array => Int32,
            sys::kJSTypedArrayTypeUint8Array => Uint8,
            sys::kJSTypedArrayTypeUint8ClampedArray => Uint8Clamped,
            sys::kJSTypedArrayTypeUint16Array => Uint16,
            sys::kJSTypedArrayTypeUint32Array => Uint32,
            sys::kJSTypedArrayTypeFloat32Array => Float32,
            sys::kJSTypedArrayTypeFloat64Array => Float64,
            sys::kJSTypedArrayTypeBigInt64Array => BigInt64,
            sys::kJSTypedArrayTypeBigUint64Array => BigUint64,
            sys::kJSTypedArrayTypeArrayBuffer => ArrayBuffer,
            _ => return None,
        })
    }
}

mod sealed {
    pub trait Sealed {}
}

/// An element type of a typed array: `i8 u8 i16 u16 i32 u32 f32 f64 i64 u64` (`Int8Array` ... `BigUint64Array`;
/// a `Uint8ClampedArray` reads as `u8`). Sealed: every bit pattern of these is a valid value, which is what makes
/// lending JavaScript's memory as `&[T]` sound.
pub trait Element: sealed::Sealed + Copy + Send + 'static {
    /// The typed array this element makes.
    const TYPE: TypedArrayType;
    #[doc(hidden)]
    const RAW: sys::JSTypedArrayType;
}

macro_rules! element {
    ($($t:ty => $k:ident, $raw:ident;)*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const TYPE: TypedArrayType = TypedArrayType::$k;
            const RAW: sys::JSTypedArrayType = sys::$raw;
        }
    )*};
}

element! {
    i8 => Int8, kJSTypedArrayTypeInt8Array;
    u8 => Uint8, kJSTypedArrayTypeUint8Array;
    i16 => Int16, kJSTypedArrayTypeInt16Array;
    u16 => Uint16, kJSTypedArrayTypeUint16Array;
    i32 => Int32, kJSTypedArrayTypeInt32Array;
    u32 => Uint32, kJSTypedArrayTypeUint32Array;
    f32 => Float32, kJSTypedArrayTypeFloat32Array;
    f64 => Float64, kJSTypedArrayTypeFloat64Array;
    i64 => BigInt64, kJSTypedArrayTypeBigInt64Array;
    u64 => BigUint64, kJSTypedArrayTypeBigUint64Array;
}

static LIVE: AtomicUsize = AtomicUsize::new(0);

/// How many buffers made by this crate over Rust memory (`Context::array_buffer`, `typed_array`,
/// `shared_array_buffer`) the library still holds: their deallocator has not run yet. A leak check: it returns to
/// its old value once the realms holding them are released and the collector has run.
pub fn live_buffers() -> usize {
    LIVE.load(Ordering::SeqCst)
}

pub(crate) fn buffer_made() {
    LIVE.fetch_add(1, Ordering::SeqCst);
}

pub(crate) fn buffer_freed() {
    LIVE.fetch_sub(1, Ordering::SeqCst);
}

/// The NoCopy deallocator: drops the Vec whose memory the buffer was. It may run on any thread (the Vec is Send).
unsafe extern "C" fn drop_vec<T: Element>(_bytes: *mut c_void, vec: *mut c_void) {
    drop(Box::from_raw(vec as *mut Vec<T>));
    buffer_freed();
}

fn type_error(message: &str) -> Error {
    Error { kind: ErrorKind::Exception, name: "TypeError".into(), message: message.into(), stack: None }
}

impl Context {
    /// An ArrayBuffer whose bytes are `bytes`' own memory: the Vec moves in without a copy
    /// (`JSObjectMakeArrayBufferWithBytesNoCopy`) and is dropped exactly once, when no realm references the buffer
    /// any more — also after a transfer to a worker (`Worker::post_transfer`), on whichever thread lets it go.
    pub fn array_buffer(&self, bytes: Vec<u8>) -> Result<Value<'_>> {
        let (ptr, len, data) = into_parts(bytes);
        let mut exc = ptr::null();
        let v = unsafe {
            sys::JSObjectMakeArrayBufferWithBytesNoCopy(self.raw(), ptr, len, Some(drop_vec::<u8>), data, &mut exc)
        };
        // On failure the library has run the deallocator already.
        self.wrap(v, exc)
    }

    /// A typed array of `T` (`Uint8Array` for u8, `Float64Array` for f64, `BigInt64Array` for i64, ...) over
    /// `elements`' own memory, moved in without a copy as for `array_buffer`.
    pub fn typed_array<T: Element>(&self, elements: Vec<T>) -> Result<Value<'_>> {
        let (ptr, len, data) = into_parts(elements);
        let mut exc = ptr::null();
        let v = unsafe {
            sys::JSObjectMakeTypedArrayWithBytesNoCopy(
                self.raw(),
                T::RAW,
                ptr,
                len * std::mem::size_of::<T>(),
                Some(drop_vec::<T>),
                data,
                &mut exc,
            )
        };
        self.wrap(v, exc)
    }

    /// A new typed array of `T` holding a copy of `elements`, in memory the library allocates.
    pub fn typed_array_from<T: Element>(&self, elements: &[T]) -> Result<Value<'_>> {
        let mut exc = ptr::null();
        let v = unsafe { sys::JSObjectMakeTypedArray(self.raw(), T::RAW, elements.len(), &mut exc) };
        let v = self.wrap(v, exc)?;
        v.with_typed_array_mut(|dst: &mut [T]| dst.copy_from_slice(elements))?;
        Ok(v)
    }
}

/// The memory of a Vec and the box that owns it (its deallocator context). The heap block does not move when the
/// Vec moves into the box; a zero-length Vec gives a null address, as the library expects for no bytes.
fn into_parts<T>(mut v: Vec<T>) -> (*mut c_void, usize, *mut c_void) {
    let len = v.len();
    let ptr = if len == 0 { ptr::null_mut() } else { v.as_mut_ptr().cast() };
    buffer_made(); // the deallocator runs exactly once from here on, also when the creation fails
    (ptr, len, Box::into_raw(Box::new(v)).cast())
}

/// Marks the context's bytes borrowed for the guard's life (shared or exclusive), as a RefCell does.
struct BorrowGuard<'a>(&'a Context, bool);

impl<'a> BorrowGuard<'a> {
    fn new(ctx: &'a Context, exclusive: bool) -> Result<BorrowGuard<'a>> {
        let n = ctx.byte_borrows.get();
        if (exclusive && n != 0) || n < 0 {
            return Err(Error::library("buffer bytes of this context are already borrowed"));
        }
        ctx.byte_borrows.set(if exclusive { -1 } else { n + 1 });
        Ok(BorrowGuard(ctx, exclusive))
    }
}

impl Drop for BorrowGuard<'_> {
    fn drop(&mut self) {
        let n = self.0.byte_borrows.get();
        self.0.byte_borrows.set(if self.1 { 0 } else { n - 1 });
    }
}

impl<'c> Value<'c> {
    /// The value's typed-array kind: `Some(ArrayBuffer)` for an ArrayBuffer or SharedArrayBuffer, None for
    /// anything that is neither (a DataView included).
    pub fn typed_array_type(&self) -> Option<TypedArrayType> {
        TypedArrayType::from_raw(unsafe { sys::JSValueGetTypedArrayType(self.c(), self.raw(), ptr::null_mut()) })
    }

    /// The address and length of the bytes this ArrayBuffer or typed array views (an empty or detached buffer:
    /// null, 0). Err for a SharedArrayBuffer or a view of one, and for anything else.
    fn byte_region(&self) -> Result<(*mut u8, usize)> {
        let (c, o) = (self.c(), self.raw() as sys::JSObjectRef);
        let shared = |buffer: sys::JSObjectRef| unsafe {
            !sys::ZJSSharedArrayBufferGetBytesPtr(c, buffer, ptr::null_mut(), ptr::null_mut()).is_null()
        };
        match self.typed_array_type() {
            None => Err(type_error("the value is not an ArrayBuffer or a typed array")),
            Some(TypedArrayType::ArrayBuffer) => {
                if shared(o) {
                    return Err(type_error("a SharedArrayBuffer's bytes are shared: use shared_memory()"));
                }
                let p = unsafe { sys::JSObjectGetArrayBufferBytesPtr(c, o, ptr::null_mut()) };
                let n = unsafe { sys::JSObjectGetArrayBufferByteLength(c, o, ptr::null_mut()) };
                Ok((p.cast(), if p.is_null() { 0 } else { n }))
            }
            Some(_) => {
                let buffer =
                    Value::new(self.context(), unsafe { sys::JSObjectGetTypedArrayBuffer(c, o, ptr::null_mut()) });
                if shared(buffer.raw() as sys::JSObjectRef) {
                    return Err(type_error("the typed array views a SharedArrayBuffer: use shared_memory()"));
                }
                let p = unsafe { sys::JSObjectGetTypedArrayBytesPtr(c, o, ptr::null_mut()) } as *mut u8;
                let off = unsafe { sys::JSObjectGetTypedArrayByteOffset(c, o, ptr::null_mut()) };
                let n = unsafe { sys::JSObjectGetTypedArrayByteLength(c, o, ptr::null_mut()) };
                Ok(if p.is_null() { (ptr::null_mut(), 0) } else { (unsafe { p.add(off) }, n) })
            }
        }
    }

    /// Calls `f` with the bytes this ArrayBuffer or typed array views, in place (no copy). While `f` runs, no
    /// JavaScript may run in this value's context (such calls return Err). Err: a SharedArrayBuffer (use
    /// `shared_memory`), or a value that is neither.
    pub fn with_bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let _borrow = BorrowGuard::new(self.context(), false)?;
        let (p, n) = self.byte_region()?;
        // SAFETY: the region is the live buffer's memory (this Value keeps it reachable) and no JavaScript can
        // write or detach it while the borrow guard stands; u8 has no invalid bit patterns.
        let bytes = if n == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(p, n) } };
        Ok(f(bytes))
    }

    /// As `with_bytes`, writable: what `f` writes, JavaScript reads afterwards.
    pub fn with_bytes_mut<R>(&self, f: impl FnOnce(&mut [u8]) -> R) -> Result<R> {
        let _borrow = BorrowGuard::new(self.context(), true)?;
        let (p, n) = self.byte_region()?;
        // SAFETY: as in with_bytes; the exclusive borrow rules out every other slice of this context's buffers.
        let bytes = if n == 0 { &mut [][..] } else { unsafe { std::slice::from_raw_parts_mut(p, n) } };
        Ok(f(bytes))
    }

    /// A copy of the bytes this ArrayBuffer or typed array views.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.with_bytes(|b| b.to_vec())
    }

    fn elements<T: Element>(&self) -> Result<(*mut T, usize)> {
        let t = self.typed_array_type();
        let fits = t == Some(T::TYPE) || (T::TYPE == TypedArrayType::Uint8 && t == Some(TypedArrayType::Uint8Clamped));
        if !fits {
            return Err(type_error(&format!("the value is not a {:?} typed array (it is {:?})", T::TYPE, t)));
        }
        let (p, n) = self.byte_region()?;
        if (p as usize) % std::mem::align_of::<T>() != 0 {
            return Err(Error::library("the typed array's memory is not aligned for its element type"));
        }
        Ok((p.cast(), n / std::mem::size_of::<T>()))
    }

    /// Calls `f` with this typed array's elements in place, e.g. `&[f64]` for a Float64Array (no copy). Err for
    /// another kind. While `f` runs no JavaScript may run in this context, as for `with_bytes`.
    pub fn with_typed_array<T: Element, R>(&self, f: impl FnOnce(&[T]) -> R) -> Result<R> {
        let _borrow = BorrowGuard::new(self.context(), false)?;
        let (p, n) = self.elements::<T>()?;
        // SAFETY: as in with_bytes; p is aligned for T and every bit pattern is a valid T (Element is sealed).
        Ok(f(if n == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(p, n) } }))
    }

    /// As `with_typed_array`, writable.
    pub fn with_typed_array_mut<T: Element, R>(&self, f: impl FnOnce(&mut [T]) -> R) -> Result<R> {
        let _borrow = BorrowGuard::new(self.context(), true)?;
        let (p, n) = self.elements::<T>()?;
        // SAFETY: as in with_typed_array, exclusive.
        Ok(f(if n == 0 { &mut [][..] } else { unsafe { std::slice::from_raw_parts_mut(p, n) } }))
    }
}
