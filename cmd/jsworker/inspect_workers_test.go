package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// workerProgram writes a program whose worker hits `debugger;` in work(5), and returns the main script and the
// worker's path.
func workerProgram(t *testing.T) (mainJS, kidJS string) {
	t.Helper()
	dir := t.TempDir()
	kidJS = filepath.Join(dir, "kid.js")
	mainJS = filepath.Join(dir, "main.js")
	kid := "const { parentPort, workerData } = require('node:worker_threads');\n" +
		"function work(n) {\n" +
		"  const doubled = n * 2;\n" +
		"  debugger;\n" +
		"  return doubled;\n" +
		"}\n" +
		"parentPort.postMessage(work(workerData));\n"
	main := "const { Worker } = require('node:worker_threads');\n" +
		"const w = new Worker(require('node:path').join(__dirname, 'kid.js'), { workerData: 5, name: 'kid' });\n" +
		"w.on('message', (m) => console.log('kid said', m));\n"
	for p, src := range map[string]string{kidJS: kid, mainJS: main} {
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mainJS, kidJS
}

func params(m map[string]any) map[string]any { p, _ := m["params"].(map[string]any); return p }

// waitOutput waits until the program's standard output contains want.
func waitOutput(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	end := time.Now().Add(long)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(end) {
			t.Fatalf("standard output %q lacks %q", out.String(), want)
		}
		time.Sleep(20 * time.Millisecond) // polling the output only: the order of events is the protocol's
	}
}

