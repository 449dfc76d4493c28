package clone_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// FuzzDeserialize feeds arbitrary bytes to Deserialize, which must never
// panic, and must reject them with ErrMalformedFrame or a DataCloneError
// (a SharedArrayBuffer while shared memory is not plugged in) when it does
// not accept them. Whatever it accepts must serialize again without
// panicking, and that frame must deserialize.
//
// Under plain `go test` only the seeds run: the f.Add ones and the corpus
// in testdata/fuzz/FuzzDeserialize (valid and malformed frames, written by
// TestFuzzCorpus). `make fuzz` (go test -fuzz) explores from there.
func FuzzDeserialize(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s.frame)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rt := goja.New()
		defer clone.ReleaseRealm(rt)
		v, err := clone.Deserialize(rt, clone.NewFrame(data))
		if err != nil {
			var dce *clone.DataCloneError
			if !errors.Is(err, clone.ErrMalformedFrame) && !errors.As(err, &dce) {
				t.Fatalf("input % x: unexpected kind of error %T: %v", data, err, err)
			}
			return
		}
		again, err := clone.Serialize(rt, v, clone.Options{})
		if err != nil {
			return // e.g. a key holding U+FFFD, which the writer refuses
		}
		if _, err := clone.Deserialize(goja.New(), again); err != nil {
			t.Fatalf("re-serialized frame % x of input % x: %v", again.Bytes(), data, err)
		}
	})
}

type fuzzSeed struct {
	name  string
	frame []byte
}

// fuzzSeeds returns the seed corpus: every frame of the wire tests, valid
// and malformed, and some larger valid ones.
func fuzzSeeds(t testing.TB) []fuzzSeed {
	var seeds []fuzzSeed
	add := func(kind, name string, frame []byte) {
		seeds = append(seeds, fuzzSeed{kind + "-" + name, bytes.Clone(frame)})
	}
	for _, tc := range wireCases {
		add("valid", tc.name, tc.frame)
	}
	for _, tc := range legacyCases {
		add("valid-v1", tc.name, tc.frame)
	}
	for i, src := range []string{
		`({a: [1, , {b: "c", d: new Date(5)}], e: 2n**70n, f: "日本", g: -0.5})`,
		`var s = {x: [true, false, null, undefined]}; var o = {s, t: s, u: [s, s]}; o.o = o; o`,
		`["\udc00", "é".repeat(3), {"é": {"€": 1}}]`,
		`var m = new Map([[1, new Set(["a", {}])]]); m.set(m, [m]); var a = [m, /x+/gy, new RangeError("r", {cause: m})]; a.p = a; a`,
		`var b = new ArrayBuffer(24); [new Float64Array(b, 8), new DataView(b, 1, 2), new BigUint64Array(b), b, new Number(-0), Object(3n), new String("s"), new Boolean(false)]`,
	} {
		f := mustSerialize(t, src)
		add("valid", "graph "+strconv.Itoa(i), f.Bytes())
		f.Release()
	}
	for _, tc := range malformedCases {
		add("malformed", tc.name, tc.frame)
	}
	add("valid", "sparse huge", v2('a', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00))
	add("valid", "array referring to itself", v2('A', 0x02, '^', 0x00, '-'))
	add("malformed", "shared buffer", sharedFrame)
	add("valid", "depth 256", deepFrame(256, false))
	add("malformed", "depth 257", deepFrame(257, true))
	return seeds
}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite clone/testdata/fuzz/FuzzDeserialize from fuzzSeeds")

// TestFuzzCorpus checks that the checked-in corpus holds every seed, so
// that it follows the wire format; run it with -update-corpus to rewrite it.
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDeserialize")
	unsafeChars := regexp.MustCompile(`[^a-zA-Z0-9]+`)
	for _, s := range fuzzSeeds(t) {
		name := strings.Trim(unsafeChars.ReplaceAllString(s.name, "-"), "-")
		path := filepath.Join(dir, name)
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s.frame)
		if *updateCorpus {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is missing or stale: run go test ./clone -run TestFuzzCorpus -update-corpus", path)
		}
	}
}
