package node_test

import "testing"

// Lazy globals and lazy prototype methods (internal/gojainternal's lazy properties, issue 17): a program cannot
// tell them from eager ones.

// TestLazyGlobals_LikeNode: SharedArrayBuffer, Atomics and the timers are ordinary data properties with Node's
// attributes however they are first touched (a descriptor read, a delete, an assignment), listed by
// Object.getOwnPropertyNames before anything made them, and work when made; side by side with node.
func TestLazyGlobals_LikeNode(t *testing.T) {
	const src = `const d = (n) => { const x = Object.getOwnPropertyDescriptor(globalThis, n); return [n, typeof x.value, x.writable, x.enumerable, x.configurable].join(' '); };
console.log(d('SharedArrayBuffer'));
console.log(d('Atomics'));
console.log(d('setTimeout'), d('clearInterval'));
const names = Object.getOwnPropertyNames(globalThis);
console.log(['SharedArrayBuffer', 'Atomics', 'setTimeout', 'structuredClone', 'queueMicrotask'].every((n) => names.includes(n)));
console.log(Object.keys(globalThis).includes('Atomics'), Object.keys(globalThis).includes('setTimeout'));
console.log(SharedArrayBuffer.name, SharedArrayBuffer.length, Atomics[Symbol.toStringTag]);
console.log(Atomics.add.name, Atomics.add.length, typeof Atomics.wait, Object.prototype.toString.call(Atomics));
console.log(new SharedArrayBuffer(8).byteLength, new SharedArrayBuffer(8) instanceof SharedArrayBuffer);
class S extends SharedArrayBuffer {} console.log(new S(4) instanceof S, new S(4).byteLength);
delete globalThis.Atomics; console.log(typeof globalThis.Atomics, Object.getOwnPropertyNames(globalThis).includes('Atomics'));
globalThis.SharedArrayBuffer = 5; console.log(SharedArrayBuffer, d('SharedArrayBuffer'));
`
	compareWithNode(t, src, `SharedArrayBuffer function true false true
Atomics object true false true
setTimeout function true true true clearInterval function true true true
true
false true
SharedArrayBuffer 1 Atomics
add 3 function [object Atomics]
8 true
true 4
undefined false
5 SharedArrayBuffer number true false true
`)
}

// lazyProtoSrc prints EventEmitter.prototype's and MessagePort.prototype's names in order, with each property's
// kind, attributes, name, length and whether it has a prototype; wantLazyProto is what the tree printed before
// their methods were made lazily (the same program under the eager ports.js: Node's own classes differ).
const lazyProtoSrc = `// Fidelity: the lazy prototypes' methods and the lazy globals, printed the same way under node and jsworker.
const { MessageChannel, MessagePort } = require('worker_threads');
const EE = Object.getPrototypeOf(MessagePort.prototype).constructor;
const show = (o) => Object.getOwnPropertyNames(o).map((n) => {
  const d = Object.getOwnPropertyDescriptor(o, n);
  const f = d.value || d.get;
  return n + ':' + (d.get ? 'acc' : typeof d.value) + (d.writable ? 'w' : '') + (d.enumerable ? 'e' : '') + (d.configurable ? 'c' : '') +
    (typeof f === 'function' ? '/' + f.name + '/' + f.length + '/' + ('prototype' in f) : '');
}).join(' ');
console.log(show(MessagePort.prototype));
console.log(show(EE.prototype));
console.log(EE.prototype.on === EE.prototype.addListener, EE.prototype.off === EE.prototype.removeListener);
const { port1 } = new MessageChannel();
console.log(port1 instanceof MessagePort, port1 instanceof EE, Object.prototype.toString.call(port1));
try { new EE.prototype.on(); } catch (e) { console.log(e.constructor.name); }
`

const wantLazyProto = `constructor:functionwc/MessagePort/1/true postMessage:functionwc/postMessage/2/false start:functionwc/start/0/false close:functionwc/close/0/false ref:functionwc/ref/0/false unref:functionwc/unref/0/false hasRef:functionwc/hasRef/0/false addEventListener:functionwc/addEventListener/3/false removeEventListener:functionwc/removeEventListener/2/false dispatchEvent:functionwc/dispatchEvent/1/false onmessage:accec/get/0/false onmessageerror:accec/get/0/false onclose:accec/get/0/false
constructor:functionwc/EventEmitter/0/true on:functionwc/on/2/false prependListener:functionwc/prependListener/2/false once:functionwc/once/2/false prependOnceListener:functionwc/prependOnceListener/2/false removeListener:functionwc/removeListener/2/false removeAllListeners:functionwc/removeAllListeners/1/false emit:functionwc/emit/1/false listenerCount:functionwc/listenerCount/1/false listeners:functionwc/listeners/1/false rawListeners:functionwc/rawListeners/1/false eventNames:functionwc/eventNames/0/false setMaxListeners:functionwc/setMaxListeners/0/false getMaxListeners:functionwc/getMaxListeners/0/false addListener:functionwc/on/2/false off:functionwc/removeListener/2/false
true true
true true [object MessagePort]
TypeError
`

