package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jsworker/jsworker/internal/testsupport"
)

// long bounds every wait in these tests; none of them should come close.
const long = 60 * time.Second

// bin is the jsworker command, built once by TestMain.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jsworker-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "jsworker")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ./cmd/jsworker: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// script writes src to a file named name in a fresh directory and returns its absolute path.
func script(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// jsworker runs the command to completion and returns its exit code and output.
func jsworker(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	} else if err != nil {
		t.Fatalf("jsworker %q: %v", args, err)
	}
	return 0, out.String(), errOut.String()
}

func TestExitCodes(t *testing.T) {
	uncaught := script(t, "uncaught.js", "function thrower() {\n  throw new TypeError('boom');\n}\nthrower();\n")
	syntax := script(t, "syntax.js", "let a = 1;\nlet b = ;\n")
	exit3 := script(t, "exit.js", "console.log('before');\nprocess.exit(3);\nconsole.log('after');\n")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out      string   // exact standard output
		errParts []string // each must appear in standard error
	}{
		{"eval", []string{"eval", "console.log(6 * 7)"}, 0, "42\n", nil},
		{"process.exit", []string{"run", exit3}, 3, "before\n", nil},
		{"eval process.exit", []string{"eval", "process.exit(5)"}, 5, "", nil},
		{"uncaught", []string{"run", uncaught}, 1, "", []string{"TypeError: boom", "at thrower (" + uncaught + ":2:"}},
		{"syntax", []string{"run", syntax}, 1, "", []string{syntax + ":2", "SyntaxError"}},
		{"missing", []string{"run", "/nonexistent/app.js"}, 1, "", []string{"Cannot find module '/nonexistent/app.js'"}},
		{"bad option", []string{"--bogus", "run", uncaught}, 9, "", []string{"bad option: --bogus"}},
		{"FILE as node", []string{uncaught}, 1, "", []string{"TypeError: boom", "at thrower (" + uncaught + ":2:"}},
		{"no code", []string{"-e"}, 9, "", []string{"-e requires an argument"}},
		{"no file", []string{"run"}, 9, "", []string{"missing FILE"}},
		{"non-loopback", []string{"--inspect=0.0.0.0:0", "eval", "1"}, 12, "", []string{"loopback"}},
		{"bad port", []string{"--inspect=80", "eval", "1"}, 12, "", []string{"1024-65535"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := jsworker(t, tc.args...)
			if code != tc.code || out != tc.out {
				t.Errorf("exit %d, stdout %q; want %d, %q\nstderr:\n%s", code, out, tc.code, tc.out, errOut)
			}
			for _, p := range tc.errParts {
				if !strings.Contains(errOut, p) {
					t.Errorf("stderr lacks %q:\n%s", p, errOut)
				}
			}
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	code, out, _ := jsworker(t, "--help")
	if code != 0 || !strings.HasPrefix(out, "Usage: jsworker") || !strings.Contains(out, "--inspect-brk") {
		t.Errorf("--help: %d %q", code, out)
	}
	code, out, _ = jsworker(t, "--version")
	if code != 0 || out != "v"+version+"\n" {
		t.Errorf("--version: %d %q", code, out)
	}
}

func TestArgv(t *testing.T) {
	p := script(t, "argv.js", "console.log(JSON.stringify(process.argv));\n")
	code, out, errOut := jsworker(t, "run", p, "a", "b c", "--inspect")
	var argv []string
	if err := json.Unmarshal([]byte(out), &argv); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %q %s", code, err, out, errOut)
	}
	if len(argv) != 5 || argv[0] != bin || argv[1] != p || argv[2] != "a" || argv[3] != "b c" || argv[4] != "--inspect" {
		t.Errorf("process.argv = %q, want [%s %s a 'b c' --inspect]", argv, bin, p)
	}

	code, out, _ = jsworker(t, "eval", "console.log(JSON.stringify(process.argv))", "x")
	if err := json.Unmarshal([]byte(out), &argv); code != 0 || err != nil || len(argv) != 2 || argv[1] != "x" {
		t.Errorf("eval: process.argv = %q (exit %d)", out, code)
	}
}

// started runs the command in the background and returns it with its "Debugger listening" URL.
func started(t *testing.T, args ...string) (*exec.Cmd, *lockedBuffer, string) {
	t.Helper()
	cmd, out, url, rest := startedErr(t, args...)
	errOut := &lockedBuffer{}
	drained := make(chan struct{})
	go func() { // keep draining standard error
		defer close(drained)
		for line := range rest {
			_, _ = errOut.Write([]byte(line + "\n"))
		}
	}()
	// A wait of a CDP client of this test that fails shows where every goroutine of the program was (Go prints them
	// on SIGQUIT) with the rest of its standard error (dialWS).
	programs.Store(t, func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-drained:
		case <-time.After(10 * time.Second):
		}
		t.Logf("jsworker's standard error after the \"Debugger listening\" line (SIGQUIT sent):\n%s", errOut.String())
	})
	t.Cleanup(func() { programs.Delete(t) })
	return cmd, out, url
}

