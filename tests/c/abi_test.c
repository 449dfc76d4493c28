/*
 * abi_test.c - the public structs in include/jsworker.h and the library's private mirrors of them in capi/capi.h
 * have the same layout, field by field. Checked at compile time; the program only reports.
 */
#include "jsworker.h"
#include "../../capi/capi.h"

#include <stddef.h>
#include <stdio.h>

#define SAME_FIELD(pub, priv, field)                                                                                \
    _Static_assert(offsetof(pub, field) == offsetof(priv, field) &&                                                 \
                       sizeof(((pub *)0)->field) == sizeof(((priv *)0)->field),                                     \
                   #pub "." #field " disagrees with capi.h")

_Static_assert(sizeof(ZJSWorkerOptions) == sizeof(jsw_worker_options), "ZJSWorkerOptions size");
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, size);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, inbox);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, outbox);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, name);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, filename);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, maxCallStackSize);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, dedicatedThread);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, inspectable);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, errorCallback);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, errorUserData);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, waitForDebugger);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, executionTimeLimit);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, setup);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, setupUserData);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, consoleCallback);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, consoleUserData);
SAME_FIELD(ZJSWorkerOptions, jsw_worker_options, maxHeapBytes);
_Static_assert(sizeof(ZJSChannelLimits) == sizeof(jsw_channel_limits), "ZJSChannelLimits size");
SAME_FIELD(ZJSChannelLimits, jsw_channel_limits, maxMessageBytes);
SAME_FIELD(ZJSChannelLimits, jsw_channel_limits, maxQueuedBytes);
SAME_FIELD(ZJSChannelLimits, jsw_channel_limits, maxQueuedMessages);
_Static_assert(sizeof(ZJSErrorInfo) == sizeof(jsw_error_info), "ZJSErrorInfo size");
SAME_FIELD(ZJSErrorInfo, jsw_error_info, size);
SAME_FIELD(ZJSErrorInfo, jsw_error_info, kind);
SAME_FIELD(ZJSErrorInfo, jsw_error_info, name);
SAME_FIELD(ZJSErrorInfo, jsw_error_info, message);
SAME_FIELD(ZJSErrorInfo, jsw_error_info, stack);
SAME_FIELD(ZJSErrorInfo, jsw_error_info, filename);
SAME_FIELD(ZJSErrorInfo, jsw_error_info, line);
SAME_FIELD(ZJSErrorInfo, jsw_error_info, column);
_Static_assert(sizeof(ZJSInspectorTargetInfo) == sizeof(jsw_target_info), "ZJSInspectorTargetInfo size");
SAME_FIELD(ZJSInspectorTargetInfo, jsw_target_info, id);
SAME_FIELD(ZJSInspectorTargetInfo, jsw_target_info, kind);
SAME_FIELD(ZJSInspectorTargetInfo, jsw_target_info, state);
_Static_assert(sizeof(JSClassDefinition) == sizeof(jsw_class_definition), "JSClassDefinition size");
SAME_FIELD(JSClassDefinition, jsw_class_definition, version);
SAME_FIELD(JSClassDefinition, jsw_class_definition, attributes);
SAME_FIELD(JSClassDefinition, jsw_class_definition, className);
SAME_FIELD(JSClassDefinition, jsw_class_definition, parentClass);
SAME_FIELD(JSClassDefinition, jsw_class_definition, staticValues);
SAME_FIELD(JSClassDefinition, jsw_class_definition, staticFunctions);
SAME_FIELD(JSClassDefinition, jsw_class_definition, initialize);
SAME_FIELD(JSClassDefinition, jsw_class_definition, finalize);
SAME_FIELD(JSClassDefinition, jsw_class_definition, hasProperty);
SAME_FIELD(JSClassDefinition, jsw_class_definition, getProperty);
SAME_FIELD(JSClassDefinition, jsw_class_definition, setProperty);
SAME_FIELD(JSClassDefinition, jsw_class_definition, deleteProperty);
SAME_FIELD(JSClassDefinition, jsw_class_definition, getPropertyNames);
SAME_FIELD(JSClassDefinition, jsw_class_definition, callAsFunction);
SAME_FIELD(JSClassDefinition, jsw_class_definition, callAsConstructor);
SAME_FIELD(JSClassDefinition, jsw_class_definition, hasInstance);
SAME_FIELD(JSClassDefinition, jsw_class_definition, convertToType);
_Static_assert(sizeof(JSStaticValue) == sizeof(jsw_static_value), "JSStaticValue size");
SAME_FIELD(JSStaticValue, jsw_static_value, name);
SAME_FIELD(JSStaticValue, jsw_static_value, getProperty);
SAME_FIELD(JSStaticValue, jsw_static_value, setProperty);
SAME_FIELD(JSStaticValue, jsw_static_value, attributes);
_Static_assert(sizeof(JSStaticFunction) == sizeof(jsw_static_function), "JSStaticFunction size");
SAME_FIELD(JSStaticFunction, jsw_static_function, name);
SAME_FIELD(JSStaticFunction, jsw_static_function, callAsFunction);
SAME_FIELD(JSStaticFunction, jsw_static_function, attributes);
/* The library returns and takes these enums as int32. */
_Static_assert(sizeof(JSTypedArrayType) == sizeof(int32_t) && sizeof(ZJSPromiseState) == sizeof(int32_t),
               "JSTypedArrayType and ZJSPromiseState are 32 bits");
/* Handles travel as uintptr_t on the library's side. */
_Static_assert(sizeof(JSValueRef) == sizeof(jsw_handle) && sizeof(JSWorkerRef) == sizeof(jsw_handle),
               "a handle is pointer-sized");
_Static_assert(sizeof(JSType) == sizeof(int) && sizeof(ZJSErrorKind) == sizeof(int), "enums are int-sized");
/* The library returns ZJSWorkerInspectorPumpResult as an int32; the callback type matches capi.h's bridge. */
_Static_assert(sizeof(ZJSWorkerInspectorPumpResult) == sizeof(int32_t), "ZJSWorkerInspectorPumpResult is 32 bits");
_Static_assert(sizeof(ZJSWorkerInspectorSessionRef) == sizeof(jsw_handle) &&
                   sizeof(ZJSInspectorSessionRef) == sizeof(jsw_handle),
               "a session handle is pointer-sized");

int main(void) {
    printf("ok   ZJSWorkerOptions (%zu bytes), ZJSChannelLimits, ZJSErrorInfo, ZJSInspectorTargetInfo match capi.h\n",
           sizeof(ZJSWorkerOptions));
    printf("ok   JSClassDefinition (%zu bytes), JSStaticValue, JSStaticFunction match capi.h\n",
           sizeof(JSClassDefinition));
    printf("PASS\n");
    return 0;
}
