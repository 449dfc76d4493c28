//go:build race

package depthguard

const raceEnabled = true
