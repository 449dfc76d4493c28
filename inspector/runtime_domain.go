package inspector

import "slices"

type contextDescription struct {
	ID       int            `json:"id"`
	Origin   string         `json:"origin"`
	Name     string         `json:"name"`
	UniqueID string         `json:"uniqueId"`
	AuxData  contextAuxData `json:"auxData"`
}

type contextAuxData struct {
	IsDefault bool `json:"isDefault"`
}

type contextCreatedParams struct {
	Context contextDescription `json:"context"`
}

type contextDestroyedParams struct {
	ExecutionContextID       int    `json:"executionContextId"`
	ExecutionContextUniqueID string `json:"executionContextUniqueId"`
}

type detachedParams struct {
	Reason string `json:"reason"`
}

// runtimeEnable reports the target's context with
// Runtime.executionContextCreated (before the response, as V8 does) and turns
// on console and exception events. Enabling twice reports nothing new.
func runtimeEnable(c *call) {
	c.s.mu.Lock()
	was := c.s.enabled
	c.s.enabled = true
	c.s.mu.Unlock()
	if !was {
		ctx := c.s.ctx
		c.s.emit(encodeEvent(evContextCreated, contextCreatedParams{Context: contextDescription{
			ID: ctx.ID, Origin: ctx.Origin, Name: ctx.Name, UniqueID: ctx.UniqueID,
			AuxData: contextAuxData{IsDefault: true},
		}}))
	}
	c.reply(empty{})
}

// runtimeDisable turns events off and, as V8 does, releases every object the
// session holds: their objectIds become invalid.
func runtimeDisable(c *call) {
	c.s.mu.Lock()
	c.s.enabled = false
	for id := range c.s.store.objects {
		c.s.store.release(id)
	}
	c.s.store.console = nil
	c.s.mu.Unlock()
	c.reply(empty{})
}

// A WaitingTarget is a Target that can hold its program until a debugger
// says go (core.Options.WaitForDebugger, `jsworker run --inspect-brk`).
// RunIfWaiting is called on the target's thread; it releases the program and
// reports true if the target was waiting, and reports false otherwise.
type WaitingTarget interface {
	Target
	RunIfWaiting() bool
}

// A BreakOnStartTarget is a WaitingTarget that says whether its released
// program pauses at its first statement; a WaitingTarget without the method
// does.
type BreakOnStartTarget interface {
	WaitingTarget
	BreaksOnStart() bool
}

// runIfWaitingForDebugger releases a target waiting for a debugger. When the
// asking session has the Debugger domain enabled, the program then pauses at
// its first statement (reason "Break on start", as Node reports it) and
// that session owns the pause. A target that is not waiting just answers.
func runIfWaitingForDebugger(c *call) {
	if t, ok := c.s.target.(WaitingTarget); ok && t.RunIfWaiting() {
		if b, ok := t.(BreakOnStartTarget); ok && !b.BreaksOnStart() {
			c.reply(empty{})
			return
		}
		if d := c.s.debugger(); d != nil && d.rt != nil && slices.Contains(d.sessions, c.s) {
			d.breakOnStart(c.s)
		}
	}
	c.reply(empty{})
}

func discardConsoleEntries(c *call) {
	c.s.mu.Lock()
	c.s.store.releaseGroup(consoleGroup)
	c.s.mu.Unlock()
	c.reply(empty{})
}

func releaseObject(c *call) {
	var p struct {
		ObjectID *string `json:"objectId"`
	}
	if !c.decode(&p) {
		return
	}
	if p.ObjectID == nil {
		c.missing("objectId")
		return
	}
	c.s.mu.Lock()
	ok := c.s.store.release(*p.ObjectID)
	c.s.mu.Unlock()
	if !ok {
		c.failServer(msgNoObject)
		return
	}
	c.reply(empty{})
}

// releaseObjectGroup releases a group; an unknown group is not an error (V8).
func releaseObjectGroup(c *call) {
	var p struct {
		ObjectGroup *string `json:"objectGroup"`
	}
	if !c.decode(&p) {
		return
	}
	if p.ObjectGroup == nil {
		c.missing("objectGroup")
		return
	}
	c.s.mu.Lock()
	c.s.store.releaseGroup(*p.ObjectGroup)
	c.s.mu.Unlock()
	c.reply(empty{})
}
