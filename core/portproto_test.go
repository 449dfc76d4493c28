package core_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// TestMessagePortProto_Symbols: MessagePort.prototype's own symbols (the private kChanged, Go's portChanged, and
// Symbol.toStringTag), defined by Go after ports.js runs, have the order and attributes ports.js gave them before;
// a port still reads as [object MessagePort].
func TestMessagePortProto_Symbols(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `const { port1 } = new MessageChannel();
const p = Object.getPrototypeOf(port1);
postMessage([String(port1), Object.prototype.toString.call(p), p === MessagePort.prototype,
	...Reflect.ownKeys(p).filter((k) => typeof k === 'symbol').map((k) => String(k) + JSON.stringify(
		Object.getOwnPropertyDescriptor(p, k), (n, v) => (typeof v === 'function' ? 'fn:' + v.name + '/' + v.length : v)))].join(' '));
port1.close();`, core.Options{})
	want := `[object MessagePort] [object MessagePort] true ` +
		`Symbol(kChanged){"value":"fn:portChanged/1","writable":true,"enumerable":false,"configurable":true} ` +
		`Symbol(Symbol.toStringTag){"value":"MessagePort","writable":false,"enumerable":false,"configurable":true}`
	if got := recv(t, w, rt).String(); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
