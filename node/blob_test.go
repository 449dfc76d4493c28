package node_test

import (
	"testing"
)

// Blob, File and DOMException structured-clone as HTML says (Node 20 itself turns a File into a plain Blob and a
// DOMException into {}; later Node releases clone them as here).
func TestBlob_StructuredClone(t *testing.T) {
	cases := []struct{ name, src, out string }{
		{"to a worker and back", `const { Worker } = require('worker_threads');
const w = new Worker(` + "`" + `
const { parentPort } = require('worker_threads');
parentPort.once('message', async (m) => {
	console.log('worker', m.b instanceof Blob, m.b.size, m.b.type, await m.b.text(), m.f instanceof File, m.f.name,
		m.f.lastModified, m.f.type, await m.f.text(), m.d instanceof DOMException, m.d.name, m.d.message, m.d.code,
		m.b === m.again, m.s instanceof Blob && !(m.s instanceof File), await m.s.text());
	parentPort.postMessage(m);
});` + "`" + `, { eval: true });
const d = new DOMException('boom', 'AbortError');
const b = new Blob(['hello ', new Uint8Array([0xe2, 0x82, 0xac])], { type: 'text/plain' });
w.postMessage({ b, again: b, f: new File(['x'], 'n.txt', { lastModified: 7, type: 'a/b' }), d, s: b.slice(6) });
w.once('message', async (m) => {
	console.log('back', m.b, await m.b.text(), m.f, m.d.name, m.d.message, m.d.code, m.d.stack === d.stack, m.b !== b);
	w.terminate();
});`, "worker true 9 text/plain hello € true n.txt 7 a/b x true AbortError boom 20 true true €\n" +
			"back Blob { size: 9, type: 'text/plain' } hello € File { size: 1, type: 'a/b', name: 'n.txt', lastModified: 7 } AbortError boom 20 true true\n"},
		{"structuredClone keeps kinds and shares nothing", `const f = new File([new Uint8Array(3)], 'z', { lastModified: 1 });
class Sub extends File {}
const c = structuredClone({ f, sub: new Sub(['q'], 's'), e: new DOMException('m', 'DataCloneError'), fake: Object.create(Blob.prototype) });
console.log(c.f !== f, c.f instanceof File, c.f.size, Object.getPrototypeOf(c.sub) === File.prototype, c.e.code,
	Object.getPrototypeOf(c.fake) === Object.prototype);`, "true true 3 true 25 true\n"},
		{"DataCloneError is a DOMException", `try { structuredClone(Symbol('s')); } catch (e) {
	console.log(e instanceof DOMException, e instanceof Error, e.name, e.code, e.constructor === DOMException);
}
try { structuredClone(new Blob([]), { transfer: [new Blob([])] }); } catch (e) { console.log(e.name, e.code); }
const { port1 } = new MessageChannel();
try { port1.postMessage(() => {}); } catch (e) { console.log(e instanceof DOMException, e.name); }
port1.close();`, "true true DataCloneError 25 true\nDataCloneError 25\ntrue DataCloneError\n"},
		{"stream says it is missing", `try { new Blob([]).stream(); } catch (e) { console.log(e.message); }`,
			"jsworker: Blob.prototype.stream is not supported (there are no web streams); use arrayBuffer() or text()\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runProgram(t, tc.src)
			if code != 0 || out != tc.out {
				t.Fatalf("exit %d\n--- got\n%s\n--- want\n%s\n--- stderr\n%s", code, out, tc.out, errOut)
			}
		})
	}
}
