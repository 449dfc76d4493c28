package capi

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/jsworker/jsworker/clone"
)

// FuzzJSONToFrame: any text either fails as JSON's grammar says (encoding/json.Valid agrees on valid UTF-8) or
// becomes a frame that the clone reads and that frameJSON turns back into valid JSON.
func FuzzJSONToFrame(f *testing.F) {
	for _, s := range jsonCorpus {
		f.Add([]byte(s))
	}
	for _, s := range invalidJSON {
		f.Add([]byte(s))
	}
	rt := goja.New()
	f.Fuzz(func(t *testing.T, text []byte) {
		fr, err := jsonToFrame(text, 1<<20)
		var dce *clone.DataCloneError
		switch {
		case err == nil:
		case errors.As(err, &dce), errors.Is(err, clone.ErrFrameTooLarge):
			return
		default:
			if utf8.Valid(text) && json.Valid(text) {
				t.Fatalf("jsonToFrame(%q) refused valid JSON: %v", text, err)
			}
			return
		}
		if !json.Valid(text) {
			t.Fatalf("jsonToFrame(%q) accepted invalid JSON", text)
		}
		out, _, fast := frameJSON(fr.Bytes(), nil)
		if !fast || !json.Valid(out) {
			t.Fatalf("frameJSON of %q: fast %v, %q", text, fast, out)
		}
		if _, err := clone.Deserialize(rt, fr); err != nil {
			t.Fatalf("clone.Deserialize of jsonToFrame(%q): %v", text, err)
		}
	})
}
