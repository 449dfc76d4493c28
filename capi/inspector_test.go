package capi

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/jsworker/jsworker/inspector"
)

// The Go tests cannot make C function pointers, so the sessions they create get a dummy callback and
// testHookDeliver routes each message to the recorder named by the session's userData. Everything else — handles,
// threads, the transports — is the code a C host runs; tests/c/inspector_test.c covers the C callback itself.

const fakeCallback uintptr = 1

// A recorder collects the messages delivered to one session callback, with the thread each arrived on.
type recorder struct {
	mu    sync.Mutex
	msgs  []string
	tids  []int
	depth int // callbacks running now (re-entrancy)
	max   int // the largest depth seen
	// onMessage, if set, runs inside the callback (on the delivering thread).
	onMessage func(msg string)
}

var (
	recorders    sync.Map // userData → *recorder
	lastRecorder atomic.Uintptr
)

func init() {
	testHookDeliver = func(fn, userData uintptr, msg []byte) {
		if fn != fakeCallback {
			panic("a callback other than the test's")
		}
		r, _ := recorders.Load(userData)
		rec := r.(*recorder)
		rec.mu.Lock()
		rec.msgs = append(rec.msgs, string(msg))
		rec.tids = append(rec.tids, gettid())
		rec.depth++
		rec.max = max(rec.max, rec.depth)
		on := rec.onMessage
		rec.mu.Unlock()
		if on != nil {
			on(string(msg))
		}
		rec.mu.Lock()
		rec.depth--
		rec.mu.Unlock()
	}
}

// newRecorder returns a recorder and the userData that names it.
func newRecorder(t *testing.T) (*recorder, uintptr) {
	t.Helper()
	ud := lastRecorder.Add(1)
	rec := &recorder{}
	recorders.Store(ud, rec)
	t.Cleanup(func() { recorders.Delete(ud) })
	return rec, ud
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

func (r *recorder) threads() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.tids...)
}

// find returns the first recorded message that pred accepts.
func (r *recorder) find(pred func(cdpMessage) bool) (cdpMessage, bool) {
	for _, s := range r.all() {
		if m := decodeCDP(s); pred(m) {
			return m, true
		}
	}
	return cdpMessage{}, false
}

// A cdpMessage is a decoded response or event.
type cdpMessage struct {
	ID     *int64          `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Params json.RawMessage `json:"params"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

func decodeCDP(s string) cdpMessage {
	var m cdpMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(fmt.Sprintf("not JSON: %q: %v", s, err))
	}
	m.raw = s
	return m
}

func response(id int64) func(cdpMessage) bool {
	return func(m cdpMessage) bool { return m.ID != nil && *m.ID == id }
}

func event(method string) func(cdpMessage) bool {
	return func(m cdpMessage) bool { return m.ID == nil && m.Method == method }
}

func wDispatch(h uintptr, msg string) bool {
	b := []byte(msg)
	return ZJSWorkerInspectorSessionDispatch(h, unsafe.SliceData(b), uintptr(len(b)))
}

func cDispatch(h uintptr, msg string) bool {
	b := []byte(msg)
	return ZJSInspectorSessionDispatch(h, unsafe.SliceData(b), uintptr(len(b)))
}

// pumpFor pumps a worker session until the recorder holds a message pred accepts, and returns it.
func pumpFor(t *testing.T, h uintptr, rec *recorder, pred func(cdpMessage) bool) cdpMessage {
	t.Helper()
	for range 1000 {
		if m, ok := rec.find(pred); ok {
			return m
		}
		if r := ZJSWorkerInspectorSessionPump(h, 5000); r != pumpMessage {
			t.Fatalf("pump = %d before the expected message came; got %q", r, rec.all())
		}
	}
	t.Fatalf("the expected message never came; got %q", rec.all())
	return cdpMessage{}
}

// pumpToClosed pumps until the session reports Closed.
func pumpToClosed(t *testing.T, h uintptr) {
	t.Helper()
	for range 1000 {
		switch r := ZJSWorkerInspectorSessionPump(h, 5000); r {
		case pumpClosed:
			return
		case pumpMessage:
		default:
			t.Fatalf("pump = %d, want Message until Closed", r)
		}
	}
	t.Fatal("the session never closed")
}

