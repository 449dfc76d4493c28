package gojainternal

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// Objects of one layout sharing their names slice.
//
// FillPlainObject gives every object a names slice of its own. Objects of
// one layout (the records of a cloned array) could share one: goja already
// shares names slices between an object and its iterators, copy on write.
// A slice whose capacity exceeds its length by one, holding goja's copy
// marker (a single space) in that last slot, is one goja copies before any
// change: adding a name, deleting one, moving index names to the front, or
// starting an iteration. SharedNames makes such a slice and
// FillPlainObjectShared gives it to a new object. The probe builds objects
// sharing a slice, changes one in every way buildSamples do, and checks that
// the others and the slice itself stay as they were; it fails closed, and
// FillPlainObjectShared then answers false.

var share struct {
	once sync.Once
	err  error
}

func loadShare() error {
	share.once.Do(func() {
		if err := loadBuild(); err != nil {
			share.err = err
			return
		}
		if err := probeShare(); err != nil {
			share.err = probeError("shared object layouts", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return share.err
}

// copyMarker is what goja's copy-on-write names slices hold past their
// length (the probe checks that goja honours it).
const copyMarker = unistring.String(" ")

// SharedNames returns a names slice holding names, for FillPlainObjectShared
// to give to many objects, or nil if names repeat a name, are empty, or the
// probe failed. The slice must never be changed.
func SharedNames(names []unistring.String) []unistring.String {
	if len(names) == 0 || loadShare() != nil {
		return nil
	}
	seen := make(map[unistring.String]struct{}, len(names))
	for _, n := range names {
		if _, dup := seen[n]; dup {
			return nil
		}
		seen[n] = struct{}{}
	}
	return markShared(names)
}

func markShared(names []unistring.String) []unistring.String {
	s := make([]unistring.String, len(names)+1)
	copy(s, names)
	s[len(names)] = copyMarker
	return s[:len(names)]
}

// FillPlainObjectShared is FillPlainObject for names made by SharedNames,
// which o then shares with every object given them (no copy).
func FillPlainObjectShared(o *goja.Object, shared []unistring.String, values []goja.Value) bool {
	if o == nil || len(shared) != len(values) || cap(shared) != len(shared)+1 || loadShare() != nil ||
		selfOf(o).tab != kinds.plainTab {
		return false
	}
	p := selfOf(o).data
	if len(valuesOf(o)) != 0 || len(*(*[]unistring.String)(unsafe.Add(p, props.names))) != 0 ||
		*(*int)(unsafe.Add(p, props.sorted)) != 0 {
		return false
	}
	fillShared(o, shared, values)
	return true
}

func fillShared(o *goja.Object, shared []unistring.String, values []goja.Value) {
	p := selfOf(o).data
	m := *(*map[unistring.String]goja.Value)(unsafe.Add(p, props.values))
	if len(shared) > smallMap {
		m = make(map[unistring.String]goja.Value, len(shared))
	}
	for i, n := range shared {
		m[n] = values[i]
	}
	*(*map[unistring.String]goja.Value)(unsafe.Add(p, props.values)) = m
	*(*[]unistring.String)(unsafe.Add(p, props.names)) = shared
}

// probeShare builds, for every sample of buildSamples without a repeated
// name, three objects sharing one names slice and one made with Set; runs
// the sample's check on the first (which changes it), then on the second,
// and on the reference each time from scratch; and checks that the slice
// is unchanged after every step.
func probeShare() error {
	checks, err := buildChecks()
	if err != nil {
		return err
	}
	return withProbeRuntime(func(rt *goja.Runtime) error {
		proto := rt.NewObject().Prototype()
		v, err := rt.RunProgram(checks)
		if err != nil {
			return err
		}
		fns, ok := v.(*goja.Object)
		if !ok {
			return errors.New("the probe's checks are not an array")
		}
		for i, s := range buildSamples {
			fields := strings.Fields(s.names)
			if len(fields) == 0 || len(fields) != len(slices.Compact(slices.Sorted(slices.Values(fields)))) {
				continue
			}
			check, ok := goja.AssertFunction(fns.Get(fmt.Sprint(i)))
			if !ok {
				return fmt.Errorf("the probe's check %d is not a function", i)
			}
			var names []unistring.String
			var values []goja.Value
			for j, n := range fields {
				names = append(names, unistring.NewFromString(n))
				values = append(values, rt.ToValue(j+1))
			}
			shared := markShared(names)
			intact := func(step string) error {
				full := shared[:len(shared)+1]
				if !slices.Equal(shared, names) || full[len(shared)] != copyMarker {
					return fmt.Errorf("names %q: the shared slice changed (%s)", s.names, step)
				}
				return nil
			}
			objs := make([]*goja.Object, 3)
			for j := range objs {
				objs[j] = rt.CreateObject(proto)
				fillShared(objs[j], shared, values)
			}
			for j := 0; j < 2; j++ {
				ref := rt.CreateObject(nil)
				for k, n := range names {
					if err := ref.Set(n.String(), values[k]); err != nil {
						return err
					}
				}
				if err := ref.SetPrototype(proto); err != nil {
					return err
				}
				want, err := check(goja.Undefined(), ref)
				if err != nil {
					return err
				}
				got, err := check(goja.Undefined(), objs[j])
				if err != nil {
					return err
				}
				if goja.IsUndefined(want) || got.String() != want.String() {
					return fmt.Errorf("names %q: object %d sharing its names gives %s, one made with Set gives %s", s.names, j, got, want)
				}
				if err := intact(fmt.Sprintf("after check on object %d", j)); err != nil {
					return err
				}
			}
			// The third, untouched, still has every name in order.
			if got := strings.Join(objs[2].Keys(), " "); got != strings.Join(orderedLikeGoja(fields), " ") {
				return fmt.Errorf("names %q: an untouched object sharing them has %q", s.names, got)
			}
			if err := intact("at the end"); err != nil {
				return err
			}
		}
		return nil
	})
}

// orderedLikeGoja is the order of Keys() for fields: integer-like names
// first, ascending (the samples' are single digits), then the rest.
func orderedLikeGoja(fields []string) []string {
	var idx, rest []string
	for _, f := range fields {
		if len(f) == 1 && f[0] >= '0' && f[0] <= '9' {
			idx = append(idx, f)
		} else {
			rest = append(rest, f)
		}
	}
	slices.Sort(idx)
	return append(idx, rest...)
}
