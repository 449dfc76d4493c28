package inspector

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

// runIfWaitingForDebugger: targets never wait for a debugger in this version,
// so there is nothing to resume.
func runIfWaitingForDebugger(c *call) {
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
