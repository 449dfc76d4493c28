package inspector

import "github.com/dop251/goja"

// ContextInfo describes the execution context (realm) a target exposes: CDP's
// ExecutionContextDescription.
type ContextInfo struct {
	ID       int    // executionContextId: positive, unique in the process
	Name     string // human-readable name, e.g. the worker's name
	Origin   string // "" for workers and host realms
	UniqueID string // CDP's uniqueId: a string, unique across processes in the ideal case
}

// A Target is one realm on one thread that sessions can inspect.
//
// core implements it for workers (asynchronous: Run queues fn on the worker's
// event loop) and for host main contexts (synchronous: Run calls fn at once on
// the calling thread, which must be the owner).
//
// # Notes
//
//   - Run may be called from any goroutine. fn runs on the target's thread,
//     with the target's runtime, and must be the only code using that runtime
//     while it runs.
//   - Run returns false when the target is gone; fn will then never run. When
//     Run returns true, fn normally runs; a target that ends before running a
//     queued fn may drop it, as long as it then calls Session.TargetClosed for
//     every session (see TargetClosed).
//   - A synchronous target runs fn before Run returns, so a command's
//     response is queued before Dispatch returns. Dispatch on such a target
//     belongs on the owner's thread; Close may come from anywhere: if Run
//     refuses it (returns false) off the owner's thread, the session drops its
//     objects directly, which touches no runtime.
//   - Context is called once per session, from the goroutine calling
//     NewSession.
type Target interface {
	Run(fn func(rt *goja.Runtime)) bool
	Context() ContextInfo
}

// PumpResult is what Session.Next found.
type PumpResult int

const (
	PumpMessage PumpResult = iota // a message was returned
	PumpTimeout                   // nothing came within the timeout
	PumpClosed                    // the session is closed (or its target ended) and everything queued was taken
)

// String returns the constant's name without the Pump prefix.
func (r PumpResult) String() string {
	switch r {
	case PumpMessage:
		return "Message"
	case PumpTimeout:
		return "Timeout"
	case PumpClosed:
		return "Closed"
	}
	return "PumpResult(?)"
}