// startedErr is started, also handing out the lines of standard error after
// the "Debugger listening" one.
func startedErr(t *testing.T, args ...string) (*exec.Cmd, *lockedBuffer, string, <-chan string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out := &lockedBuffer{}
	cmd.Stdout = out
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	re := regexp.MustCompile(`^Debugger listening on (ws://127\.0\.0\.1:\d+/[0-9a-f-]{36})$`)
	timeout := time.After(long)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("jsworker ended before listening")
			}
			if m := re.FindStringSubmatch(line); m != nil {
				return cmd, out, m[1], lines
			}
		case <-timeout:
			t.Fatal("no 'Debugger listening' line")
		}
	}
}

// lockedBuffer is the standard output of a command the test reads while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// wsClient is the shared CDP test client (internal/testsupport) with the short names these tests use.
type wsClient struct{ *testsupport.CDPClient }

func dialWS(t *testing.T, url string) *wsClient {
	c := testsupport.DialCDP(t, url)
	if dump, ok := programs.Load(t); ok {
		c.OnFail = dump.(func())
	}
	return &wsClient{c}
}

// programs maps a test to the SIGQUIT-and-log function of the last program it started (started).
var programs sync.Map

func (w *wsClient) send(msg string) { w.Send(msg) }

func (w *wsClient) until(match func(m map[string]any) bool) map[string]any {
	w.T().Helper()
	return w.Until(func(m testsupport.Message) bool { return match(m) })
}

// closed reads until the server closes the connection, which it must do with status 1000.
func (w *wsClient) closed() { w.Closed() }

func idIs(n float64) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["id"] == n }
}

func methodIs(name string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["method"] == name }
}

func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(long):
		t.Fatal("jsworker did not exit")
	}
	return -1
}

