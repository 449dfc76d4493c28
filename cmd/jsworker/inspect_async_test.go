package main

import (
	"os/exec"
	"testing"
)

// TestInspectAsyncStackTrace: with Debugger.setAsyncCallStackDepth, a pause in a timer's callback carries where
// the timer was set (description "setTimeout", the scheduling function on top) and that code's own async parent
// (a setImmediate); without it, none.
func TestInspectAsyncStackTrace(t *testing.T) {
	p := script(t, "async.js", "function later() {\n"+ // line 0
		"  const x = 1;\n"+
		"  debugger;\n"+ // line 2
		"}\n"+
		"function schedule() {\n"+
		"  setTimeout(later, 0);\n"+ // line 5
		"}\n"+
		"function first() {\n"+
		"  setImmediate(schedule);\n"+ // line 8
		"}\n"+
		"first();\n"+
		"setTimeout(() => { debugger; }, 50);\n"+ // line 11
		"async function waiter() {\n"+
		"  await null;\n"+
		"  debugger;\n"+ // line 14
		"}\n"+
		"function viaThen() {\n"+
		"  Promise.resolve(1).then(function cb() { debugger; });\n"+ // line 17
		"}\n"+
		"function main() {\n"+
		"  waiter();\n"+ // line 20
		"  setTimeout(viaThen, 100);\n"+
		"}\n"+
		"setTimeout(main, 80);\n")
	cmd, c := asyncSession(t, p)
	paused := params(c.until(methodIs("Debugger.paused")))
	top := paused["callFrames"].([]any)[0].(map[string]any)
	if top["functionName"] != "later" {
		t.Fatalf("paused in %v", top)
	}
	async, _ := paused["asyncStackTrace"].(map[string]any)
	if async == nil || async["description"] != "setTimeout" {
		t.Fatalf("asyncStackTrace: %v", paused["asyncStackTrace"])
	}
	f0 := async["callFrames"].([]any)[0].(map[string]any)
	if f0["functionName"] != "schedule" || f0["lineNumber"] != 5.0 || f0["url"] != "file://"+p {
		t.Errorf("the timer was set in %v", f0)
	}
	parent, _ := async["parent"].(map[string]any)
	if parent == nil || parent["description"] != "setImmediate" ||
		parent["callFrames"].([]any)[0].(map[string]any)["functionName"] != "first" {
		t.Errorf("the async parent: %v", async["parent"])
	}
	// Depth 0 turns it off.
	c.send(`{"id":5,"method":"Debugger.setAsyncCallStackDepth","params":{"maxDepth":0}}`)
	c.until(idIs(5))
	c.send(`{"id":6,"method":"Debugger.resume"}`)
	paused = params(c.until(methodIs("Debugger.paused")))
	if paused["asyncStackTrace"] != nil {
		t.Errorf("asyncStackTrace with depth 0: %v", paused["asyncStackTrace"])
	}
	// Across await (the awaiting function itself not repeated, as V8) and Promise.then, below a timer's parent.
	c.send(`{"id":7,"method":"Debugger.setAsyncCallStackDepth","params":{"maxDepth":32}}`)
	c.until(idIs(7))
	c.send(`{"id":8,"method":"Debugger.resume"}`)
	paused = params(c.until(methodIs("Debugger.paused")))
	async, _ = paused["asyncStackTrace"].(map[string]any)
	if top := paused["callFrames"].([]any)[0].(map[string]any); top["functionName"] != "waiter" || async == nil ||
		async["description"] != "await" {
		t.Fatalf("after await: %v, asyncStackTrace %v", top, paused["asyncStackTrace"])
	}
	if f := async["callFrames"].([]any)[0].(map[string]any); f["functionName"] != "main" || f["lineNumber"] != 20.0 {
		t.Errorf("await's frames start at %v, want main at line 20", f)
	}
	if parent, _ := async["parent"].(map[string]any); parent == nil || parent["description"] != "setTimeout" {
		t.Errorf("await's parent: %v", async["parent"])
	}
	c.send(`{"id":9,"method":"Debugger.resume"}`)
	paused = params(c.until(methodIs("Debugger.paused")))
	async, _ = paused["asyncStackTrace"].(map[string]any)
	if top := paused["callFrames"].([]any)[0].(map[string]any); top["functionName"] != "cb" || async == nil ||
		async["description"] != "Promise.then" ||
		async["callFrames"].([]any)[0].(map[string]any)["functionName"] != "viaThen" {
		t.Fatalf("in a then callback: %v, asyncStackTrace %v", top, paused["asyncStackTrace"])
	}
	c.send(`{"id":10,"method":"Debugger.resume"}`)
	c.until(idIs(10))
	_ = c.Conn().CloseNow()
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestInspectAsyncStackTrace_MessagePort: a pause in a MessagePort's 'message' listener carries where the message was
// posted (description "postMessage") when both ends are in the program's realm.
func TestInspectAsyncStackTrace_MessagePort(t *testing.T) {
	p := script(t, "async_port.js", "const { port1, port2 } = new MessageChannel();\n"+ // line 0
		"port2.onmessage = function onMsg(e) {\n"+
		"  debugger;\n"+ // line 2
		"  port2.close();\n"+
		"};\n"+
		"function sender() {\n"+
		"  port1.postMessage(42);\n"+ // line 6
		"}\n"+
		"setTimeout(sender, 0);\n")
	cmd, c := asyncSession(t, p)
	paused := params(c.until(methodIs("Debugger.paused")))
	if top := paused["callFrames"].([]any)[0].(map[string]any); top["functionName"] != "onMsg" {
		t.Fatalf("paused in %v", top)
	}
	async, _ := paused["asyncStackTrace"].(map[string]any)
	if async == nil || async["description"] != "postMessage" {
		t.Fatalf("asyncStackTrace: %v", paused["asyncStackTrace"])
	}
	if f := async["callFrames"].([]any)[0].(map[string]any); f["functionName"] != "sender" || f["lineNumber"] != 6.0 {
		t.Errorf("the message was posted in %v, want sender at line 6", f)
	}
	if parent, _ := async["parent"].(map[string]any); parent == nil || parent["description"] != "setTimeout" {
		t.Errorf("postMessage's parent: %v", async["parent"])
	}
	c.send(`{"id":5,"method":"Debugger.resume"}`)
	c.until(idIs(5))
	_ = c.Conn().CloseNow()
	if code := waitExit(t, cmd); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// asyncSession runs the program p under `jsworker run --inspect-brk`, connects, enables the Debugger with async
// stack traces (depth 32) and resumes from the break on start (command id 4): the next pause is the program's own.
func asyncSession(t *testing.T, p string) (*exec.Cmd, *wsClient) {
	cmd, _, url := started(t, "run", "--inspect-brk=127.0.0.1:0", p)
	c := dialWS(t, url)
	c.send(`{"id":1,"method":"Debugger.enable"}`)
	c.until(idIs(1))
	c.send(`{"id":2,"method":"Debugger.setAsyncCallStackDepth","params":{"maxDepth":32}}`)
	c.until(idIs(2))
	c.send(`{"id":3,"method":"Runtime.runIfWaitingForDebugger"}`)
	c.until(methodIs("Debugger.paused")) // break on start
	c.send(`{"id":4,"method":"Debugger.resume"}`)
	return cmd, c
}
