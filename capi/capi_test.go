package capi

import (
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/jsworker/jsworker/internal/testsupport"
)

// TestMain fails the run if a test leaves a goroutine (a worker) behind.
func TestMain(m *testing.M) { testsupport.Main(m) }

// The exports are called directly: they take Go types (uintptr handles), so no cgo is needed here. Every test locks
// its goroutine to one OS thread, as a C host thread is: handles belong to the thread that made them.

func cstr(s string) *byte { return unsafe.SliceData([]byte(s + "\x00")) }

// mkString makes a JSStringRef released at the end of the test.
func mkString(t *testing.T, s string) uintptr {
	t.Helper()
	h := JSStringCreateWithUTF8CString(cstr(s))
	if h == 0 {
		t.Fatalf("JSStringCreateWithUTF8CString(%q) = NULL", s)
	}
	t.Cleanup(func() { JSStringRelease(h) })
	return h
}

// goString reads a JSStringRef and releases it.
func goString(t *testing.T, h uintptr) string {
	t.Helper()
	if h == 0 {
		t.Fatal("string is NULL")
	}
	defer JSStringRelease(h)
	buf := make([]byte, JSStringGetMaximumUTF8CStringSize(h))
	n := JSStringGetUTF8CString(h, &buf[0], uintptr(len(buf)))
	return string(buf[:n-1])
}

// newCtx locks the test to its thread and makes a context released at the end of the test.
func newCtx(t *testing.T) uintptr {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	ctx := JSGlobalContextCreate(0)
	if ctx == 0 {
		t.Fatal("JSGlobalContextCreate(NULL) = NULL")
	}
	t.Cleanup(func() { JSGlobalContextRelease(ctx) })
	return ctx
}

// excText returns the exception's string form ("" for none).
func excText(t *testing.T, ctx, exc uintptr) string {
	t.Helper()
	if exc == 0 {
		return ""
	}
	var e2 uintptr
	return goString(t, JSValueToStringCopy(ctx, exc, &e2))
}

func eval(t *testing.T, ctx uintptr, src string) uintptr {
	t.Helper()
	var exc uintptr
	v := JSEvaluateScript(ctx, mkString(t, src), 0, 0, 1, &exc)
	if v == 0 {
		t.Fatalf("JSEvaluateScript(%q) threw %s", src, excText(t, ctx, exc))
	}
	return v
}

// callBody makes an anonymous function of body with JSObjectMakeFunction, calls it with no arguments and returns
// the string form of what it returned; an exception from either step fails the test.
func callBody(t *testing.T, ctx uintptr, body string) string {
	t.Helper()
	var exc uintptr
	f := JSObjectMakeFunction(ctx, 0, 0, nil, mkString(t, body), 0, 1, &exc)
	if f == 0 {
		t.Fatalf("JSObjectMakeFunction threw %s", excText(t, ctx, exc))
	}
	v := JSObjectCallAsFunction(ctx, f, 0, 0, nil, &exc)
	if v == 0 {
		t.Fatalf("the call threw %s", excText(t, ctx, exc))
	}
	return goString(t, JSValueToStringCopy(ctx, v, &exc))
}

func TestHandles_StartHighAndAreNeverReused(t *testing.T) {
	ctx := newCtx(t)
	seen := map[uintptr]bool{}
	for range 100 {
		v := JSValueMakeNumber(ctx, 1)
		if v <= firstHandle || seen[v] {
			t.Fatalf("handle %#x: not above %#x or reused", v, firstHandle)
		}
		seen[v] = true
		ZJSValueRelease(ctx, v)
	}
}

