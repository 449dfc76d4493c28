package inspector

import "errors"

// ErrClosed is returned by Session.Dispatch once the session was closed with
// Session.Close or its target ended.
var ErrClosed = errors.New("inspector: session closed")
