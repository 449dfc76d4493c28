package core_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

func spawnExact(t *testing.T, src string, opts core.Options, inbox, outbox core.ChannelLimits) *core.Worker {
	t.Helper()
	w, err := core.SpawnExact(src, opts, inbox, outbox)
	if err != nil {
		t.Fatalf("SpawnExact: %v", err)
	}
	t.Cleanup(w.Release)
	return w
}

func TestSpawnExact_ZeroLimitsRefuseEverything(t *testing.T) {
	roomy := core.ChannelLimits{MaxFrameBytes: 1 << 10, MaxQueuedBytes: 1 << 20, MaxQueuedMessages: 8}
	tests := []struct {
		name  string
		inbox core.ChannelLimits
		want  error
	}{
		{"zero frame bytes", core.ChannelLimits{MaxQueuedBytes: 1 << 20, MaxQueuedMessages: 8}, core.ErrFrameTooLarge},
		{"zero queued bytes", core.ChannelLimits{MaxFrameBytes: 1 << 10, MaxQueuedMessages: 8}, core.ErrQueueFull},
		{"zero queued messages", core.ChannelLimits{MaxFrameBytes: 1 << 10, MaxQueuedBytes: 1 << 20}, core.ErrQueueFull},
		{"one byte", core.ChannelLimits{MaxFrameBytes: 1, MaxQueuedBytes: 1, MaxQueuedMessages: 1}, core.ErrFrameTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := spawnExact(t, `onmessage = (e) => postMessage(e.data);`, core.Options{}, tc.inbox, roomy)
			host := goja.New()
			if err := w.PostMessage(host, host.ToValue(1)); !errors.Is(err, tc.want) {
				t.Fatalf("PostMessage = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestSpawnExact_ZeroOutboxThrowsInWorker(t *testing.T) {
	roomy := core.ChannelLimits{MaxFrameBytes: 1 << 10, MaxQueuedBytes: 1 << 20, MaxQueuedMessages: 8}
	sink := newErrorSink()
	w := spawnExact(t, `postMessage(1);`, core.Options{OnError: sink.handle}, roomy, core.ChannelLimits{})
	rec := sink.next(t)
	if rec.Name != "RangeError" || !strings.Contains(rec.Message, "postMessage") {
		t.Fatalf("error record = %+v, want a RangeError from postMessage", rec)
	}
	w.Terminate()
	join(t, w)
}

func TestSpawnExact_ExactLimitsAllowWhatFits(t *testing.T) {
	one := core.ChannelLimits{MaxFrameBytes: 1 << 10, MaxQueuedBytes: 1 << 20, MaxQueuedMessages: 1}
	ran := make(chan struct{})
	w := spawnExact(t, `onmessage = (e) => postMessage(e.data * 2);`, core.Options{
		Setup: func(*core.Worker, *goja.Runtime) error { close(ran); return nil },
	}, one, one)
	<-ran // Options.Setup still runs
	host := goja.New()
	post(t, w, host, 21)
	if got := recv(t, w, host).ToInteger(); got != 42 {
		t.Fatalf("received %d, want 42", got)
	}
	if got := w.Inbox().Limits(); got != one {
		t.Fatalf("Inbox().Limits() = %+v, want %+v", got, one)
	}
}