// wsessionOf and csessionOf reach the Go session behind a handle (to check what it holds).
func wsessionOf(t *testing.T, h uintptr) *inspector.Session {
	t.Helper()
	ws, err := getWorkerSession("test", h)
	if err != nil {
		t.Fatal(err)
	}
	return ws.s
}

func csessionOf(t *testing.T, h uintptr) *inspector.Session {
	t.Helper()
	cs, err := getContextSession("test", h)
	if err != nil {
		t.Fatal(err)
	}
	return cs.s
}

// checkDropped fails unless s has dropped every object it held.
func checkDropped(t *testing.T, s *inspector.Session) {
	t.Helper()
	select {
	case <-s.Dropped():
	default:
		t.Fatal("the session's objects were not dropped when release returned")
	}
	if n := s.HeldObjects(); n != 0 {
		t.Fatalf("%d objects still held", n)
	}
}

// newInspectedWorker locks the test to its thread and starts a doubler worker, released at the end of the test
// unless the test released it.
func newInspectedWorker(t *testing.T) uintptr {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	w := JSWorkerCreate(mkString(t, `onmessage = (e) => postMessage(e.data * 2);`))
	if w == 0 {
		t.Fatal("JSWorkerCreate = NULL")
	}
	t.Cleanup(func() { JSWorkerRelease(w) })
	return w
}

// checkNoSessions fails if a session handle is left.
func checkNoSessions(t *testing.T) {
	t.Helper()
	if n := handles.count(kindWorkerSession) + handles.count(kindContextSession); n != 0 {
		t.Fatalf("%d session handles left", n)
	}
}

const evalObject = `{"id":3,"method":"Runtime.evaluate","params":{"expression":"({ answer: 42, nested: { ok: true } })",` +
	`"objectGroup":"g"}}`

// objectID reads result.result.objectId of an evaluate response.
func objectID(t *testing.T, m cdpMessage) string {
	t.Helper()
	var r struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := json.Unmarshal(m.Result, &r); err != nil || r.Result.ObjectID == "" {
		t.Fatalf("no objectId in %s", m.raw)
	}
	return r.Result.ObjectID
}

func getProperties(id int, objectID string) string {
	return fmt.Sprintf(`{"id":%d,"method":"Runtime.getProperties","params":{"objectId":%q,"ownProperties":true}}`,
		id, objectID)
}

func TestWorkerInspector_MarshallingOnTheOwnerThread(t *testing.T) {
	w := newInspectedWorker(t)
	rec, ud := newRecorder(t)
	h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
	if h == 0 {
		t.Fatal("ZJSWorkerInspectorSessionCreate = NULL")
	}
	defer ZJSWorkerInspectorSessionRelease(h)

	if r := ZJSWorkerInspectorSessionPump(h, 0); r != pumpMessage {
		t.Fatalf("the first pump (timeout 0) = %d, want Message", r)
	}
	if got := rec.all(); len(got) != 1 || decodeCDP(got[0]).Method != "Runtime.executionContextsCleared" {
		t.Fatalf("first message %q, want Runtime.executionContextsCleared", got)
	}
	if r := ZJSWorkerInspectorSessionPump(h, 0); r != pumpTimeout {
		t.Fatalf("a pump with nothing queued = %d, want Timeout", r)
	}
	if !wDispatch(h, `{"id":1,"method":"Schema.getDomains"}`) || !wDispatch(h, `{"id":2,"method":"Runtime.enable"}`) {
		t.Fatal("dispatch refused")
	}
	domains := pumpFor(t, h, rec, response(1))
	if !strings.Contains(string(domains.Result), `"name":"Runtime"`) {
		t.Fatalf("Schema.getDomains: %s", domains.raw)
	}
	pumpFor(t, h, rec, response(2))
	created, ok := rec.find(event("Runtime.executionContextCreated"))
	if !ok {
		t.Fatalf("no executionContextCreated before the Runtime.enable response: %q", rec.all())
	}
	var info [16]byte
	ZJSWorkerGetInspectorTargetInfo(w, unsafe.Pointer(&info))
	if want := fmt.Sprintf(`"id":%d,`, *(*uint64)(unsafe.Pointer(&info))); !strings.Contains(created.raw, want) {
		t.Fatalf("executionContextCreated %s does not carry the worker's id (%s)", created.raw, want)
	}
	me := gettid()
	for i, tid := range rec.threads() {
		if tid != me {
			t.Fatalf("message %d was delivered on thread %d, not the owner %d", i, tid, me)
		}
	}

	// The worker still serves its messages.
	ctx := newCtx(t)
	var exc uintptr
	if !JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 21), &exc) ||
		JSValueToNumber(ctx, JSWorkerReceive(w, ctx, waitForever, &exc), nil) != 42 {
		t.Fatal("the worker's round trip failed with a session attached")
	}
}

