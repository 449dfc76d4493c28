package core

// SpawnExact is Spawn with the channel limits taken literally: a zero field of inbox or outbox is a zero limit — that
// channel refuses every message, with ErrFrameTooLarge (MaxFrameBytes), ErrQueueFull (MaxQueuedBytes,
// MaxQueuedMessages) or, inside the worker, the RangeError postMessage throws for them — instead of the default
// Options.Inbox and Options.Outbox give it. Negative fields are zero limits too. opts.Inbox and opts.Outbox are
// ignored. The C ABI uses it for JSWorkerCreateWithLimits, where 0 means zero.
func SpawnExact(source string, opts Options, inbox, outbox ChannelLimits) (*Worker, error) {
	return spawn(source, opts, inbox.exact(), outbox.exact())
}

// exact returns l with negative fields raised to 0 and no defaults applied.
func (l ChannelLimits) exact() ChannelLimits {
	return ChannelLimits{
		MaxFrameBytes:     max(l.MaxFrameBytes, 0),
		MaxQueuedBytes:    max(l.MaxQueuedBytes, 0),
		MaxQueuedMessages: max(l.MaxQueuedMessages, 0),
	}
}
