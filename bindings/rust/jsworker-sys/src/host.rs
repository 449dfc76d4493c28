//! The host API of issue 15, as declared in `include/jsworker.h`: classes with private data (JSObjectRef.h), typed
//! arrays and ArrayBuffers (JSTypedArray.h), memory shared with C, promises, symbols, property keys, BigInts, and the
//! worker setup and console callbacks. Read the header for each function's thread, ownership and failure value.
use core::ffi::{c_char, c_double, c_int, c_uint, c_void};

use crate::{
    JSClassRef, JSContextRef, JSGlobalContextRef, JSObjectCallAsFunctionCallback, JSPropertyAttributes, JSStringRef,
    JSType, JSValueRef, OpaqueJSValue,
};

macro_rules! opaque_ref {
    ($name:ident, $ref:ident) => {
        #[repr(C)]
        pub struct $name {
            _data: [u8; 0],
            _marker: core::marker::PhantomData<(*mut u8, core::marker::PhantomPinned)>,
        }
        pub type $ref = *mut $name;
    };
}
opaque_ref!(OpaqueJSPropertyNameAccumulator, JSPropertyNameAccumulatorRef);

type JSObjectRef = *mut OpaqueJSValue;

// --- classes ---------------------------------------------------------------------------------------------------

pub type JSClassAttributes = c_uint;
pub const kJSClassAttributeNone: JSClassAttributes = 0;
pub const kJSClassAttributeNoAutomaticPrototype: JSClassAttributes = 1 << 1;

pub type JSObjectInitializeCallback = Option<unsafe extern "C" fn(ctx: JSContextRef, object: JSObjectRef)>;
pub type JSObjectFinalizeCallback = Option<unsafe extern "C" fn(object: JSObjectRef)>;
pub type JSObjectHasPropertyCallback =
    Option<unsafe extern "C" fn(ctx: JSContextRef, object: JSObjectRef, propertyName: JSStringRef) -> bool>;
pub type JSObjectGetPropertyCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyName: JSStringRef,
        exception: *mut JSValueRef,
    ) -> JSValueRef,
>;
pub type JSObjectSetPropertyCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyName: JSStringRef,
        value: JSValueRef,
        exception: *mut JSValueRef,
    ) -> bool,
>;
pub type JSObjectDeletePropertyCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyName: JSStringRef,
        exception: *mut JSValueRef,
    ) -> bool,
>;
pub type JSObjectGetPropertyNamesCallback =
    Option<unsafe extern "C" fn(ctx: JSContextRef, object: JSObjectRef, propertyNames: JSPropertyNameAccumulatorRef)>;
pub type JSObjectCallAsConstructorCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        constructor: JSObjectRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef,
>;
pub type JSObjectHasInstanceCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        constructor: JSObjectRef,
        possibleInstance: JSValueRef,
        exception: *mut JSValueRef,
    ) -> bool,
>;
pub type JSObjectConvertToTypeCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        object: JSObjectRef,
        type_: JSType,
        exception: *mut JSValueRef,
    ) -> JSValueRef,
