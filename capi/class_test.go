package capi

import (
	"testing"
	"unsafe"
)

// newClass makes a class with a name and no callbacks (tests cannot make C function pointers).
func newClass(t *testing.T, name string) uintptr {
	t.Helper()
	var def _Ctype_struct_jsw_class_definition
	def.className = (*_Ctype_char)(unsafe.Pointer(cstr(name)))
	h := JSClassCreate(&def)
	if h == 0 {
		t.Fatal("JSClassCreate = NULL")
	}
	return h
}

// TestClass_Lifecycle makes objects of a class, drops some, releases the context and checks that nothing is left:
// no handles of any kind beyond those the test holds, no instance records, no queued deaths.
func TestClass_Lifecycle(t *testing.T) {
	live := func() int { return handles.count(0) - handles.count(kindString) } // the test's strings die at its end
	before := live()
	cls := newClass(t, "Thing")
	ctx := newCtx(t)
	c, _ := enter("test", ctx)
	var priv [4]byte
	obj := JSObjectMake(ctx, cls, unsafe.Pointer(&priv[0]))
	if JSObjectGetPrivate(obj) != uintptr(unsafe.Pointer(&priv[0])) {
		t.Fatal("JSObjectGetPrivate does not return the data")
	}
	if !JSValueIsObjectOfClass(ctx, obj, cls) {
		t.Fatal("JSValueIsObjectOfClass = false")
	}
	for range 100 {
		s := ZJSHandleScopeOpen(ctx)
		JSObjectMake(ctx, cls, nil)
		ZJSHandleScopeClose(ctx, s)
	}
	if got := len(c.x.objects); got != 101 {
		t.Fatalf("%d instance records, want 101", got)
	}
	if got := eval(t, ctx, `Object.prototype.toString.call(this.x = 1, globalThis)`); got == 0 {
		t.Fatal("eval failed")
	}
	JSGlobalContextRelease(ctx)
	if len(c.x.objects) != 0 || len(c.x.buffers) != 0 || len(c.x.protos) != 0 {
		t.Fatalf("after the release: %d objects, %d buffers, %d prototypes", len(c.x.objects), len(c.x.buffers),
			len(c.x.protos))
	}
	JSClassRelease(cls)
	// newCtx's cleanup releases ctx again: a no-op on a stale handle.
	if n := live(); n != before {
		for i := range handles.shards {
			for h, e := range handles.shards[i].m {
				t.Logf("left: %x %s", h, e.kind)
			}
		}
		t.Fatalf("%d handles live after the release, want %d", n, before)
	}
	if n := handles.count(kindFinalizing) + handles.count(kindAccumulator) + handles.count(kindClass); n != 0 {
		t.Fatalf("%d finalizing/accumulator/class handles left", n)
	}
}

// TestTypedArray_NoCopyLifecycle: a NoCopy buffer without a deallocator is forgotten at the release.
func TestTypedArray_NoCopyLifecycle(t *testing.T) {
	ctx := newCtx(t)
	c, _ := enter("test", ctx)
	mem := make([]byte, 64)
	var exc uintptr
	if JSObjectMakeArrayBufferWithBytesNoCopy(ctx, unsafe.Pointer(&mem[0]), 64, 0, 0, &exc) == 0 {
		t.Fatalf("NoCopy = NULL: %s", excText(t, ctx, exc))
	}
	if len(c.x.buffers) != 1 {
		t.Fatalf("%d buffers recorded, want 1", len(c.x.buffers))
	}
	JSGlobalContextRelease(ctx)
	if len(c.x.buffers) != 0 {
		t.Fatal("the buffer record outlived the context")
	}
}
