package core

import "syscall"

// physicalMemory returns the machine's physical memory in bytes (8 GiB if it cannot be read).
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil || si.Totalram == 0 {
		return 8 << 30
	}
	return int64(si.Totalram) * int64(si.Unit)
}
