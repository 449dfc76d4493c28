//go:build !race

package core_test

// underRace: the deep recursion tests of depthguard_lazy_test.go take seconds each under the race detector.
const underRace = false
