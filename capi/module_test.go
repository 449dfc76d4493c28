package capi

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// Module workers through the exports. The loader callback is a Go function registered under its userData; the
// library calls it through testHookLoader (the tests cannot make C function pointers).

const fakeLoader uintptr = 0x10ad

var (
	moduleLoaders sync.Map // userData → func(request uintptr, specifier, referrer string)
	lastLoader    atomic.Uintptr
)

func init() {
	testHookLoader = func(fn, request, userData uintptr, specifier, referrer string) {
		if fn != fakeLoader {
			panic("a loader other than the test's")
		}
		f, _ := moduleLoaders.Load(userData)
		f.(func(uintptr, string, string))(request, specifier, referrer)
	}
}

// registerLoader returns the userData under which fn answers the worker's loads.
func registerLoader(t *testing.T, fn func(request uintptr, specifier, referrer string)) uintptr {
	ud := lastLoader.Add(1)
	moduleLoaders.Store(ud, fn)
	t.Cleanup(func() { moduleLoaders.Delete(ud) })
	return ud
}

// resolveFrom answers a request from files, by specifier; unknown ones are left unanswered (not found).
func resolveFrom(files map[string]string) func(uintptr, string, string) {
	return func(req uintptr, spec, _ string) {
		if src, ok := files[spec]; ok {
			ZJSModuleRequestResolve(req, cstr("/m/"+strings.TrimPrefix(spec, "./")), unsafe.StringData(src), uintptr(len(src)))
		}
	}
}

// createModule makes a module worker of entry released at the end of the test.
func createModule(t *testing.T, entry string, ud uintptr, options unsafe.Pointer) uintptr {
	t.Helper()
	var msg uintptr
	w := ZJSWorkerCreateModule(cstr("/m/main.js"), unsafe.StringData(entry), uintptr(len(entry)), fakeLoader, ud, options, &msg)
	if w == 0 {
		t.Fatalf("ZJSWorkerCreateModule: %s", goString(t, msg))
	}
	t.Cleanup(func() { JSWorkerRelease(w) })
	return w
}

// receiveString receives one message as a string.
func receiveString(t *testing.T, ctx, w uintptr) string {
	t.Helper()
	var exc uintptr
	v := JSWorkerReceive(w, ctx, uint64((20 * time.Second).Milliseconds()), &exc)
	if v == 0 {
		t.Fatalf("no message (exception %q)", excText(t, ctx, exc))
	}
	return goString(t, JSValueToStringCopy(ctx, v, nil))
}

func TestModuleWorker_LoadsThroughTheCallback(t *testing.T) {
	ctx := newCtx(t)
	var calls []string
	files := map[string]string{"./dep.js": `export const answer = 42;`}
	ud := registerLoader(t, func(req uintptr, spec, ref string) {
		calls = append(calls, spec+" from "+ref)
		resolveFrom(files)(req, spec, ref)
	})
	w := createModule(t, `import { answer } from "./dep.js"; postMessage(answer + ":" + import.meta.url);`, ud, nil)
	if got := receiveString(t, ctx, w); got != "42:/m/main.js" {
		t.Fatalf("message = %q", got)
	}
	if strings.Join(calls, ",") != "./dep.js from /m/main.js" {
		t.Fatalf("loader calls = %q", calls)
	}
	var info struct {
		id          uint64
		kind, state int32
	}
	if !ZJSWorkerGetInspectorTargetInfo(w, unsafe.Pointer(&info)) || info.kind != 1 {
		t.Fatalf("target info = %+v, want kind 1 (kZJSInspectorTargetKindModule)", info)
	}
}

// TestModuleRequest_Misuse: every bad call is refused with false and changes nothing; the first answer counts; a
// request is dead once its callback has returned.
func TestModuleRequest_Misuse(t *testing.T) {
	ctx := newCtx(t)
	src := `export const v = "ok";`
	var stale uintptr
	var refusals []bool
	ud := registerLoader(t, func(req uintptr, spec, ref string) {
		stale = req
		otherThread := make(chan bool)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			otherThread <- ZJSModuleRequestResolve(req, cstr("/m/x.js"), unsafe.StringData(src), uintptr(len(src))) ||
				ZJSModuleRequestFail(req, nil)
		}()
		refusals = append(refusals,
			ZJSModuleRequestResolve(0, cstr("/m/x.js"), unsafe.StringData(src), uintptr(len(src))),
			ZJSModuleRequestResolve(req, nil, unsafe.StringData(src), uintptr(len(src))),
			ZJSModuleRequestResolve(req, cstr(""), unsafe.StringData(src), uintptr(len(src))),
			ZJSModuleRequestResolve(req, cstr("/m/x.js"), nil, 3),
			ZJSModuleRequestFail(0, nil),
			<-otherThread,
		)
		if !ZJSModuleRequestResolve(req, cstr("/m/x.js"), unsafe.StringData(src), uintptr(len(src))) {
			t.Error("a valid Resolve was refused")
		}
		refusals = append(refusals,
			ZJSModuleRequestResolve(req, cstr("/m/y.js"), nil, 0),
			ZJSModuleRequestFail(req, cstr("too late")),
		)
	})
	w := createModule(t, `import { v } from "./x.js"; postMessage(v);`, ud, nil)
	if got := receiveString(t, ctx, w); got != "ok" {
		t.Fatalf("message = %q", got)
	}
	for i, r := range refusals {
		if r {
			t.Errorf("misuse %d was accepted", i)
		}
	}
	if ZJSModuleRequestResolve(stale, cstr("/m/x.js"), nil, 0) || ZJSModuleRequestFail(stale, nil) {
		t.Fatal("a request was answered after its callback returned")
	}
	if n := handles.count(kindModuleRequest); n != 0 {
		t.Fatalf("%d request handles left", n)
	}
}

