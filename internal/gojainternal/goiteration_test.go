package gojainternal

import "testing"

func TestGoIteration(t *testing.T) {
	if err := GoIteration(); err != nil {
		t.Fatal(err)
	}
	if InGoIteration() {
		t.Fatal("a test function is not under goja's iteration loop")
	}
}

// BenchmarkInGoIteration measures the walk's worst case: all goIterateDepth frames read, neither name found.
func BenchmarkInGoIteration(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if deepWalk(goIterateDepth) {
			b.Fatal("no goja loop here")
		}
	}
}

//go:noinline
func deepWalk(n int) bool {
	if n == 0 {
		return inGoIteration()
	}
	return deepWalk(n - 1)
}
