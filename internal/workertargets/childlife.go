package workertargets

import "github.com/jsworker/jsworker/core"

// The lives of a family's children: attached when the protocol that wants them is turned on (for the workers
// already running) and as each new worker starts (core.WatchWorkers), detached by a command, a disable or the end
// of the family, ended with their worker.

// setProtocol turns one protocol on or off (or changes its waitForDebuggerOnStart), adjusting the holds on the
// target's new workers and the watch, and attaching to the running children when it is turned on.
func (f *family) setProtocol(mode attachMode, st autoAttach) {
	f.mu.Lock()
	was := f.auto
	if mode == viaNodeWorker {
		was = f.nw
		f.nw = st
	} else {
		f.auto = st
	}
	f.mu.Unlock()
	f.syncHolds()
	if st.on {
		f.follow()
		if !was.on {
			for _, w := range f.liveChildren() {
				if f.attachedTo(w.ID, mode) == nil {
					f.attach(w, mode, false)
				}
			}
		}
		return
	}
	var drop []string
	f.mu.Lock()
	for sid, c := range f.children {
		if c.mode == mode {
			drop = append(drop, sid)
		}
	}
	off := !f.auto.on && !f.nw.on
	f.mu.Unlock()
	for _, sid := range drop {
		f.detach(sid, mode)
	}
	if off {
		f.unfollow()
	}
}

// syncHolds makes the number of HoldNewChildren holds the family keeps on its target match what the protocols
// ask for (none once the family is closed).
func (f *family) syncHolds() {
	if f.owner == nil {
		return // a host realm's new workers are attached, not held
	}
	f.mu.Lock()
	want := 0
	if !f.closed && !f.innerDone {
		if f.auto.on && f.auto.wait {
			want++
		}
		if f.nw.on && f.nw.wait {
			want++
		}
	}
	delta := want - f.holds
	f.holds = want
	f.mu.Unlock()
	for ; delta > 0; delta-- {
		f.owner.HoldNewChildren(true)
	}
	for ; delta < 0; delta++ {
		f.owner.HoldNewChildren(false)
	}
}

// follow starts watching for the target's new workers, once.
func (f *family) follow() {
	f.mu.Lock()
	if f.watching || f.closed || f.innerDone {
		f.mu.Unlock()
		return
	}
	f.watching = true
	f.mu.Unlock()
	stop := core.WatchWorkers(func(w core.WorkerInfo, started bool) {
		if !started || w.Parent != f.self {
			return
		}
		// On the spawning goroutine, under the watch lock: attach from a goroutine of the family's.
		f.mu.Lock()
		if f.closed {
			f.mu.Unlock()
			w.Worker.ReleaseHeld()
			return
		}
		f.bg.Add(1)
		f.mu.Unlock()
		go func() {
			defer f.bg.Done()
			f.childStarted(w)
		}()
	})
	f.mu.Lock()
	if !f.watching || f.closed { // unfollowed (or closed) while the watch started
		f.mu.Unlock()
		stop()
		return
	}
	f.stop = stop
	f.mu.Unlock()
}

// unfollow ends the watch; once it returns, no new child is reported (a watch still starting ends as it does).
func (f *family) unfollow() {
	f.mu.Lock()
	stop := f.stop
	f.stop, f.watching = nil, false
	f.mu.Unlock()
	if stop != nil {
		stop()
	}
	f.syncHolds()
}

// childStarted attaches the protocols that are on to a new worker of the target, or releases it when it was held
// for a session that is no longer there to release it.
func (f *family) childStarted(w core.WorkerInfo) {
	f.mu.Lock()
	auto, nw := f.auto.on, f.nw.on
	f.mu.Unlock()
	attached := false
	if auto && f.attach(w, viaTarget, w.Waiting) != nil {
		attached = true
	}
	if nw && f.attach(w, viaNodeWorker, w.Waiting) != nil {
		attached = true
	}
	if !attached {
		w.Worker.ReleaseHeld()
	}
}

