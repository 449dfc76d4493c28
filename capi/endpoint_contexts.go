package capi

import "github.com/jsworker/jsworker/internal/workertargets"

// Main contexts on the DevTools endpoint (ZJSInspectorEndpointStart). A context made inspectable
// (JSGlobalContextSetInspectable) is listed until it is made uninspectable or destroyed: the listing is
// core.LiveHostRealms, read by workertargets.HostRealms. An endpoint session is an ordinary session of the context's
// HostRealm whose commands arrive on the endpoint's goroutines: they run on the owner thread — at once while the
// context is paused in the debugger, otherwise in the host's next ZJSContextRunPendingEvents, or after its next
// call that runs JavaScript. Their responses and events go straight back to the endpoint, which reads the
// session's queue from its own goroutine.

// contextTargets is the endpoint's Provider of main contexts.
type contextTargets = workertargets.HostRealms
