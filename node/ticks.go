package node

import (
	_ "embed"
	"errors"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// process.nextTick's queue, as Node runs it: after each callback of the event loop (the main script, a timer, an
// immediate, a message, a host task) the tick queue is drained first, then the promise jobs, then ticks those jobs
// queued, and so on until both are empty. goja drains its job queue when the outermost call into JavaScript
// returns, so RunCallback (core.CallbackRunner) runs the callback inside a JavaScript call (lib/tickrun.js's
// runCallback) that drains the ticks before returning; the ticks promise jobs queue are drained by further calls.

// tickState is the nodeState's part for process.nextTick.
type tickState struct {
	runCallback goja.Callable // lib/tickrun.js's runCallback(runner), made with the realm
	runner      *goja.Object  // runCallback's N: the runLoopCallback native, with ticks (runTicks) once the queue is made
	runTicks    goja.Callable // drains the tick queue; a tick that throws leaves the rest queued; nil until the queue is made
	current     func() error  // the callback runLoopCallback runs
	currentErr  error         // what it returned
	inCallback  bool          // a RunCallback is under way: it will drain what gets queued
	active      bool          // process.nextTick was called once: callbacks run wrapped from then on
	inBare      bool          // a callback runs unwrapped (before active): RunCallback drains after it
	leftovers   bool          // RunCallback is draining ticks left before the callback it was given
	started     bool          // the first callback (the script, or the module graph) ran: it is always wrapped
	ticksQueued bool          // the tick queue may hold ticks RunCallback has not drained yet
}

//go:embed lib/tickrun.js
var tickrunJS string

// tickrunSource makes the loop's wrapped callback, runCallback. Its name is lib/ticks.js's, where it was once
// defined: stacks through it read as they did.
var tickrunSource = jsutil.NewSource("node:internal/ticks", tickrunJS)

//go:embed lib/ticks.js
var ticksJS string

// ticksSource makes a realm's process.nextTick and its queue, with process.
var ticksSource = jsutil.NewSource("node:internal/ticks", ticksJS)

// installTicks makes the loop's wrapped callback as the realm is set up, so that the script runs wrapped
// (RunCallback): one JavaScript function with no closure and its one native. The tick queue and process.nextTick
// are made with process (tickQueue), the only way to queue a tick: until then runLoopCallback answers false and
// runCallback drains nothing, as it drained an empty queue before.
func (n *nodeState) installTicks(rt *goja.Runtime) error {
	v, err := rt.RunProgram(tickrunSource.Program())
	if err != nil {
		return err
	}
	rc, ok := goja.AssertFunction(v)
	if !ok {
		return errors.New("jsworker: lib/tickrun.js does not evaluate to a function")
	}
	// runLoopCallback runs the callback RunCallback was given and reports whether it succeeded and the tick queue
	// is to be drained (it exists). It is runCallback's N too (N.runLoopCallback is itself, N.ticks the queue's
	// runTicks once made): no object of its own, and scripts never see either.
	runner := jsutil.NewFunc(rt, "runLoopCallback", 0, func(goja.FunctionCall) goja.Value {
		fn := n.ticks.current
		n.ticks.current = nil
		if fn != nil {
			n.ticks.currentErr = fn()
		}
		return n.r.Runtime().ToValue(n.ticks.currentErr == nil && n.ticks.runTicks != nil)
	})
	_ = runner.Set("runLoopCallback", runner)
	n.ticks.runCallback, n.ticks.runner = rc, runner
	return nil
}

// tickQueue returns the realm's process.nextTick, making the tick queue (lib/ticks.js) on the first call.
func (n *nodeState) tickQueue() (goja.Value, error) {
	if n.nextTick != nil {
		return n.nextTick, nil
	}
	rt := n.r.Runtime()
	natives := rt.NewObject()
	tickFuncs.Define(rt, natives)
	_ = natives.Set("bind", n.timersLib().Get("bind"))
	n.tickMicrotask(natives) // timers.go
	v, err := ticksSource.Call(rt, natives)
	if err != nil {
		return nil, err
	}
	n.nextTick = v
	return v, nil
}

// tickFuncs are the tick queue's natives, each made when ticks.js first calls it.
var tickFuncs = jsutil.NewLazyFuncs(func(rt *goja.Runtime, def jsutil.DefFunc) {
	if n, _ := stateKey.Get(rt); n != nil {
		n.tickNatives(def)
	}
})

// NodeOrder asks core for Node's event-loop phase order (core.LoopOrder).
func (n *nodeState) NodeOrder() bool { return true }

// OmitWebGlobals tells core not to define the web worker's own globals (core.WebGlobalsOmitter): self, name,
// postMessage, close, addEventListener, removeEventListener, onmessage and onmessageerror; Node's realms have none.
func (n *nodeState) OmitWebGlobals() bool { return true }

// tickNatives are process.js's natives for the tick queue.
func (n *nodeState) tickNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	def("setTickRunner", 1, func(c goja.FunctionCall) goja.Value {
		n.ticks.runTicks, _ = goja.AssertFunction(c.Argument(0))
		_ = n.ticks.runner.Set("ticks", c.Argument(0))
		return goja.Undefined()
	})
	// ticksScheduled notes that the queue just filled and tells process.nextTick how its ticks will run: 0, a
	// RunCallback drains them; 1, by a microtask; 2, by a microtask moved ahead of the promise jobs queued so far
	// (hoistTicks), for the first tick of the realm in an unwrapped callback, whose jobs Node runs after its ticks.
	def("ticksScheduled", 0, func(goja.FunctionCall) goja.Value {
		t := &n.ticks
		first := !t.active
		t.ticksQueued, t.active = true, true
		switch {
		case t.inCallback || (t.inBare && !first):
			return n.r.Runtime().ToValue(0)
		case t.inBare:
			return n.r.Runtime().ToValue(2)
		}
		return n.r.Runtime().ToValue(1)
	})
	// hoistTicks moves the microtask just queued to drain the ticks ahead of the jobs queued before it.
	def("hoistTicks", 0, func(goja.FunctionCall) goja.Value {
		gojainternal.HoistLastJob(n.r.Runtime())
		return goja.Undefined()
	})
}

