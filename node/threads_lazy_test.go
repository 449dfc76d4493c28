package node_test

import "testing"

// worker_threads made on first touch (issue 17, idle workers): every export of the module is a lazy data property,
// parentPort is made with its first read, a type's only listener is kept alone, and a Worker object holds only what
// it has. A program cannot tell, side by side with node, except where noted.

// skipExports filters the exports node v20 and jsworker do not share: node 20.20's postMessageToThread (not
// supported), and isMarkedAsUntransferable (Node 21's, kept where later Nodes list it).
const skipExports = `const skip = (k) => k === 'postMessageToThread' || k === 'isMarkedAsUntransferable';`

// TestWorkerThreadsExports_LikeNode: Object.keys(require('worker_threads')) in the main program and in a worker,
// in node v20's order, each export an ordinary data property with node's attributes and kind; the same object and
// the same parentPort, workerData and classes at every read; parentPort's prototype and the names node and
// jsworker agree on.
func TestWorkerThreadsExports_LikeNode(t *testing.T) {
	const src = skipExports + `
const wt = require('worker_threads');
const show = (m) => Object.keys(m).filter((k) => !skip(k)).map((k) => {
  const d = Object.getOwnPropertyDescriptor(m, k);
  return k + ':' + (d.get ? 'acc' : (d.value === null ? 'null' : typeof d.value)) + (d.writable ? 'w' : '') + (d.enumerable ? 'e' : '') + (d.configurable ? 'c' : '');
}).join(' ');
console.log(show(wt));
console.log(wt.isMainThread, wt.threadId, JSON.stringify(wt.resourceLimits), wt.parentPort, wt.workerData,
  wt === require('worker_threads'), wt.Worker === require('worker_threads').Worker, wt.MessagePort === wt.MessagePort,
  wt.resourceLimits === wt.resourceLimits);
const w = new wt.Worker(` + "`" + `
const wt = require('worker_threads');
const p = wt.parentPort;
const lines = [Object.keys(wt).filter((k) => !(${skip})(k)).join()];
lines.push([p === wt.parentPort, p === require('worker_threads').parentPort, wt.workerData === wt.workerData, wt.workerData.n,
  Object.getPrototypeOf(p) === wt.MessagePort.prototype, p instanceof wt.MessagePort,
  JSON.stringify(Object.keys(p)), JSON.stringify(Object.getOwnPropertyNames(p)), p.on === p.on,
  p.postMessage === wt.MessagePort.prototype.postMessage, typeof p.on, typeof p.once, typeof p.off, typeof p.emit,
  typeof p.close, typeof p.start, typeof p.ref, typeof p.unref, typeof p.hasRef, p.listenerCount('message'),
  wt.threadId > 0, wt.isMainThread, typeof wt.resourceLimits].join(' '));
p.once('message', (m) => { lines.push('got ' + m + ' ' + p.listenerCount('message')); p.postMessage(lines.join('\\n')); });
` + "`" + `, { eval: true, workerData: { n: 7 } });
w.once('message', (m) => console.log(m));
w.postMessage('hi');
`
	compareWithNode(t, src, `isMainThread:booleanwec MessagePort:functionwec MessageChannel:functionwec markAsUntransferable:functionwec moveMessagePortToContext:functionwec receiveMessageOnPort:functionwec resourceLimits:objectwec threadId:numberwec SHARE_ENV:symbolwec Worker:functionwec parentPort:nullwec workerData:nullwec BroadcastChannel:functionwec setEnvironmentData:functionwec getEnvironmentData:functionwec
true 0 {} null null true true true true
isMainThread,MessagePort,MessageChannel,markAsUntransferable,moveMessagePortToContext,receiveMessageOnPort,resourceLimits,threadId,SHARE_ENV,Worker,parentPort,workerData,BroadcastChannel,setEnvironmentData,getEnvironmentData
true true true 7 true true [] [] true true function function function function function function function function function 0 true false object
got hi 0
`)
}

