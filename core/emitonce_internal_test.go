package core

import (
	"testing"

	"github.com/dop251/goja"
)

// TestEmitOnce_Kinds: Go removes and calls a type's lone once() listener itself (emitOnce: done), removed before
// it is called and with the target as this, and leaves every other kind of listener list to ports.js (not done,
// nothing changed): once beside another listener, a lone plain listener, addEventListener with { once: true },
// an onmessage handler, a type without listeners. A port's kChanged (its delivery started and stopped with its
// 'message' listeners) is told as ports.js tells it.
func TestEmitOnce_Kinds(t *testing.T) {
	h, err := OpenHostRealm(HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rt := h.Runtime()
	r := RealmOf(rt)
	cases := []struct {
		name, setup string
		done        bool
		after       string // what the listeners recorded, and the type's listener count after
	}{
		{"lone once", `t.once('message', function (a) { log.push(a, this === t, t.listenerCount('message')) })`, true, "7,true,0|0"},
		{"once and on", `t.once('message', () => log.push('once')); t.on('message', () => log.push('on'))`, false, "|2"},
		{"lone on", `t.on('message', () => log.push('on'))`, false, "|1"},
		{"event once", `t.addEventListener('message', () => log.push('ev'), { once: true })`, false, "|1"},
		{"handler", `t.onmessage = () => log.push('h')`, false, "|1"},
		{"none", ``, false, "|0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := h.RunScript("setup.js", `(function () {
				const { port1: t } = new MessageChannel();
				globalThis.t = t; globalThis.log = [];
				`+c.setup+`;
				return t;
			})()`)
			if err != nil {
				t.Fatal(err)
			}
			target := v.(*goja.Object)
			r.portsJS()
			m, _ := target.GetSymbol(r.kListeners).(*goja.Object)
			if m == nil {
				m = rt.NewObject()
			}
			done, err := r.emitOnce(target, m, "message", rt.ToValue(7))
			if err != nil || done != c.done {
				t.Fatalf("emitOnce: done %v, %v; want %v", done, err, c.done)
			}
			got, err := h.RunScript("after.js", `log.join() + '|' + t.listenerCount('message')`)
			if err != nil || got.String() != c.after {
				t.Fatalf("after: %v, %v; want %q", got, err, c.after)
			}
		})
	}
}
