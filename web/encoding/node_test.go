package encoding

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// runNode runs script under node with the JSON of input as the global
// INPUT and returns what the script writes to stdout, decoded as JSON into
// out. It skips the test when node is not installed.
func runNode(t *testing.T, script string, input, out interface{}) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the side-by-side comparison with Node needs it")
	}
	in, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", "const INPUT = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"+script)
	cmd.Stdin = strings.NewReader(string(in))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("node output: %v\n%.500s", err, b)
	}
}