// TestInspectWorkers_TargetAutoAttach: one connection to the program debugs its worker through Chrome's flat
// Target sessions, as the DevTools front end (inspector.html?v8only=true) does: the worker is announced held,
// its commands and messages carry its sessionId, its `debugger;` pauses it with its locals, resume lets it finish
// and its session's end is announced.
func TestInspectWorkers_TargetAutoAttach(t *testing.T) {
	mainJS, kidJS := workerProgram(t)
	cmd, out, url := started(t, "run", "--inspect-brk=127.0.0.1:0", mainJS)
	// /json/protocol describes the Target domain, for clients that build their API from it.
	host := strings.TrimPrefix(url, "ws://")
	proto, err := httpGet("http://" + host[:strings.Index(host, "/")] + "/json/protocol")
	if err != nil || !strings.Contains(string(proto), `"domain": "Target"`) || !strings.Contains(string(proto), `"name": "setAutoAttach"`) ||
		!strings.Contains(string(proto), `"domain": "NodeWorker"`) {
		t.Fatalf("/json/protocol: %v %.300s", err, proto)
	}
	c := dialWS(t, url)
	c.send(`{"id":1,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":false}}`)
	c.until(idIs(1))
	c.send(`{"id":2,"method":"Target.setDiscoverTargets","params":{"discover":true}}`)
	c.until(idIs(2))
	c.send(`{"id":3,"method":"Target.setRemoteLocations","params":{"locations":[{"host":"localhost","port":9229}]}}`)
	if r := c.until(idIs(3)); r["error"] != nil {
		t.Fatalf("setRemoteLocations: %v", r)
	}
	c.send(`{"id":4,"method":"Runtime.runIfWaitingForDebugger"}`)

	att := params(c.until(methodIs("Target.attachedToTarget")))
	sid, _ := att["sessionId"].(string)
	info, _ := att["targetInfo"].(map[string]any)
	if len(sid) != 32 || att["waitingForDebugger"] != true || info["type"] != "node_worker" ||
		info["url"] != "file://"+kidJS || info["title"] != "kid" || info["attached"] != true {
		t.Fatalf("attachedToTarget: %v", att)
	}
	inSession := func(id float64) func(map[string]any) bool {
		return func(m map[string]any) bool { return m["id"] == id && m["sessionId"] == sid }
	}
	if strings.Contains(out.String(), "kid said") {
		t.Fatal("the worker ran before the debugger released it")
	}
	c.send(fmt.Sprintf(`{"id":10,"sessionId":%q,"method":"Runtime.enable"}`, sid))
	c.until(inSession(10))
	c.send(fmt.Sprintf(`{"id":11,"sessionId":%q,"method":"Debugger.enable"}`, sid))
	c.until(inSession(11))
	c.send(fmt.Sprintf(`{"id":12,"sessionId":%q,"method":"Runtime.runIfWaitingForDebugger"}`, sid))
	paused := c.until(func(m map[string]any) bool { return m["method"] == "Debugger.paused" })
	if paused["sessionId"] != sid {
		t.Fatalf("the first pause is not the worker's: %v", paused)
	}
	frames, _ := params(paused)["callFrames"].([]any)
	top, _ := frames[0].(map[string]any)
	if top["functionName"] != "work" || top["location"].(map[string]any)["lineNumber"] != 3.0 ||
		top["url"] != "file://"+kidJS {
		t.Fatalf("paused at %v", top)
	}
	c.send(fmt.Sprintf(`{"id":13,"sessionId":%q,"method":"Debugger.evaluateOnCallFrame","params":{"callFrameId":%q,"expression":"doubled + n"}}`,
		sid, top["callFrameId"]))
	if v := c.until(inSession(13))["result"].(map[string]any)["result"].(map[string]any)["value"]; v != 15.0 {
		t.Fatalf("doubled + n = %v, want 15", v)
	}
	// Commands without the sessionId still go to the main program.
	c.send(`{"id":14,"method":"Runtime.evaluate","params":{"expression":"typeof w"}}`)
	if r := c.until(idIs(14)); r["sessionId"] != nil || r["result"].(map[string]any)["result"].(map[string]any)["value"] != "object" {
		t.Fatalf("the main program's evaluate: %v", r)
	}
	c.send(`{"id":15,"sessionId":"NOPE","method":"Runtime.evaluate","params":{"expression":"1"}}`)
	if r := c.until(idIs(15)); r["error"].(map[string]any)["code"] != -32001.0 {
		t.Fatalf("unknown session: %v", r)
	}
	c.send(`{"id":16,"method":"Target.getTargets"}`)
	infos := c.until(idIs(16))["result"].(map[string]any)["targetInfos"].([]any)
	if len(infos) != 1 || infos[0].(map[string]any)["targetId"] != info["targetId"] {
		t.Fatalf("getTargets: %v", infos)
	}
	c.send(fmt.Sprintf(`{"id":17,"sessionId":%q,"method":"Debugger.resume"}`, sid))
	c.until(inSession(17))
	det := params(c.until(methodIs("Target.detachedFromTarget")))
	if det["sessionId"] != sid || det["targetId"] != info["targetId"] {
		t.Fatalf("detachedFromTarget: %v", det)
	}
	c.until(methodIs("Target.targetDestroyed"))
	waitOutput(t, out, "kid said 10")
	_ = c.Conn().CloseNow()
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestInspectWorkers_NodeWorker: Node's NodeWorker domain, as Node v20 answers it (sessionId and workerId the
// worker's number, title "[worker N] name", messages wrapped both ways).
func TestInspectWorkers_NodeWorker(t *testing.T) {
	mainJS, kidJS := workerProgram(t)
	cmd, out, url := started(t, "run", "--inspect-brk=127.0.0.1:0", mainJS)
	c := dialWS(t, url)
	c.send(`{"id":1,"method":"NodeWorker.enable","params":{"waitForDebuggerOnStart":true}}`)
	c.until(idIs(1))
	c.send(`{"id":2,"method":"Runtime.runIfWaitingForDebugger"}`)
	att := params(c.until(methodIs("NodeWorker.attachedToWorker")))
	sid, _ := att["sessionId"].(string)
	wi, _ := att["workerInfo"].(map[string]any)
	if wi["workerId"] != sid || wi["type"] != "worker" || wi["title"] != "[worker "+sid+"] kid" ||
		wi["url"] != "file://"+kidJS || att["waitingForDebugger"] != true {
		t.Fatalf("attachedToWorker: %v", att)
	}
	send := func(id int, msg string) {
		c.send(fmt.Sprintf(`{"id":%d,"method":"NodeWorker.sendMessageToWorker","params":{"sessionId":%q,"message":%q}}`, id, sid, msg))
		if r := c.until(idIs(float64(id))); r["error"] != nil {
			t.Fatalf("sendMessageToWorker: %v", r)
		}
	}
	fromWorker := func(want string) string {
		m := c.until(func(m map[string]any) bool {
			p := params(m)
			s, _ := p["message"].(string)
			return m["method"] == "NodeWorker.receivedMessageFromWorker" && p["sessionId"] == sid && strings.Contains(s, want)
		})
		return params(m)["message"].(string)
	}
	send(3, `{"id":1,"method":"Debugger.enable"}`)
	fromWorker(`"id":1,`)
	send(4, `{"id":2,"method":"Runtime.runIfWaitingForDebugger"}`)
	p := fromWorker(`"method":"Debugger.paused"`)
	if !strings.Contains(p, `"functionName":"work"`) || !strings.Contains(p, `"lineNumber":3`) {
		t.Fatalf("paused: %s", p)
	}
	// An unknown session is no error, as in Node.
	c.send(`{"id":5,"method":"NodeWorker.sendMessageToWorker","params":{"sessionId":"999","message":"{}"}}`)
	if r := c.until(idIs(5)); r["error"] != nil {
		t.Fatalf("unknown session: %v", r)
	}
	send(6, `{"id":3,"method":"Debugger.resume"}`)
	if d := params(c.until(methodIs("NodeWorker.detachedFromWorker"))); d["sessionId"] != sid {
		t.Fatalf("detachedFromWorker: %v", d)
	}
	waitOutput(t, out, "kid said 10")
	c.send(`{"id":7,"method":"NodeWorker.disable"}`)
	c.until(idIs(7))
	_ = c.Conn().CloseNow()
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestInspectWorkers_DetachReleases: a worker held for a session that goes away runs anyway.
func TestInspectWorkers_DetachReleases(t *testing.T) {
	mainJS, _ := workerProgram(t)
	cmd, out, _ := started(t, "run", "--inspect=127.0.0.1:0", mainJS)
	waitOutput(t, out, "kid said 10") // no session: nothing holds the worker
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("exit code %d", code)
	}

	cmd2, out2, url2 := started(t, "run", "--inspect-brk=127.0.0.1:0", mainJS)
	c := dialWS(t, url2)
	c.send(`{"id":1,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":true}}`)
	c.until(idIs(1))
	c.send(`{"id":2,"method":"Runtime.runIfWaitingForDebugger"}`)
	att := params(c.until(methodIs("Target.attachedToTarget")))
	c.send(fmt.Sprintf(`{"id":3,"method":"Target.detachFromTarget","params":{"sessionId":%q}}`, att["sessionId"]))
	c.until(idIs(3))
	waitOutput(t, out2, "kid said 10")
	_ = c.Conn().CloseNow()
	if code := waitExit(t, cmd2); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestInspectWorkers_Nested: a worker's own worker is auto-attached through the worker's session (the front end
// sends Target.setAutoAttach with the worker's sessionId); its flat session is reached from the same connection.
func TestInspectWorkers_Nested(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.js": "const { Worker } = require('node:worker_threads');\n" +
			"new Worker(require('node:path').join(__dirname, 'mid.js')).on('message', (m) => console.log(m));\n",
		"mid.js": "const { Worker, parentPort } = require('node:worker_threads');\n" +
			"new Worker(require('node:path').join(__dirname, 'leaf.js')).on('message', (m) => parentPort.postMessage('leaf says ' + m));\n",
		"leaf.js": "require('node:worker_threads').parentPort.postMessage(6 * 7);\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd, out, url := started(t, "run", "--inspect-brk=127.0.0.1:0", filepath.Join(dir, "main.js"))
	c := dialWS(t, url)
	c.send(`{"id":1,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":true}}`)
	c.until(idIs(1))
	c.send(`{"id":2,"method":"Runtime.runIfWaitingForDebugger"}`)
	mid := params(c.until(methodIs("Target.attachedToTarget")))
	midSID := mid["sessionId"].(string)
	c.send(fmt.Sprintf(`{"id":3,"sessionId":%q,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":true}}`, midSID))
	c.until(func(m map[string]any) bool { return m["id"] == 3.0 && m["sessionId"] == midSID })
	c.send(fmt.Sprintf(`{"id":4,"sessionId":%q,"method":"Runtime.runIfWaitingForDebugger"}`, midSID))
	leafMsg := c.until(func(m map[string]any) bool { return m["method"] == "Target.attachedToTarget" })
	if leafMsg["sessionId"] != midSID || !strings.HasSuffix(params(leafMsg)["targetInfo"].(map[string]any)["url"].(string), "/leaf.js") {
		t.Fatalf("the leaf is not announced in the mid worker's session: %v", leafMsg)
	}
	leafSID := params(leafMsg)["sessionId"].(string)
	c.send(fmt.Sprintf(`{"id":5,"sessionId":%q,"method":"Runtime.evaluate","params":{"expression":"6 * 7"}}`, leafSID))
	r := c.until(func(m map[string]any) bool { return m["id"] == 5.0 })
	if r["sessionId"] != leafSID || r["result"].(map[string]any)["result"].(map[string]any)["value"] != 42.0 {
		t.Fatalf("the leaf's answer: %v", r)
	}
	if out.String() != "" {
		t.Fatalf("a held worker ran: %q", out.String())
	}
	c.send(fmt.Sprintf(`{"id":6,"sessionId":%q,"method":"Runtime.runIfWaitingForDebugger"}`, leafSID))
	waitOutput(t, out, "leaf says 42")
	_ = c.Conn().CloseNow()
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
