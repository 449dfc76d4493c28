package workertargets

import (
	"slices"
	"testing"
)

// TestChildMethodsMatchDispatcher fails if ChildMethods and the family's dispatcher disagree.
func TestChildMethodsMatchDispatcher(t *testing.T) {
	var got []string
	for m := range childMethods {
		got = append(got, m)
	}
	slices.Sort(got)
	if !slices.Equal(got, ChildMethods) {
		t.Errorf("ChildMethods = %v\ndispatcher = %v", ChildMethods, got)
	}
}
