package inspector

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

var update = flag.Bool("update", false, "rewrite testdata/*-expected.txt from the transcripts")

// TestGolden runs each protocol script in testdata/*.txt against a fresh loop
// target and compares the transcript with the -expected.txt beside it
// (regenerate with `go test ./inspector -update`; review the diff like code).
//
// Script lines (the first line says what is tested and is copied as is):
//
//	> {json}      send on session 1 and print every message up to its response
//	2> {json}     the same on session 2 (attached at first use)
//	>! {json}     send on session 1 without waiting
//	await N       print session 1's messages up to the response with id N
//	js SOURCE     run SOURCE as the program would (console, uncaught errors), print what the sessions got
//	start SOURCE  compile SOURCE instrumented as test.js and run it on the target without waiting (it may pause)
//	held          print how many objects session 1 holds
//	close         close session 1, print what it still returns, up to PumpClosed
//	end           end the target, print what each session still returns, up to PumpClosed
//	# ...         a comment, not copied
//
// Messages are printed with volatile fields masked: objectIds as
// <objectId:N> (numbered by first appearance; scripts use the same tokens),
// timestamps as <timestamp>.
func TestGolden(t *testing.T) {
	scripts, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	n, ran := 0, 0
	seen := map[string]bool{}
	for _, path := range scripts {
		if strings.HasSuffix(path, "-expected.txt") {
			continue
		}
		n++
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			ran++
			got := runTranscript(t, path, seen)
			want := strings.TrimSuffix(path, ".txt") + "-expected.txt"
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if string(exp) != got {
				t.Errorf("transcript differs from %s (run with -update to accept):\n%s", want, lineDiff(string(exp), got))
			}
		})
	}
	if n == 0 {
		t.Fatal("no scripts in testdata")
	}
	if ran == n { // every script ran: together they must emit every event
		for _, e := range Events {
			if !seen[e] {
				t.Errorf("no transcript shows event %s", e)
			}
		}
	}
}

type transcript struct {
	t        *testing.T
	target   *loopTarget
	sessions [3]*Session // 1 and 2
	out      strings.Builder
	ids      map[string]string // real objectId -> token
	tokens   map[string]string // token -> real objectId
	seen     map[string]bool   // event methods seen
}

var (
	objectIDField  = regexp.MustCompile(`"objectId":"([^"]*)"`)
	timestampField = regexp.MustCompile(`"timestamp":[0-9.e+-]+`)
	objectIDToken  = regexp.MustCompile(`<objectId:\d+>`)
	methodField    = regexp.MustCompile(`^\{"method":"([^"]+)"`)
	// A heap snapshot's chunks are its JSON text (heapprofiler_test.go reads it): a transcript shows their sizes.
	chunkField = regexp.MustCompile(`"chunk":"(?:[^"\\]|\\.)*"`)
	// progressField: a snapshot's node counts, which depend on every global too.
	progressField = regexp.MustCompile(`"done":\d+,"total":\d+`)
)

func runTranscript(t *testing.T, path string, seen map[string]bool) string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := &transcript{t: t, target: newLoopTarget(t, 1), ids: map[string]string{}, tokens: map[string]string{}, seen: map[string]bool{}}
	defer tr.target.end()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			tr.out.WriteString(line + "\n")
			tr.session(1)
			first = false
			continue
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tr.out.WriteString(line + "\n")
		tr.step(line)
	}
	for m := range tr.seen {
		if !contains(Events, m) {
			t.Errorf("event %s was emitted but is not in Events", m)
		}
	}
	for m := range tr.seen {
		seen[m] = true
	}
	return tr.out.String()
}

// session returns session n, attaching it (and printing its initial event).
func (tr *transcript) session(n int) *Session {
	if tr.sessions[n] == nil {
		tr.sessions[n] = tr.target.attach()
		tr.print(n, tr.next(n))
	}
	return tr.sessions[n]
}

