package gojainternal

import "testing"

func TestLazyPropsProbe(t *testing.T) {
	if err := LazyProps(); err != nil {
		t.Fatal(err)
	}
}
