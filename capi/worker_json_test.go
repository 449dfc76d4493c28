package capi

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// postJSON calls ZJSWorkerPostJSON with a Go string.
func postJSON(w, ctx uintptr, text string, exc *uintptr) bool {
	return ZJSWorkerPostJSON(w, ctx, unsafe.Pointer(unsafe.StringData(text)), uintptr(len(text)), exc)
}

// receiveJSON calls ZJSWorkerReceiveJSON and returns its text (freed), and whether there was one.
func receiveJSON(t *testing.T, w, ctx uintptr, timeoutMs uint64, exc *uintptr) (string, bool) {
	t.Helper()
	var n uintptr = 12345
	p := ZJSWorkerReceiveJSON(w, ctx, timeoutMs, &n, exc)
	if p == nil {
		if n != 0 {
			t.Errorf("length %d with a NULL result", n)
		}
		return "", false
	}
	defer cFree(p)
	b := unsafe.Slice((*byte)(p), n+1)
	if b[n] != 0 {
		t.Error("the text is not NUL-terminated")
	}
	return string(b[:n]), true
}

func mustReceiveJSON(t *testing.T, w, ctx uintptr) string {
	t.Helper()
	var exc uintptr
	s, ok := receiveJSON(t, w, ctx, waitForever, &exc)
	if !ok {
		t.Fatalf("ZJSWorkerReceiveJSON = NULL, exception %q", excText(t, ctx, exc))
	}
	return s
}

// The worker sees a JSON post as postMessage(JSON.parse(text)), in order with ordinary posts, and its replies come
// back as JSON.stringify's text, through the fast path and the full one.
func TestWorkerJSON_RoundTripInOrder(t *testing.T) {
	ctx := newCtx(t)
	w := JSWorkerCreate(mkString(t, `onmessage = (e) => {
		const d = e.data;
		if (d === "map") postMessage(new Map([[1, 2]]));
		else if (d === "date") postMessage({when: new Date(0), n: new Number(3), shared: (o => [o, o])({})});
		else if (d === "undefined") postMessage(undefined);
		else if (d === "bigint") postMessage(10n);
		else if (d === "proto") postMessage([Object.getPrototypeOf(d) === String.prototype,
			Object.keys(e.data), typeof e.data]);
		else postMessage({got: d, keys: d && typeof d === "object" ? Object.keys(d) : null,
			proto: d && typeof d === "object" ? Object.getPrototypeOf(d) === Object.prototype ||
				Array.isArray(d) : null, negzero: Object.is(d, -0)});
	};`))
	defer JSWorkerRelease(w)
	var exc uintptr
	for _, text := range []string{`{"i":1,"s":"hello"}`, `{"b":1,"a":2,"b":3}`, `-0`, `{"__proto__":{"x":1}}`} {
		if !postJSON(w, ctx, text, &exc) {
			t.Fatalf("ZJSWorkerPostJSON(%s): %s", text, excText(t, ctx, exc))
		}
	}
	if !JSWorkerPostMessage(w, ctx, eval(t, ctx, `[1, 2]`), &exc) { // in order with the JSON posts
		t.Fatal(excText(t, ctx, exc))
	}
	for _, want := range []string{
		`{"got":{"i":1,"s":"hello"},"keys":["i","s"],"proto":true,"negzero":false}`,
		`{"got":{"b":3,"a":2},"keys":["b","a"],"proto":true,"negzero":false}`,
		`{"got":0,"keys":null,"proto":null,"negzero":true}`,
		`{"got":{"__proto__":{"x":1}},"keys":["__proto__"],"proto":true,"negzero":false}`,
		`{"got":[1,2],"keys":["0","1"],"proto":true,"negzero":false}`,
	} {
		if got := mustReceiveJSON(t, w, ctx); got != want {
			t.Errorf("received %s\n          want %s", got, want)
		}
	}
	// Replies the fast path does not read go through JSON.stringify in ctx.
	for _, c := range []struct{ send, want string }{
		{`"map"`, `{}`},
		{`"date"`, `{"when":"1970-01-01T00:00:00.000Z","n":3,"shared":[{},{}]}`},
	} {
		postJSON(w, ctx, c.send, nil)
		if got := mustReceiveJSON(t, w, ctx); got != c.want {
			t.Errorf("%s: received %s, want %s", c.send, got, c.want)
		}
	}
	for _, c := range []struct{ send, want string }{
		{`"undefined"`, "TypeError: ZJSWorkerReceiveJSON: the message is undefined, which has no JSON text"},
		{`"bigint"`, "TypeError"},
	} {
		postJSON(w, ctx, c.send, nil)
		exc = 0
		if s, ok := receiveJSON(t, w, ctx, waitForever, &exc); ok {
			t.Errorf("%s: received %s", c.send, s)
		}
		if got := excText(t, ctx, exc); !strings.Contains(got, c.want) {
			t.Errorf("%s: exception %q, want %q", c.send, got, c.want)
		}
	}
	exc = 0
	if s, ok := receiveJSON(t, w, ctx, 0, &exc); ok || exc != 0 { // consumed: nothing left
		t.Errorf("poll of an empty outbox: %q %v, exception %q", s, ok, excText(t, ctx, exc))
	}
	JSWorkerTerminate(w)
	if _, ok := receiveJSON(t, w, ctx, waitForever, &exc); ok || exc != 0 {
		t.Error("receive after terminate returned a text or an exception")
	}
}