>;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JSStaticValue {
    pub name: *const c_char,
    pub getProperty: JSObjectGetPropertyCallback,
    pub setProperty: JSObjectSetPropertyCallback,
    pub attributes: JSPropertyAttributes,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JSStaticFunction {
    pub name: *const c_char,
    pub callAsFunction: JSObjectCallAsFunctionCallback,
    pub attributes: JSPropertyAttributes,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JSClassDefinition {
    pub version: c_int,
    pub attributes: JSClassAttributes,
    pub className: *const c_char,
    pub parentClass: JSClassRef,
    pub staticValues: *const JSStaticValue,
    pub staticFunctions: *const JSStaticFunction,
    pub initialize: JSObjectInitializeCallback,
    pub finalize: JSObjectFinalizeCallback,
    pub hasProperty: JSObjectHasPropertyCallback,
    pub getProperty: JSObjectGetPropertyCallback,
    pub setProperty: JSObjectSetPropertyCallback,
    pub deleteProperty: JSObjectDeletePropertyCallback,
    pub getPropertyNames: JSObjectGetPropertyNamesCallback,
    pub callAsFunction: JSObjectCallAsFunctionCallback,
    pub callAsConstructor: JSObjectCallAsConstructorCallback,
    pub hasInstance: JSObjectHasInstanceCallback,
    pub convertToType: JSObjectConvertToTypeCallback,
}

impl Default for JSClassDefinition {
    /// `kJSClassDefinitionEmpty`: every field zero.
    fn default() -> Self {
        JSClassDefinition {
            version: 0,
            attributes: kJSClassAttributeNone,
            className: core::ptr::null(),
            parentClass: core::ptr::null_mut(),
            staticValues: core::ptr::null(),
            staticFunctions: core::ptr::null(),
            initialize: None,
            finalize: None,
            hasProperty: None,
            getProperty: None,
            setProperty: None,
            deleteProperty: None,
            getPropertyNames: None,
            callAsFunction: None,
            callAsConstructor: None,
            hasInstance: None,
            convertToType: None,
        }
    }
}

// --- typed arrays ----------------------------------------------------------------------------------------------

pub type JSTypedArrayType = c_int;
pub const kJSTypedArrayTypeInt8Array: JSTypedArrayType = 0;
pub const kJSTypedArrayTypeInt16Array: JSTypedArrayType = 1;
pub const kJSTypedArrayTypeInt32Array: JSTypedArrayType = 2;
pub const kJSTypedArrayTypeUint8Array: JSTypedArrayType = 3;
pub const kJSTypedArrayTypeUint8ClampedArray: JSTypedArrayType = 4;
pub const kJSTypedArrayTypeUint16Array: JSTypedArrayType = 5;
pub const kJSTypedArrayTypeUint32Array: JSTypedArrayType = 6;
pub const kJSTypedArrayTypeFloat32Array: JSTypedArrayType = 7;
pub const kJSTypedArrayTypeFloat64Array: JSTypedArrayType = 8;
pub const kJSTypedArrayTypeArrayBuffer: JSTypedArrayType = 9;
pub const kJSTypedArrayTypeNone: JSTypedArrayType = 10;
pub const kJSTypedArrayTypeBigInt64Array: JSTypedArrayType = 11;
pub const kJSTypedArrayTypeBigUint64Array: JSTypedArrayType = 12;

pub type JSTypedArrayBytesDeallocator =
    Option<unsafe extern "C" fn(bytes: *mut c_void, deallocatorContext: *mut c_void)>;

// --- promises, worker setup, console ---------------------------------------------------------------------------

pub type ZJSPromiseState = c_int;
pub const kZJSPromiseStatePending: ZJSPromiseState = 0;
pub const kZJSPromiseStateFulfilled: ZJSPromiseState = 1;
pub const kZJSPromiseStateRejected: ZJSPromiseState = 2;
pub const kZJSPromiseStateInvalid: ZJSPromiseState = 3;

pub type ZJSWorkerSetupCallback = Option<
    unsafe extern "C" fn(workerContext: JSGlobalContextRef, userData: *mut c_void, exception: *mut JSValueRef) -> bool,
>;

pub type ZJSConsoleLevel = c_int;
pub const kZJSConsoleLevelLog: ZJSConsoleLevel = 0;
pub const kZJSConsoleLevelInfo: ZJSConsoleLevel = 1;
pub const kZJSConsoleLevelWarn: ZJSConsoleLevel = 2;
pub const kZJSConsoleLevelError: ZJSConsoleLevel = 3;
pub const kZJSConsoleLevelDebug: ZJSConsoleLevel = 4;

pub type ZJSConsoleCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        level: ZJSConsoleLevel,
        message: *const c_char,
        length: usize,
        userData: *mut c_void,
    ),
>;

extern "C" {
    pub static kJSClassDefinitionEmpty: JSClassDefinition;
    pub fn JSClassCreate(definition: *const JSClassDefinition) -> JSClassRef;
    pub fn JSClassRetain(jsClass: JSClassRef) -> JSClassRef;
    pub fn JSClassRelease(jsClass: JSClassRef);
    pub fn JSObjectGetPrivate(object: JSObjectRef) -> *mut c_void;
    pub fn JSObjectSetPrivate(object: JSObjectRef, data: *mut c_void) -> bool;
    pub fn JSValueIsObjectOfClass(ctx: JSContextRef, value: JSValueRef, jsClass: JSClassRef) -> bool;
    pub fn JSObjectMakeConstructor(
        ctx: JSContextRef,
        jsClass: JSClassRef,
        callAsConstructor: JSObjectCallAsConstructorCallback,
    ) -> JSObjectRef;
    pub fn JSObjectIsConstructor(ctx: JSContextRef, object: JSObjectRef) -> bool;
    pub fn JSObjectCallAsConstructor(
        ctx: JSContextRef,
        object: JSObjectRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSPropertyNameAccumulatorAddName(accumulator: JSPropertyNameAccumulatorRef, propertyName: JSStringRef);

    pub fn JSValueGetTypedArrayType(
        ctx: JSContextRef,
        value: JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSTypedArrayType;
    pub fn JSObjectMakeTypedArray(
        ctx: JSContextRef,
        arrayType: JSTypedArrayType,
        length: usize,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectMakeTypedArrayWithBytesNoCopy(
        ctx: JSContextRef,
        arrayType: JSTypedArrayType,
        bytes: *mut c_void,
        byteLength: usize,
        bytesDeallocator: JSTypedArrayBytesDeallocator,
        deallocatorContext: *mut c_void,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectMakeTypedArrayWithArrayBuffer(
        ctx: JSContextRef,
        arrayType: JSTypedArrayType,
        buffer: JSObjectRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectMakeTypedArrayWithArrayBufferAndOffset(
        ctx: JSContextRef,
        arrayType: JSTypedArrayType,
        buffer: JSObjectRef,
        byteOffset: usize,
        length: usize,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectGetTypedArrayBytesPtr(
        ctx: JSContextRef,
        object: JSObjectRef,
        exception: *mut JSValueRef,
    ) -> *mut c_void;
    pub fn JSObjectGetTypedArrayLength(ctx: JSContextRef, object: JSObjectRef, exception: *mut JSValueRef) -> usize;
    pub fn JSObjectGetTypedArrayByteLength(ctx: JSContextRef, object: JSObjectRef, exception: *mut JSValueRef)
        -> usize;
    pub fn JSObjectGetTypedArrayByteOffset(ctx: JSContextRef, object: JSObjectRef, exception: *mut JSValueRef)
        -> usize;
    pub fn JSObjectGetTypedArrayBuffer(
        ctx: JSContextRef,
        object: JSObjectRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectMakeArrayBufferWithBytesNoCopy(
        ctx: JSContextRef,
        bytes: *mut c_void,
        byteLength: usize,
        bytesDeallocator: JSTypedArrayBytesDeallocator,
        deallocatorContext: *mut c_void,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectGetArrayBufferBytesPtr(
        ctx: JSContextRef,
        object: JSObjectRef,
        exception: *mut JSValueRef,
    ) -> *mut c_void;
    pub fn JSObjectGetArrayBufferByteLength(
        ctx: JSContextRef,
        object: JSObjectRef,
        exception: *mut JSValueRef,
    ) -> usize;

    pub fn ZJSSharedArrayBufferCreate(ctx: JSContextRef, byteLength: usize, exception: *mut JSValueRef) -> JSObjectRef;
    pub fn ZJSSharedArrayBufferCreateWithBytesNoCopy(
        ctx: JSContextRef,
        bytes: *mut c_void,
        byteLength: usize,
        bytesDeallocator: JSTypedArrayBytesDeallocator,
        deallocatorContext: *mut c_void,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn ZJSSharedArrayBufferGetBytesPtr(
        ctx: JSContextRef,
        buffer: JSObjectRef,
        byteLength: *mut usize,
        exception: *mut JSValueRef,
    ) -> *mut c_void;
    /// Callable from any thread; `address` need not be valid (0 woken for an address in no SharedArrayBuffer).
    pub fn ZJSAtomicsNotify(address: *mut c_void, count: usize) -> usize;

    pub fn JSObjectMakeDeferredPromise(
        ctx: JSContextRef,
        resolve: *mut JSObjectRef,
        reject: *mut JSObjectRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn ZJSPromiseGetState(ctx: JSContextRef, promise: JSObjectRef, result: *mut JSValueRef) -> ZJSPromiseState;
    pub fn JSValueMakeSymbol(ctx: JSContextRef, description: JSStringRef) -> JSValueRef;
    pub fn JSObjectHasPropertyForKey(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyKey: JSValueRef,
        exception: *mut JSValueRef,
    ) -> bool;
    pub fn JSObjectGetPropertyForKey(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyKey: JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSValueRef;
    pub fn JSObjectSetPropertyForKey(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyKey: JSValueRef,
        value: JSValueRef,
        attributes: JSPropertyAttributes,
        exception: *mut JSValueRef,
    );
    pub fn JSObjectDeletePropertyForKey(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyKey: JSValueRef,
        exception: *mut JSValueRef,
    ) -> bool;
    pub fn JSObjectGetPrototype(ctx: JSContextRef, object: JSObjectRef) -> JSValueRef;
    pub fn JSObjectSetPrototype(ctx: JSContextRef, object: JSObjectRef, value: JSValueRef);
    pub fn JSObjectMakeDate(
        ctx: JSContextRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectMakeRegExp(
        ctx: JSContextRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectMakeFunction(
        ctx: JSContextRef,
        name: JSStringRef,
        parameterCount: c_uint,
        parameterNames: *const JSStringRef,
        body: JSStringRef,
        sourceURL: JSStringRef,
        startingLineNumber: c_int,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSValueIsBigInt(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSBigIntCreateWithDouble(ctx: JSContextRef, value: c_double, exception: *mut JSValueRef) -> JSValueRef;
    pub fn JSBigIntCreateWithInt64(ctx: JSContextRef, integer: i64, exception: *mut JSValueRef) -> JSValueRef;
    pub fn JSBigIntCreateWithUInt64(ctx: JSContextRef, integer: u64, exception: *mut JSValueRef) -> JSValueRef;
    pub fn JSBigIntCreateWithString(ctx: JSContextRef, string: JSStringRef, exception: *mut JSValueRef) -> JSValueRef;
    pub fn JSValueToInt64(ctx: JSContextRef, value: JSValueRef, exception: *mut JSValueRef) -> i64;
    pub fn JSValueToUInt64(ctx: JSContextRef, value: JSValueRef, exception: *mut JSValueRef) -> u64;

    pub fn ZJSSetWorkerSetupCallback(callback: ZJSWorkerSetupCallback, userData: *mut c_void);
    pub fn ZJSContextSetConsoleCallback(ctx: JSContextRef, callback: ZJSConsoleCallback, userData: *mut c_void);
}
