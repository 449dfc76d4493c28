// Package sharedmem provides SharedArrayBuffer and Atomics for goja realms:
// shared byte blocks owned jointly by every realm (and every in-flight
// frame) that references them, a per-realm SharedArrayBuffer constructor
// over them, and the Atomics namespace on real hardware atomics, with
// Atomics.wait woken by notify, a timeout or the worker's termination.
//
// # Storage
//
// A [Block] is the shared memory: reference-counted, 8-byte aligned, and for
// a growable buffer allocated at its maximum length up front so that growing
// never moves it. No realm ever sees another realm's goja objects: each
// realm makes its own wrapper over the same block with [Wrap] (the wrapper
// holds a reference, released when the wrapper is garbage-collected), and
// [BlockOf] finds the block of a realm's SharedArrayBuffer. A wrapper is a
// goja ArrayBuffer over the block's memory with SharedArrayBuffer.prototype,
// which is why every TypedArray kind and DataView accept it; it is told from
// an ArrayBuffer whose prototype was merely swapped by its memory, which only
// this package wraps.
//
// # Realms
//
// [Install] defines the globals SharedArrayBuffer and Atomics in one runtime;
// [RealmOptions] say whether Atomics.wait may block, which channel interrupts
// it, and how Atomics.waitAsync reaches the realm's event loop. The realm's
// Go state lives outside the runtime, in internal/realmdata's side table, so
// that no script can see or reach it; it keeps the runtime alive until the
// realm's owner releases it: [Uninstall] (or realmdata.Drop, as core does).
// Typed arrays are read through internal/gojainternal; Install fails if that
// package cannot read this goja.
//
// # Frames
//
// A SharedArrayBuffer travels between realms by reference: the serializer
// calls [Register] to get a single-use random [Token] that holds a reference
// for the frame; the deserializer calls [Consume] (which fails closed for a
// forged, replayed or duplicated token) and [Wrap]; a frame released unread
// calls [Discard] (a Token is also a clone.Ref whose Release discards it).
//
// # Goroutines
//
// Install, Uninstall, Wrap and BlockOf are called on the goroutine that owns the
// runtime, like every goja call; the JavaScript functions run there too.
// Block's methods, the token functions, LiveBlocks and RegistryLen may be
// called from any goroutine. RealmOptions.Schedule is called from whichever
// goroutine settles an Atomics.waitAsync (a notifying realm's, or a timer's),
// and the function it is given must run on the realm's goroutine.
//
// # Limits
//
// goja has no resizable ArrayBuffer and no length-tracking views. A view of
// a growable SharedArrayBuffer therefore has a fixed length (the buffer's
// length when the view was made); a realm sees another realm's grow in its
// own buffer's byteLength at once and in views it makes after its next
// SharedArrayBuffer or Atomics call. Buffers are limited to [MaxByteLength].
// The typed arrays' indexed element access ([] in JavaScript) is goja's own
// plain memory access: like in every engine, mixing it with concurrent
// writes from another worker is a data race that only Atomics avoids.
package sharedmem
