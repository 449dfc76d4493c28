package gojainternal

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// A runtime's job queue (goja.Runtime.jobQueue, []func()): the promise jobs and queueMicrotask callbacks goja runs,
// in order, when the outermost call into JavaScript returns. HoistLastJob is the one function of this package that
// changes goja's state rather than reading it: node's process.nextTick needs the tick queue to run before the
// promise jobs a callback queued before its first tick, as Node's does, and goja has no way to queue a job ahead
// of others. The field is found by name with reflect once and confirmed on a runtime: a promise job queued
// after another must run first once hoisted.
var jobQueue struct {
	once sync.Once
	err  error
	off  uintptr
}

// JobQueue returns the error of the job-queue probe, nil when HoistLastJob works.
func JobQueue() error {
	jobQueue.once.Do(probeJobQueue)
	return jobQueue.err
}

func probeJobQueue() {
	f, ok := reflect.TypeFor[goja.Runtime]().FieldByName("jobQueue")
	if !ok || f.Type != reflect.TypeFor[[]func()]() {
		jobQueue.err = errors.New("gojainternal: goja.Runtime has no field jobQueue []func() (goja changed)")
		return
	}
	jobQueue.off = f.Offset
	rt := goja.New()
	_ = rt.Set("hoist", func() { hoist(rt) })
	v, err := rt.RunString(`var order = []; Promise.resolve().then(() => order.push('job'));
		Promise.resolve().then(() => order.push('hoisted')); hoist(); 0`)
	if err == nil && v.ToInteger() == 0 {
		v, err = rt.RunString(`order.join()`)
	}
	if err != nil || v.String() != "hoisted,job" {
		jobQueue.err = errors.New("gojainternal: moving goja's last job to the front did not reorder the jobs (goja changed)")
	}
}

// HoistLastJob moves the job queued last in rt to the front of its queue, so that it runs before the jobs queued
// before it, and reports whether it did (false when the probe failed or the queue is empty). Call it only on the
// runtime's own goroutine, from JavaScript (a native function) or between calls.
func HoistLastJob(rt *goja.Runtime) bool {
	if JobQueue() != nil {
		return false
	}
	return hoist(rt)
}

func hoist(rt *goja.Runtime) bool {
	q := (*[]func())(unsafe.Add(unsafe.Pointer(rt), jobQueue.off))
	n := len(*q)
	if n == 0 {
		return false
	}
	last := (*q)[n-1]
	copy((*q)[1:], (*q)[:n-1])
	(*q)[0] = last
	return true
}