func TestWorkerInspector_ObjectGroupLifecycle(t *testing.T) {
	w := newInspectedWorker(t)
	rec, ud := newRecorder(t)
	h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
	defer ZJSWorkerInspectorSessionRelease(h)
	s := wsessionOf(t, h)

	wDispatch(h, evalObject)
	id := objectID(t, pumpFor(t, h, rec, response(3)))
	wDispatch(h, getProperties(4, id))
	props := pumpFor(t, h, rec, response(4))
	if !strings.Contains(string(props.Result), `"name":"answer"`) ||
		!strings.Contains(string(props.Result), `"value":42`) {
		t.Fatalf("getProperties does not list answer: 42: %s", props.raw)
	}
	if s.HeldObjects() == 0 {
		t.Fatal("the session holds nothing after evaluate and getProperties")
	}
	wDispatch(h, `{"id":5,"method":"Runtime.releaseObjectGroup","params":{"objectGroup":"g"}}`)
	if m := pumpFor(t, h, rec, response(5)); m.Error != nil {
		t.Fatalf("releaseObjectGroup: %s", m.raw)
	}
	if n := s.HeldObjects(); n != 0 {
		t.Fatalf("%d objects held after releasing their group", n)
	}
	wDispatch(h, getProperties(6, id))
	if m := pumpFor(t, h, rec, response(6)); m.Error == nil || m.Error.Code != -32000 {
		t.Fatalf("getProperties of a released id: %s, want error -32000", m.raw)
	}
}

// holdAnObject evaluates evalObject in a worker session and checks that the session holds it.
func holdAnObject(t *testing.T, h uintptr, rec *recorder) {
	t.Helper()
	wDispatch(h, `{"id":2,"method":"Runtime.enable"}`)
	wDispatch(h, evalObject)
	objectID(t, pumpFor(t, h, rec, response(3)))
	if wsessionOf(t, h).HeldObjects() == 0 {
		t.Fatal("nothing held")
	}
}

func TestWorkerInspector_ReleaseSessionThenWorker(t *testing.T) {
	w := newInspectedWorker(t)
	rec, ud := newRecorder(t)
	h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
	holdAnObject(t, h, rec)
	s := wsessionOf(t, h)
	ZJSWorkerInspectorSessionRelease(h)
	checkDropped(t, s)
	if r := ZJSWorkerInspectorSessionPump(h, 0); r != pumpError {
		t.Fatalf("pump of a released session = %d, want Error", r)
	}
	if wDispatch(h, `{"id":9,"method":"Schema.getDomains"}`) {
		t.Fatal("dispatch to a released session succeeded")
	}
	ZJSWorkerInspectorSessionRelease(h) // stale: a no-op
	JSWorkerRelease(w)
	checkNoSessions(t)
}

