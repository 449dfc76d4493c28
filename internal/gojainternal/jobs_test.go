package gojainternal_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

func TestHoistLastJob(t *testing.T) {
	if err := gojainternal.JobQueue(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	if gojainternal.HoistLastJob(rt) {
		t.Error("hoisted a job from an empty queue")
	}
	_ = rt.Set("hoist", func() bool { return gojainternal.HoistLastJob(rt) })
	v, err := rt.RunString(`var order = [], hoisted;
		Promise.resolve().then(() => { order.push('a'); Promise.resolve().then(() => order.push('a2')); Promise.resolve().then(() => order.push('in a')); hoist(); });
		Promise.resolve().then(() => order.push('b'));
		Promise.resolve().then(() => order.push('c'));
		hoisted = hoist();
		order.push('sync');`)
	if err != nil {
		t.Fatal(err)
	}
	_ = v
	got, _ := rt.RunString(`hoisted + ' ' + order.join()`)
	// c jumps ahead of a and b; inside a job, 'in a' jumps ahead of a2 (queued by the same job), after b (the
	// batch being run).
	if want := "true sync,c,a,b,in a,a2"; got.String() != want {
		t.Errorf("order %q, want %q", got, want)
	}
}