// TestInspect: --inspect serves the running program; a client evaluates in it and ends it.
func TestInspect(t *testing.T) {
	p := script(t, "server.js", "var hits = 41;\nsetInterval(() => {}, 1000);\n")
	cmd, _, url := started(t, "run", "--inspect=127.0.0.1:0", p)
	c := dialWS(t, url)
	c.send(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"hits + 1"}}`)
	r := c.until(idIs(1))
	if v := r["result"].(map[string]any)["result"].(map[string]any)["value"]; v != 42.0 {
		t.Errorf("evaluate: %v", r)
	}
	c.send(`{"id":2,"method":"Runtime.evaluate","params":{"expression":"process.exit(7)"}}`)
	c.until(methodIs("Inspector.detached"))
	c.closed()
	if code := waitExit(t, cmd); code != 7 {
		t.Errorf("exit code %d, want 7", code)
	}
}

// TestInspectBrk: the program waits for the debugger, pauses on start and at a URL breakpoint, evaluates on the
// call frame, and finishes once resumed. (tests/cdp does the same with chrome-remote-interface.)
func TestInspectBrk(t *testing.T) {
	p := script(t, "brk.js", "function double(n) {\n  const d = n * 2;\n  return d;\n}\nconsole.log('doubled', double(21));\n")
	cmd, out, url, stderr := startedErr(t, "run", "--inspect-brk=127.0.0.1:0", p)

	// Listed at /json/list under the id of the URL printed.
	host := strings.TrimPrefix(url, "ws://")
	host = host[:strings.Index(host, "/")]
	resp, err := httpGet("http://" + host + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]string
	if err := json.Unmarshal(resp, &list); err != nil || len(list) == 0 || list[0]["webSocketDebuggerUrl"] != url ||
		list[0]["title"] != "brk.js" || list[0]["type"] != "node" {
		t.Fatalf("/json/list: %v %s", err, resp)
	}

	c := dialWS(t, url)
	c.send(`{"id":1,"method":"Runtime.enable"}`)
	c.until(idIs(1))
	c.send(`{"id":2,"method":"Debugger.enable"}`)
	c.until(idIs(2))
	c.send(`{"id":3,"method":"Debugger.setBreakpointByUrl","params":{"lineNumber":1,"urlRegex":"brk\\.js$"}}`)
	c.until(idIs(3))
	if out.String() != "" {
		t.Fatalf("the program ran before the debugger released it: %q", out.String())
	}
	c.send(`{"id":4,"method":"Runtime.runIfWaitingForDebugger"}`)
	paused := c.until(methodIs("Debugger.paused"))
	if reason := paused["params"].(map[string]any)["reason"]; reason != "Break on start" {
		t.Errorf("first pause: reason %v", reason)
	}
	c.send(`{"id":5,"method":"Debugger.resume"}`)
	paused = c.until(methodIs("Debugger.paused"))
	frame := paused["params"].(map[string]any)["callFrames"].([]any)[0].(map[string]any)
	if line := frame["location"].(map[string]any)["lineNumber"]; line != 1.0 {
		t.Errorf("paused at line %v, want 1", line)
	}
	c.send(fmt.Sprintf(`{"id":6,"method":"Debugger.evaluateOnCallFrame","params":{"callFrameId":%q,"expression":"n + 100"}}`,
		frame["callFrameId"]))
	r := c.until(idIs(6))
	if v := r["result"].(map[string]any)["result"].(map[string]any)["value"]; v != 121.0 {
		t.Errorf("evaluateOnCallFrame: %v", r)
	}
	c.send(`{"id":7,"method":"Debugger.resume"}`)
	// The program ended with a session attached: as Node, jsworker says so
	// and keeps serving it until it disconnects.
	timeout := time.After(long)
	for waiting := false; !waiting; {
		select {
		case line := <-stderr:
			waiting = line == "Waiting for the debugger to disconnect..."
		case <-timeout:
			t.Fatal("no 'Waiting for the debugger to disconnect...' line")
		}
	}
	go func() {
		for range stderr {
		}
	}()
	c.send(`{"id":8,"method":"Runtime.evaluate","params":{"expression":"typeof double"}}`)
	if v := c.until(idIs(8))["result"].(map[string]any)["result"].(map[string]any)["value"]; v != "function" {
		t.Errorf("evaluate after the program's end: %v", v)
	}
	_ = c.Conn().Close(websocket.StatusNormalClosure, "")
	if code := waitExit(t, cmd); code != 0 || out.String() != "doubled 42\n" {
		t.Errorf("exit %d, output %q", code, out.String())
	}
}

func httpGet(url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// printsLikeNode runs the program p under `jsworker run` and under node, and fails unless jsworker exits 0 and
// prints what node prints (it skips when node is not installed).
func printsLikeNode(t *testing.T, p string) {
	t.Helper()
	code, out, errOut := jsworker(t, "run", p)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: jsworker's output was\n" + out)
	}
	want, err := exec.Command(node, p).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if out != string(want) {
		t.Fatalf("jsworker printed:\n%s\nnode printed:\n%s", out, want)
	}
}
