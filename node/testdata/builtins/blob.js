// Blob and File as Node 20 has them: construction from every kind of part, options, slice, the promise readers,
// errors, inspection. (Their structured clone is in node/blob_test.go: Node 20 clones a File as a plain Blob.)
const { Blob: BBlob, File: BFile } = require('buffer');
console.log(BBlob === Blob, BFile === File, File.prototype instanceof Blob, Blob.name, Blob.length, File.length);
const ab = new Uint8Array([0x61, 0x62, 0x63]).buffer;
const parts = ['héllo ', ab, new Uint16Array([0x6968]), new DataView(ab, 1, 1), new Blob(['[inner]']), 42, null, { a: 1 }];
const b = new Blob(parts, { type: 'Text/Plain;Charset=UTF-8' });
console.log(b, b.size, b.type, String(b), Object.prototype.toString.call(b), Object.keys(b), JSON.stringify(b));
console.log(new Blob().size, new Blob([]).type, new Blob([''], { type: 'bad\u00e9' }).type, new Blob([], { type: 'a\u0001' }).type);
console.log(new Blob(['a\r\nb\rc\n'], { endings: 'native' }).size, new Blob(['a\r\nb\rc\n'], { endings: 'transparent' }).size);
console.log(new Blob(['\ud800x']).size, new Blob([new Set(['q'])]).size, new Blob(new Set(['ab', 'c'])).size);
for (const args of [[0, 3], [-4], [2, 1], [-100, 100], [undefined, -2]]) {
	const s = b.slice(...args);
	console.log(JSON.stringify(args), s.size, s.type);
}
console.log(b.slice(0, 2, 'Image/PNG').type, b.slice(0, 2, 'x\u0100').type, b.slice().type);
for (const bad of [['abc'], [1], [null], [{}], [[], null], [[], 'x'], [[], { endings: 'CRLF' }]]) {
	try { new Blob(...bad); console.log('no error for', bad); } catch (e) { console.log(e.name, e.code, e.message); }
}
for (const bad of [[], [[]]]) {
	try { new File(...bad); } catch (e) { console.log(e.name, e.code, e.message); }
}
const f = new File(['abc', new Blob(['de'])], 'dir/a.txt', { type: 'TEXT/x', lastModified: 1700000000123 });
console.log(f, f.name, f.lastModified, f.size, f.type, f instanceof Blob, f instanceof File, Object.prototype.toString.call(f));
console.log(new File([], 7, { lastModified: '12' }).lastModified, new File([], 'n', { lastModified: 'x' }).lastModified,
	typeof new File([], 'now').lastModified, new File([], 'n').name);
class MyBlob extends Blob { extra() { return 'extra ' + this.size; } }
const mb = new MyBlob(['xyz']);
console.log(mb instanceof Blob, mb.extra(), mb.slice(1) instanceof MyBlob, mb.slice(1) instanceof Blob);
try { Blob.prototype.slice.call({}); } catch (e) { console.log(e.name, e.code); }
try { Object.getOwnPropertyDescriptor(Blob.prototype, 'size').get.call({}); } catch (e) { console.log(e.name, e.code); }
(async () => {
	console.log(JSON.stringify(await b.text()));
	console.log(new Uint8Array(await b.slice(6, 12).arrayBuffer()));
	console.log(await b.slice(0, 3).bytes());
	console.log(JSON.stringify(await new Blob(['\ufeffbom']).text()), JSON.stringify(await new Blob([new Uint8Array([0xff, 0x61])]).text()));
	console.log(await f.slice(1, -1).text(), await new Blob([f, f]).text());
	const r = await Blob.prototype.text.call({}).catch((e) => e.code);
	console.log(r);
})();