// lazyTouchSrc touches the lazy prototypes first by for-in, Object.keys, in, hasOwnProperty, toString, delete,
// defineProperty and assignment; wantLazyTouch is what the eager tree printed (but for the body of listenerCount:
// the listener lists are an object now, as in Node, where they were a Map, and a type's only listener is kept
// alone, as in Node, where it was an array of one).
const lazyTouchSrc = `const { MessagePort, parentPort } = require('worker_threads');
const EE = Object.getPrototypeOf(MessagePort.prototype).constructor;
// First touches of every kind, each on a prototype nothing has touched yet.
const P = MessagePort.prototype, E = EE.prototype;
const keys = []; for (const k in P) keys.push(k);
console.log(keys.join(), Object.keys(E).length, 'emit' in E, E.hasOwnProperty('once'));
console.log(String(E.listenerCount), String(P.postMessage), String(Object.getOwnPropertyDescriptor(P, 'onmessage').set).length > 50);
delete E.eventNames; console.log(Object.getOwnPropertyNames(E).includes('eventNames'), 'eventNames' in E);
Object.defineProperty(E, 'rawListeners', { value: 1 }); console.log(JSON.stringify(Object.getOwnPropertyDescriptor(E, 'rawListeners')));
E.setMaxListeners = 'x'; console.log(E.setMaxListeners, Object.getOwnPropertyNames(E).join());
console.log(Object.getOwnPropertySymbols(P).map(String).join());
`

const wantLazyTouch = `onmessage,onmessageerror,onclose 0 true true
listenerCount(type) { const l = listenersOf(this)[type]; return l === undefined ? 0 : Array.isArray(l) ? l.length : 1; } postMessage(value, transfer) { N.portPost(this, value, transferArg(transfer)); } true
false false
{"value":1,"writable":true,"enumerable":false,"configurable":true}
x constructor,on,prependListener,once,prependOnceListener,removeListener,removeAllListeners,emit,listenerCount,listeners,rawListeners,setMaxListeners,getMaxListeners,addListener,off
Symbol(kChanged),Symbol(Symbol.toStringTag)
`

// lazyEdgeSrc clones, serializes, freezes and reads every descriptor of the lazy prototypes; wantLazyEdge is what
// the eager tree printed.
const lazyEdgeSrc = `const { MessagePort } = require('worker_threads');
const EE = Object.getPrototypeOf(MessagePort.prototype).constructor;
let r = [];
try { r.push(JSON.stringify(structuredClone(MessagePort.prototype))); } catch (e) { r.push(e.name); }
try { r.push(JSON.stringify(structuredClone(EE.prototype))); } catch (e) { r.push(e.name); }
r.push(JSON.stringify(EE.prototype), Object.prototype.toString.call(EE.prototype), Object.isExtensible(EE.prototype));
Object.freeze(EE.prototype); r.push(Object.isFrozen(EE.prototype), typeof EE.prototype.on);
r.push(JSON.stringify(Object.entries(Object.getOwnPropertyDescriptors(MessagePort.prototype)).map(([k, d]) => k + (d.get ? 'G' : '') + (d.enumerable ? 'E' : ''))));
console.log(r.join('\n'));
`

const wantLazyEdge = `{"onmessage":null,"onmessageerror":null,"onclose":null}
{}
{}
[object Object]
true
true
function
["constructor","postMessage","start","close","ref","unref","hasRef","addEventListener","removeEventListener","dispatchEvent","onmessageGE","onmessageerrorGE","oncloseGE"]
`

// TestLazyPrototypes_AsBefore: the methods ports.js makes on first touch look and behave as the class methods they
// replace did, in the main program and in a worker, whatever touches them first.
func TestLazyPrototypes_AsBefore(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"names", lazyProtoSrc, wantLazyProto},
		{"touches", lazyTouchSrc, wantLazyTouch},
		{"edges", lazyEdgeSrc, wantLazyEdge},
	} {
		t.Run(c.name, func(t *testing.T) {
			if code, out, errOut := runProgram(t, c.src); code != 0 || out != c.want || errOut != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, c.want)
			}
		})
	}
	t.Run("worker", func(t *testing.T) {
		const src = `const { Worker } = require('worker_threads');
const w = new Worker("const { parentPort } = require('worker_threads');" +
	"parentPort.once('message', (m) => { const P = Object.getPrototypeOf(parentPort);" +
	"parentPort.postMessage([m, Object.getOwnPropertyNames(P).length, P.postMessage === parentPort.postMessage," +
	"typeof parentPort.on, parentPort.listenerCount('message'), Object.getPrototypeOf(P).on === parentPort.addListener].join(' ')); });", { eval: true });
w.on('message', (m) => { console.log(m); w.terminate(); });
w.postMessage('hi');
`
		if code, out, errOut := runProgram(t, src); code != 0 || out != "hi 13 true function 0 true\n" || errOut != "" {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
}

// TestEmitterEventNames_LikeNode: core's emitters (process, MessagePort, Worker) keep their listener lists by
// property key, as Node's EventEmitter does: 1 and '1' are one event, and eventNames lists integer-like names
// first, then strings, then symbols.
func TestEmitterEventNames_LikeNode(t *testing.T) {
	const src = `const s = Symbol('s'), f = () => {};

process.on('b', f); process.on(s, f); process.on('1', f); process.on('a', f); process.on(1, f);
console.log(process.eventNames().filter((n) => ['b', s, '1', 'a'].includes(n)).map(String).join(), process.listenerCount(1), process.listenerCount('1'));
process.removeListener(1, f); console.log(process.listenerCount('1'));
`
	compareWithNode(t, src, "1,b,a,Symbol(s) 2 2\n1\n")
}
