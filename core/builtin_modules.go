package core

import "github.com/dop251/goja"

// builtinModule returns the exports object of a built-in module ("worker_threads", "node:worker_threads", ...) for the realm of w, or ok=false. Built-ins are consulted before the loader, for static and dynamic imports.
//
// worker_threads is the same object require('worker_threads') returns in a
// Node-style worker or program (see jsworker_realm.go, nodeworker.go); in a
// module worker started some other way (SpawnModule, the C ABI) it has
// isMainThread false, parentPort null and workerData null.
func (w *Worker) builtinModule(specifier string) (exports *goja.Object, ok bool) {
	switch specifier {
	case "worker_threads", "node:worker_threads":
		return w.jsRealm().threadsModule(), true
	case "url", "node:url":
		return urlExports(w.rt), true
	}
	return nil, false
}
