package core

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCgroupMemoryLimit(t *testing.T) {
	write := func(t *testing.T, path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		files  map[string]string // relative to the cgroup root
		cgroup string
		want   int64
		ok     bool
	}{
		{"v2 at the listed path", map[string]string{"app/svc/memory.max": "536870912\n"}, "0::/app/svc\n", 512 << 20, true},
		{"v2 at the mount's root (a container)", map[string]string{"memory.max": "268435456\n"}, "0::/docker/abc\n", 256 << 20, true},
		{"v2 unlimited", map[string]string{"memory.max": "max\n"}, "0::/\n", 0, false},
		{"v1 at the mount's root", map[string]string{"memory/memory.limit_in_bytes": "1073741824\n"},
			"4:memory:/process_api/e7c5\n3:cpuset:/\n", 1 << 30, true},
		{"v1 unlimited", map[string]string{"memory/memory.limit_in_bytes": "9223372036854771712\n"}, "4:memory:/x\n", 0, false},
		{"v1 joined controllers", map[string]string{"cpu,memory/a/memory.limit_in_bytes": "2147483648"}, "5:cpu,memory:/a\n", 2 << 30, true},
		{"no memory controller", nil, "1:cpu:/\n", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, text := range tc.files {
				write(t, filepath.Join(dir, "fs", p), text)
			}
			write(t, filepath.Join(dir, "cgroup"), tc.cgroup)
			got, ok := cgroupMemoryLimit(filepath.Join(dir, "fs"), filepath.Join(dir, "cgroup"))
			if ok != tc.ok || (ok && got != tc.want) {
				t.Fatalf("cgroupMemoryLimit = %d, %v; want %d, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if _, ok := cgroupMemoryLimit(t.TempDir(), "/nonexistent/cgroup"); ok {
		t.Fatal("a missing /proc/self/cgroup gave a limit")
	}
}
