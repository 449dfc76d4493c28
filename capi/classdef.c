/*
 * classdef.c - kJSClassDefinitionEmpty, the one data symbol of the public header: a JSClassDefinition with every
 * field zero, which a host copies and then fills in (JSObjectRef.h). capi.h's jsw_class_definition mirrors the
 * public struct field for field.
 */
#include "capi.h"

__attribute__((visibility("default"))) const jsw_class_definition kJSClassDefinitionEmpty = {0};

/* The thread-local identity override (capi.h, tid.go). */
__attribute__((visibility("hidden"))) __thread int jsw_owner;
