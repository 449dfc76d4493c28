package node_test

import (
	"os"
	"strings"
	"testing"
)

// TestWorkerOnce_LikeNode: a lone once() listener (which Go removes and calls itself: core's Realm.emitOnce) and
// once() beside other listeners behave as in Node — removed before it is called, called once, its target as this,
// listenerCount and rawListeners after it, a once added from inside one, once before on, prependOnceListener, off
// and removeAllListeners of a once listener, once('error') before 'exit', a MessagePort's once and an
// EventEmitter's (emitted from JavaScript).
func TestWorkerOnce_LikeNode(t *testing.T) {
	src, err := os.ReadFile("testdata/once.js")
	if err != nil {
		t.Fatal(err)
	}
	compareWithNode(t, string(src), strings.Join([]string{
		"once 2 true 0 0",
		"second once 11 0",
		"once before on 21",
		"on 21 1",
		"on 31 1",
		"prepended once 41 1",
		"on2 41",
		"after removal 0",
		"after removal got 51",
		"error boom 0",
		"exit 1 0",
		"port once p 0",
		"ee once 1 2 0",
		"emit true false",
		"done",
	}, "\n")+"\n")
}

// TestWorkerOnce_ObjectPrototype: a once() listener gets the message whatever Object.prototype holds, as in Node
// (ports.js read an entry's kind through the prototype: with Object.prototype.event set, a once listener got an
// event object).
func TestWorkerOnce_ObjectPrototype(t *testing.T) {
	compareWithNode(t, `const { Worker } = require('worker_threads');
Object.prototype.event = true;
const w = new Worker("const { parentPort } = require('worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m + 1));", { eval: true });
w.once('message', (m) => { console.log('got', typeof m, m); w.terminate(); });
w.postMessage(1);
`, "got number 2\n")
}
