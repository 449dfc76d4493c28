package core

import "github.com/dop251/goja"

// SpawnExact is Spawn with the channel limits taken literally: a zero field of inbox or outbox is a zero limit — that
// channel refuses every message, with ErrFrameTooLarge (MaxFrameBytes), ErrQueueFull (MaxQueuedBytes,
// MaxQueuedMessages) or, inside the worker, the RangeError postMessage throws for them — instead of the default
// Options.Inbox and Options.Outbox give it. Negative fields are zero limits too. opts.Inbox and opts.Outbox are
// ignored. The C ABI uses it for JSWorkerCreateWithLimits, where 0 means zero.
func SpawnExact(source string, opts Options, inbox, outbox ChannelLimits) (*Worker, error) {
	setup := opts.Setup
	opts.Setup = func(w *Worker, rt *goja.Runtime) error {
		// The worker's own thread is the only one that reads the outbox's limits outside the channel's lock
		// (postMessage), and its script has not run yet.
		w.outbox.setExactLimits(outbox)
		if setup != nil {
			return setup(w, rt)
		}
		return nil
	}
	opts.Inbox, opts.Outbox = ChannelLimits{}, ChannelLimits{}
	w, err := Spawn(source, opts)
	if err != nil {
		return nil, err
	}
	// The caller's goroutine is the only one that reads the inbox's limits outside the channel's lock
	// (PostMessage), and it cannot have posted yet.
	w.inbox.setExactLimits(inbox)
	return w, nil
}

// setExactLimits replaces c's limits without applying the defaults; negative fields become 0.
func (c *Channel) setExactLimits(l ChannelLimits) {
	c.mu.Lock()
	c.limits = ChannelLimits{
		MaxFrameBytes:     max(l.MaxFrameBytes, 0),
		MaxQueuedBytes:    max(l.MaxQueuedBytes, 0),
		MaxQueuedMessages: max(l.MaxQueuedMessages, 0),
	}
	c.mu.Unlock()
}