// attach opens a session on worker w, announces it and starts its pump. It returns nil when the worker has ended
// or the family is closed.
func (f *family) attach(w core.WorkerInfo, mode attachMode, waiting bool) *child {
	s, err := w.Worker.InspectorSession()
	if err != nil {
		return nil
	}
	inner := &session{w: w.Worker, s: s}
	f.mu.Lock()
	limit, limited := f.limit, f.limited
	f.mu.Unlock()
	if limited {
		inner.SetLimits(limit)
	}
	c := &child{sid: sessionIDFor(w, mode), mode: mode, info: w, s: newFamily(w.ID, w.Worker, inner)}
	f.mu.Lock()
	if f.closed || f.innerDone {
		f.mu.Unlock()
		c.s.Close()
		return nil
	}
	f.children[c.sid] = c
	f.pumps++
	f.bg.Add(1)
	f.mu.Unlock()
	// The announcement goes before any message of the child's.
	if mode == viaNodeWorker {
		f.push(eventFor("NodeWorker.attachedToWorker", struct {
			SessionID  string `json:"sessionId"`
			WorkerInfo struct {
				WorkerID string `json:"workerId"`
				Type     string `json:"type"`
				Title    string `json:"title"`
				URL      string `json:"url"`
			} `json:"workerInfo"`
			WaitingForDebugger bool `json:"waitingForDebugger"`
		}{SessionID: c.sid, WorkerInfo: struct {
			WorkerID string `json:"workerId"`
			Type     string `json:"type"`
			Title    string `json:"title"`
			URL      string `json:"url"`
		}{c.sid, "worker", "[worker " + c.sid + "] " + workerTitle(w), FileURL(w.Filename)}, WaitingForDebugger: waiting}))
	} else {
		f.push(eventFor("Target.attachedToTarget", struct {
			SessionID          string     `json:"sessionId"`
			TargetInfo         targetInfo `json:"targetInfo"`
			WaitingForDebugger bool       `json:"waitingForDebugger"`
		}{c.sid, f.infoOf(w, true), waiting}))
	}
	go func() {
		defer f.bg.Done()
		f.pump(c.s, c)
	}()
	return c
}

// detach closes the child session sid of the given mode; false if there is none. The pump then announces the end.
func (f *family) detach(sid string, mode attachMode) bool {
	f.mu.Lock()
	c := f.children[sid]
	if c == nil || c.mode != mode {
		f.mu.Unlock()
		return false
	}
	c.dropped = true
	f.mu.Unlock()
	c.s.Close()
	c.info.Worker.ReleaseHeld()
	return true
}

// closeChildren detaches every child.
func (f *family) closeChildren() {
	f.mu.Lock()
	var all []*child
	for _, c := range f.children {
		c.dropped = true
		all = append(all, c)
	}
	f.mu.Unlock()
	for _, c := range all {
		c.s.Close()
		c.info.Worker.ReleaseHeld()
	}
}

// childEnded forgets a child whose session ended (its worker ended, or it was detached) and tells the client.
func (f *family) childEnded(c *child) {
	f.mu.Lock()
	delete(f.children, c.sid)
	dropped, discover, closed := c.dropped, f.discover, f.closed
	f.mu.Unlock()
	if closed {
		return
	}
	if c.mode == viaNodeWorker {
		f.push(eventFor("NodeWorker.detachedFromWorker", struct {
			SessionID string `json:"sessionId"`
		}{c.sid}))
		return
	}
	f.push(eventFor("Target.detachedFromTarget", struct {
		SessionID string `json:"sessionId"`
		TargetID  string `json:"targetId"`
	}{c.sid, Key(c.info.ID)}))
	if discover && !dropped {
		f.push(eventFor("Target.targetDestroyed", struct {
			TargetID string `json:"targetId"`
		}{Key(c.info.ID)}))
	}
}
