package workertargets_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jsworker/jsworker/inspector"
)

// The result of a command that carries a message to a child (NodeWorker.sendMessageToWorker,
// Target.sendMessageToTarget) reaches the client before anything the child sends in answer, as in Node: a client
// that waits for the result and then for the child's answer must never have skipped the answer. The child answers
// on its own goroutine, so a result pushed after the dispatch lost that race now and then (a flaky
// TestInspectWorkers_NodeWorker under load); many rounds make the old order fail here.
func TestFamily_SendResultBeforeChildAnswer(t *testing.T) {
	kid := filepath.Join(t.TempDir(), "kid.js")
	if err := os.WriteFile(kid, []byte("setInterval(() => {}, 1000);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, _ := json.Marshal("file://" + kid)
	s := attachedProgram(t, "globalThis.w = new Worker("+string(url)+");\nsetInterval(() => {}, 1000);\n")
	for _, proto := range []struct{ enable, attached, send, received string }{
		{`{"id":1,"method":"NodeWorker.enable","params":{"waitForDebuggerOnStart":false}}`, "NodeWorker.attachedToWorker",
			`{"id":%d,"method":"NodeWorker.sendMessageToWorker","params":{"sessionId":%q,"message":%q}}`,
			"NodeWorker.receivedMessageFromWorker"},
		{`{"id":1,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":false}}`,
			"Target.attachedToTarget",
			`{"id":%d,"method":"Target.sendMessageToTarget","params":{"sessionId":%q,"message":%q}}`,
			"Target.receivedMessageFromTarget"},
	} {
		_ = s.Dispatch([]byte(proto.enable))
		att := until(t, s, func(m map[string]any) bool { return m["method"] == proto.attached })
		sid, _ := att["params"].(map[string]any)["sessionId"].(string)
		for i := 0; i < 300; i++ {
			id, innerID := 100+i, 5000+i
			inner := fmt.Sprintf(`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"%d"}}`, innerID, i)
			_ = s.Dispatch([]byte(fmt.Sprintf(proto.send, id, sid, inner)))
			// The child's answer: wrapped in the protocol's event, or flat (the family sends Target's children's
			// messages flat, with their sessionId).
			isAnswer := func(m map[string]any) bool {
				if m["sessionId"] == sid && m["id"] == float64(innerID) {
					return true
				}
				p, _ := m["params"].(map[string]any)
				msg, _ := p["message"].(string)
				return m["method"] == proto.received && strings.Contains(msg, fmt.Sprintf(`"id":%d,`, innerID))
			}
			// The first message about this round must be the command's result.
			for {
				msg, r := s.Next(20 * time.Second)
				if r != inspector.PumpMessage {
					t.Fatalf("%s round %d: Next: %v", proto.send[:40], i, r)
				}
				var m map[string]any
				if err := json.Unmarshal(msg, &m); err != nil {
					t.Fatalf("bad JSON %s", msg)
				}
				if m["id"] == float64(id) && m["sessionId"] == nil {
					break
				}
				if isAnswer(m) {
					t.Fatalf("round %d: the child's answer came before the command's result: %s", i, msg)
				}
			}
			until(t, s, isAnswer)
		}
	}
}
