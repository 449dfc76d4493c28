package core_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// TestTextCodec: TextEncoder and TextDecoder per the Encoding standard —
// UTF-8 both ways, encodeInto whole code points only, one U+FFFD per maximal
// malformed subpart, the BOM, streaming across calls, fatal mode, UTF-16LE,
// SharedArrayBuffer input, unknown labels refused, and the other WHATWG encodings (latin1 as windows-1252 as Node
// decodes it, shift_jis, utf-16be) through package web/encoding.
func TestTextCodec(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `const e = new TextEncoder(), d = new TextDecoder();
const out = [];
const b = e.encode("héllo €𝄞");
out.push(b.length, d.decode(b), e.encoding, d.encoding, String(e), String(d), e.encode().length);
const dst = new Uint8Array(5);
out.push(JSON.stringify(e.encodeInto("a€b!", dst)), Array.from(dst).join(" "));
out.push(JSON.stringify(d.decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41, 0xE2, 0x82, 0x41, 0xF0, 0x9F, 0x98]))));
out.push(new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])).length);
const s = new TextDecoder();
out.push(s.decode(new Uint8Array([0xE2, 0x82]), { stream: true }) + s.decode(new Uint8Array([0xAC])));
try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xFF])); } catch (x) { out.push(x.name); }
out.push(new TextDecoder("UTF-16").decode(new Uint16Array([0x68, 0xD834, 0xDD1E]).buffer));
const sab = new SharedArrayBuffer(4);
new Uint8Array(sab).set([0x61, 0x62, 0x63, 0x64]);
out.push(d.decode(new Uint8Array(sab, 1, 2)), d.decode(sab), d.decode(new DataView(sab, 3)));
try { new TextDecoder("no-such-encoding"); } catch (x) { out.push(x.name + " " + x.code); }
out.push(new TextDecoder("latin1").decode(new Uint8Array([0x63, 0x61, 0x66, 0xE9, 0x80])), new TextDecoder("latin1").encoding);
out.push(new TextDecoder("shift_jis").decode(new Uint8Array([0x82, 0xA0])), new TextDecoder("utf-16be").decode(new Uint8Array([0, 0x41])));
try { d.decode("text"); } catch (x) { out.push(x.name); }
postMessage(out.join("|"));`, core.Options{})
	want := `14|héllo €𝄞|utf-8|utf-8|[object TextEncoder]|[object TextDecoder]|0|{"read":3,"written":5}|97 226 130 172 98|` + "\"A\uFFFDA\uFFFD\"" + `|2|€|TypeError|h𝄞|bc|abcd|d|RangeError ERR_ENCODING_NOT_SUPPORTED|café` + "\u0080" + `|windows-1252|あ|A|TypeError`
	if v := recv(t, w, rt); v.String() != want {
		t.Fatalf("got  %s\nwant %s", v, want)
	}
}
