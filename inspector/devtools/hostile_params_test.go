package devtools_test

import (
	"strings"
	"testing"

	"github.com/jsworker/jsworker/internal/workertargets"
)

// hostileCommands are CDP commands with hostile parameters: every one must be answered (an error or a result)
// with its id, and the session must go on.
func hostileCommands() []string {
	deep := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
	deepArr := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	mb := strings.Repeat("z", 1<<20)
	return []string{
		`{"id":%d,"method":"Runtime.evaluate","params":` + deep + `}`,
		`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"1","objectGroup":` + deepArr + `}}`,
		`{"id":%d,"method":"Runtime.evaluate","params":{"expression":5}}`,
		`{"id":%d,"method":"Runtime.evaluate","params":[]}`,
		`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"'` + mb + `'.length"}}`,
		`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"1","contextId":"` + mb + `"}}`,
		`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"` + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + `"}}`,
		`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"function f(){return f()} f()"}}`,
		`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"JSON.parse('` + strings.Repeat("[", 200000) + `')"}}`,
		`{"id":%d,"method":"Runtime.getProperties","params":{"objectId":"999.1.1"}}`,
		`{"id":%d,"method":"Runtime.getProperties","params":{"objectId":{"x":1}}}`,
		`{"id":%d,"method":"Runtime.getProperties","params":{"objectId":"` + mb + `"}}`,
		`{"id":%d,"method":"Runtime.callFunctionOn","params":{"functionDeclaration":"function(){return this}","objectId":"1.2.3"}}`,
		`{"id":%d,"method":"Runtime.callFunctionOn","params":{"functionDeclaration":"` + mb + `","executionContextId":1}}`,
		`{"id":%d,"method":"Runtime.callFunctionOn","params":{"functionDeclaration":"function(a){return a}","executionContextId":1,"arguments":[{"objectId":"nope"},{"value":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}]}}`,
		`{"id":%d,"method":"Runtime.releaseObject","params":{"objectId":-1}}`,
		`{"id":%d,"method":"Runtime.releaseObjectGroup","params":{"objectGroup":"` + mb + `"}}`,
		`{"id":%d,"method":"Runtime.awaitPromise","params":{"promiseObjectId":"x"}}`,
		`{"id":%d,"method":"Debugger.enable","params":{"maxScriptsCacheSize":"lots"}}`,
		`{"id":%d,"method":"Debugger.getScriptSource","params":{"scriptId":"424242"}}`,
		`{"id":%d,"method":"Debugger.setBreakpointByUrl","params":{"lineNumber":-5,"url":"` + mb + `"}}`,
		`{"id":%d,"method":"Debugger.setBreakpointByUrl","params":{"lineNumber":1,"urlRegex":"(a+)+$` + strings.Repeat("(", 300) + `"}}`,
		`{"id":%d,"method":"Debugger.setBreakpoint","params":{"location":{"scriptId":"1","lineNumber":1e300}}}`,
		`{"id":%d,"method":"Debugger.setBreakpoint","params":{"location":{"scriptId":"1","lineNumber":1},"condition":"` + strings.Repeat("(", 5000) + `"}}`,
		`{"id":%d,"method":"Debugger.removeBreakpoint","params":{"breakpointId":"` + mb + `"}}`,
		`{"id":%d,"method":"Debugger.getPossibleBreakpoints","params":{"start":{"scriptId":"1","lineNumber":-1},"end":{"scriptId":"9","lineNumber":99999999}}}`,
		`{"id":%d,"method":"Debugger.evaluateOnCallFrame","params":{"callFrameId":"` + mb + `","expression":"1"}}`,
		`{"id":%d,"method":"Debugger.setVariableValue","params":{"scopeNumber":1e9,"variableName":"x","newValue":{"value":1},"callFrameId":"0.0"}}`,
		`{"id":%d,"method":"Debugger.setPauseOnExceptions","params":{"state":` + deepArr[:1000] + strings.Repeat("]", 1000) + `}}`,
		`{"id":%d,"method":"Debugger.continueToLocation","params":{"location":{"scriptId":null,"lineNumber":"x"}}}`,
		`{"id":%d,"method":"Debugger.setBlackboxPatterns","params":{"patterns":["` + strings.Repeat("(", 1000) + `"]}}`,
		`{"id":%d,"method":"Profiler.start","params":{"x":1}}`,
		`{"id":%d,"method":"` + mb + `"}`,
		`{"id":%d,"method":"Schema.getDomains","params":{"` + mb + `":1}}`,
	}
}

// flood sends every hostile command on c and checks that each is answered, then that a plain evaluate works.
func flood(t *testing.T, c *client, first int) {
	t.Helper()
	cmds := hostileCommands()
	for i, cmd := range cmds {
		n := first + i
		c.send(strings.Replace(cmd, "%d", itoa(n), 1))
		m := c.until(func(m map[string]any) bool { _, ok := m["id"]; return ok || m["error"] != nil })
		if _, hasID := m["id"]; !hasID && i < 2 {
			continue // the first two nest past encoding/json's 10,000 levels: a parse error, answered without an id
		}
		if m["id"] != float64(n) {
			t.Fatalf("command %d (%.80s…): answered %v", n, cmd, m["id"])
		}
	}
	c.send(`{"id":1000,"method":"Runtime.evaluate","params":{"expression":"40 + 2"}}`)
	if v := c.until(id(1000))["result"].(map[string]any)["result"].(map[string]any)["value"]; v != 42.0 {
		t.Fatalf("after the hostile commands: %v", v)
	}
}

func itoa(n int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}

func TestHostile_ParamsRunningWorker(t *testing.T) {
	w := spawn(t, `var x = 1; onmessage = () => {}`, "running")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	c := dial(t, list[0].WebSocketDebuggerURL)
	flood(t, c, 1)
	healthy(t, s, list[0].WebSocketDebuggerURL)
}

func TestHostile_ParamsPausedWorker(t *testing.T) {
	// The worker pauses at `debugger` once a session has enabled the Debugger: every hostile command then runs in
	// the pause loop (evaluateOnCallFrame, setVariableValue with real frames), and the worker resumes after.
	w := spawn(t, `var x = 1; onmessage = () => { function inner(y) { debugger; return y } postMessage(inner(x)) }`, "paused")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	c := dial(t, list[0].WebSocketDebuggerURL)
	c.send(`{"id":1,"method":"Debugger.enable"}`)
	c.until(id(1))
	host := newRealm()
	if err := w.PostMessage(host, host.ToValue(1)); err != nil {
		t.Fatal(err)
	}
	c.until(method("Debugger.paused"))
	flood(t, c, 2)
	c.send(`{"id":1001,"method":"Debugger.evaluateOnCallFrame","params":{"callFrameId":"1.0","expression":"` + strings.Repeat("y+", 3000) + `y"}}`)
	c.until(id(1001))
	c.send(`{"id":1002,"method":"Debugger.resume"}`)
	c.until(id(1002))
	if v, err := w.Receive(host, long); err != nil || v.ToInteger() != 1 {
		t.Fatalf("after resume: %v, %v", v, err)
	}
	healthy(t, s, list[0].WebSocketDebuggerURL)
}