// RunCallback runs one callback of the loop with Node's tick semantics (core.CallbackRunner). The first (the script)
// always runs wrapped; after it, until the realm first calls process.nextTick, callbacks run bare (the wrapping
// JavaScript call costs a message round trip about a third of its speed); the callback that queues the first tick
// has it drained by a microtask moved ahead of the promise jobs that callback queued before it (so its ticks run
// first, as in Node), and the ticks queued after that are drained once its jobs are done. When fn or a tick
// throws, the ticks left wait for the next callback of the loop, as in Node (whose processTicksAndRejections is
// abandoned by the throw); the promise jobs queued so far still run first, goja drains them as the call returns.
func (n *nodeState) RunCallback(fn func() error) error {
	t := &n.ticks
	if t.inCallback || t.runCallback == nil {
		return fn()
	}
	if !t.active && t.started {
		t.inBare = true
		err := fn()
		t.inBare = false
		if err != nil || !t.active {
			return err
		}
		t.inCallback = true
		defer func() { t.inCallback = false }()
		return n.drainLeft()
	}
	if t.ticksQueued && !t.leftovers {
		// Ticks left by one that threw run before the next callback, as Node's timers do: as a callback of their
		// own, so that what they throw is reported as they throw it.
		t.leftovers = true
		n.w.RunTask(func() error { return nil })
		t.leftovers = false
	}
	t.inCallback, t.started = true, true
	defer func() { t.inCallback = false }()
	t.current, t.currentErr = fn, nil
	t.ticksQueued = false
	_, err := t.runCallback(goja.Undefined(), t.runner)
	ferr := t.currentErr
	t.current, t.currentErr = nil, nil
	if ferr != nil {
		t.ticksQueued = true
		return ferr
	}
	if err != nil {
		t.ticksQueued = true
		return err
	}
	return n.drainLeft()
}

// drainLeft drains ticks queued by promise jobs after the last drain, each drain an outermost call (so the jobs
// those ticks queue run after it), until none is left.
func (n *nodeState) drainLeft() error {
	t := &n.ticks
	if t.runTicks == nil { // no tick queue: nothing was queued
		t.ticksQueued = false
		return nil
	}
	for t.ticksQueued && !n.w.Stopping() {
		t.ticksQueued = false
		if _, err := t.runTicks(goja.Undefined()); err != nil {
			t.ticksQueued = true
			return err
		}
	}
	return nil
}
