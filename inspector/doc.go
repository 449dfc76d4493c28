// Package inspector is jsworker's Chrome DevTools Protocol (CDP) backend: the
// session machinery and the Runtime and Schema domains, for workers and host
// realms alike.
//
// A Target is one realm on one thread (core implements it for workers and for
// host main contexts). A Session is one client attached to a target: Dispatch
// hands it a CDP command from any goroutine; the command runs on the target's
// thread through Target.Run; its response, and the events of the target, are
// queued per session and taken with Next. Several sessions may attach to one
// target; each owns the objects it hands out as objectIds.
//
//	s := inspector.NewSession(target)
//	defer s.Close()
//	s.Dispatch([]byte(`{"id":1,"method":"Runtime.enable"}`))
//	for {
//		msg, r := s.Next(time.Second)
//		if r != inspector.PumpMessage {
//			break
//		}
//		send(msg)
//	}
//
// # Protocol
//
// Messages are CDP JSON. Ids CDP types as strings (objectId, uniqueId) are
// strings; message ids, context ids, lines and columns are integers, lines and
// columns 0-based. Malformed JSON, a missing or non-integer id and a missing
// or non-string method get Chrome's protocol errors (-32700, -32600; without
// an id when none could be read); a method not in Methods answers -32601.
// Methods and Events list the implemented surface.
//
// # Threads
//
// Dispatch, Next, Close, Dropped, HeldObjects and ID may be called from any
// goroutine. ConsoleAPICalled, ExceptionThrown and TargetClosed are called by
// the target's owner on the target's thread. Everything that touches the
// target's runtime runs on the target's thread; a Go panic there (goja has
// known ones) becomes an error response.
//
// docs/inspector.md describes the protocol surface and its limits.
package inspector
