// Package soak runs the runtime under an hour of mixed load (`make soak`; SOAKTIME sets the length: spawn/terminate
// churn, messages with transfers and a SharedArrayBuffer, inspector sessions, module workers, memory-budget kills)
// and checks that nothing leaks and nothing is lost: resident memory flat within 10 % after warm-up (no trend), goroutines and registries back
// to where they started, every message answered exactly once. It is skipped unless -soak is given.
package soak

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/procmem"
	"github.com/jsworker/jsworker/modules"
	"github.com/jsworker/jsworker/sharedmem"
)

// budgetGate keeps budget workers out of the memory samples: a round holds it shared, a sample exclusively.
var budgetGate sync.RWMutex

var soakTime = flag.Duration("soak", 0, "run the soak for this long (0: skip)")

// echoSrc answers every message with its sequence number and the byte length of a transferred buffer, and counts
// into a SharedArrayBuffer it was given.
const echoSrc = `let counter = null;
onmessage = (e) => {
	const m = e.data;
	if (m.sab) { counter = new Int32Array(m.sab); return; }
	if (counter) Atomics.add(counter, 0, 1);
	postMessage({ seq: m.seq, len: m.buf ? m.buf.byteLength : -1 }, m.buf ? [m.buf] : []);
};`

type stats struct {
	spawned, posted, answered, sessions, modules, budgetKills atomic.Int64
}

