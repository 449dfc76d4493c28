// Command godemo is the `make run` demo: a Go host that spawns four
// JavaScript workers, gives each a slice of a job, collects their answers and
// waits for them to close. It uses only the public Go API of package core.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// workerSource counts the primes in [from, to) and replies with the count.
// Each worker is its own realm: `primes` below is not shared between them.
const workerSource = `
function isPrime(n) {
	if (n < 2) return false;
	for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
	return true;
}
onmessage = function (e) {
	const { from, to } = e.data;
	const started = performance.now();
	let primes = 0;
	for (let n = from; n < to; n++) if (isPrime(n)) primes++;
	postMessage({ worker: name, from, to, primes, ms: +(performance.now() - started).toFixed(2) });
	close();
};
`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "godemo:", err)
		os.Exit(1)
	}
}

func run() error {
	const workers, span = 4, 25000
	host := goja.New() // the host's own realm: messages are cloned out of and into it
	start := time.Now()

	var ws []*core.Worker
	for i := range workers {
		w, err := core.Spawn(workerSource, core.Options{Name: fmt.Sprintf("primes-%d", i+1)})
		if err != nil {
			return err
		}
		defer w.Release()
		ws = append(ws, w)
		job := host.NewObject()
		job.Set("from", i*span)
		job.Set("to", (i+1)*span)
		if err := w.PostMessage(host, job); err != nil {
			return err
		}
		fmt.Printf("main → %s (worker id %d): count primes in [%d, %d)\n", w.Name(), w.ID(), i*span, (i+1)*span)
	}

	total := int64(0)
	for _, w := range ws {
		v, err := w.Receive(host, 30*time.Second)
		if err != nil {
			return fmt.Errorf("%s: %w", w.Name(), err)
		}
		r := v.(*goja.Object)
		total += r.Get("primes").ToInteger()
		fmt.Printf("%s → main: %d primes in [%d, %d), computed in %v ms on its own thread\n",
			r.Get("worker"), r.Get("primes").ToInteger(), r.Get("from").ToInteger(), r.Get("to").ToInteger(), r.Get("ms"))
	}
	for _, w := range ws {
		if err := w.Join(30 * time.Second); err != nil {
			return fmt.Errorf("%s: %w", w.Name(), err)
		}
		fmt.Printf("%s closed itself (state %s)\n", w.Name(), w.State())
	}
	fmt.Printf("%d primes below %d, %d workers in parallel, %v in all\n", total, workers*span, workers, time.Since(start).Round(time.Millisecond))
	if total != 9592 { // π(10^5)
		return fmt.Errorf("expected 9592 primes, got %d", total)
	}
	return nil
}