func TestWorkerInspector_ReleaseWorkerFirst(t *testing.T) {
	w := newInspectedWorker(t)
	rec, ud := newRecorder(t)
	h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
	holdAnObject(t, h, rec)
	s := wsessionOf(t, h)
	JSWorkerRelease(w)
	pumpToClosed(t, h)
	if _, ok := rec.find(event("Inspector.detached")); !ok {
		t.Fatalf("no Inspector.detached before Closed: %q", rec.all())
	}
	if _, ok := rec.find(event("Runtime.executionContextDestroyed")); !ok {
		t.Fatalf("no executionContextDestroyed (Runtime was enabled): %q", rec.all())
	}
	if n := s.HeldObjects(); n != 0 {
		t.Fatalf("%d objects held after the worker ended", n)
	}
	if r := ZJSWorkerInspectorSessionPump(h, 1000); r != pumpClosed {
		t.Fatalf("pump after Closed = %d, want Closed again", r)
	}
	if wDispatch(h, `{"id":9,"method":"Schema.getDomains"}`) {
		t.Fatal("dispatch to an ended session succeeded")
	}
	if ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud) != 0 {
		t.Fatal("a session attached to a released worker")
	}
	ZJSWorkerInspectorSessionRelease(h)
	checkDropped(t, s)
	checkNoSessions(t)
}

func TestWorkerInspector_ReleaseFromInsideTheCallback(t *testing.T) {
	w := newInspectedWorker(t)
	rec, ud := newRecorder(t)
	h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
	holdAnObject(t, h, rec)
	s := wsessionOf(t, h)
	var after []int32
	rec.onMessage = func(msg string) {
		if m := decodeCDP(msg); m.ID != nil && *m.ID == 7 {
			ZJSWorkerInspectorSessionRelease(h)
			checkDropped(t, s)
			// Re-entering the released session from its callback is refused, not a crash.
			after = append(after, ZJSWorkerInspectorSessionPump(h, 0))
		}
	}
	wDispatch(h, `{"id":7,"method":"Schema.getDomains"}`)
	wDispatch(h, `{"id":8,"method":"Schema.getDomains"}`) // queued, never delivered
	pumpFor(t, h, rec, response(7))
	if len(after) != 1 || after[0] != pumpError {
		t.Fatalf("pump inside the callback after release = %v, want [Error]", after)
	}
	if r := ZJSWorkerInspectorSessionPump(h, 0); r != pumpError {
		t.Fatalf("pump after release = %d, want Error", r)
	}
	if _, ok := rec.find(response(8)); ok {
		t.Fatal("a message was delivered after the release")
	}
	checkNoSessions(t)
}

func TestWorkerInspector_ReentrantPumpAndDispatch(t *testing.T) {
	w := newInspectedWorker(t)
	rec, ud := newRecorder(t)
	h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
	defer ZJSWorkerInspectorSessionRelease(h)
	nested := 0
	rec.onMessage = func(msg string) {
		m := decodeCDP(msg)
		switch {
		case m.ID != nil && *m.ID == 1: // dispatch from the callback, then pump its answer nested in this one
			wDispatch(h, `{"id":2,"method":"Schema.getDomains"}`)
			if ZJSWorkerInspectorSessionPump(h, 5000) == pumpMessage {
				nested++
			}
		}
	}
	wDispatch(h, `{"id":1,"method":"Schema.getDomains"}`)
	pumpFor(t, h, rec, response(1))
	if _, ok := rec.find(response(2)); !ok || nested != 1 {
		t.Fatalf("the nested dispatch and pump did not deliver: %q", rec.all())
	}
	if rec.max != 2 {
		t.Fatalf("callback depth %d, want 2 (one nested pump)", rec.max)
	}
}

func TestWorkerInspector_TwoSessions(t *testing.T) {
	w := newInspectedWorker(t)
	recA, udA := newRecorder(t)
	recB, udB := newRecorder(t)
	a := ZJSWorkerInspectorSessionCreate(w, fakeCallback, udA)
	b := ZJSWorkerInspectorSessionCreate(w, fakeCallback, udB)
	if a == 0 || b == 0 || a == b {
		t.Fatalf("sessions %#x, %#x", a, b)
	}
	defer ZJSWorkerInspectorSessionRelease(a)
	defer ZJSWorkerInspectorSessionRelease(b)
	wDispatch(a, evalObject)
	wDispatch(b, `{"id":40,"method":"Runtime.evaluate","params":{"expression":"6*7"}}`)
	idA := objectID(t, pumpFor(t, a, recA, response(3)))
	if m := pumpFor(t, b, recB, response(40)); !strings.Contains(string(m.Result), `"value":42`) {
		t.Fatalf("session B: %s", m.raw)
	}
	if _, ok := recA.find(response(40)); ok {
		t.Fatal("session A received B's response")
	}
	if _, ok := recB.find(response(3)); ok {
		t.Fatal("session B received A's response")
	}
	wDispatch(b, getProperties(41, idA))
	if m := pumpFor(t, b, recB, response(41)); m.Error == nil {
		t.Fatalf("session B used A's objectId: %s", m.raw)
	}
	wDispatch(a, getProperties(4, idA))
	if m := pumpFor(t, a, recA, response(4)); m.Error != nil {
		t.Fatalf("session A lost its objectId: %s", m.raw)
	}
}

