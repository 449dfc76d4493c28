package node

import (
	_ "embed"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/os.js
var osJS string

// osSource is the os module: its figures come from the Go runtime and, on Linux, /proc.
var osSource = jsutil.NewSource("node:os", osJS)

// osNatives are os.js's natives.
func osNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	def("numCPU", 0, func(goja.FunctionCall) goja.Value { return rt.ToValue(runtime.NumCPU()) })
	def("hostname", 0, func(goja.FunctionCall) goja.Value {
		h, err := os.Hostname()
		if err != nil {
			h = "localhost"
		}
		return rt.ToValue(h)
	})
	def("homedir", 0, func(goja.FunctionCall) goja.Value {
		h, err := os.UserHomeDir()
		if err != nil {
			h = ""
		}
		return rt.ToValue(h)
	})
	def("tmpdir", 0, func(goja.FunctionCall) goja.Value {
		d := os.TempDir()
		if len(d) > 1 && strings.HasSuffix(d, "/") {
			d = d[:len(d)-1]
		}
		return rt.ToValue(d)
	})
	def("meminfo", 0, func(goja.FunctionCall) goja.Value {
		total, free := memInfo()
		return rt.NewArray(total, free)
	})
	def("loadavg", 0, func(goja.FunctionCall) goja.Value {
		a := [3]any{0.0, 0.0, 0.0}
		if b, err := os.ReadFile("/proc/loadavg"); err == nil {
			for i, f := range strings.Fields(string(b)) {
				if i > 2 {
					break
				}
				a[i], _ = strconv.ParseFloat(f, 64)
			}
		}
		return rt.NewArray(a[:]...)
	})
	def("uptime", 0, func(goja.FunctionCall) goja.Value {
		if b, err := os.ReadFile("/proc/uptime"); err == nil {
			if f := strings.Fields(string(b)); len(f) > 0 {
				if v, err := strconv.ParseFloat(f[0], 64); err == nil {
					return rt.ToValue(v)
				}
			}
		}
		return rt.ToValue(time.Since(processStart).Seconds())
	})
	def("cpus", 0, func(goja.FunctionCall) goja.Value {
		model, mhz := cpuModel()
		list := make([]any, runtime.NumCPU())
		times := cpuTimes()
		for i := range list {
			o := rt.NewObject()
			_ = o.Set("model", model)
			_ = o.Set("speed", mhz)
			t := rt.NewObject()
			var ct [5]int64
			if i < len(times) {
				ct = times[i]
			}
			for j, k := range []string{"user", "nice", "sys", "idle", "irq"} {
				_ = t.Set(k, ct[j])
			}
			_ = o.Set("times", t)
			list[i] = o
		}
		return rt.NewArray(list...)
	})
	def("uname", 0, func(goja.FunctionCall) goja.Value {
		var u syscall.Utsname
		if err := syscall.Uname(&u); err != nil {
			return rt.NewArray(runtime.GOOS, "", "")
		}
		str := func(b [65]int8) string {
			s := make([]byte, 0, len(b))
			for _, c := range b {
				if c == 0 {
					break
				}
				s = append(s, byte(c))
			}
			return string(s)
		}
		return rt.NewArray(str(u.Sysname), str(u.Release), str(u.Version), str(u.Machine))
	})
	def("userInfo", 0, func(goja.FunctionCall) goja.Value {
		o := rt.NewObject()
		_ = o.Set("uid", os.Getuid())
		_ = o.Set("gid", os.Getgid())
		name := os.Getenv("USER")
		home, _ := os.UserHomeDir()
		shell := os.Getenv("SHELL")
		if b, err := os.ReadFile("/etc/passwd"); err == nil {
			uid := strconv.Itoa(os.Getuid())
			for _, line := range strings.Split(string(b), "\n") {
				f := strings.Split(line, ":")
				if len(f) >= 7 && f[2] == uid {
					name, home, shell = f[0], f[5], f[6]
					break
				}
			}
		}
		_ = o.Set("username", name)
		_ = o.Set("homedir", home)
		if shell == "" {
			_ = o.Set("shell", goja.Null())
		} else {
			_ = o.Set("shell", shell)
		}
		return o
	})
}

// memInfo returns the total and available memory in bytes, from /proc/meminfo (the Go runtime's own figure as the
// total where that does not exist).
func memInfo() (total, free int64) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.Sys), 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "MemTotal:":
			total = v * 1024
		case "MemAvailable:":
			free = v * 1024
		}
	}
	return total, free
}

// cpuModel returns the first processor's model name and speed in MHz, from /proc/cpuinfo.
func cpuModel() (string, int) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH, 0
	}
	model, mhz := "", 0
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "model name" && model == "" {
			model = v
		} else if k == "cpu MHz" && mhz == 0 {
			f, _ := strconv.ParseFloat(v, 64)
			mhz = int(f)
		}
	}
	if model == "" {
		model = runtime.GOARCH
	}
	return model, mhz
}

// cpuTimes returns each processor's user, nice, sys, idle and irq times in milliseconds, from /proc/stat.
func cpuTimes() [][5]int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return nil
	}
	var out [][5]int64
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 8 || !strings.HasPrefix(f[0], "cpu") || f[0] == "cpu" {
			continue
		}
		var t [5]int64
		for j, idx := range []int{1, 2, 3, 4, 6} {
			v, _ := strconv.ParseInt(f[idx], 10, 64)
			t[j] = v * 10 // clock ticks (USER_HZ = 100) to ms
		}
		out = append(out, t)
	}
	return out
}