func TestSoak(t *testing.T) {
	if *soakTime <= 0 {
		t.Skip("soak: run with -soak=DURATION (make soak)")
	}
	var st stats
	deadline := time.Now().Add(*soakTime)
	warm := time.Now().Add(max(*soakTime/10, 30*time.Second))
	baseGoroutines := runtime.NumGoroutine()

	sab, err := sharedmem.NewBlock(8, 8) // one counter every echo worker adds to
	if err != nil {
		t.Fatal(err)
	}
	defer sab.Release()

	var wg sync.WaitGroup
	var failed atomic.Value
	fail := func(err error) { failed.CompareAndSwap(nil, err) }
	for g := range 2 { // churn + messages: each loop spawns a worker, exchanges, terminates
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) && failed.Load() == nil {
				if err := echoRound(&st, sab, g%2 == 0); err != nil {
					fail(err)
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // module workers
		defer wg.Done()
		for time.Now().Before(deadline) && failed.Load() == nil {
			if err := moduleRound(&st); err != nil {
				fail(err)
			}
		}
	}()

	wg.Add(1)
	go func() { // memory budgets: a worker growing past its budget is killed, the others go on
		defer wg.Done()
		for time.Now().Before(deadline) && failed.Load() == nil {
			if err := budgetRound(&st); err != nil {
				fail(err)
			}
		}
	}()

	var samples []int64
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for time.Now().Before(deadline) && failed.Load() == nil {
		<-tick.C
		// Sample with no budget worker in flight (each holds up to its overshoot, tens of MiB, for a moment) and
		// after returning freed memory to the system: what is left is what the runtime keeps.
		budgetGate.Lock()
		debug.FreeOSMemory()
		r := procmem.Resident()
		budgetGate.Unlock()
		if time.Now().After(warm) {
			samples = append(samples, r)
		}
		t.Logf("rss %.1f MiB, goroutines %d, spawned %d, posted %d, answered %d, sessions %d, modules %d, budget kills %d",
			mib(r), runtime.NumGoroutine(), st.spawned.Load(), st.posted.Load(), st.answered.Load(),
			st.sessions.Load(), st.modules.Load(), st.budgetKills.Load())
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
	if st.posted.Load() != st.answered.Load() {
		t.Fatalf("%d messages posted, %d answered", st.posted.Load(), st.answered.Load())
	}
	// Flat means no trend: the resident set sampled while workers come and go swings by ±20 % with what is live at
	// that instant, so the test compares the median of the first fifth of the samples after warm-up with the median
	// of the last fifth (a leak moves the medians; the swings do not).
	if len(samples) >= 10 {
		k := len(samples) / 5
		first, last := median(samples[:k]), median(samples[len(samples)-k:])
		lo, hi := slices.Min(samples), slices.Max(samples)
		t.Logf("resident memory after warm-up: median %.1f MiB in the first fifth, %.1f MiB in the last (samples %.1f–%.1f MiB)",
			mib(first), mib(last), mib(lo), mib(hi))
		if float64(last) > 1.10*float64(first) {
			t.Errorf("resident memory grew: median %.1f MiB in the first fifth after warm-up, %.1f MiB in the last",
				mib(first), mib(last))
		}
	}
	if n := len(core.LiveWorkers()); n != 0 {
		t.Errorf("%d workers still listed", n)
	}
	for i := 0; runtime.NumGoroutine() > baseGoroutines+2 && i < 100; i++ {
		time.Sleep(50 * time.Millisecond) // workers' goroutines are gone once Release returned; stragglers are timers
	}
	if n := runtime.NumGoroutine(); n > baseGoroutines+2 {
		t.Errorf("goroutines %d, started with %d", n, baseGoroutines)
	}
	if n := sharedmem.RegistryLen(); n != 0 {
		t.Errorf("%d shared-memory tokens left", n)
	}
}

// echoRound spawns an echo worker, gives it the shared counter, sends 200 messages (every fourth with a transferred
// 64 KiB buffer), checks each answer once, optionally attaches and detaches an inspector session, and terminates it.
func echoRound(st *stats, sab *sharedmem.Block, inspect bool) error {
	w, err := core.Spawn(echoSrc, core.Options{Inspectable: inspect})
	if err != nil {
		return err
	}
	defer w.Release()
	st.spawned.Add(1)
	rt := goja.New()
	if err := sharedmem.Install(rt, sharedmem.RealmOptions{}); err != nil {
		return err
	}
	defer sharedmem.Uninstall(rt)
	so, err := sharedmem.Wrap(rt, sab)
	if err != nil {
		return err
	}
	msg := rt.NewObject()
	_ = msg.Set("sab", so)
	if err := w.PostMessage(rt, msg); err != nil {
		return err
	}
	if inspect {
		s, err := w.InspectorSession()
		if err != nil {
			return err
		}
		if err := s.Dispatch([]byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"1+1"}}`)); err != nil {
			return err
		}
		st.sessions.Add(1)
		defer w.DetachInspectorSession(s)
	}
	const n = 200
	for i := range n {
		m := rt.NewObject()
		_ = m.Set("seq", i)
		var transfer []goja.Value
		if i%4 == 0 {
			buf := rt.ToValue(rt.NewArrayBuffer(make([]byte, 64<<10)))
			_ = m.Set("buf", buf)
			transfer = []goja.Value{buf}
		}
		for {
			err := w.PostMessage(rt, m, transfer...)
			if errors.Is(err, core.ErrQueueFull) {
				time.Sleep(time.Millisecond)
				continue
			}
			if err != nil {
				return err
			}
			break
		}
		st.posted.Add(1)
	}
	seen := make([]bool, n)
	for range n {
		v, err := w.Receive(rt, 30*time.Second)
		if err != nil {
			return fmt.Errorf("receive: %w", err)
		}
		o := v.ToObject(rt)
		seq := int(o.Get("seq").ToInteger())
		if seq < 0 || seq >= n || seen[seq] {
			return fmt.Errorf("answer %d out of range or twice", seq)
		}
		seen[seq] = true
		if want := map[bool]int64{true: 64 << 10, false: -1}[seq%4 == 0]; o.Get("len").ToInteger() != want {
			return fmt.Errorf("answer %d: buffer length %d, want %d", seq, o.Get("len").ToInteger(), want)
		}
		st.answered.Add(1)
	}
	w.Terminate()
	return w.Join(30 * time.Second)
}

// budgetRound starts a worker with an 8 MiB budget that grows without bound and checks that it is killed for it
// (ErrWorkerOutOfMemory), after the message it posted first.
func budgetRound(st *stats) error {
	budgetGate.RLock()
	defer budgetGate.RUnlock()
	var out bytes.Buffer
	w, err := core.Spawn(`const a = []; function grow() { a.push(new Array(256).fill(a.length)); }
		postMessage("started"); for (;;) grow();`, core.Options{MaxHeapBytes: 8 << 20, Stderr: &out})
	if err != nil {
		return err
	}
	defer w.Release()
	if v, err := w.Receive(goja.New(), 30*time.Second); err != nil || v.String() != "started" {
		return fmt.Errorf("budget worker: %v, %v", v, err)
	}
	if err := w.Join(60 * time.Second); !errors.Is(err, core.ErrWorkerOutOfMemory) {
		return fmt.Errorf("budget worker ended with %v, want ErrWorkerOutOfMemory (%s)", err, out.String())
	}
	st.budgetKills.Add(1)
	return nil
}

// moduleRound starts a module worker over an in-memory graph and waits for its answer.
func moduleRound(st *stats) error {
	files := map[string]string{"/m/lib.mjs": `export const twice = (x) => 2 * x;`}
	loader := func(spec, ref string) (string, string, error) {
		p := "/m/" + strings.TrimPrefix(spec, "./")
		if src, ok := files[p]; ok {
			return p, src, nil
		}
		return "", "", modules.ErrNotFound
	}
	var out bytes.Buffer
	w, err := core.SpawnModule("/m/main.mjs", `import { twice } from "./lib.mjs"; postMessage(twice(21));`, loader,
		core.Options{Stderr: &out})
	if err != nil {
		return err
	}
	defer w.Release()
	v, err := w.Receive(goja.New(), 30*time.Second)
	if err != nil {
		return fmt.Errorf("module worker: %w (%s)", err, out.String())
	}
	if v.ToInteger() != 42 {
		return fmt.Errorf("module worker answered %v", v)
	}
	st.modules.Add(1)
	return nil
}

// median is the middle of v (a sorted copy).
func median(v []int64) int64 {
	c := slices.Clone(v)
	slices.Sort(c)
	return c[len(c)/2]
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
