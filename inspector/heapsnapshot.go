package inspector

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// HeapProfiler.takeHeapSnapshot: the realm's object graph in V8's
// .heapsnapshot format, sent as HeapProfiler.addHeapSnapshotChunk events
// before the answer. Coarse: the graph is what the program can reach from the
// global object — own properties (accessors as their get and set functions),
// array elements, prototypes — read without running code; closures' captured
// variables and collections' entries are not walked; sizes are estimates.

// maxSnapshotNodes bounds a snapshot; objects beyond it are left out.
const maxSnapshotNodes = 200_000

// snapshotChunk is the size of one addHeapSnapshotChunk.
const snapshotChunk = 64 << 10

// V8's node and edge type indices (meta.node_types[0], meta.edge_types[0]).
const (
	nodeObject    = 3
	nodeClosure   = 5
	nodeRegexp    = 6
	nodeSynthetic = 9
	nodeString    = 2

	edgeElement  = 1
	edgeProperty = 2
	edgeShortcut = 5
)

type snapEdge struct{ typ, name, to int }

type snapNode struct {
	typ, name int
	id        uint64
	size      int
	edges     []snapEdge
}

// heapWalk builds one snapshot.
type heapWalk struct {
	c       *call
	nodes   []*snapNode
	strs    []string
	strIdx  map[string]int
	objIdx  map[*goja.Object]int
	strNode map[string]int
	queue   []*goja.Object
	nextID  uint64 // ids of strings and synthetic nodes: even, per snapshot
}

func (w *heapWalk) str(s string) int {
	if i, ok := w.strIdx[s]; ok {
		return i
	}
	w.strs = append(w.strs, s)
	w.strIdx[s] = len(w.strs) - 1
	return len(w.strs) - 1
}

func (w *heapWalk) synthetic(name string) int {
	w.nextID += 2
	w.nodes = append(w.nodes, &snapNode{typ: nodeSynthetic, name: w.str(name), id: w.nextID})
	return len(w.nodes) - 1
}

// object returns the node of o, queueing it to be walked; -1 past the bound.
func (w *heapWalk) object(o *goja.Object) int {
	if i, ok := w.objIdx[o]; ok {
		return i
	}
	if len(w.nodes) >= maxSnapshotNodes {
		return -1
	}
	w.nodes = append(w.nodes, &snapNode{typ: nodeObject, id: w.c.s.heap.idOf(o)})
	i := len(w.nodes) - 1
	w.objIdx[o] = i
	w.queue = append(w.queue, o)
	return i
}

// value returns the node of a property's value: objects and strings have
// nodes; other primitives are immediate, as V8's small integers, and have none.
func (w *heapWalk) value(v goja.Value) int {
	switch x := v.(type) {
	case *goja.Object:
		return w.object(x)
	case goja.String:
		s := x.String()
		if i, ok := w.strNode[s]; ok {
			return i
		}
		if len(w.nodes) >= maxSnapshotNodes {
			return -1
		}
		name := s
		if len(name) > 1024 {
			name = name[:1024]
		}
		w.nextID += 2
		w.nodes = append(w.nodes, &snapNode{typ: nodeString, name: w.str(name), id: w.nextID, size: 16 + len(s)})
		w.strNode[s] = len(w.nodes) - 1
		return len(w.nodes) - 1
	}
	return -1
}

// walk fills in the node of o: its type, name, size and edges.
func (w *heapWalk) walk(o *goja.Object) {
	n := w.nodes[w.objIdx[o]]
	c := w.c
	name := ""
	if _, callable := goja.AssertFunction(o); callable {
		n.typ, n.size = nodeClosure, 64
		if d, ok := c.ownDescriptor(o, c.rt.ToValue("name")); ok && !d.accessor {
			name = d.value.String()
		}
	} else {
		n.size = 32
		name = c.constructorName(o)
		if name == "RegExp" {
			n.typ = nodeRegexp
		}
		if name == "" {
			name = "Object"
		}
	}
	n.name = w.str(name)
	if isProxy(o) {
		return // its traps would run
	}
	edge := func(typ, label int, v goja.Value) {
		if to := w.value(v); to >= 0 {
			n.edges = append(n.edges, snapEdge{typ, label, to})
		}
	}
	if t := c.realm(); t.ownKeys != nil && c.descriptorsReadable() {
		if kv, ok := invoke(t.ownKeys, goja.Undefined(), o); ok {
			if keys, isArr := kv.(*goja.Object); isArr {
				count := keys.Get("length").ToInteger() // a fresh array: no getter
				for i := int64(0); i < count; i++ {
					key := keys.Get(strconv.FormatInt(i, 10))
					d, ok := c.ownDescriptor(o, key)
					if !ok {
						continue
					}
					n.size += 8
					label := key.String()
					if sym, isSym := key.(*goja.Symbol); isSym {
						label = symbolDescription(sym)
					}
					if d.accessor {
						edge(edgeProperty, w.str("get "+label), d.get)
						edge(edgeProperty, w.str("set "+label), d.set)
						continue
					}
					if isArrayIndex(label) {
						idx, _ := strconv.Atoi(label)
						edge(edgeElement, idx, d.value)
					} else {
						edge(edgeProperty, w.str(label), d.value)
					}
				}
			}
		}
	}
	if p := o.Prototype(); p != nil {
		edge(edgeProperty, w.str("__proto__"), p)
	}
}

