package inspector

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// FuzzDispatch sends one command — a method of the implemented surface (or any string) with fuzzed params, or
// fuzzed raw bytes — to a fresh session on a live target, running or paused in the debugger, and checks that it
// is answered with its own id and never with -32603 (a recovered Go panic), and that closing the session drops
// every object it was given. The targets live for the whole fuzzing process; a command that runs away (a
// fuzzed `while(1){}`) is interrupted after a while, as a host's time limit would.
func FuzzDispatch(f *testing.F) {
	for _, seed := range transcriptCommands(f) {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal([]byte(seed), &m) == nil {
			f.Add(uint8(0), m.Method, []byte(m.Params))
			f.Add(uint8(1), m.Method, []byte(m.Params))
		}
		f.Add(uint8(2), "", []byte(seed))
	}
	f.Cleanup(closeFuzzTargets)
	f.Fuzz(func(t *testing.T, sel uint8, method string, params []byte) {
		tg := fuzzTargets(t)
		lt := tg.running
		if sel&1 == 1 {
			lt = tg.paused
		}
		var msg []byte
		switch {
		case sel&2 == 2: // raw bytes, as a hostile peer sends them
			msg = params
		case json.Valid(params):
			msg = []byte(`{"id":7,"method":` + strconv.Quote(method) + `,"params":` + string(params) + `}`)
		default:
			msg = []byte(`{"id":7,"method":` + strconv.Quote(method) + `}`)
		}
		s := NewSession(lt)
		lt.add(s)
		defer func() {
			s.Close()
			select {
			case <-s.Dropped():
			case <-time.After(10 * time.Second):
				t.Fatal("the session's objects were not dropped after Close")
			}
			if n := s.HeldObjects(); n != 0 {
				t.Fatalf("%d objects held after Close", n)
			}
		}()
		if err := s.Dispatch(msg); err != nil {
			t.Fatalf("Dispatch: %v", err)
		}
		wantID := commandID(msg)
		deadline := time.Now().Add(2 * time.Second)
		interrupted := false
		for {
			raw, r := s.Next(time.Until(deadline))
			if r == PumpTimeout {
				if !interrupted {
					lt.rt.Interrupt("fuzz: the command ran too long")
					interrupted, deadline = true, time.Now().Add(5*time.Second)
					continue
				}
				if bytes.Contains(msg, []byte("awaitPromise")) || bytes.Contains(msg, []byte("Debugger.pause")) {
					return // a promise that never settles, or a pause requested for code that never runs
				}
				t.Fatalf("no answer to %.300s", msg)
			}
			if r == PumpClosed {
				t.Fatalf("the session closed while answering %.300s", msg)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatalf("the answer is not JSON: %.300s", raw)
			}
			if _, ok := m["method"]; ok {
				continue // an event
			}
			// -32603 is a recovered Go panic: a finding, except goja's known one (`arguments` in an arrow
			// function, DESIGN.md §7), which the fence is there for.
			if e, ok := m["error"].(map[string]any); ok && e["code"] == float64(codeInternalError) &&
				!bytes.Contains(msg, []byte("arguments")) {
				t.Fatalf("a Go panic answering %.300s: %s", msg, raw)
			}
			if wantID >= 0 && m["id"] != float64(wantID) {
				t.Fatalf("answered %s to %.300s, want id %d", raw, msg, wantID)
			}
			break
		}
		if interrupted {
			lt.do(func(rt *goja.Runtime) { rt.ClearInterrupt() })
		}
	})
}

// commandID returns the int32 id Dispatch will read from msg, or -1 when it reads none (a parse error is answered
// without an id).
func commandID(msg []byte) int64 {
	var env map[string]json.RawMessage
	if json.Unmarshal(msg, &env) != nil {
		return -1
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(env["id"])), 10, 32)
	if err != nil {
		return -1
	}
	return n
}

// transcriptCommands returns the commands of the golden transcripts (lines "> {...}", "2> {...}", ">! {...}").
func transcriptCommands(f *testing.F) []string {
	files, _ := filepath.Glob("testdata/*.txt")
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "-expected.txt") {
			continue
		}
		fh, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if _, cmd, ok := strings.Cut(line, "> "); ok && strings.HasPrefix(cmd, "{") {
				out = append(out, cmd)
			}
		}
		fh.Close()
	}
	return out
}

// The fuzz targets: one running, one paused at a `debugger` statement inside a function with locals, both with
// objects, closures and a promise to inspect. Made once per process; their loops end with the process.
var (
	fuzzMu    sync.Mutex
	fuzzTg    struct{ running, paused *loopTarget }
	fuzzOwner *Session
)

// closeFuzzTargets ends the targets and the owner session, so that the package's leak check passes.
func closeFuzzTargets() {
	fuzzMu.Lock()
	defer fuzzMu.Unlock()
	if fuzzTg.running == nil {
		return
	}
	fuzzOwner.Close() // ends the pause
	<-fuzzOwner.Dropped()
	fuzzTg.running.end()
	fuzzTg.paused.end()
	fuzzTg.running, fuzzTg.paused, fuzzOwner = nil, nil, nil
}

const fuzzProgram = `var obj = { a: 1, nested: { b: [1, 2, { c: "x" }] }, get g() { return 42 }, s: Symbol("s") };
var arr = new Array(5).fill(0).map((_, i) => ({ i }));
var map = new Map([[1, obj]]), set = new Set(arr), err = new TypeError("boom"), fn = function named(x) { return x };
var pending = new Promise(() => {}), done = Promise.resolve(obj);
function work(p) { var local = p * 2; const k = { p, local }; debugger; return k }
`

func fuzzTargets(t *testing.T) struct{ running, paused *loopTarget } {
	fuzzMu.Lock()
	defer fuzzMu.Unlock()
	if fuzzTg.running == nil {
		mk := func(id int) *loopTarget {
			lt := &loopTarget{ctx: testContext(id), dbg: NewDebugger(), rt: goja.New(), wake: make(chan struct{}, 1),
				done: make(chan struct{})}
			go lt.loop()
			return lt
		}
		fuzzTg.running, fuzzTg.paused = mk(1), mk(2)
		for _, lt := range []*loopTarget{fuzzTg.running, fuzzTg.paused} {
			lt.do(func(rt *goja.Runtime) {
				prg, err := lt.dbg.Compile("fuzz.js", fuzzProgram)
				if err == nil {
					_, err = rt.RunProgram(prg)
				}
				if err != nil {
					panic(err)
				}
			})
		}
		// The paused target: an owner session enables the Debugger and keeps it; work() pauses and stays paused.
		owner := NewSession(fuzzTg.paused)
		fuzzOwner = owner
		fuzzTg.paused.add(owner)
		if err := owner.Dispatch([]byte(`{"id":1,"method":"Debugger.enable"}`)); err != nil {
			panic(err)
		}
		fuzzTg.paused.Run(func(rt *goja.Runtime) { _, _ = rt.RunString("work(21)") })
		for {
			m, r := owner.Next(10 * time.Second)
			if r != PumpMessage {
				panic("the fuzz target did not pause")
			}
			if bytes.Contains(m, []byte(`"Debugger.paused"`)) {
				break
			}
		}
		go func() { // the owner's messages are never read by anyone: drain them so that its queue stays bounded
			for {
				if _, r := owner.Next(-1); r == PumpClosed {
					return
				}
			}
		}()
	}
	return fuzzTg
}