func TestHandles_MisuseIsRefusedWithAReason(t *testing.T) {
	ctx := newCtx(t)
	num := JSValueMakeNumber(ctx, 7)
	released := JSValueMakeNumber(ctx, 8)
	ZJSValueRelease(ctx, released)
	str := mkString(t, "x")
	tests := []struct {
		name   string
		worker uintptr
		want   string
	}{
		{"NULL", 0, "worker is NULL, not a worker (JSWorkerRef)"},
		{"a value", num, "worker is a value (JSValueRef), not a worker"},
		{"a string", str, "worker is a string (JSStringRef), not a worker"},
		{"released", released, "no live handle has this value"},
		{"never made", 12345, "no live handle has this value"},
	}
	for _, tc := range tests { // no subtests: they would run on other threads
		var exc uintptr
		if JSWorkerPostMessage(tc.worker, ctx, num, &exc) {
			t.Errorf("%s: JSWorkerPostMessage succeeded", tc.name)
		}
		if got := excText(t, ctx, exc); !strings.Contains(got, tc.want) {
			t.Errorf("%s: exception %q does not contain %q", tc.name, got, tc.want)
		}
		if JSWorkerReceive(tc.worker, ctx, 0, &exc) != 0 {
			t.Errorf("%s: JSWorkerReceive returned a value", tc.name)
		}
	}
	if JSValueToNumber(ctx, released, nil) == JSValueToNumber(ctx, released, nil) {
		t.Error("JSValueToNumber of a released value is not NaN")
	}
}

func TestHandles_OtherThreadIsRefused(t *testing.T) {
	ctx := newCtx(t)
	src := mkString(t, `onmessage = (e) => postMessage(e.data * 2);`)
	w := JSWorkerCreate(src)
	if w == 0 {
		t.Fatal("JSWorkerCreate = NULL")
	}
	defer JSWorkerRelease(w)
	n := JSValueMakeNumber(ctx, 21)

	var wg sync.WaitGroup
	wg.Add(1)
	var results []bool
	go func() {
		defer wg.Done()
		runtime.LockOSThread() // a different OS thread from the test's, which is locked too
		defer runtime.UnlockOSThread()
		var exc uintptr
		results = append(results,
			JSWorkerPostMessage(w, ctx, n, &exc), exc != 0, // ctx is not this thread's: no exception either
			JSValueMakeNumber(ctx, 1) != 0,
			ZJSWorkerGetInspectorTargetInfo(w, unsafe.Pointer(new([16]byte))))
		JSWorkerTerminate(w) // a no-op here
		JSWorkerRelease(w)   // a no-op here
		JSGlobalContextRelease(ctx)
		// With a context of its own, the refusal is an exception that names the reason.
		own := JSGlobalContextCreate(0)
		defer JSGlobalContextRelease(own)
		ok := JSWorkerPostMessage(w, own, JSValueMakeNumber(own, 1), &exc)
		msg := excText(t, own, exc)
		results = append(results, ok, !strings.Contains(msg, "belongs to another thread"))
	}()
	wg.Wait()
	for i, r := range results {
		if r {
			t.Errorf("call %d from another thread succeeded or was misreported", i)
		}
	}
	// Still works from the owner.
	var exc uintptr
	if !JSWorkerPostMessage(w, ctx, n, &exc) {
		t.Fatalf("post from the owner failed: %s", excText(t, ctx, exc))
	}
	if got := JSValueToNumber(ctx, JSWorkerReceive(w, ctx, waitForever, &exc), nil); got != 42 {
		t.Fatalf("received %v, want 42", got)
	}
}

func TestFence_GojaPanicBecomesInternalError(t *testing.T) {
	ctx := newCtx(t)
	var exc uintptr
	src := mkString(t, `(function(p,q){ var f = () => arguments[0]; return f(); })("P","Q")`)
	if v := JSEvaluateScript(ctx, src, 0, 0, 1, &exc); v != 0 {
		t.Skip("this goja no longer panics on arguments inside an arrow function")
	}
	if got := excText(t, ctx, exc); !strings.HasPrefix(got, "InternalError: JSEvaluateScript: internal error:") {
		t.Fatalf("exception %q, want an InternalError", got)
	}
	if got := JSValueToNumber(ctx, eval(t, ctx, "6*7"), nil); got != 42 {
		t.Fatalf("the context after the panic: 6*7 = %v", got)
	}
}

