package core_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// TestWorker_MessageEventMadeLate: the MessageEvent prototype is made with a worker's first event, yet a script
// that replaced Object and Object.freeze before then still gets the same event: frozen ports, the global as its
// target, the constant fields on a shared prototype.
func TestWorker_MessageEventMadeLate(t *testing.T) {
	w, err := core.Spawn(`
		const realFreeze = Object.freeze, realIsFrozen = Object.isFrozen;
		Object.freeze = () => { throw new Error('the script freeze was used'); };
		globalThis.Object = null;
		let first;
		onmessage = (e) => {
			const own = Reflect.ownKeys(e).join('/');
			if (first === undefined) { first = e; return; }
			postMessage([e.data, e.type, own, realIsFrozen(e.ports), e.ports.length, e.target === self,
				e.origin === '', Reflect.getPrototypeOf(e) === Reflect.getPrototypeOf(first)].join());
		};`, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	rt := goja.New()
	for _, v := range []string{"one", "two"} {
		if err := w.PostMessage(rt, rt.ToValue(v)); err != nil {
			t.Fatal(err)
		}
	}
	v, err := w.Receive(rt, long)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.String(), "two,message,type/data,true,0,true,true,true"; got != want {
		t.Fatalf("event: %s, want %s", got, want)
	}
}
