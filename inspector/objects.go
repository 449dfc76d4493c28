package inspector

import (
	"strconv"

	"github.com/dop251/goja"
)

// maxConsoleObjects bounds what the "console" group keeps: the objects of
// console messages and uncaught exceptions reported while Runtime is enabled.
// Beyond it the oldest are released, as Chrome drops old console messages.
const maxConsoleObjects = 1000

// consoleGroup is the object group of console arguments and reported
// exceptions, as in V8. Runtime.discardConsoleEntries releases it.
const consoleGroup = "console"

type heldObject struct {
	v     goja.Value
	group string
}

// objectStore maps a session's objectIds to the values they keep alive. It is
// guarded by Session.mu; values in it are only used on the target's thread.
type objectStore struct {
	prefix   string // "<session>.<context>."
	objects  map[string]heldObject
	groups   map[string]map[string]struct{}
	console  []string // console-group ids, oldest first (may hold released ids)
	next     uint64
	created  int  // ids ever handed out
	released int  // ids ever dropped: equals created once the session is gone
	dropped  bool // dropAll ran: nothing is held any more
}

// add keeps v alive under a new objectId. It returns "" once the store was
// dropped: the session is gone and the reply will never be seen.
func (st *objectStore) add(v goja.Value, group string) string {
	if st.dropped {
		return ""
	}
	if st.objects == nil {
		st.objects = make(map[string]heldObject)
		st.groups = make(map[string]map[string]struct{})
	}
	st.next++
	id := st.prefix + strconv.FormatUint(st.next, 10)
	st.objects[id] = heldObject{v: v, group: group}
	st.created++
	if group != "" {
		g := st.groups[group]
		if g == nil {
			g = make(map[string]struct{})
			st.groups[group] = g
		}
		g[id] = struct{}{}
	}
	if group == consoleGroup {
		st.console = append(st.console, id)
		for len(st.console) > maxConsoleObjects {
			st.release(st.console[0])
			st.console[0] = ""
			st.console = st.console[1:]
		}
	}
	return id
}

func (st *objectStore) get(id string) (heldObject, bool) {
	h, ok := st.objects[id]
	return h, ok
}

// release drops one id; false if it was not held.
func (st *objectStore) release(id string) bool {
	h, ok := st.objects[id]
	if !ok {
		return false
	}
	delete(st.objects, id)
	if g := st.groups[h.group]; g != nil {
		delete(g, id)
		if len(g) == 0 {
			delete(st.groups, h.group)
		}
	}
	st.released++
	return true
}

// releaseGroup drops every id of a group.
func (st *objectStore) releaseGroup(group string) {
	for id := range st.groups[group] {
		st.release(id)
	}
	if group == consoleGroup {
		st.console = nil
	}
}

// dropAll drops everything, once, and refuses later additions.
func (st *objectStore) dropAll() {
	st.released += len(st.objects)
	st.objects, st.groups, st.console = nil, nil, nil
	st.dropped = true
}
