// V8's stack trace API as libraries use it (callsites, threads): Error.prepareStackTrace receiving CallSite objects,
// and Error.captureStackTrace with and without a function to hide. (Columns are left out: goja's point at the
// call's parenthesis, V8's at the callee.)
function callsites() {
	const _prepareStackTrace = Error.prepareStackTrace;
	Error.prepareStackTrace = (_, stack) => stack;
	const stack = new Error().stack.slice(1);
	Error.prepareStackTrace = _prepareStackTrace;
	return stack;
}
const base = (f) => f && f.slice(f.lastIndexOf('/') + 1);
function describe(cs) {
	return [cs.getFunctionName(), base(cs.getFileName()), cs.getLineNumber(), typeof cs.getColumnNumber(),
		cs.isNative(), cs.isEval(), cs.isConstructor(), typeof cs.toString()].join(' ');
}
function inner() { return callsites(); }
function outer() { return inner(); }
const sites = outer();
console.log(sites.slice(0, 2).map(describe), sites[0].toString().startsWith('inner ('));
const saved = Error.prepareStackTrace;
Error.prepareStackTrace = (err, cs) => err.message + ' @ ' + cs[0].getFunctionName() + ' ' + cs[0].getLineNumber();
function thrower() { return new Error('m'); }
const e = thrower();
console.log(e.stack, e instanceof Error, Object.prototype.toString.call(e), e.constructor === Error);
class MyErr extends Error {}
console.log(new MyErr('sub') instanceof MyErr, new MyErr('s').stack, new TypeError('t') instanceof Error);
Error.prepareStackTrace = saved;
console.log(typeof new Error('z').stack, new Error('z').stack.split('\n')[0]);
function hidden() { const o = { name: 'Custom', message: 'msg' }; Error.captureStackTrace(o, hidden); return o; }
function caller() { return hidden(); }
const lines = caller().stack.split('\n');
console.log(lines[0], lines[1].trim().split(' ').slice(0, 2).join(' '), base(lines[1].split(' (')[1]).split(':')[0]);
const p = {};
Error.captureStackTrace(p);
console.log(p.stack.split('\n')[0], p.stack.split('\n')[1].includes('stacktrace.js:' + 34));
Error.prepareStackTrace = (err, cs) => cs.slice(0, 2).map((c) => c.getFunctionName() + ':' + c.getLineNumber());
function a() { const q = {}; Error.captureStackTrace(q); return q.stack; }
function b() { return a(); }
console.log(b());
function notOnStack() {}
const r = {};
Error.captureStackTrace(r, notOnStack);
console.log(r.stack);
Error.prepareStackTrace = saved;
for (const bad of [1, 'x', undefined]) {
	try { Error.captureStackTrace(bad); console.log('no error'); } catch (err) { console.log(err.name); }
}
