//go:build !race

package depthguard

const raceEnabled = false