// TestModuleRequest_FailAndNotFound: Fail with a message fails the import with it; Fail(NULL) and no answer at all
// mean not found.
func TestModuleRequest_FailAndNotFound(t *testing.T) {
	ctx := newCtx(t)
	ud := registerLoader(t, func(req uintptr, spec, _ string) {
		switch spec {
		case "./fail.js":
			ZJSModuleRequestFail(req, cstr("disk on fire"))
		case "./null.js":
			ZJSModuleRequestFail(req, nil)
		}
	})
	w := createModule(t, `const out = [];
const tryImport = (s) => import(s).then(() => "loaded", (e) => e.message);
Promise.all(["./fail.js", "./null.js", "./silent.js"].map(tryImport)).then((r) => postMessage(r.join("|")));`, ud, nil)
	want := "Cannot load module './fail.js' imported from /m/main.js: disk on fire|" +
		"Cannot find module './null.js' imported from /m/main.js|" +
		"Cannot find module './silent.js' imported from /m/main.js"
	if got := receiveString(t, ctx, w); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// TestModuleWorker_GraphErrorEndsTheWorker: a static import that fails ends the worker before any module runs.
func TestModuleWorker_GraphErrorEndsTheWorker(t *testing.T) {
	ctx := newCtx(t)
	ud := registerLoader(t, func(uintptr, string, string) {})
	var msg uintptr
	src := "postMessage('ran');\nimport './missing.js';"
	opts := make([]uint64, 64)
	opts[0] = uint64(unsafe.Sizeof(struct {
		size                       uintptr
		in, out                    [3]uintptr
		name, filename             uintptr
		maxCallStackSize           uintptr
		dedicated, inspectable     bool
		errorCallback, errorUserUD uintptr
		waitForDebugger            bool
	}{}))
	w := ZJSWorkerCreateModule(cstr("/m/main.js"), unsafe.StringData(src), uintptr(len(src)), fakeLoader, ud, unsafe.Pointer(&opts[0]), &msg)
	if w == 0 {
		t.Fatalf("ZJSWorkerCreateModule: %s", goString(t, msg))
	}
	defer JSWorkerRelease(w)
	var exc uintptr
	if v := JSWorkerReceive(w, ctx, uint64((20 * time.Second).Milliseconds()), &exc); v != 0 || exc != 0 {
		t.Fatalf("Receive = %v (exception %q), want NULL: the worker ended", v, excText(t, ctx, exc))
	}
	var info struct {
		id          uint64
		kind, state int32
	}
	if !ZJSWorkerGetInspectorTargetInfo(w, unsafe.Pointer(&info)) || info.state != 3 {
		t.Fatalf("target info = %+v, want state 3 (closed)", info)
	}
}

func TestZJSWorkerCreateModule_BadArguments(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	src := "export {};"
	bad := []uint64{4, 0, 0, 0}
	for _, tt := range []struct {
		name    string
		path    *byte
		src     *byte
		n       uintptr
		options unsafe.Pointer
		want    string
	}{
		{"NULL path", nil, unsafe.StringData(src), uintptr(len(src)), nil, "entryPath is NULL or empty"},
		{"empty path", cstr(""), unsafe.StringData(src), uintptr(len(src)), nil, "entryPath is NULL or empty"},
		{"NULL source", cstr("/m.js"), nil, 4, nil, "entrySource is NULL"},
		{"bad options", cstr("/m.js"), unsafe.StringData(src), uintptr(len(src)), unsafe.Pointer(&bad[0]), "options->size is 4"},
	} {
		var msg uintptr
		if w := ZJSWorkerCreateModule(tt.path, tt.src, tt.n, 0, 0, tt.options, &msg); w != 0 {
			JSWorkerRelease(w)
			t.Fatalf("%s: accepted", tt.name)
		}
		if got := goString(t, msg); !strings.Contains(got, tt.want) {
			t.Fatalf("%s: message %q, want %q", tt.name, got, tt.want)
		}
	}
	if w := ZJSWorkerCreateModule(nil, nil, 0, 0, 0, nil, nil); w != 0 {
		t.Fatal("NULL everything was accepted")
	}
	if n := handles.count(kindWorker); n != 0 {
		t.Fatalf("%d worker handles left", n)
	}
}