func TestInspector_ProtocolErrors(t *testing.T) {
	w := newInspectedWorker(t)
	ctx := newCtx(t)
	JSGlobalContextSetInspectable(ctx, true)
	recW, udW := newRecorder(t)
	recC, udC := newRecorder(t)
	hw := ZJSWorkerInspectorSessionCreate(w, fakeCallback, udW)
	hc := ZJSInspectorSessionCreate(ctx, fakeCallback, udC)
	defer ZJSWorkerInspectorSessionRelease(hw)
	defer ZJSInspectorSessionRelease(hc)

	for _, tc := range []struct {
		name     string
		dispatch func(string) bool
		find     func(func(cdpMessage) bool) cdpMessage
	}{
		{"worker", func(m string) bool { return wDispatch(hw, m) },
			func(p func(cdpMessage) bool) cdpMessage { return pumpFor(t, hw, recW, p) }},
		{"context", func(m string) bool { return cDispatch(hc, m) },
			func(p func(cdpMessage) bool) cdpMessage {
				m, ok := recC.find(p)
				if !ok {
					t.Fatalf("context: not delivered synchronously: %q", recC.all())
				}
				return m
			}},
	} {
		if !tc.dispatch(`{"id":10,"method":"Nope.nothing"}`) {
			t.Fatalf("%s: an unknown method was refused by dispatch", tc.name)
		}
		if m := tc.find(response(10)); m.Error == nil || m.Error.Code != -32601 {
			t.Fatalf("%s: unknown method: %s, want -32601", tc.name, m.raw)
		}
		if !tc.dispatch(`{"id":11,"method":`) {
			t.Fatalf("%s: malformed JSON was refused by dispatch", tc.name)
		}
		if m := tc.find(func(m cdpMessage) bool { return m.Error != nil && m.Error.Code == -32700 }); m.ID != nil {
			t.Fatalf("%s: malformed JSON answered with an id: %s", tc.name, m.raw)
		}
		tc.dispatch(`{"id":12,"method":"Runtime.evaluate","params":{"expression":"6*7"}}`)
		if m := tc.find(response(12)); !strings.Contains(string(m.Result), `"value":42`) {
			t.Fatalf("%s: the session after errors: %s", tc.name, m.raw)
		}
	}
}