// TestWorkerThreadsExports_FirstTouches: exports nothing has read yet, first touched by a descriptor read, a delete,
// an assignment, a defineProperty and for-in, behave as node's plain exports object does; in a worker, parentPort
// first read by destructuring, after a delete of another export, still gets its messages.
func TestWorkerThreadsExports_FirstTouches(t *testing.T) {
	const src = skipExports + `
const wt = require('worker_threads');
const d = Object.getOwnPropertyDescriptor(wt, 'MessageChannel');
console.log(typeof d.value, d.writable, d.enumerable, d.configurable, new d.value().port1 instanceof wt.MessagePort);
delete wt.BroadcastChannel;
console.log('BroadcastChannel' in wt, Object.keys(wt).includes('BroadcastChannel'), require('worker_threads').BroadcastChannel);
wt.setEnvironmentData = 5;
Object.defineProperty(wt, 'getEnvironmentData', { value: 1, enumerable: false });
console.log(wt.setEnvironmentData, JSON.stringify(Object.getOwnPropertyDescriptor(wt, 'getEnvironmentData')));
const ks = []; for (const k in wt) ks.push(k);
console.log(ks.filter((k) => !skip(k)).join());
const w = new wt.Worker("const wt = require('worker_threads'); delete wt.Worker; const { parentPort, workerData } = wt;" +
  "parentPort.once('message', (m) => parentPort.postMessage([m, workerData, 'Worker' in wt, typeof wt.SHARE_ENV].join(' ')));",
  { eval: true });
w.once('message', (m) => console.log(m));
w.postMessage('late');
`
	compareWithNode(t, src, `function true true true true
false false undefined
5 {"value":1,"writable":true,"enumerable":false,"configurable":true}
isMainThread,MessagePort,MessageChannel,markAsUntransferable,moveMessagePortToContext,receiveMessageOnPort,resourceLimits,threadId,SHARE_ENV,Worker,parentPort,workerData,setEnvironmentData
late  false symbol
`)
}

// portChainSrc prints a worker's parentPort's prototype chain (constructor name, own names in order with accessors
// and enumerable ones marked, the count of own symbols) after it has a 'message' listener, then its parent's Worker
// object's; wantPortChain is what it printed before parentPort and the exports were made on first touch (but for the
// port's own symbols: 1, its listeners, where it was 2 with the slot of its only plain 'message' listener). Node's
// own MessagePort is an EventTarget (NodeEventTarget), so its chain differs.
const portChainSrc = `const { Worker } = require('worker_threads');
const w = new Worker(` + "`" + `
const { parentPort } = require('worker_threads');
const desc = (o) => Object.getOwnPropertyNames(o).map((n) => { const d = Object.getOwnPropertyDescriptor(o, n); return n + (d.get ? ':acc' : '') + (d.enumerable ? 'E' : ''); }).join();
const chain = []; let p = parentPort;
parentPort.on('message', () => {});
while (p) { chain.push((p.constructor && p.constructor.name) + '{' + desc(p) + '}' + Object.getOwnPropertySymbols(p).length); p = Object.getPrototypeOf(p); }
parentPort.postMessage(chain.join(' > '));
parentPort.close();
` + "`" + `, { eval: true });
w.on('message', (m) => console.log(m));
w.on('exit', () => {
  const chain = []; let p = w;
  while (p) { chain.push((p.constructor && p.constructor.name) + '{' + Object.getOwnPropertyNames(p).join() + '}'); p = Object.getPrototypeOf(p); }
  console.log(chain.join(' > '));
});
`

const wantPortChain = `MessagePort{}1 > MessagePort{constructor,postMessage,start,close,ref,unref,hasRef,addEventListener,removeEventListener,dispatchEvent,onmessage:accE,onmessageerror:accE,onclose:accE}2 > EventEmitter{constructor,on,prependListener,once,prependOnceListener,removeListener,removeAllListeners,emit,listenerCount,listeners,rawListeners,eventNames,setMaxListeners,getMaxListeners,addListener,off}0 > Object{constructor,toString,toLocaleString,valueOf,hasOwnProperty,isPrototypeOf,propertyIsEnumerable,__proto__:acc}0
Worker{} > Worker{constructor,on,addListener,once,prependListener,prependOnceListener,removeListener,off,listeners,threadId,resourceLimits,stdin,stdout,stderr,postMessage,terminate,ref,unref,getHeapSnapshot} > EventEmitter{constructor,on,prependListener,once,prependOnceListener,removeListener,removeAllListeners,emit,listenerCount,listeners,rawListeners,eventNames,setMaxListeners,getMaxListeners,addListener,off} > Object{constructor,toString,toLocaleString,valueOf,hasOwnProperty,isPrototypeOf,propertyIsEnumerable,__proto__}
`

