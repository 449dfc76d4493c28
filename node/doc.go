// Package node is jsworker's Node layer: what makes a worker or a program behave like Node's — require and Node's
// built-in modules (builtins.go: worker_threads, events, fs, path, os, util, assert, buffer, crypto, …), process,
// the Node globals (Buffer, AbortController, EventTarget, DOMException, crypto, …), Node-style workers
// (worker_threads.Worker) and their parent side, and the main program of a process (StartProgram, what
// `jsworker run` runs). It sits above core and gives each Node-style worker a core.Extension; core knows nothing
// of it. The JavaScript it runs lives in lib/*.js, embedded and compiled once per process on first use.
//
// The Node layer is a capability a host grants: C hosts' main contexts and C-created workers do not get it, so a
// plugin host does not hand fs to plugins by accident.
package node
