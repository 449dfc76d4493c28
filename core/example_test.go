package core_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/modules"
)

// A worker doubles what it is sent; the host's own runtime sends and receives.
func ExampleSpawn() {
	w, err := core.Spawn(`onmessage = (e) => postMessage(e.data * 2);`, core.Options{})
	if err != nil {
		panic(err)
	}
	defer w.Release()
	rt := goja.New() // the caller's realm: values are cloned out of it and into it
	if err := w.PostMessage(rt, rt.ToValue(21)); err != nil {
		panic(err)
	}
	v, err := w.Receive(rt, 10*time.Second)
	if err != nil {
		panic(err)
	}
	fmt.Println(v.ToInteger())
	// Output: 42
}

// Close lets a worker deliver what is queued, then end; Receive then reports ErrClosed.
func ExampleWorker_Close() {
	w, err := core.Spawn(`onmessage = (e) => postMessage("got " + e.data);`, core.Options{})
	if err != nil {
		panic(err)
	}
	defer w.Release()
	rt := goja.New()
	for _, s := range []string{"a", "b"} {
		_ = w.PostMessage(rt, rt.ToValue(s))
	}
	w.Close()
	for {
		v, err := w.Receive(rt, 10*time.Second)
		if err != nil {
			fmt.Println(errors.Is(err, core.ErrClosed))
			break
		}
		fmt.Println(v)
	}
	// Output:
	// got a
	// got b
	// true
}

// A module worker loads its graph through the host's loader, on the worker's thread.
func ExampleSpawnModule() {
	files := map[string]string{"/app/math.mjs": `export const twice = (x) => 2 * x;`}
	loader := func(specifier, referrer string) (string, string, error) {
		p := "/app/" + specifier[len("./"):]
		src, ok := files[p]
		if !ok {
			return "", "", modules.ErrNotFound
		}
		return p, src, nil
	}
	w, err := core.SpawnModule("/app/main.mjs", `import { twice } from "./math.mjs"; postMessage(twice(21));`,
		loader, core.Options{})
	if err != nil {
		panic(err)
	}
	defer w.Release()
	rt := goja.New()
	v, err := w.Receive(rt, 10*time.Second)
	if err != nil {
		panic(err)
	}
	fmt.Println(v.ToInteger())
	// Output: 42
}

// Options.Setup gives a worker native functions; they run on the worker's thread.
func ExampleOptions_setup() {
	w, err := core.Spawn(`postMessage(hostAdd(40, 2));`, core.Options{
		Setup: func(w *core.Worker, rt *goja.Runtime) error {
			return rt.Set("hostAdd", func(a, b int) int { return a + b })
		},
	})
	if err != nil {
		panic(err)
	}
	defer w.Release()
	v, err := w.Receive(goja.New(), 10*time.Second)
	if err != nil {
		panic(err)
	}
	fmt.Println(v.ToInteger())
	// Output: 42
}
