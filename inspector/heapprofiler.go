// The HeapProfiler domain, as the Memory panel of Chrome DevTools uses it.
//
// goja's objects live in the Go heap, which all targets of the process
// share, and goja has no allocation hooks. What exists here: a heap snapshot
// of the realm (heapsnapshot.go) — the object graph reachable from the
// global object through own properties, array elements and prototypes, in
// V8's .heapsnapshot format, with estimated sizes — stable heap object ids
// for objects while the domain is enabled (getHeapObjectId,
// getObjectByHeapObjectId), and collectGarbage (a Go GC). Allocation
// sampling and allocation tracking answer an error saying why.

package inspector

import (
	"runtime"
	"strconv"

	"github.com/dop251/goja"
)

// msgNoAllocationHooks is the answer of the allocation-recording commands.
const msgNoAllocationHooks = "HeapProfiler: allocation sampling and tracking are not available: " +
	"goja allocates JavaScript objects in the Go heap without allocation hooks; use takeHeapSnapshot"

// heapIDs gives objects stable heap snapshot ids (odd numbers, as V8's for
// JavaScript objects) while HeapProfiler is enabled; HeapProfiler.disable
// forgets them, which lets the objects go.
type heapIDs struct {
	enabled bool
	ids     map[*goja.Object]uint64
	objs    map[uint64]*goja.Object
	last    uint64
}

// idOf returns o's heap object id, giving it one.
func (h *heapIDs) idOf(o *goja.Object) uint64 {
	if id, ok := h.ids[o]; ok {
		return id
	}
	if h.ids == nil {
		h.ids = make(map[*goja.Object]uint64)
		h.objs = make(map[uint64]*goja.Object)
		h.last = 1
	}
	h.last += 2
	h.ids[o], h.objs[h.last] = h.last, o
	return h.last
}

func heapProfilerEnable(c *call) {
	c.s.heap.enabled = true
	c.reply(empty{})
}

func heapProfilerDisable(c *call) {
	c.s.heap = heapIDs{}
	c.reply(empty{})
}

// collectGarbage runs a Go garbage collection: the realm's unreachable objects
// are collected with the rest of the process's heap.
func collectGarbage(c *call) {
	runtime.GC()
	c.reply(empty{})
}

func getHeapObjectID(c *call) {
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
	h, ok := c.s.store.get(*p.ObjectID)
	c.s.mu.Unlock()
	o, isObj := h.v.(*goja.Object)
	if !ok || !isObj {
		c.failServer("Object is not available")
		return
	}
	c.reply(struct {
		HeapSnapshotObjectID string `json:"heapSnapshotObjectId"`
	}{strconv.FormatUint(c.s.heap.idOf(o), 10)})
}

// heapObject returns the object a heap snapshot id names, or answers an error.
func (c *call) heapObject(raw *string) (*goja.Object, bool) {
	if raw == nil {
		c.missing("objectId")
		return nil, false
	}
	id, err := strconv.ParseUint(*raw, 10, 64)
	o := c.s.heap.objs[id]
	if err != nil || o == nil {
		c.failServer("Object is not available")
		return nil, false
	}
	return o, true
}

func getObjectByHeapObjectID(c *call) {
	defer c.fence()
	var p struct {
		ObjectID    *string `json:"objectId"`
		ObjectGroup string  `json:"objectGroup"`
	}
	if !c.decode(&p) {
		return
	}
	o, ok := c.heapObject(p.ObjectID)
	if !ok {
		return
	}
	c.reply(struct {
		Result *remoteObject `json:"result"`
	}{c.remote(o, p.ObjectGroup)})
}

// addInspectedHeapObject is V8's "$x in the console" hook; here it checks the
// id: the console has no $-variables to fill.
func addInspectedHeapObject(c *call) {
	var p struct {
		HeapObjectID *string `json:"heapObjectId"`
	}
	if !c.decode(&p) {
		return
	}
	if _, ok := c.heapObject(p.HeapObjectID); ok {
		c.reply(empty{})
	}
}

func noAllocationHooks(c *call) { c.failServer(msgNoAllocationHooks) }
