package core

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// physicalMemory returns the memory this process can have, in bytes: the least of the machine's physical memory
// (8 GiB if it cannot be read), the memory limit of the process's cgroup (a container's limit: cgroup v2
// memory.max, v1 memory.limit_in_bytes), and half its address-space limit (RLIMIT_AS, `ulimit -v`: Go reserves
// address space well beyond the heap it uses, so a process under such a limit fails its allocations at about
// half of it).
func physicalMemory() int64 {
	mem := int64(8 << 30)
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil && si.Totalram != 0 {
		mem = int64(si.Totalram) * int64(si.Unit)
	}
	if l, ok := cgroupMemoryLimit("/sys/fs/cgroup", "/proc/self/cgroup"); ok {
		mem = min(mem, l)
	}
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur != math.MaxUint64 && rl.Cur < math.MaxInt64 {
		mem = min(mem, int64(rl.Cur/2))
	}
	return mem
}

// cgroupMemoryLimit reads the memory limit of the process's cgroup from the cgroup file system mounted at root,
// for the membership listed in procCgroup (/proc/self/cgroup's format: "0::/path" for v2, "N:memory:/path" for
// v1). Inside a container the mount's root is often the process's own cgroup, so the file is looked for at the
// listed path first and at the mount's root after. A limit of "max" or of 2**62 or more (v1's "none") is none.
func cgroupMemoryLimit(root, procCgroup string) (int64, bool) {
	f, err := os.Open(procCgroup)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	best, found := int64(math.MaxInt64), false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dirs []string
		var file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dirs, file = []string{root}, "memory.max"
		case hasController(parts[1], "memory"):
			dirs, file = []string{filepath.Join(root, "memory"), filepath.Join(root, parts[1])}, "memory.limit_in_bytes"
		default:
			continue
		}
		for _, d := range dirs {
			for _, p := range []string{filepath.Join(d, filepath.Clean("/"+parts[2]), file), filepath.Join(d, file)} {
				if l, ok := readLimit(p); ok {
					best, found = min(best, l), true
					break
				}
			}
		}
	}
	return best, found
}

func hasController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readLimit reads a cgroup limit file: a number of bytes, or none ("max", a missing file, 2**62 or more).
func readLimit(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 || n >= 1<<62 {
		return 0, false
	}
	return n, true
}