func (tr *transcript) step(line string) {
	t := tr.t
	switch {
	case strings.HasPrefix(line, ">! "):
		tr.send(1, line[3:])
	case strings.HasPrefix(line, "> "), strings.HasPrefix(line, "2> "):
		n, msg := 1, line[2:]
		if line[0] == '2' {
			n, msg = 2, line[3:]
		}
		tr.session(n)
		tr.send(n, msg)
		tr.until(n, responseID(msg))
	case strings.HasPrefix(line, "await "):
		id, err := strconv.Atoi(line[6:])
		if err != nil {
			t.Fatalf("bad line %q", line)
		}
		tr.until(1, strconv.Itoa(id))
	case strings.HasPrefix(line, "js "):
		if err := tr.target.exec(strings.ReplaceAll(line[3:], `\n`, "\n")); err != nil {
			tr.out.WriteString("(program threw: " + firstLine(err.Error()) + ")\n")
		}
		tr.drain()
	case strings.HasPrefix(line, "start "):
		tr.target.start(t, strings.ReplaceAll(line[6:], `\n`, "\n"))
	case line == "held":
		tr.target.do(func(*goja.Runtime) {}) // let queued drops run
		fmt.Fprintf(&tr.out, "held: %d\n", tr.sessions[1].HeldObjects())
	case line == "close":
		s := tr.sessions[1]
		s.Close()
		tr.untilClosed(1)
		<-s.Dropped()
		fmt.Fprintf(&tr.out, "held: %d\n", s.HeldObjects())
	case line == "end":
		tr.target.end()
		for n := 1; n <= 2; n++ {
			if tr.sessions[n] != nil {
				tr.untilClosed(n)
				fmt.Fprintf(&tr.out, "held: %d\n", tr.sessions[n].HeldObjects())
			}
		}
	default:
		t.Fatalf("unknown script line %q", line)
	}
}

// send dispatches msg with its <objectId:N> tokens replaced by real ids.
func (tr *transcript) send(n int, msg string) {
	msg = objectIDToken.ReplaceAllStringFunc(msg, func(tok string) string {
		id, ok := tr.tokens[tok]
		if !ok {
			tr.t.Fatalf("%s is used before any message showed it; transcript so far:\n%s", tok, tr.out.String())
		}
		return id
	})
	if err := tr.session(n).Dispatch([]byte(msg)); err != nil {
		fmt.Fprintf(&tr.out, "(Dispatch: %v)\n", err)
	}
}

// responseID is the id a response to msg carries, "" when msg has none.
func responseID(msg string) string {
	m := regexp.MustCompile(`"id":(-?\d+)`).FindStringSubmatch(msg)
	if m == nil || !strings.HasPrefix(strings.TrimSpace(msg), "{") {
		return ""
	}
	return m[1]
}

// until prints session n's messages up to the response with id, or up to an
// error without id (the answer to a message whose id could not be read).
func (tr *transcript) until(n int, id string) {
	for {
		msg := tr.next(n)
		tr.print(n, msg)
		if strings.HasPrefix(msg, `{"error"`) || (id != "" && strings.HasPrefix(msg, `{"id":`+id+`,`)) {
			return
		}
	}
}

func (tr *transcript) untilClosed(n int) {
	for {
		msg, r := tr.sessions[n].Next(5 * time.Second)
		switch r {
		case PumpMessage:
			tr.print(n, string(msg))
			continue
		case PumpTimeout:
			tr.t.Fatalf("session %d: no PumpClosed within 5s", n)
		}
		fmt.Fprintf(&tr.out, "%s-- PumpClosed\n", prefix(n))
		return
	}
}

// drain prints what the sessions have queued now.
func (tr *transcript) drain() {
	for n := 1; n <= 2; n++ {
		if s := tr.sessions[n]; s != nil {
			for {
				msg, r := s.Next(0)
				if r != PumpMessage {
					break
				}
				tr.print(n, string(msg))
			}
		}
	}
}

func (tr *transcript) next(n int) string {
	msg, r := tr.sessions[n].Next(5 * time.Second)
	if r != PumpMessage {
		tr.t.Fatalf("session %d: Next = %v, want a message; transcript so far:\n%s", n, r, tr.out.String())
	}
	return string(msg)
}

func (tr *transcript) print(n int, msg string) {
	if m := methodField.FindStringSubmatch(msg); m != nil {
		tr.seen[m[1]] = true
	}
	msg = objectIDField.ReplaceAllStringFunc(msg, func(f string) string {
		id := objectIDField.FindStringSubmatch(f)[1]
		tok, ok := tr.ids[id]
		if !ok {
			tok = fmt.Sprintf("<objectId:%d>", len(tr.ids)+1)
			tr.ids[id], tr.tokens[tok] = tok, id
		}
		return `"objectId":"` + tok + `"`
	})
	msg = timestampField.ReplaceAllString(msg, `"timestamp":<timestamp>`)
	// A snapshot chunk's text depends on every global of the realm (TestHeapProfiler checks its structure).
	msg = chunkField.ReplaceAllString(msg, `"chunk":<snapshot>`)
	msg = progressField.ReplaceAllString(msg, `"done":<n>,"total":<n>`)
	tr.out.WriteString(prefix(n) + "< " + msg + "\n")
}

func prefix(n int) string {
	if n == 1 {
		return ""
	}
	return strconv.Itoa(n)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lineDiff shows the first differing lines of two transcripts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 8; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want: %s\n  got:  %s\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}
