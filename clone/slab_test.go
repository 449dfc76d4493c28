package clone_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// slabValuesSrc makes an array of the values a decoder keeps in slabs
// (numbers that are not small integers, fractions, ASCII strings up to and
// past the slab's limit) beside those it does not (small integers,
// integral doubles, NaN, -0, Latin-1 and UTF-16 strings), all depending on
// seed.
func slabValuesSrc(seed int) string {
	return fmt.Sprintf(`(function (k) { var a = [];
		for (var i = 0; i < 300; i++) a.push(k * 1000 + i, -(k * 1000 + i), (k + i) / 8, 1e300 / (k + i + 1), i %% 7, 2 ** 40 + k,
			NaN, -0, Infinity, "s" + k + "-" + i, "", "x".repeat(i %% 70) + k, "é" + k + i, "€" + i + k,
			{["key" + k + "_" + (i %% 5)]: (k + i) * 0.25});
		return a; })(%d)`, seed)
}

// checkSlabValues is a function of (array, seed) that checks slabValuesSrc's
// result in the receiving realm.
const checkSlabValues = `(function (a, k) { var j = 0;
	function same(x, y) { return Object.is(x, y); }
	for (var i = 0; i < 300; i++) {
		if (!same(a[j++], k * 1000 + i) || !same(a[j++], -(k * 1000 + i)) || !same(a[j++], (k + i) / 8) ||
			!same(a[j++], 1e300 / (k + i + 1)) || !same(a[j++], i % 7) || !same(a[j++], 2 ** 40 + k) ||
			!same(a[j++], NaN) || !same(a[j++], -0) || !same(a[j++], Infinity) || a[j++] !== "s" + k + "-" + i ||
			a[j++] !== "" || a[j++] !== "x".repeat(i % 70) + k || a[j++] !== "é" + k + i || a[j++] !== "€" + i + k) return "value " + j;
		var o = a[j++];
		if (JSON.stringify(o) !== JSON.stringify({["key" + k + "_" + (i % 5)]: (k + i) * 0.25})) return "object " + j;
	}
	return a.length === j ? "ok" : "length";
})`

// Values a decoder keeps in slabs stay as they were when later messages
// fill the same decoders' slabs: each message's values are checked after
// all of them were read.
func TestSlabValuesSurviveLaterMessages(t *testing.T) {
	src, dst := goja.New(), goja.New()
	var got []goja.Value
	for k := 0; k < 40; k++ {
		f, err := clone.Serialize(src, run(t, src, slabValuesSrc(k)), clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := clone.Deserialize(dst, f)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	check := run(t, dst, checkSlabValues)
	fn, _ := goja.AssertFunction(check)
	for k, v := range got {
		r, err := fn(goja.Undefined(), v, dst.ToValue(k))
		if err != nil || r.String() != "ok" {
			t.Errorf("message %d: %v %v", k, r, err)
		}
	}
}

// Pooled decoders, and the slabs they carry, move between goroutines:
// realms reading at once on their own goroutines each see their own values
// (run with -race).
func TestSlabValuesConcurrentReaders(t *testing.T) {
	const readers, rounds = 4, 15
	frames := make([][]byte, readers)
	for i := range frames {
		f := mustSerialize(t, slabValuesSrc(i+100))
		frames[i] = append([]byte(nil), f.Bytes()...)
		f.Release()
	}
	var wg sync.WaitGroup
	errs := make(chan error, readers)
	for i := 0; i < readers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rt := goja.New()
			cv, err := rt.RunString(checkSlabValues)
			if err != nil {
				errs <- err
				return
			}
			fn, _ := goja.AssertFunction(cv)
			var kept []goja.Value
			for r := 0; r < rounds; r++ {
				v, err := clone.Deserialize(rt, clone.NewFrame(append([]byte(nil), frames[i]...)))
				if err != nil {
					errs <- err
					return
				}
				kept = append(kept, v)
			}
			for _, v := range kept {
				if res, err := fn(goja.Undefined(), v, rt.ToValue(i+100)); err != nil || res.String() != "ok" {
					errs <- fmt.Errorf("reader %d: %v %v", i, res, err)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
