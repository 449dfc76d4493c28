package core

import (
	"errors"

	"github.com/jsworker/jsworker/clone"
)

// Errors returned by Channel.Push, Worker.PostMessage and friends. They are
// distinct so that callers can tell them apart with errors.Is; the C ABI maps
// each to its own error code.
var (
	// ErrClosed: the channel (or the worker's inbox) no longer accepts
	// messages because it was closed or the worker was terminated.
	ErrClosed = errors.New("jsworker: channel closed")

	// ErrFrameTooLarge: the frame is larger than the channel's MaxFrameBytes.
	// It is the same error value as clone.ErrFrameTooLarge, which the
	// serializer returns when it crosses the cap while writing.
	ErrFrameTooLarge = clone.ErrFrameTooLarge

	// ErrQueueFull: accepting the frame would exceed MaxQueuedBytes or
	// MaxQueuedMessages. Pop a message (or wait for the worker to consume
	// one) and try again.
	ErrQueueFull = errors.New("jsworker: queue full")

	// ErrOutOfMemory: the channel could not reserve room for the frame. The
	// queue is left unchanged. (Go aborts the process on real heap
	// exhaustion, so this reports allocation requests the runtime refuses,
	// such as an impossible slice size; the channel limits are what keep a
	// process away from exhaustion.)
	ErrOutOfMemory = errors.New("jsworker: out of memory")

	// ErrNoMessage: Receive found no message within its timeout (or at once,
	// for a zero timeout) and the channel is still open.
	ErrNoMessage = errors.New("jsworker: no message")

	// ErrReleased: the worker was released; its channels are gone.
	ErrReleased = errors.New("jsworker: worker released")

	// ErrJoinTimeout: Join's timeout passed before the worker ended.
	ErrJoinTimeout = errors.New("jsworker: join timed out")

	// ErrTimeLimit: Join's answer for a worker ended by
	// Options.ExecutionTimeLimit.
	ErrTimeLimit = errors.New("jsworker: worker terminated: execution time limit exceeded")

	// ErrTerminated is the value a terminated worker's running JavaScript is
	// interrupted with (see goja.InterruptedError.Value).
	ErrTerminated = errors.New("jsworker: worker terminated")
)
