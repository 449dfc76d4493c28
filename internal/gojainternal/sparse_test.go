package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

func TestSparseNextPrev(t *testing.T) {
	if err := loadSparse(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	a := mustRun(t, rt, `var a = new Array(2**32 - 1); a[7] = 1; a[300000] = 2; a[2**32 - 2] = 3; a`)
	for _, c := range []struct {
		k, next, prev        uint32
		nextFound, prevFound bool
	}{
		{0, 7, 0, true, false}, {7, 7, 7, true, true}, {8, 300000, 7, true, true},
		{300001, 1<<32 - 2, 300000, true, true}, {1<<32 - 2, 1<<32 - 2, 1<<32 - 2, true, true},
	} {
		if i, found, ok := SparseNext(a, c.k); !ok || found != c.nextFound || (found && i != c.next) {
			t.Errorf("SparseNext(%d) = %d %v %v", c.k, i, found, ok)
		}
		if i, found, ok := SparsePrev(a, c.k); !ok || found != c.prevFound || (found && i != c.prev) {
			t.Errorf("SparsePrev(%d) = %d %v %v", c.k, i, found, ok)
		}
	}
	for _, src := range []string{`[1, 2]`, `({length: 5})`, `new Proxy([], {})`} {
		if _, _, ok := SparseNext(mustRun(t, rt, src), 0); ok {
			t.Errorf("%s read as sparse", src)
		}
	}
}
