//go:build !linux

package core

// physicalMemory returns 8 GiB where the memory the process can have is not read.
func physicalMemory() int64 { return 8 << 30 }