func TestScope_ClosingReleasesAllButProtected(t *testing.T) {
	ctx := newCtx(t)
	before := handles.count(kindValue)
	outer := ZJSHandleScopeOpen(ctx)
	kept := JSValueMakeNumber(ctx, 1)
	JSValueProtect(ctx, kept)
	inner := ZJSHandleScopeOpen(ctx)
	for range 1000 {
		JSValueMakeNumber(ctx, 2)
	}
	lost := JSValueMakeNumber(ctx, 3)
	ZJSHandleScopeClose(ctx, outer) // closes inner too
	if got := handles.count(kindValue) - before; got != 1 {
		t.Fatalf("%d values live after closing the scopes, want 1 (the protected one)", got)
	}
	if JSValueToNumber(ctx, kept, nil) != 1 || !math.IsNaN(JSValueToNumber(ctx, lost, nil)) {
		t.Fatal("the protected value died or the unprotected one survived")
	}
	ZJSHandleScopeClose(ctx, inner) // stale: a no-op
	JSValueUnprotect(ctx, kept)
	ZJSValueRelease(ctx, kept)
	if got := handles.count(kindValue) - before; got != 0 {
		t.Fatalf("%d values live, want 0", got)
	}
}

func TestScope_ExplicitReleaseKeepsTheStackFlat(t *testing.T) {
	ctx := newCtx(t)
	c, _ := getContext("test", ctx, gettid())
	keep := JSValueMakeNumber(ctx, 0)
	for i := range 10000 {
		a := JSValueMakeNumber(ctx, float64(i))
		b := JSValueMakeNumber(ctx, float64(i))
		ZJSValueRelease(ctx, a) // not the top: compacted later
		ZJSValueRelease(ctx, b)
	}
	if len(c.values) > 200 {
		t.Fatalf("%d entries on the value stack after 20,000 released values", len(c.values))
	}
	if JSValueToNumber(ctx, keep, nil) != 0 {
		t.Fatal("an unreleased value died")
	}
}

func TestContextRelease_FreesEveryHandle(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := handles.count(0)
	ctx := JSGlobalContextCreate(0)
	JSGlobalContextRetain(ctx)
	ZJSHandleScopeOpen(ctx)
	for range 10 {
		JSValueProtect(ctx, JSValueMakeNumber(ctx, 1))
	}
	JSGlobalContextRelease(ctx)
	if JSValueMakeNull(ctx) == 0 {
		t.Fatal("the context died while retained")
	}
	JSGlobalContextRelease(ctx)
	if got := handles.count(0) - before; got != 0 {
		t.Fatalf("%d handles left after the last release", got)
	}
	if JSValueMakeNull(ctx) != 0 {
		t.Fatal("a released context still works")
	}
}

func TestWorker_RoundTripAndErrors(t *testing.T) {
	ctx := newCtx(t)
	w := JSWorkerCreateWithLimits(mkString(t, `onmessage = (e) => postMessage(e.data * 2);`), 1, 1, 1)
	defer JSWorkerRelease(w)
	var exc uintptr
	if JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, 1), &exc) {
		t.Fatal("a 1-byte limit accepted a number")
	}
	if got := excText(t, ctx, exc); !strings.Contains(got, "message too large for the worker's limit") {
		t.Fatalf("exception %q", got)
	}

	w2 := JSWorkerCreate(mkString(t, `onmessage = (e) => postMessage(e.data * 2);`))
	defer JSWorkerRelease(w2)
	exc = 0
	if JSWorkerPostMessage(w2, ctx, eval(t, ctx, "(function f() {})"), &exc) {
		t.Fatal("a function was posted")
	}
	if got := excText(t, ctx, exc); !strings.Contains(got, "DataCloneError") {
		t.Fatalf("exception %q does not name DataCloneError", got)
	}
	exc = 0
	if ZJSWorkerPostMessageWithTransfer(w2, ctx, JSValueMakeNumber(ctx, 1), 1, &[]uintptr{eval(t, ctx, "({})")}[0], &exc) {
		t.Log("the transfer list was accepted (structured clone supports it now)")
	} else if got := excText(t, ctx, exc); !strings.Contains(got, "DataCloneError") {
		t.Fatalf("transfer post: exception %q", got)
	}
	for i := range 100 {
		s := ZJSHandleScopeOpen(ctx)
		if !JSWorkerPostMessage(w2, ctx, JSValueMakeNumber(ctx, float64(i)), &exc) {
			t.Fatalf("post: %s", excText(t, ctx, exc))
		}
		if got := JSValueToNumber(ctx, JSWorkerReceive(w2, ctx, waitForever, &exc), nil); got != float64(2*i) {
			t.Fatalf("received %v, want %d", got, 2*i)
		}
		ZJSHandleScopeClose(ctx, s)
	}
	JSWorkerTerminate(w2)
	if v := JSWorkerReceive(w2, ctx, waitForever, &exc); v != 0 {
		t.Fatal("receive after terminate returned a value")
	}
}

