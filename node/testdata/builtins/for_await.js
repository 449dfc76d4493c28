// for await and async generators in a CommonJS program (goja parses neither: such a file runs through the module
// map, whose CommonJS records have esbuild lower them, positions mapped back to this file).
const { EventEmitter, on } = require('events');
const { setInterval: every } = require('timers/promises');
async function* count(n) {
	for (let i = 0; i < n; i++) yield i;
}
const obj = { async *pairs() { yield [1, 2]; yield [3, 4]; } };
class Box { constructor(v) { this.v = v; } async *[Symbol.asyncIterator]() { yield* this.v; } }
async function main() {
	const seen = [];
	for await (const i of count(3)) seen.push(i);
	for await (const [a, b] of obj.pairs()) seen.push(a + b);
	for await (const v of [Promise.resolve('p'), 'q']) seen.push(v);
	for await (const v of new Box(['x', 'y'])) seen.push(v);
	console.log(seen, typeof Symbol.asyncIterator, typeof count(1)[Symbol.asyncIterator]);
	const ee = new EventEmitter();
	setTimeout(() => { ee.emit('data', 1); ee.emit('data', 2); ee.emit('end'); }, 1);
	for await (const [d] of on(ee, 'data')) {
		console.log('data', d);
		if (d === 2) break;
	}
	let ticks = 0;
	for await (const v of every(1, 'tick')) {
		if (++ticks === 3) { console.log(v, ticks); break; }
	}
	try {
		for await (const x of count(2)) {
			if (x === 1) throw new Error('inside');
		}
	} catch (e) {
		const at = e.stack.split('\n')[1].trim();
		console.log('caught', e.message, at.slice(at.lastIndexOf('/') + 1).replace(/\)$/, '').replace(/\(\d+\)$/, ''));
	}
	const g = count(5);
	console.log(await g.next(), await g.return(7), await g.next());
}
main();