func TestContextInspector_OptInAndSynchronousTransport(t *testing.T) {
	ctx := newCtx(t)
	rec, ud := newRecorder(t)
	if ZJSInspectorSessionCreate(ctx, fakeCallback, ud) != 0 {
		t.Fatal("a session attached to a context that is not inspectable")
	}
	JSGlobalContextSetInspectable(ctx, true)
	if ZJSInspectorSessionCreate(ctx, 0, ud) != 0 {
		t.Fatal("a session was made with a NULL callback")
	}
	h := ZJSInspectorSessionCreate(ctx, fakeCallback, ud)
	if h == 0 {
		t.Fatal("ZJSInspectorSessionCreate = NULL on an inspectable context")
	}
	if got := rec.all(); len(got) != 1 || decodeCDP(got[0]).Method != "Runtime.executionContextsCleared" {
		t.Fatalf("Create delivered %q, want Runtime.executionContextsCleared", got)
	}
	s := csessionOf(t, h)

	if !cDispatch(h, `{"id":1,"method":"Runtime.enable"}`) {
		t.Fatal("dispatch refused")
	}
	created, ok := rec.find(event("Runtime.executionContextCreated"))
	if _, answered := rec.find(response(1)); !ok || !answered {
		t.Fatalf("Runtime.enable not answered before dispatch returned: %q", rec.all())
	}
	if !strings.Contains(created.raw, `"uniqueId":"jsworker-context-`) {
		t.Fatalf("executionContextCreated: %s", created.raw)
	}

	cDispatch(h, evalObject)
	id := objectID(t, mustFind(t, rec, response(3)))
	cDispatch(h, getProperties(4, id))
	if m := mustFind(t, rec, response(4)); !strings.Contains(string(m.Result), `"name":"answer"`) {
		t.Fatalf("getProperties: %s", m.raw)
	}

	// A console call of the host's own script reaches the callback before JSEvaluateScript returns.
	eval(t, ctx, `console.log("(console output of an inspector test)", {k: 1})`)
	if m := mustFind(t, rec, event("Runtime.consoleAPICalled")); !strings.Contains(m.raw, "inspector test") {
		t.Fatalf("consoleAPICalled: %s", m.raw)
	}

	// A pending awaitPromise evaluation is answered when a later script settles it.
	cDispatch(h, `{"id":5,"method":"Runtime.evaluate","params":{"expression":"new Promise(r => globalThis.settle = r)",`+
		`"awaitPromise":true}}`)
	if _, ok := rec.find(response(5)); ok {
		t.Fatal("a pending promise was answered")
	}
	eval(t, ctx, `settle(7)`)
	if m := mustFind(t, rec, response(5)); !strings.Contains(string(m.Result), `"value":7`) {
		t.Fatalf("awaitPromise: %s", m.raw)
	}

	me := gettid()
	for i, tid := range rec.threads() {
		if tid != me {
			t.Fatalf("message %d delivered on thread %d, not the owner %d", i, tid, me)
		}
	}
	if s.HeldObjects() == 0 {
		t.Fatal("nothing held")
	}
	ZJSInspectorSessionRelease(h)
	checkDropped(t, s)
	n := len(rec.all())
	eval(t, ctx, `console.log("(console output of an inspector test, after release)")`)
	if len(rec.all()) != n {
		t.Fatal("a released session's callback was called")
	}
	checkNoSessions(t)
}

func mustFind(t *testing.T, rec *recorder, pred func(cdpMessage) bool) cdpMessage {
	t.Helper()
	m, ok := rec.find(pred)
	if !ok {
		t.Fatalf("not delivered: %q", rec.all())
	}
	return m
}

func TestContextInspector_CallbackIsNotReentered(t *testing.T) {
	ctx := newCtx(t)
	JSGlobalContextSetInspectable(ctx, true)
	rec, ud := newRecorder(t)
	var h uintptr
	var returned []bool
	rec.onMessage = func(msg string) {
		if m := decodeCDP(msg); m.ID != nil && *m.ID == 1 {
			returned = append(returned, cDispatch(h, `{"id":2,"method":"Schema.getDomains"}`))
			if _, ok := rec.find(response(2)); ok {
				t.Error("the nested response was delivered inside the callback")
			}
		}
	}
	h = ZJSInspectorSessionCreate(ctx, fakeCallback, ud)
	defer ZJSInspectorSessionRelease(h)
	cDispatch(h, `{"id":1,"method":"Schema.getDomains"}`)
	if len(returned) != 1 || !returned[0] {
		t.Fatalf("nested dispatch results %v", returned)
	}
	mustFind(t, rec, response(2)) // delivered after the callback, before the outer dispatch returned
	if rec.max != 1 {
		t.Fatalf("callback depth %d, want 1", rec.max)
	}
}

func TestContextInspector_ContextReleaseEndsSessions(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx := JSGlobalContextCreate(0)
	JSGlobalContextSetInspectable(ctx, true)
	rec, ud := newRecorder(t)
	h := ZJSInspectorSessionCreate(ctx, fakeCallback, ud)
	cDispatch(h, `{"id":1,"method":"Runtime.enable"}`)
	cDispatch(h, evalObject)
	s := csessionOf(t, h)
	if s.HeldObjects() == 0 {
		t.Fatal("nothing held")
	}
	JSGlobalContextRelease(ctx)
	mustFind(t, rec, event("Runtime.executionContextDestroyed"))
	mustFind(t, rec, event("Inspector.detached"))
	checkDropped(t, s)
	if cDispatch(h, `{"id":2,"method":"Schema.getDomains"}`) {
		t.Fatal("dispatch to a session of a released context succeeded")
	}
	ZJSInspectorSessionRelease(h)
	checkNoSessions(t)
}