func TestWorkerOptions_SizeField(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	src := mkString(t, `postMessage(name)`)
	var msg uintptr
	buf := make([]uint64, 64) // zeroed, larger than ZJSWorkerOptions
	buf[0] = 4
	if w := ZJSWorkerCreateWithOptions(src, unsafe.Pointer(&buf[0]), &msg); w != 0 {
		JSWorkerRelease(w)
		t.Fatal("size 4 was accepted")
	}
	if got := goString(t, msg); !strings.Contains(got, "options->size is 4") {
		t.Fatalf("error message %q", got)
	}
	buf[0] = uint64(len(buf) * 8) // bigger than known, but the unknown tail is zero
	w := ZJSWorkerCreateWithOptions(src, unsafe.Pointer(&buf[0]), &msg)
	if w == 0 {
		t.Fatalf("a zero tail was refused: %s", goString(t, msg))
	}
	JSWorkerRelease(w)
	buf[len(buf)-1] = 1
	if w := ZJSWorkerCreateWithOptions(src, unsafe.Pointer(&buf[0]), &msg); w != 0 {
		JSWorkerRelease(w)
		t.Fatal("unknown non-zero fields were accepted")
	}
	if got := goString(t, msg); !strings.Contains(got, "newer jsworker.h") {
		t.Fatalf("error message %q", got)
	}
	if w := ZJSWorkerCreateWithOptions(mkString(t, "syntax error("), nil, &msg); w != 0 {
		JSWorkerRelease(w)
		t.Fatal("a syntax error was accepted")
	}
	if got := goString(t, msg); !strings.Contains(got, "SyntaxError") && !strings.Contains(got, "Unexpected") {
		t.Fatalf("error message %q", got)
	}
}

func TestStrings_UTF16AndUTF8(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := mkString(t, "héllo €𝄞")
	if n := JSStringGetLength(s); n != 9 { // 𝄞 is a surrogate pair
		t.Fatalf("length %d, want 9", n)
	}
	buf := make([]byte, 6)
	n := JSStringGetUTF8CString(s, &buf[0], uintptr(len(buf)))
	if got := string(buf[:n-1]); got != "héll" { // é is 2 bytes: 5 bytes + NUL
		t.Fatalf("partial copy %q (%d)", got, n)
	}
	if !JSStringIsEqualToUTF8CString(s, cstr("héllo €𝄞")) || JSStringIsEqualToUTF8CString(s, cstr("hello")) {
		t.Fatal("JSStringIsEqualToUTF8CString")
	}
	p := JSStringGetCharactersPtr(s)
	if p == nil || unsafe.Slice(p, 9)[1] != 'é' {
		t.Fatal("JSStringGetCharactersPtr")
	}
	units := []uint16{0xD800, 'a'} // a lone surrogate survives a trip through a value
	s2 := JSStringCreateWithCharacters(&units[0], 2)
	defer JSStringRelease(s2)
	ctx := newCtx(t)
	var exc uintptr
	back := JSValueToStringCopy(ctx, JSValueMakeString(ctx, s2), &exc)
	defer JSStringRelease(back)
	if !JSStringIsEqual(s2, back) {
		t.Fatal("lone surrogate lost")
	}
}