// Invalid text, limits and closed workers fail before anything is queued, with JSWorkerPostMessage's exceptions.
func TestWorkerJSON_PostErrors(t *testing.T) {
	ctx := newCtx(t)
	w := JSWorkerCreateWithLimits(mkString(t, `onmessage = (e) => postMessage(e.data);`), 64, 1<<20, 1<<20)
	defer JSWorkerRelease(w)
	w2 := JSWorkerCreate(mkString(t, `onmessage = (e) => postMessage(e.data);`))
	defer JSWorkerRelease(w2)
	for _, c := range []struct{ text, want string }{
		{`{"a":}`, "SyntaxError: ZJSWorkerPostJSON: invalid JSON: unexpected token '}' at offset 5"},
		{``, "SyntaxError: ZJSWorkerPostJSON: invalid JSON: unexpected end of JSON input at offset 0"},
		{"\"\xff\"", "invalid UTF-8 in a string at offset 1"},
		{`"` + strings.Repeat("x", 100) + `"`, "RangeError: ZJSWorkerPostJSON: message too large for the worker's limit (64 bytes)"},
		{strings.Repeat(`[`, 300), "DataCloneError: The JSON value nests deeper than 256 levels"},
		{`{"\udc00":1}`, "DataCloneError: A property name with an unpaired surrogate could not be cloned."},
	} {
		var exc uintptr
		target := w
		if strings.Contains(c.want, "DataCloneError") {
			target = w2 // beyond w's 64-byte limit
		}
		if postJSON(target, ctx, c.text, &exc) {
			t.Errorf("%.20q was posted", c.text)
		}
		if got := excText(t, ctx, exc); !strings.Contains(got, c.want) {
			t.Errorf("%.20q: exception %q, want %q", c.text, got, c.want)
		}
	}
	var exc uintptr
	if ZJSWorkerPostJSON(w, ctx, nil, 3, &exc) || !strings.Contains(excText(t, ctx, exc), "json is NULL but the length is 3") {
		t.Errorf("NULL json: exception %q", excText(t, ctx, exc))
	}
	if !postJSON(w, ctx, `[1]`, &exc) { // nothing before it was queued: it is the first reply
		t.Fatal(excText(t, ctx, exc))
	}
	if got := mustReceiveJSON(t, w, ctx); got != `[1]` {
		t.Errorf("first reply %s, want [1]", got)
	}
	if !postJSON(w2, ctx, `[2]`, &exc) {
		t.Fatal(excText(t, ctx, exc))
	}
	if got := mustReceiveJSON(t, w2, ctx); got != `[2]` {
		t.Errorf("first reply %s, want [2]", got)
	}

	full := JSWorkerCreateWithLimits(mkString(t, `onmessage = () => {}; while (true) {}`), 1<<20, 1<<20, 2)
	defer JSWorkerRelease(full)
	exc = 0
	n := 0
	for ; n < 3 && postJSON(full, ctx, `1`, &exc); n++ {
	}
	if n != 2 || !strings.Contains(excText(t, ctx, exc), "queue full") {
		t.Errorf("%d posts into a 2-message inbox, exception %q", n, excText(t, ctx, exc))
	}
	JSWorkerTerminate(full)
	ZJSWorkerClose(w)
	exc = 0
	if postJSON(w, ctx, `1`, &exc) || !strings.Contains(excText(t, ctx, exc), "InvalidStateError") {
		t.Errorf("post to a closed worker: exception %q", excText(t, ctx, exc))
	}
}