// TestParentPortChain_AsBefore: parentPort, made with its first read, has the prototype chain and property order
// it had when it was made with the module; so has the parent's Worker object.
func TestParentPortChain_AsBefore(t *testing.T) {
	if code, out, errOut := runProgram(t, portChainSrc); code != 0 || out != wantPortChain || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, wantPortChain)
	}
}

// TestEmitterLists_LikeNode: one listener kept alone, several in a list, and every way between them (on, prepend,
// once, prependOnce, removing the same function twice added, a listener removing itself while it runs, a function
// whose own properties look like an entry's) behave as Node's EventEmitter, on core's process.
func TestEmitterLists_LikeNode(t *testing.T) {
	const src = `const out = [];
const log = (...a) => out.push(a.join(' '));
const e = process, T = 'h19';
const a = () => log('a'), b = () => log('b'), c = (x, y) => log('c', x, y);
e.on(T, a); e.emit(T, 1); log(e.listenerCount(T), e.listeners(T).length);
e.on(T, a); e.emit(T); log(e.listenerCount(T));
e.prependListener(T, b); e.emit(T); log(e.listeners(T).map((f) => f === a ? 'a' : 'b').join());
e.removeListener(T, a); e.emit(T); log(e.listenerCount(T));
e.removeListener(T, a); e.emit(T); log(e.listenerCount(T), e.listeners(T).length === 1 && e.listeners(T)[0] === b);
e.once(T, c); e.emit(T, 1, 2); e.emit(T, 3, 4); log(e.listenerCount(T));
e.prependOnceListener(T, c); log(e.listenerCount(T)); e.emit(T, 5, 6); log(e.listenerCount(T));
e.removeListener(T, b); log(e.listenerCount(T), e.eventNames().includes(T), e.emit(T));
const self = function () { log('self', this === e); e.removeListener(T, self); e.on(T, a); };
e.on(T, self); e.on(T, b); e.emit(T); e.emit(T); log(e.listenerCount(T));
e.removeAllListeners(T); log(e.listenerCount(T), e.emit(T));
const o = () => log('o'); e.once(T, o); e.removeListener(T, o); log(e.listenerCount(T), e.emit(T));
e.once(T, o); e.on(T, o); e.removeListener(T, o); e.emit(T); log(e.listenerCount(T)); e.removeAllListeners(T);
e.on(T, a); e.once(T, a); e.removeListener(T, a); e.emit(T); log(e.listenerCount(T)); e.removeAllListeners(T);
a.once = true; a.event = true; a.fn = b; e.on(T, a); e.emit(T); log(e.listenerCount(T), e.listeners(T)[0] === a); e.off(T, a); log(e.listenerCount(T));
console.log(out.join('|'));
`
	compareWithNode(t, src, "a|1 1|a|a|2|b|a|a|b,a,a|b|a|2|b|1 true|b|c 1 2|b|1|2|c 5 6|b|1|0 false false|self true|b|b|a|2|0 false|0 false|o|0|a|1|a|1 true|0\n")
}