func takeHeapSnapshot(c *call) {
	defer c.fence()
	var p struct {
		ReportProgress bool `json:"reportProgress"`
	}
	if !c.decode(&p) {
		return
	}
	w := &heapWalk{c: c, strIdx: map[string]int{}, objIdx: map[*goja.Object]int{}, strNode: map[string]int{}}
	root := w.synthetic("")
	gcRoots := w.synthetic("(GC roots)")
	w.nodes[root].edges = append(w.nodes[root].edges, snapEdge{edgeElement, 1, gcRoots})
	global := w.object(c.rt.GlobalObject())
	w.nodes[root].edges = append(w.nodes[root].edges, snapEdge{edgeShortcut, w.str("global"), global})
	w.nodes[gcRoots].edges = append(w.nodes[gcRoots].edges, snapEdge{edgeElement, 1, global})
	for done := 0; done < len(w.queue); done++ {
		w.walk(w.queue[done])
		if p.ReportProgress && done%1000 == 999 {
			c.s.emit(encodeEvent(evHeapProgress, struct {
				Done  int `json:"done"`
				Total int `json:"total"`
			}{done + 1, len(w.queue)}))
		}
	}
	body := w.encode()
	if p.ReportProgress {
		c.s.emit(encodeEvent(evHeapProgress, struct {
			Done     int  `json:"done"`
			Total    int  `json:"total"`
			Finished bool `json:"finished"`
		}{len(w.queue), len(w.queue), true}))
	}
	for len(body) > 0 {
		n := min(snapshotChunk, len(body))
		for n < len(body) && !utf8.RuneStart(body[n]) {
			n++
		}
		c.s.emit(encodeEvent(evHeapChunk, struct {
			Chunk string `json:"chunk"`
		}{string(body[:n])}))
		body = body[n:]
	}
	c.reply(empty{})
}

// snapshotMeta is V8's snapshot.meta (the field layout the front end reads).
const snapshotMeta = `{"node_fields":["type","name","id","self_size","edge_count","trace_node_id","detachedness"],` +
	`"node_types":[["hidden","array","string","object","code","closure","regexp","number","native","synthetic",` +
	`"concatenated string","sliced string","symbol","bigint","object shape"],"string","number","number","number","number","number"],` +
	`"edge_fields":["type","name_or_index","to_node"],` +
	`"edge_types":[["context","element","property","internal","hidden","shortcut","weak"],"string_or_number","node"],` +
	`"trace_function_info_fields":["function_id","name","script_name","script_id","line","column"],` +
	`"trace_node_fields":["id","function_info_index","count","size","children"],` +
	`"sample_fields":["timestamp_us","last_assigned_id"],` +
	`"location_fields":["object_index","script_id","line","column"]}`

const nodeFieldCount = 7

func (w *heapWalk) encode() []byte {
	var b bytes.Buffer
	edges := 0
	for _, n := range w.nodes {
		edges += len(n.edges)
	}
	b.WriteString(`{"snapshot":{"meta":` + snapshotMeta + `,"node_count":` + strconv.Itoa(len(w.nodes)) +
		`,"edge_count":` + strconv.Itoa(edges) + `,"trace_function_count":0},"nodes":[`)
	for i, n := range w.nodes {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(n.typ) + "," + strconv.Itoa(n.name) + "," + strconv.FormatUint(n.id, 10) + "," +
			strconv.Itoa(n.size) + "," + strconv.Itoa(len(n.edges)) + ",0,0")
	}
	b.WriteString(`],"edges":[`)
	first := true
	for _, n := range w.nodes {
		for _, e := range n.edges {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(strconv.Itoa(e.typ) + "," + strconv.Itoa(e.name) + "," + strconv.Itoa(e.to*nodeFieldCount))
		}
	}
	b.WriteString(`],"trace_function_infos":[],"trace_tree":[],"samples":[],"locations":[],"strings":`)
	strs, _ := json.Marshal(w.strs)
	b.Write(strs)
	b.WriteString(`}`)
	return b.Bytes()
}
