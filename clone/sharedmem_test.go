package clone_test

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/sharedmem"
)

// sharedRealm returns a runtime with SharedArrayBuffer and Atomics.
func sharedRealm(t *testing.T) *goja.Runtime {
	t.Helper()
	rt := goja.New()
	if err := sharedmem.Install(rt, sharedmem.RealmOptions{}); err != nil {
		t.Fatal(err)
	}
	return rt
}

// TestSharedMemoryByReference sends a real SharedArrayBuffer (package
// sharedmem, registered by clone's init) from one realm to another: both see
// the same memory, and every token is gone from the registry afterwards.
func TestSharedMemoryByReference(t *testing.T) {
	a, b := sharedRealm(t), sharedRealm(t)
	v, err := a.RunString(`var sab = new SharedArrayBuffer(16); Atomics.store(new Int32Array(sab), 1, 7); ({sab: sab, again: sab})`)
	if err != nil {
		t.Fatal(err)
	}
	f, err := clone.Serialize(a, v, clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sharedmem.RegistryLen() != 1 {
		t.Fatalf("registry holds %d tokens, want 1 (one per buffer, not per reference)", sharedmem.RegistryLen())
	}
	got, err := clone.Deserialize(b, f)
	if err != nil {
		t.Fatal(err)
	}
	b.Set("got", got)
	r, err := b.RunString(`var ia = new Int32Array(got.sab);
		var ok = got.sab === got.again && got.sab instanceof SharedArrayBuffer && Atomics.load(ia, 1) === 7;
		Atomics.store(ia, 2, 9); ok`)
	if err != nil || !r.ToBoolean() {
		t.Fatalf("received SharedArrayBuffer: %v %v", r, err)
	}
	if r, _ := a.RunString(`Atomics.load(new Int32Array(sab), 2)`); r.ToInteger() != 9 {
		t.Fatalf("the sender does not see the receiver's write: %v", r)
	}
	if n := sharedmem.RegistryLen(); n != 0 {
		t.Fatalf("%d tokens left", n)
	}
}

func TestSharedMemoryTokensFailClosed(t *testing.T) {
	a, b := sharedRealm(t), sharedRealm(t)
	sab, _ := a.RunString(`new SharedArrayBuffer(8)`)

	t.Run("replayed", func(t *testing.T) {
		f, err := clone.Serialize(a, sab, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		replay := append([]byte(nil), f.Bytes()...)
		if _, err := clone.Deserialize(b, f); err != nil {
			t.Fatal(err)
		}
		_, err = clone.Deserialize(b, clone.NewFrame(replay))
		var dce *clone.DataCloneError
		if !errors.As(err, &dce) {
			t.Fatalf("replayed token: %v, want a DataCloneError", err)
		}
	})
	t.Run("forged", func(t *testing.T) {
		f, err := clone.Serialize(a, sab, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		forged := append([]byte(nil), f.Bytes()...)
		f.Release() // the real token is discarded unread
		for i := range forged {
			if i > 8 && i < 8+16+4 { // somewhere in the manifest's token
				forged[i] ^= 0x5a
			}
		}
		if _, err := clone.Deserialize(b, clone.NewFrame(forged)); err == nil {
			t.Fatal("a forged frame was accepted")
		}
	})
	t.Run("unread frame released", func(t *testing.T) {
		f, err := clone.Serialize(a, sab, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f.Release()
		f.Release()
	})
	if n := sharedmem.RegistryLen(); n != 0 {
		t.Fatalf("%d tokens left in the registry", n)
	}
	// A SharedArrayBuffer cannot be transferred.
	if _, err := clone.Serialize(a, sab, clone.Options{Transfer: []goja.Value{sab}}); err == nil {
		t.Fatal("transferring a SharedArrayBuffer succeeded")
	}
}
