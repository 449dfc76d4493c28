package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// goja's sparse arrays: what an array becomes when a script sets an index far past its stored slots (`a =
// new Array(2**32 - 1); a[5] = 1`). It keeps its elements as a slice of (index, value) pairs sorted by index.
// SparseNext and SparsePrev find the stored index nearest to k, so that a walk of a huge sparse array can skip
// the holes between elements without asking each index. The type and offsets are found by reflect once and
// verified on samples against Get.

var sparse struct {
	once     sync.Once
	err      error
	tab      unsafe.Pointer // the sparse array's type word
	items    uintptr        // offset of the items slice in the sparse array
	idx, val uintptr        // offsets in an item
	size     uintptr        // an item's size
}

func loadSparse() error {
	sparse.once.Do(func() {
		if err := loadArrays(); err != nil {
			sparse.err = err
			return
		}
		if err := probeSparse(); err != nil {
			sparse.err = probeError("sparse arrays", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return sparse.err
}

func probeSparse() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	return withProbeRuntime(func(rt *goja.Runtime) error {
		a, err := sample(rt, `(function () { var s = []; s[1e6] = 1; s[5] = "x"; s[70000] = null; return s })()`)
		if err != nil {
			return err
		}
		st := implType(a)
		if st.Kind() != reflect.Pointer || st.Elem().Kind() != reflect.Struct || selfOf(a).tab == kinds.arrayTab {
			return errors.New("a sparse array's implementation is not a pointer to a struct of its own")
		}
		f, ok := st.Elem().FieldByName("items")
		if !ok || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Struct {
			return errors.New("no items slice of structs")
		}
		it := f.Type.Elem()
		if sparse.items, err = fieldOffset(st.Elem(), "items", func(reflect.Type) bool { return true }); err != nil {
			return err
		}
		if sparse.idx, err = fieldOffset(it, "idx", func(t reflect.Type) bool { return t == reflect.TypeFor[uint32]() }); err != nil {
			return err
		}
		if sparse.val, err = fieldOffset(it, "value", func(t reflect.Type) bool { return t == reflect.TypeFor[goja.Value]() }); err != nil {
			return err
		}
		sparse.size, sparse.tab = it.Size(), selfOf(a).tab
		want := []uint32{5, 70000, 1e6}
		got := sparseIndices(a)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("indices %v, want %v", got, want)
		}
		for i, k := range got {
			v := *(*goja.Value)(unsafe.Add(sparseItem(a, i), sparse.val))
			if w := a.Get(strconv.FormatUint(uint64(k), 10)); v == nil || !v.SameAs(w) {
				return fmt.Errorf("element %d is %v, Get says %v", k, v, w)
			}
		}
		return nil
	})
}

func sparseLen(o *goja.Object) int {
	return len(*(*[]byte)(unsafe.Add(selfOf(o).data, sparse.items))) // (a slice header: its length is what is read)
}

func sparseItem(o *goja.Object, i int) unsafe.Pointer {
	base := *(*unsafe.Pointer)(unsafe.Add(selfOf(o).data, sparse.items))
	return unsafe.Add(base, uintptr(i)*sparse.size)
}

func sparseIdx(o *goja.Object, i int) uint32 {
	return *(*uint32)(unsafe.Add(sparseItem(o, i), sparse.idx))
}

func sparseIndices(o *goja.Object) []uint32 {
	out := make([]uint32, sparseLen(o))
	for i := range out {
		out[i] = sparseIdx(o, i)
	}
	return out
}

// IsSparseArray reports whether o is one of goja's sparse arrays (ok=false: the probe failed).
func IsSparseArray(o *goja.Object) bool {
	return o != nil && loadSparse() == nil && selfOf(o).tab == sparse.tab
}

// SparseNext returns the least index at or after k that goja's sparse array o stores an element (or an accessor)
// at, with found=false when there is none; ok=false when o is not a sparse array. It runs no JavaScript.
func SparseNext(o *goja.Object, k uint32) (idx uint32, found, ok bool) {
	if !IsSparseArray(o) {
		return 0, false, false
	}
	n := sparseLen(o)
	i := sort.Search(n, func(i int) bool { return sparseIdx(o, i) >= k })
	if i == n {
		return 0, false, true
	}
	return sparseIdx(o, i), true, true
}

// SparsePrev returns the greatest index at or before k that goja's sparse array o stores an element at, with
// found=false when there is none; ok=false when o is not a sparse array. It runs no JavaScript.
func SparsePrev(o *goja.Object, k uint32) (idx uint32, found, ok bool) {
	if !IsSparseArray(o) {
		return 0, false, false
	}
	i := sort.Search(sparseLen(o), func(i int) bool { return sparseIdx(o, i) > k }) - 1
	if i < 0 {
		return 0, false, true
	}
	return sparseIdx(o, i), true, true
}
