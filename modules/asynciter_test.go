package modules_test

import (
	"testing"

	"github.com/jsworker/jsworker/modules"
)

func TestHasAsyncIteration(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"for await (const x of y) {}", true},
		{"async function f() { for\n await (const x of y); }", true},
		{"async function* g() {}", true},
		{"const o = { async *m() {} }", true},
		{"class C { static async *[Symbol.asyncIterator]() {} }", true},
		{"async function f() { await x; for (const y of z) {} }", false},
		{"function* g() {}", false},
		{"// for await (x of y)\n'for await (x of y)'; /for await/", false},
		{"o.async * 2; o.for; x.async\n*y", false},
	} {
		if got := modules.HasAsyncIteration(tc.src); got != tc.want {
			t.Errorf("HasAsyncIteration(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