func TestInspector_MisuseIsRefused(t *testing.T) {
	w := newInspectedWorker(t)
	ctx := newCtx(t)
	JSGlobalContextSetInspectable(ctx, true)
	recW, udW := newRecorder(t)
	recC, udC := newRecorder(t)
	hw := ZJSWorkerInspectorSessionCreate(w, fakeCallback, udW)
	hc := ZJSInspectorSessionCreate(ctx, fakeCallback, udC)
	defer ZJSWorkerInspectorSessionRelease(hw)
	defer ZJSInspectorSessionRelease(hc)
	ZJSWorkerInspectorSessionPump(hw, 5000) // the first event

	// NULL, never-made, wrong-kind handles and NULL messages.
	if ZJSWorkerInspectorSessionCreate(0, fakeCallback, udW) != 0 || ZJSWorkerInspectorSessionCreate(w, 0, udW) != 0 ||
		ZJSWorkerInspectorSessionCreate(ctx, fakeCallback, udW) != 0 || ZJSInspectorSessionCreate(w, fakeCallback, udC) != 0 {
		t.Fatal("a session was made from a bad argument")
	}
	for _, h := range []uintptr{0, 12345, hc, w} {
		if wDispatch(h, `{"id":1,"method":"Schema.getDomains"}`) {
			t.Errorf("worker dispatch accepted handle %#x", h)
		}
		if r := ZJSWorkerInspectorSessionPump(h, 0); r != pumpError {
			t.Errorf("pump of handle %#x = %d, want Error", h, r)
		}
		ZJSWorkerInspectorSessionRelease(h)
	}
	for _, h := range []uintptr{0, 12345, hw, ctx} {
		if cDispatch(h, `{"id":1,"method":"Schema.getDomains"}`) {
			t.Errorf("context dispatch accepted handle %#x", h)
		}
		ZJSInspectorSessionRelease(h)
	}
	if ZJSWorkerInspectorSessionDispatch(hw, nil, 5) || ZJSInspectorSessionDispatch(hc, nil, 5) {
		t.Fatal("a NULL message was accepted")
	}

	// Another thread: refused, and the session is untouched.
	before := len(recC.all())
	var results []bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		results = append(results,
			wDispatch(hw, `{"id":1,"method":"Schema.getDomains"}`),
			ZJSWorkerInspectorSessionPump(hw, 0) != pumpError,
			cDispatch(hc, `{"id":1,"method":"Schema.getDomains"}`),
			ZJSWorkerInspectorSessionCreate(w, fakeCallback, udW) != 0,
			ZJSInspectorSessionCreate(ctx, fakeCallback, udC) != 0)
		ZJSWorkerInspectorSessionRelease(hw) // no-ops here
		ZJSInspectorSessionRelease(hc)
	}()
	wg.Wait()
	for i, r := range results {
		if r {
			t.Errorf("call %d from another thread succeeded", i)
		}
	}
	if len(recC.all()) != before {
		t.Fatal("a refused call delivered a message")
	}
	if !wDispatch(hw, `{"id":2,"method":"Schema.getDomains"}`) {
		t.Fatal("the worker session stopped working after the refused calls")
	}
	pumpFor(t, hw, recW, response(2))
	if !cDispatch(hc, `{"id":2,"method":"Schema.getDomains"}`) {
		t.Fatal("the context session stopped working after the refused calls")
	}
	mustFind(t, recC, response(2))
}

