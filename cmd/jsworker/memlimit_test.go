package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// Under an address-space limit (`ulimit -v`, RLIMIT_AS), the allocation guard's cap follows the limit
// (core.MaxAllocationBytes: a quarter of it here), so a request Go could not satisfy is a catchable RangeError, not
// Go's fatal out of memory: found 2026-12-02, `Uint8Array.from({length: 2**31})` under `ulimit -v 6000000` ended
// the process ("fatal error: out of memory") where the cap was half the machine's physical memory.
func TestAllocationCapFollowsAddressSpaceLimit(t *testing.T) {
	p := script(t, "alloc.js", `
for (const f of [() => new Uint8Array(2**31), () => Uint8Array.from({length: 2**31}), () => new ArrayBuffer(2**31),
                 () => new Float64Array(2**28)]) {
  try { f(); console.log("allocated") } catch (e) { console.log(e.name + ": " + e.message) }
}
console.log(new Uint8Array(64 << 20).length)`)
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sh", "-c", `ulimit -v 3000000 && exec "$0" "$1"`, bin, p).CombinedOutput()
	if err != nil {
		t.Fatalf("jsworker under ulimit -v: %v\n%s", err, out)
	}
	want := "RangeError: Invalid typed array length: 2147483648\nRangeError: Invalid typed array length: 2147483648\n" +
		"RangeError: Array buffer allocation failed\nRangeError: Invalid typed array length: 268435456\n67108864\n"
	if got := string(out); got != want {
		t.Fatalf("output:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(string(out), "fatal error") {
		t.Fatal("Go's fatal out of memory")
	}
}
