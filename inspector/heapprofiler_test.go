package inspector

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// heapSnapshot is the part of a .heapsnapshot the test reads.
type heapSnapshot struct {
	Snapshot struct {
		Meta struct {
			NodeFields []string `json:"node_fields"`
			NodeTypes  []any    `json:"node_types"`
			EdgeFields []string `json:"edge_fields"`
			EdgeTypes  []any    `json:"edge_types"`
		} `json:"meta"`
		NodeCount int `json:"node_count"`
		EdgeCount int `json:"edge_count"`
	} `json:"snapshot"`
	Nodes   []int    `json:"nodes"`
	Edges   []int    `json:"edges"`
	Strings []string `json:"strings"`
}

// edgesOf returns the edges of node i (a node index) by name: target node index.
func (h *heapSnapshot) edgesOf(i int) map[string]int {
	first := 0
	for n := 0; n < i; n++ {
		first += h.Nodes[n*7+4]
	}
	out := map[string]int{}
	for e := first; e < first+h.Nodes[i*7+4]; e++ {
		typ, name, to := h.Edges[e*3], h.Edges[e*3+1], h.Edges[e*3+2]/7
		if typ == edgeElement {
			out[strconv.Itoa(name)] = to
		} else {
			out[h.Strings[name]] = to
		}
	}
	return out
}

// TestHeapProfiler: object ids are stable and name their object; the snapshot is V8's format (progress and chunks
// before the answer) and holds the program's objects with their property edges; the allocation commands answer why
// they are absent; disable forgets the ids.
func TestHeapProfiler(t *testing.T) {
	lt := newLoopTarget(t, 1)
	s := lt.attach()
	defer s.Close()
	next(t, s)
	ask(t, s, 1, "HeapProfiler.enable", "")
	r := ask(t, s, 2, "Runtime.evaluate", `{"expression":"globalThis.holder = {payload: [7, {deep: 'needle-string'}], fn: function namedFn() {}}"}`)
	obj, _ := field(r, "result", "result", "objectId").(string)
	hid, _ := field(ask(t, s, 3, "HeapProfiler.getHeapObjectId", `{"objectId":"`+obj+`"}`), "result", "heapSnapshotObjectId").(string)
	if again := field(ask(t, s, 4, "HeapProfiler.getHeapObjectId", `{"objectId":"`+obj+`"}`), "result", "heapSnapshotObjectId"); hid == "" || again != hid {
		t.Fatalf("heap ids %q, %v", hid, again)
	}
	back := ask(t, s, 5, "HeapProfiler.getObjectByHeapObjectId", `{"objectId":"`+hid+`","objectGroup":"g"}`)
	if field(back, "result", "result", "className") != "Object" || field(back, "result", "result", "objectId") == nil {
		t.Fatalf("getObjectByHeapObjectId: %v", back)
	}
	if e := field(ask(t, s, 6, "HeapProfiler.getObjectByHeapObjectId", `{"objectId":"2"}`), "error", "message"); e != "Object is not available" {
		t.Errorf("unknown heap id: %v", e)
	}

	dispatch(t, s, `{"id":7,"method":"HeapProfiler.takeHeapSnapshot","params":{"reportProgress":true}}`)
	var body strings.Builder
	finished := false
	for {
		m := next(t, s)
		if m["id"] == 7.0 {
			if m["error"] != nil {
				t.Fatalf("takeHeapSnapshot: %v", m)
			}
			break
		}
		switch m["method"] {
		case "HeapProfiler.addHeapSnapshotChunk":
			if !finished {
				t.Error("a chunk before the finished progress report")
			}
			body.WriteString(field(m, "params", "chunk").(string))
		case "HeapProfiler.reportHeapSnapshotProgress":
			finished = finished || field(m, "params", "finished") == true
		}
	}
	var h heapSnapshot
	if err := json.Unmarshal([]byte(body.String()), &h); err != nil {
		t.Fatalf("the snapshot is not JSON: %v", err)
	}
	if len(h.Snapshot.Meta.NodeFields) != 7 || h.Snapshot.NodeCount*7 != len(h.Nodes) || h.Snapshot.EdgeCount*3 != len(h.Edges) {
		t.Fatalf("snapshot layout: %+v, %d nodes, %d edges", h.Snapshot, len(h.Nodes), len(h.Edges))
	}
	holder := -1
	for i := 0; i < h.Snapshot.NodeCount; i++ {
		if strconv.Itoa(h.Nodes[i*7+2]) == hid {
			holder = i
		}
	}
	if holder < 0 || h.Strings[h.Nodes[holder*7+1]] != "Object" {
		t.Fatalf("no node with the object's heap id %s", hid)
	}
	e := h.edgesOf(holder)
	arr, okP := e["payload"]
	fn, okF := e["fn"]
	if !okP || !okF || h.Strings[h.Nodes[arr*7+1]] != "Array" || h.Nodes[fn*7] != nodeClosure || h.Strings[h.Nodes[fn*7+1]] != "namedFn" {
		t.Fatalf("holder's edges: %v", e)
	}
	deep := h.edgesOf(h.edgesOf(arr)["1"])["deep"]
	if h.Nodes[deep*7] != nodeString || h.Strings[h.Nodes[deep*7+1]] != "needle-string" {
		t.Errorf("payload[1].deep is node type %d %q", h.Nodes[deep*7], h.Strings[h.Nodes[deep*7+1]])
	}
	if _, ok := h.edgesOf(0)["global"]; !ok {
		t.Error("the root has no edge to the global object")
	}

	if e := field(ask(t, s, 8, "HeapProfiler.startSampling", ""), "error", "message"); e != msgNoAllocationHooks {
		t.Errorf("startSampling: %v", e)
	}
	if r := ask(t, s, 9, "HeapProfiler.collectGarbage", ""); r["error"] != nil {
		t.Errorf("collectGarbage: %v", r)
	}
	ask(t, s, 10, "HeapProfiler.disable", "")
	if e := field(ask(t, s, 11, "HeapProfiler.getObjectByHeapObjectId", `{"objectId":"`+hid+`"}`), "error", "message"); e != "Object is not available" {
		t.Errorf("after disable: %v", e)
	}
}
