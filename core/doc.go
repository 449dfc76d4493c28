// Package core is jsworker's worker runtime and its Go API.
//
// A Worker runs one JavaScript realm — a goja.Runtime with its own heap and microtask queue — on its own thread of
// execution (a goroutine, or a dedicated OS thread with Options.DedicatedThread) and its own event loop. It talks to
// its creator only through two bounded Channels of structured-clone frames: the inbox (main→worker) and the outbox
// (worker→main). Spawn starts a worker from a classic script, SpawnModule from an ES module graph; PostMessage and
// Receive move values in and out; Terminate stops a worker at once, Close lets it drain; Join waits; Release frees.
//
// A host's own realm (a "main context" of the C ABI) is a HostRealm: the same standard globals without a thread of
// its own; its events wait until the host runs them.
//
// Every realm, worker or host, gets the standard globals of package web (console, timers, performance,
// queueMicrotask, structuredClone, URL, TextEncoder/TextDecoder, SharedArrayBuffer, Atomics) and the JavaScript
// face of core's own objects: the web Worker, MessageChannel, MessagePort and BroadcastChannel (realm.go, port.go,
// broadcast.go, webworker.go). Layers above core adapt a worker through an Extension — the Node layer (package
// node) makes Node-style workers and the main program that way; core knows nothing of Node.
//
// # Threads
//
// The methods of Worker are safe to call from any goroutine unless their documentation says otherwise. A
// goja.Runtime is used by one goroutine at a time: values of a worker's realm are touched only on the worker's
// thread (Options.Setup, RunOnLoop, host functions), values of a host realm only on the host's.
//
// # Errors
//
// Library failures are sentinel errors (ErrClosed, ErrQueueFull, ErrFrameTooLarge, ErrOutOfMemory, ErrReleased,
// ErrNoMessage, ErrJoinTimeout); what JavaScript throws and does not catch becomes an ErrorRecord handed to
// Options.OnError (or written to Options.Stderr).
package core
