package clone

// Tests want internal bugs to crash, not to turn into errors, so that the
// fuzz target sees them.
func init() { panicOnInternalError = true }

// PendingCount returns the number of ArrayBuffers listed by frames that are
// neither committed nor released.
var PendingCount = pendingCount

// CurrentSharedMemory returns the registered shared-memory implementation,
// so that tests installing a fake can put the real one back.
var CurrentSharedMemory = sharedMemory

// BuildObjectsWithSet makes Deserialize build plain objects through goja's
// public API, as when gojainternal cannot fill them, until restore is called.
// Not for parallel tests.
func BuildObjectsWithSet() (restore func()) {
	fillObjects = false
	return func() { fillObjects = true }
}