// TestWorkerInspector_HammerReleaseUnderTraffic releases sessions while the worker is still answering a burst of
// commands that each hold an object, from outside and from inside the callback, and checks each time that every
// object was dropped when the release returned.
func TestWorkerInspector_HammerReleaseUnderTraffic(t *testing.T) {
	w := newInspectedWorker(t)
	rounds, burst := 20, 40
	if testing.Short() {
		rounds = 6
	}
	for i := range rounds {
		rec, ud := newRecorder(t)
		h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
		s := wsessionOf(t, h)
		inside := i%2 == 1
		seen := 0
		rec.onMessage = func(msg string) {
			if m := decodeCDP(msg); m.ID != nil {
				if seen++; seen == 10 && inside {
					ZJSWorkerInspectorSessionRelease(h)
				}
			}
		}
		for n := range burst {
			wDispatch(h, fmt.Sprintf(`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"({n: %d})",`+
				`"objectGroup":"g%d"}}`, 100+n, n, n%3))
		}
		for seen < 10 {
			if r := ZJSWorkerInspectorSessionPump(h, 5000); r != pumpMessage {
				t.Fatalf("round %d: pump = %d", i, r)
			}
		}
		if !inside {
			ZJSWorkerInspectorSessionRelease(h)
		}
		checkDropped(t, s)
	}
	checkNoSessions(t)
}

// TestWorkerInspector_ReleaseWhileTheWorkerEnds releases a session while the worker is busy in a script, so the
// drop task waits in the worker's queue, and terminates the worker before it runs: the worker never runs the task,
// and the release must still return with every object dropped.
func TestWorkerInspector_ReleaseWhileTheWorkerEnds(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := JSWorkerCreate(mkString(t, `onmessage = () => { postMessage("busy"); for (;;) {} };`))
	defer JSWorkerRelease(w)
	rec, ud := newRecorder(t)
	h := ZJSWorkerInspectorSessionCreate(w, fakeCallback, ud)
	holdAnObject(t, h, rec)
	s := wsessionOf(t, h)
	ctx := newCtx(t)
	var exc uintptr
	JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 1), &exc)
	JSWorkerReceive(w, ctx, waitForever, &exc) // the worker is now in its endless loop
	wr, err := getWorker("test", w, gettid())
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		select {
		case <-released:
		case <-time.After(50 * time.Millisecond):
			wr.w.Terminate() // what JSWorkerTerminate does; the owner thread is blocked in the release
		}
	}()
	ZJSWorkerInspectorSessionRelease(h)
	close(released)
	checkDropped(t, s)
	checkNoSessions(t)
}

// TestPumpResults_MatchHeader checks the ZJSWorkerInspectorPumpResult constants of include/jsworker.h against the
// values the library returns.
func TestPumpResults_MatchHeader(t *testing.T) {
	header := readHeader(t)
	for name, want := range map[string]int32{
		"Message": pumpMessage, "Timeout": pumpTimeout, "Closed": pumpClosed, "Error": pumpError,
	} {
		decl := fmt.Sprintf("kZJSWorkerInspectorPump%s = %d", name, want)
		if !strings.Contains(header, decl) {
			t.Errorf("%s does not declare %s", headerPath, decl)
		}
	}
}

// TestContextInspector_CallbackReleasesTheContext releases the context from inside a callback that a console call
// of a running script triggered: the script finishes, JSEvaluateScript returns NULL, and no handle is left behind.
func TestContextInspector_CallbackReleasesTheContext(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := handles.count(0)
	ctx := JSGlobalContextCreate(0)
	JSGlobalContextSetInspectable(ctx, true)
	rec, ud := newRecorder(t)
	h := ZJSInspectorSessionCreate(ctx, fakeCallback, ud)
	cDispatch(h, `{"id":1,"method":"Runtime.enable"}`)
	rec.onMessage = func(msg string) {
		if decodeCDP(msg).Method == "Runtime.consoleAPICalled" {
			JSGlobalContextRelease(ctx)
		}
	}
	src := JSStringCreateWithUTF8CString(cstr(`console.log("(console output of an inspector test)"); 42`))
	defer JSStringRelease(src)
	var exc uintptr
	if v := JSEvaluateScript(ctx, src, 0, 0, 1, &exc); v != 0 || exc != 0 {
		t.Fatalf("JSEvaluateScript in a context released meanwhile returned %#x, exception %#x", v, exc)
	}
	mustFind(t, rec, event("Inspector.detached"))
	ZJSInspectorSessionRelease(h)
	if got := handles.count(0) - before; got != 1 { // the string
		t.Fatalf("%d handles left, want 1 (the script string)", got)
	}
}
