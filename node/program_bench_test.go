package node_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// benchDir holds the worker_threads benchmark programs that must run
// unchanged under jsworker (issue 9): ../shared/bench/node from the
// repository root.
const benchDir = "../../shared/bench/node"

// benchSizes shrinks each program's size constants so that the whole set
// runs in seconds; the code itself is unchanged.
var benchSizes = map[string]map[string]string{
	"spawn.js":      {"SEQ": "3", "CONC": "4"},
	"rtt.js":        {"WARM": "10", "N": "50"},
	"throughput.js": {"N": "3000", "WARM": "300"},
	"clone.js":      {"NOBJ": "200", "ITER": "2", "BUF_BYTES": "1024 * 1024", "BUF_ITER": "2"},
	"atomics.js":    {"WARM": "50", "N": "200", "ADDS": "2000"},
	"memory.js":     {"NW": "4", "SETTLE_MS": "10"},
}

func TestProgram_BenchmarkProgramsRunUnchanged(t *testing.T) {
	for name, sizes := range benchSizes {
		t.Run(strings.TrimSuffix(name, ".js"), func(t *testing.T) {
			path := filepath.Join(benchDir, name)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("benchmark program not available: %v", err)
			}
			src := string(b)
			for k, v := range sizes {
				re := regexp.MustCompile(`(?m)^const ` + k + ` = [^;]+;`)
				if !re.MatchString(src) {
					t.Fatalf("%s: no constant %s", name, k)
				}
				src = re.ReplaceAllString(src, "const "+k+" = "+v+";")
			}
			code, out, errOut := runProgram(t, src)
			var line map[string]any
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &line); err != nil {
				t.Fatalf("exit %d, no JSON line: stdout %q stderr %q", code, out, errOut)
			}
			if code != 0 || line["error"] != nil || line["bench"] != strings.TrimSuffix(name, ".js") {
				t.Fatalf("exit %d, line %v, stderr %q", code, line, errOut)
			}
			for k, v := range line {
				if strings.HasSuffix(k, "ok") && v != true {
					t.Errorf("%s = %v", k, v)
				}
			}
			t.Logf("%s", lines[len(lines)-1])
		})
	}
}