// TestPortEventTargets_AsBefore: a port's event listeners (addEventListener twice with one function, a
// handleEvent object, once), its on<type> handlers and emitter listeners beside them, dispatched by dispatchEvent,
// emit and messages, and removed, in the order and with the counts they had when every type kept an array.
func TestPortEventTargets_AsBefore(t *testing.T) {
	const src = `const { MessageChannel } = require('worker_threads');
const out = [];
const log = (...a) => out.push(a.join(' '));
const { port1, port2 } = new MessageChannel();
const h1 = (ev) => log('h1', ev.type, ev.data), h2 = { handleEvent(ev) { log('h2', ev.type); } };
port1.addEventListener('x', h1); port1.addEventListener('x', h1); port1.addEventListener('x', h2, { once: true });
port1.on('x', (d) => log('on', typeof d));
port1.dispatchEvent({ type: 'x', data: 1 }); port1.dispatchEvent({ type: 'x', data: 2 });
log(port1.listenerCount('x'));
port1.emit('x', 7);
port1.removeEventListener('x', h1); log(port1.listenerCount('x'));
port1.onx = 1; log(typeof port1.onmessage);
port1.onmessage = (ev) => { log('onmessage', ev.data); };
log(port1.listenerCount('message'), port1.onmessage !== null);
port1.on('message', (d) => { log('on message', d); });
port1.addEventListener('message', (ev) => { log('ael', ev.data); if (ev.data === 2) { port1.close(); } });
port2.postMessage(1); port2.postMessage(2);
port1.on('close', () => { port1.onmessage = null; log('closed', port1.listenerCount('message'), port1.eventNames().join()); console.log(out.join('|')); });
`
	const want = "h1 x 1|h2 x|h1 x 2|2|h1 x 7|on number|1|object|1 true|onmessage 1|on message 1|ael 1|onmessage 2|on message 2|ael 2|closed 2 x,message,close\n"
	if code, out, errOut := runProgram(t, src); code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// TestWorkerObject_MadeOnDemand: a Worker's resourceLimits is the same object at every read, {} when none was given
// (made on first read, also when the Worker is no longer extensible) and a copy of the options' taken at
// construction otherwise; its listeners still run in the async context the Worker was made in (testdata/als.js
// covers that).
func TestWorkerObject_MadeOnDemand(t *testing.T) {
	const src = `const { Worker } = require('worker_threads');
const w1 = new Worker('', { eval: true });
const a = w1.resourceLimits;
const rl = { maxOldGenerationSizeMb: 64 };
const w2 = new Worker('', { eval: true, resourceLimits: rl });
rl.x = 1;
console.log(JSON.stringify(a), a === w1.resourceLimits, JSON.stringify(w2.resourceLimits), w2.resourceLimits === w2.resourceLimits);
a.y = 2; console.log(w1.resourceLimits.y, Object.getOwnPropertyNames(w1).length, Object.getOwnPropertySymbols(w1).length > 0);
const w3 = new Worker('', { eval: true }); w3.on('exit', () => {}); Object.preventExtensions(w3);
console.log(JSON.stringify(w3.resourceLimits), typeof w3.threadId);
`
	const want = "{} true {\"maxOldGenerationSizeMb\":64} true\n2 0 true\n{} number\n"
	if code, out, errOut := runProgram(t, src); code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// TestWorkerEnv_Shared: workers spawned while process.env does not change share one copy of it (child.go's
// sharedEnv), and each still gets its own process.env object, as it was when it was spawned: a change in the
// parent between spawns reaches the later workers only, and a worker's own change reaches nobody.
func TestWorkerEnv_Shared(t *testing.T) {
	const src = `const { Worker } = require('worker_threads');
process.env.H19 = 'a';
const code = "const { parentPort } = require('worker_threads'); parentPort.postMessage([process.env.H19," +
  "Object.keys(process.env).filter((k) => k === 'H19' || k === 'H20').join()].join(' ')); process.env.H19 = 'mine';";
const run = () => new Promise((res) => new Worker(code, { eval: true }).once('message', res));
(async () => {
  const out = [await run(), await run()];
  process.env.H19 = 'b'; process.env.H20 = 'c';
  out.push(await run(), await run());
  delete process.env.H20;
  out.push(await run(), process.env.H19);
  console.log(out.join('|'));
})();
`
	compareWithNode(t, src, "a H19|a H19|b H19,H20|b H19,H20|b H19|b\n")
}

// TestEmitterErrors_AsBefore: the errors of a listener that is not a function and of a bad transfer argument, now
// made on first use (ports.js's lazy checkListener and transferArg), are those the eager helpers threw.
func TestEmitterErrors_AsBefore(t *testing.T) {
	const src = `for (const f of ['on', 'once', 'prependListener', 'prependOnceListener', 'addListener']) { try { process[f]('x', 5); } catch (e) { console.log(f, e.name, e.message); } }
try { process.on('x', null); } catch (e) { console.log(e.message); }
const { MessageChannel } = require('worker_threads'); const { port1 } = new MessageChannel();
try { port1.postMessage(1, 5); } catch (e) { console.log(e.message); }
try { port1.postMessage(1, { transfer: 5 }); } catch (e) { console.log(e.message); }
port1.close();
`
	const want = `on TypeError The "listener" argument must be of type function. Received number
once TypeError The "listener" argument must be of type function. Received number
prependListener TypeError The "listener" argument must be of type function. Received number
prependOnceListener TypeError The "listener" argument must be of type function. Received number
addListener TypeError The "listener" argument must be of type function. Received number
The "listener" argument must be of type function. Received null
postMessage: the transfer list must be an array or an options object
postMessage: options.transfer must be an array
`
	if code, out, errOut := runProgram(t, src); code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}
