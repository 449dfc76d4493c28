//! Raw declarations of libjsworker.so, written to match `include/jsworker.h` (the contract; read it for every
//! function's ownership, failure value and thread). Use the `jsworker` crate for a safe API.
//!
//! Every handle belongs to the OS thread that created it; the library refuses calls from another thread. Handles
//! are integers from the library's table, never addresses: never dereference them.
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
#![cfg_attr(not(test), no_std)]

use core::ffi::{c_char, c_double, c_int, c_uint, c_ushort, c_void};
use core::marker::{PhantomData, PhantomPinned};

macro_rules! opaque {
    ($($name:ident),*) => {$(
        #[repr(C)]
        pub struct $name {
            _data: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}

opaque!(
    OpaqueJSContext,
    OpaqueJSString,
    OpaqueJSClass,
    OpaqueJSPropertyNameArray,
    OpaqueJSValue,
    OpaqueJSWorker,
    OpaqueZJSHandleScope,
    OpaqueZJSWorkerInspectorSession,
    OpaqueZJSInspectorSession,
    OpaqueZJSModuleRequest
);

mod host;
pub use host::*;

pub type JSContextRef = *const OpaqueJSContext;
pub type JSGlobalContextRef = *mut OpaqueJSContext;
pub type JSStringRef = *mut OpaqueJSString;
pub type JSClassRef = *mut OpaqueJSClass;
pub type JSPropertyNameArrayRef = *mut OpaqueJSPropertyNameArray;
pub type JSValueRef = *const OpaqueJSValue;
pub type JSObjectRef = *mut OpaqueJSValue;
pub type JSWorkerRef = *mut OpaqueJSWorker;
pub type ZJSHandleScopeRef = *mut OpaqueZJSHandleScope;
pub type ZJSWorkerInspectorSessionRef = *mut OpaqueZJSWorkerInspectorSession;
pub type ZJSInspectorSessionRef = *mut OpaqueZJSInspectorSession;
pub type ZJSModuleRequestRef = *mut OpaqueZJSModuleRequest;
pub type JSChar = c_ushort;
pub type JSPropertyAttributes = c_uint;

pub const JSWORKER_VERSION_MAJOR: c_int = 0;
pub const JSWORKER_VERSION_MINOR: c_int = 1;
pub const JSWORKER_VERSION_PATCH: c_int = 0;
pub const JSWORKER_VERSION_NUMBER: c_int = 2000;

pub type JSType = c_int;
pub const kJSTypeUndefined: JSType = 0;
pub const kJSTypeNull: JSType = 1;
pub const kJSTypeBoolean: JSType = 2;
pub const kJSTypeNumber: JSType = 3;
pub const kJSTypeString: JSType = 4;
pub const kJSTypeObject: JSType = 5;
pub const kJSTypeSymbol: JSType = 6;
pub const kJSTypeBigInt: JSType = 7;

pub const kJSPropertyAttributeNone: JSPropertyAttributes = 0;
pub const kJSPropertyAttributeReadOnly: JSPropertyAttributes = 1 << 1;
pub const kJSPropertyAttributeDontEnum: JSPropertyAttributes = 1 << 2;
pub const kJSPropertyAttributeDontDelete: JSPropertyAttributes = 1 << 3;

pub const kJSWorkerWaitForever: u64 = u64::MAX;
pub const kJSWorkerDefaultMaxMessageBytes: usize = 64 << 20;
pub const kJSWorkerDefaultMaxQueuedBytes: usize = 256 << 20;
pub const kJSWorkerDefaultMaxQueuedMessages: usize = 1024;

pub type ZJSErrorKind = c_int;
pub const kZJSErrorUncaught: ZJSErrorKind = 1;
pub const kZJSErrorUnhandledRejection: ZJSErrorKind = 2;
pub const kZJSErrorInternal: ZJSErrorKind = 3;
pub const kZJSErrorTimeLimit: ZJSErrorKind = 5;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ZJSErrorInfo {
    pub size: usize,
    pub kind: ZJSErrorKind,
    pub name: *const c_char,
    pub message: *const c_char,
    pub stack: *const c_char,
    pub filename: *const c_char,
    pub line: c_uint,
    pub column: c_uint,
}

pub type ZJSWorkerErrorCallback =
    Option<unsafe extern "C" fn(worker: JSWorkerRef, error: *const ZJSErrorInfo, userData: *mut c_void)>;
pub type ZJSWorkerNotifyCallback = Option<unsafe extern "C" fn(worker: JSWorkerRef, userData: *mut c_void)>;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct ZJSChannelLimits {
    pub maxMessageBytes: usize,
    pub maxQueuedBytes: usize,
    pub maxQueuedMessages: usize,
}

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ZJSWorkerOptions {
    pub size: usize,
    pub inbox: ZJSChannelLimits,
    pub outbox: ZJSChannelLimits,
    pub name: *const c_char,
    pub filename: *const c_char,
    pub maxCallStackSize: usize,
    pub dedicatedThread: bool,
    pub inspectable: bool,
    pub errorCallback: ZJSWorkerErrorCallback,
    pub errorUserData: *mut c_void,
    pub waitForDebugger: bool,
    pub executionTimeLimit: c_double,
    pub setup: ZJSWorkerSetupCallback,
    pub setupUserData: *mut c_void,
    pub consoleCallback: ZJSConsoleCallback,
    pub consoleUserData: *mut c_void,
}

impl Default for ZJSWorkerOptions {
    /// All zero (the defaults) with `size` set.
    fn default() -> Self {
        ZJSWorkerOptions {
            size: core::mem::size_of::<ZJSWorkerOptions>(),
            inbox: ZJSChannelLimits::default(),
            outbox: ZJSChannelLimits::default(),
            name: core::ptr::null(),
            filename: core::ptr::null(),
            maxCallStackSize: 0,
            dedicatedThread: false,
            inspectable: false,
            errorCallback: None,
            errorUserData: core::ptr::null_mut(),
            waitForDebugger: false,
            executionTimeLimit: 0.0,
            setup: None,
            setupUserData: core::ptr::null_mut(),
            consoleCallback: None,
            consoleUserData: core::ptr::null_mut(),
        }
    }
}

pub type ZJSInspectorTargetKind = c_int;
pub const kZJSInspectorTargetKindScript: ZJSInspectorTargetKind = 0;
pub const kZJSInspectorTargetKindModule: ZJSInspectorTargetKind = 1;

pub type ZJSInspectorTargetState = c_int;
pub const kZJSInspectorTargetStateStarting: ZJSInspectorTargetState = 0;
pub const kZJSInspectorTargetStateRunning: ZJSInspectorTargetState = 1;
pub const kZJSInspectorTargetStateClosing: ZJSInspectorTargetState = 2;
pub const kZJSInspectorTargetStateClosed: ZJSInspectorTargetState = 3;

#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct ZJSInspectorTargetInfo {
    pub id: u64,
    pub kind: ZJSInspectorTargetKind,
    pub state: ZJSInspectorTargetState,
}

pub type ZJSInspectorMessageCallback =
    Option<unsafe extern "C" fn(message: *const c_char, length: usize, userData: *mut c_void)>;

pub type ZJSWorkerInspectorPumpResult = c_int;
pub const kZJSWorkerInspectorPumpMessage: ZJSWorkerInspectorPumpResult = 0;
pub const kZJSWorkerInspectorPumpTimeout: ZJSWorkerInspectorPumpResult = 1;
pub const kZJSWorkerInspectorPumpClosed: ZJSWorkerInspectorPumpResult = 2;
pub const kZJSWorkerInspectorPumpError: ZJSWorkerInspectorPumpResult = 3;

pub type ZJSInspectorEndpointResult = c_int;
pub const kZJSInspectorEndpointOK: ZJSInspectorEndpointResult = 0;
pub const kZJSInspectorEndpointInvalidAddress: ZJSInspectorEndpointResult = 1;
pub const kZJSInspectorEndpointListenFailed: ZJSInspectorEndpointResult = 2;
pub const kZJSInspectorEndpointAlreadyRunning: ZJSInspectorEndpointResult = 3;
pub const kZJSInspectorEndpointInternal: ZJSInspectorEndpointResult = 4;

pub type JSObjectCallAsFunctionCallback = Option<
    unsafe extern "C" fn(
        ctx: JSContextRef,
        function: JSObjectRef,
        thisObject: JSObjectRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSValueRef,
>;

/// The module loader callback (`ZJSWorkerCreateModule`); runs on the worker's thread. `request` is valid only
/// during the call.
pub type ZJSModuleLoaderCallback = Option<
    unsafe extern "C" fn(
        request: ZJSModuleRequestRef,
        specifier: *const c_char,
        referrerPath: *const c_char,
        userData: *mut c_void,
    ),
>;

extern "C" {
    pub fn ZJSGetVersionNumber() -> c_int;
    pub fn ZJSGetVersionString() -> *const c_char;

    pub fn JSGlobalContextCreate(globalObjectClass: JSClassRef) -> JSGlobalContextRef;
    pub fn JSGlobalContextRetain(ctx: JSGlobalContextRef) -> JSGlobalContextRef;
    pub fn JSGlobalContextRelease(ctx: JSGlobalContextRef);
    pub fn JSContextGetGlobalObject(ctx: JSContextRef) -> JSObjectRef;
    pub fn JSGlobalContextSetInspectable(ctx: JSGlobalContextRef, inspectable: bool);
    pub fn JSGlobalContextIsInspectable(ctx: JSGlobalContextRef) -> bool;
    pub fn JSEvaluateScript(
        ctx: JSContextRef,
        script: JSStringRef,
        thisObject: JSObjectRef,
        sourceURL: JSStringRef,
        startingLineNumber: c_int,
        exception: *mut JSValueRef,
    ) -> JSValueRef;
    pub fn JSCheckScriptSyntax(
        ctx: JSContextRef,
        script: JSStringRef,
        sourceURL: JSStringRef,
        startingLineNumber: c_int,
        exception: *mut JSValueRef,
    ) -> bool;
    pub fn JSGarbageCollect(ctx: JSContextRef);

    pub fn ZJSHandleScopeOpen(ctx: JSContextRef) -> ZJSHandleScopeRef;
    pub fn ZJSHandleScopeClose(ctx: JSContextRef, scope: ZJSHandleScopeRef);
    pub fn ZJSValueRelease(ctx: JSContextRef, value: JSValueRef);
    pub fn JSValueProtect(ctx: JSContextRef, value: JSValueRef);
    pub fn JSValueUnprotect(ctx: JSContextRef, value: JSValueRef);

    pub fn JSStringCreateWithUTF8CString(string: *const c_char) -> JSStringRef;
    pub fn JSStringCreateWithCharacters(chars: *const JSChar, numChars: usize) -> JSStringRef;
    pub fn JSStringRetain(string: JSStringRef) -> JSStringRef;
    pub fn JSStringRelease(string: JSStringRef);
    pub fn JSStringGetLength(string: JSStringRef) -> usize;
    pub fn JSStringGetCharactersPtr(string: JSStringRef) -> *const JSChar;
    pub fn JSStringGetMaximumUTF8CStringSize(string: JSStringRef) -> usize;
    pub fn JSStringGetUTF8CString(string: JSStringRef, buffer: *mut c_char, bufferSize: usize) -> usize;
    pub fn JSStringIsEqual(a: JSStringRef, b: JSStringRef) -> bool;
    pub fn JSStringIsEqualToUTF8CString(a: JSStringRef, b: *const c_char) -> bool;

    pub fn JSValueGetType(ctx: JSContextRef, value: JSValueRef) -> JSType;
    pub fn JSValueIsUndefined(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsNull(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsBoolean(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsNumber(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsString(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsSymbol(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsObject(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsArray(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsDate(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueIsEqual(ctx: JSContextRef, a: JSValueRef, b: JSValueRef, exception: *mut JSValueRef) -> bool;
    pub fn JSValueIsStrictEqual(ctx: JSContextRef, a: JSValueRef, b: JSValueRef) -> bool;
    pub fn JSValueIsInstanceOfConstructor(
        ctx: JSContextRef,
        value: JSValueRef,
        constructor: JSObjectRef,
        exception: *mut JSValueRef,
    ) -> bool;
    pub fn JSValueMakeUndefined(ctx: JSContextRef) -> JSValueRef;
    pub fn JSValueMakeNull(ctx: JSContextRef) -> JSValueRef;
    pub fn JSValueMakeBoolean(ctx: JSContextRef, boolean: bool) -> JSValueRef;
    pub fn JSValueMakeNumber(ctx: JSContextRef, number: c_double) -> JSValueRef;
    pub fn JSValueMakeString(ctx: JSContextRef, string: JSStringRef) -> JSValueRef;
    pub fn JSValueMakeFromJSONString(ctx: JSContextRef, string: JSStringRef) -> JSValueRef;
    pub fn JSValueCreateJSONString(
        ctx: JSContextRef,
        value: JSValueRef,
        indent: c_uint,
        exception: *mut JSValueRef,
    ) -> JSStringRef;
    pub fn JSValueToBoolean(ctx: JSContextRef, value: JSValueRef) -> bool;
    pub fn JSValueToNumber(ctx: JSContextRef, value: JSValueRef, exception: *mut JSValueRef) -> c_double;
    pub fn JSValueToStringCopy(ctx: JSContextRef, value: JSValueRef, exception: *mut JSValueRef) -> JSStringRef;
    pub fn JSValueToObject(ctx: JSContextRef, value: JSValueRef, exception: *mut JSValueRef) -> JSObjectRef;

    pub fn JSObjectMake(ctx: JSContextRef, jsClass: JSClassRef, data: *mut c_void) -> JSObjectRef;
    pub fn JSObjectMakeArray(
        ctx: JSContextRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectMakeError(
        ctx: JSContextRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSObjectRef;
    pub fn JSObjectGetProperty(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyName: JSStringRef,
        exception: *mut JSValueRef,
    ) -> JSValueRef;
    pub fn JSObjectSetProperty(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyName: JSStringRef,
        value: JSValueRef,
        attributes: JSPropertyAttributes,
        exception: *mut JSValueRef,
    );
    pub fn JSObjectHasProperty(ctx: JSContextRef, object: JSObjectRef, propertyName: JSStringRef) -> bool;
    pub fn JSObjectDeleteProperty(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyName: JSStringRef,
        exception: *mut JSValueRef,
    ) -> bool;
    pub fn JSObjectGetPropertyAtIndex(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyIndex: c_uint,
        exception: *mut JSValueRef,
    ) -> JSValueRef;
    pub fn JSObjectSetPropertyAtIndex(
        ctx: JSContextRef,
        object: JSObjectRef,
        propertyIndex: c_uint,
        value: JSValueRef,
        exception: *mut JSValueRef,
    );
    pub fn JSObjectIsFunction(ctx: JSContextRef, object: JSObjectRef) -> bool;
    pub fn JSObjectCallAsFunction(
        ctx: JSContextRef,
        object: JSObjectRef,
        thisObject: JSObjectRef,
        argumentCount: usize,
        arguments: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> JSValueRef;
    pub fn JSObjectMakeFunctionWithCallback(
        ctx: JSContextRef,
        name: JSStringRef,
        callAsFunction: JSObjectCallAsFunctionCallback,
    ) -> JSObjectRef;
    pub fn JSObjectCopyPropertyNames(ctx: JSContextRef, object: JSObjectRef) -> JSPropertyNameArrayRef;
    pub fn JSPropertyNameArrayRetain(array: JSPropertyNameArrayRef) -> JSPropertyNameArrayRef;
    pub fn JSPropertyNameArrayRelease(array: JSPropertyNameArrayRef);
    pub fn JSPropertyNameArrayGetCount(array: JSPropertyNameArrayRef) -> usize;
    pub fn JSPropertyNameArrayGetNameAtIndex(array: JSPropertyNameArrayRef, index: usize) -> JSStringRef;

    pub fn JSWorkerCreate(source: JSStringRef) -> JSWorkerRef;
    pub fn JSWorkerCreateWithLimits(
        source: JSStringRef,
        maxMessageBytes: usize,
        maxQueuedBytes: usize,
        maxQueuedMessages: usize,
    ) -> JSWorkerRef;
    pub fn ZJSWorkerCreateWithOptions(
        source: JSStringRef,
        options: *const ZJSWorkerOptions,
        errorMessage: *mut JSStringRef,
    ) -> JSWorkerRef;
    pub fn JSWorkerPostMessage(
        worker: JSWorkerRef,
        ctx: JSContextRef,
        value: JSValueRef,
        exception: *mut JSValueRef,
    ) -> bool;
    pub fn ZJSWorkerPostMessageWithTransfer(
        worker: JSWorkerRef,
        ctx: JSContextRef,
        value: JSValueRef,
        transferCount: usize,
        transfer: *const JSValueRef,
        exception: *mut JSValueRef,
    ) -> bool;
    pub fn JSWorkerReceive(
        worker: JSWorkerRef,
        ctx: JSContextRef,
        timeoutMs: u64,
        exception: *mut JSValueRef,
    ) -> JSValueRef;
    pub fn ZJSWorkerPostJSON(
        worker: JSWorkerRef,
        ctx: JSContextRef,
        json: *const c_char,
        length: usize,
        exception: *mut JSValueRef,
    ) -> bool;
    /// The result is malloc'd: free it with `free`.
    pub fn ZJSWorkerReceiveJSON(
        worker: JSWorkerRef,
        ctx: JSContextRef,
        timeoutMs: u64,
        length: *mut usize,
        exception: *mut JSValueRef,
    ) -> *mut c_char;
    /// libc's free, for the text ZJSWorkerReceiveJSON returns.
    pub fn free(p: *mut c_void);
    pub fn JSWorkerTerminate(worker: JSWorkerRef);
    pub fn ZJSWorkerClose(worker: JSWorkerRef);
    pub fn JSWorkerRelease(worker: JSWorkerRef);
    pub fn ZJSWorkerSetNotifyCallback(
        worker: JSWorkerRef,
        callback: ZJSWorkerNotifyCallback,
        userData: *mut c_void,
    ) -> bool;
    pub fn ZJSWorkerSetErrorCallback(
        worker: JSWorkerRef,
        callback: ZJSWorkerErrorCallback,
        userData: *mut c_void,
    ) -> bool;
    pub fn ZJSWorkerGetInspectorTargetInfo(worker: JSWorkerRef, info: *mut ZJSInspectorTargetInfo) -> bool;

    pub fn ZJSWorkerInspectorSessionCreate(
        worker: JSWorkerRef,
        callback: ZJSInspectorMessageCallback,
        userData: *mut c_void,
    ) -> ZJSWorkerInspectorSessionRef;
    pub fn ZJSWorkerInspectorSessionDispatch(
        session: ZJSWorkerInspectorSessionRef,
        message: *const c_char,
        length: usize,
    ) -> bool;
    pub fn ZJSWorkerInspectorSessionPump(
        session: ZJSWorkerInspectorSessionRef,
        timeoutMs: u64,
    ) -> ZJSWorkerInspectorPumpResult;
    pub fn ZJSWorkerInspectorSessionRelease(session: ZJSWorkerInspectorSessionRef);
    pub fn ZJSInspectorSessionCreate(
        ctx: JSGlobalContextRef,
        callback: ZJSInspectorMessageCallback,
        userData: *mut c_void,
    ) -> ZJSInspectorSessionRef;
    pub fn ZJSInspectorSessionDispatch(session: ZJSInspectorSessionRef, message: *const c_char, length: usize) -> bool;
    pub fn ZJSInspectorSessionRelease(session: ZJSInspectorSessionRef);

    pub fn ZJSInspectorEndpointStart(
        address: *const c_char,
        port: *mut u16,
        errorBuffer: *mut c_char,
        errorBufferSize: usize,
    ) -> ZJSInspectorEndpointResult;
    pub fn ZJSInspectorEndpointStop();

    /// Module workers. Only libraries with module workers export these (see the `jsworker_modules` cfg that the
    /// build script sets when the library found has them); referencing them against an older library fails to link.
    pub fn ZJSModuleRequestResolve(
        request: ZJSModuleRequestRef,
        resolvedPath: *const c_char,
        source: *const c_char,
        sourceLength: usize,
    ) -> bool;
    pub fn ZJSModuleRequestFail(request: ZJSModuleRequestRef, message: *const c_char) -> bool;
    pub fn ZJSWorkerCreateModule(
        entryPath: *const c_char,
        entrySource: *const c_char,
        entrySourceLength: usize,
        loader: ZJSModuleLoaderCallback,
        userData: *mut c_void,
        options: *const ZJSWorkerOptions,
        errorMessage: *mut JSStringRef,
    ) -> JSWorkerRef;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_layouts_match_the_header() {
        // x86_64 / aarch64 Linux (LP64): the sizes C gives these structs.
        assert_eq!(core::mem::size_of::<ZJSChannelLimits>(), 24);
        assert_eq!(core::mem::size_of::<ZJSWorkerOptions>(), 8 + 24 + 24 + 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8 * 4);
        let o = ZJSWorkerOptions::default();
        assert_eq!(&o.setup as *const _ as usize - &o as *const _ as usize, 120);
        assert_eq!(core::mem::size_of::<JSClassDefinition>(), 4 + 4 + 8 * 15);
        assert_eq!(core::mem::size_of::<JSStaticValue>(), 32);
        assert_eq!(core::mem::size_of::<JSStaticFunction>(), 24);
        assert_eq!(core::mem::size_of::<ZJSInspectorTargetInfo>(), 16);
        assert_eq!(core::mem::size_of::<ZJSErrorInfo>(), 8 + 8 + 8 * 4 + 8);
    }

    #[test]
    fn the_library_is_the_headers_version() {
        let n = unsafe { ZJSGetVersionNumber() };
        assert_eq!(n, JSWORKER_VERSION_NUMBER);
        let s = unsafe { core::ffi::CStr::from_ptr(ZJSGetVersionString()) };
        assert_eq!(s.to_str().unwrap(), "0.2.0");
    }
}