// NULL, stale, released, wrong-kind and other-thread handles are refused with an exception that names the reason.
func TestWorkerJSON_BadHandles(t *testing.T) {
	ctx := newCtx(t)
	released := JSWorkerCreate(mkString(t, `1`))
	JSWorkerRelease(released)
	w := JSWorkerCreate(mkString(t, `onmessage = (e) => postMessage(e.data);`))
	defer JSWorkerRelease(w)
	for _, c := range []struct {
		name   string
		worker uintptr
		want   string
	}{
		{"NULL", 0, "worker is NULL"},
		{"released", released, "no live handle has this value"},
		{"never made", 12345, "no live handle has this value"},
		{"a value", JSValueMakeNumber(ctx, 1), "not a worker"},
		{"a context", ctx, "not a worker"},
	} {
		var exc uintptr
		if postJSON(c.worker, ctx, `1`, &exc) || !strings.Contains(excText(t, ctx, exc), c.want) {
			t.Errorf("post to %s: exception %q, want %q", c.name, excText(t, ctx, exc), c.want)
		}
		exc = 0
		if _, ok := receiveJSON(t, c.worker, ctx, 0, &exc); ok || !strings.Contains(excText(t, ctx, exc), c.want) {
			t.Errorf("receive from %s: exception %q, want %q", c.name, excText(t, ctx, exc), c.want)
		}
	}
	if postJSON(w, 0, `1`, nil) || ZJSWorkerReceiveJSON(w, 0, 0, nil, nil) != nil {
		t.Error("a NULL context was accepted")
	}
	var wg sync.WaitGroup
	var results []bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		own := JSGlobalContextCreate(0)
		defer JSGlobalContextRelease(own)
		var exc uintptr
		results = append(results, postJSON(w, own, `1`, &exc),
			!strings.Contains(excText(t, own, exc), "belongs to another thread"))
		exc = 0
		results = append(results, ZJSWorkerReceiveJSON(w, own, 0, nil, &exc) != nil,
			!strings.Contains(excText(t, own, exc), "belongs to another thread"))
		results = append(results, postJSON(w, ctx, `1`, nil)) // the owner's context, from here
	}()
	wg.Wait()
	for i, r := range results {
		if r {
			t.Errorf("call %d from another thread succeeded or was misreported", i)
		}
	}
	if !postJSON(w, ctx, `"still works"`, nil) || mustReceiveJSON(t, w, ctx) != `"still works"` {
		t.Error("the owner's post after the refusals failed")
	}
}

// BenchmarkPostJSONOneWay is the C benchmark's JSON one-way loop called from Go: one library entry per message.
func BenchmarkPostJSONOneWay(b *testing.B) {
	t := &testing.T{}
	ctx := newCtx(t)
	defer JSGlobalContextRelease(ctx)
	src := mkString(t, `onmessage = function () {};`)
	w := JSWorkerCreate(src)
	JSStringRelease(src)
	defer JSWorkerRelease(w)
	buf := make([]byte, 0, 64)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = append(append(append(buf[:0], `{"i":`...), itoa(i)...), `,"s":"hello"}`...)
		for !ZJSWorkerPostJSON(w, ctx, unsafe.Pointer(&buf[0]), uintptr(len(buf)), nil) {
			// the default 1,024-message queue is full: let the worker drain
		}
	}
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}
