package console

import "testing"

// inspectPrelude defines what the cases share; it runs in node and in goja.
const inspectPrelude = `
class Foo { constructor() { this.x = 1; } }
class Bar extends Foo {}
class Empty {}
function named() {}
const circ = { name: 'c' }; circ.self = circ;
const circ2 = { a: { b: {} } }; circ2.a.b.back = circ2.a; circ2.top = circ2;
const withErr = (m) => { const e = new Error(m); e.stack = 'Error: ' + m + '\n    at f (file.js:1:2)\n    at g (file.js:3:4)'; return e; };
const noStack = (e) => { delete e.stack; Object.defineProperty(e, 'stack', { value: undefined, configurable: true }); return e; };
const getters = { get a() { return 1; }, set b(v) {}, get c() { return 1; }, set c(v) {} };
const sparse = [1, , 3]; sparse.length = 6;
const arrExtra = [1, 2]; arrExtra.k = 'v';
const big = Array.from({ length: 120 }, (_, i) => i);
const nested = { a: { b: { c: { d: { e: 1 } } } } };
const sym = Symbol('s');
const symObj = { [sym]: 1, [Symbol()]: 2, regular: 3 };
const nullProto = Object.create(null); nullProto.x = 1;
const longStr = 'x'.repeat(200);
const multi = 'line one is long enough\nline two is also quite long\nline three';
`

var inspectCases = []nodeCase{
	// primitives
	ins("1"), ins("-0"), ins("0"), ins("1.5"), ins("1e21"), ins("NaN"), ins("-Infinity"), ins("123n"), ins("-5n"),
	ins("true"), ins("null"), ins("undefined"), ins("'str'"), ins(`"it's"`), ins(`'say "hi"'`), ins("`both ' and \"`"),
	ins(`'a\nb\tc\u0001\u007f\\'`), ins(`'\ud800x'`), ins(`'😀'`), ins("Symbol('x')"), ins("Symbol()"), ins("Symbol.iterator"),
	ins("Symbol.for('reg')"), ins("'\\u0085'"), ins(`"both ' \" and ` + "`" + ` and ${x}"`),
	// objects
	ins("({})"), ins("({ a: 1 })"), ins("({ a: 1, b: 'two', c: [3] })"), ins("({ 'a-b': 1, 'c d': 2, _e: 3, $f: 4, '1': 5 })"),
	ins("({ b: 1, 2: 1, 1: 1 })"), ins("({ __proto__: null, x: 1 })"), ins("nullProto"), ins("Object.create(null)"),
	ins("({ ['__proto__']: 1 })"), ins("({ 'it\\'s': 1 })"), ins("nested"), ins("{ a: { b: { c: {} } } }"),
	ins("{ a: [ { b: [ { c: 1 } ] } ] }"), ins("symObj"), ins("{ s: sym }"), ins("getters"),
	ins("{ f: function () {}, g: () => 1, h: named, k: class {}, l: class K extends Foo {} }"),
	ins("{ a: undefined, b: null }"), ins("Object.create({ inherited: 1 })"),
	ins("Object.create(Object.create(null))"),
	// class instances
	ins("new Foo()"), ins("new Bar()"), ins("new Empty()"), ins("new (class {})()"), ins("Object.assign(new Empty(), { a: [1, 2] })"),
	// arrays
	ins("[]"), ins("[1, 2, 3]"), ins("[1, , 3]"), ins("[, , ]"), ins("sparse"), ins("new Array(5)"), ins("arrExtra"),
	ins("big"), ins("[[1, [2, [3, [4]]]]]"), ins("['a', 'b']"), ins("Array.from({ length: 30 }, (_, i) => 'item' + i)"),
	ins("Array.from({ length: 26 }, (_, i) => i * 1000)"), ins("Array.from({ length: 10 }, (_, i) => ({ i }))"),
	ins("[1, 'two', { three: 3 }, [4], null, undefined]"), ins("Array.from({ length: 8 }, (_, i) => -i * 3.25)"),
	ins("[123456789, 1, 2, 3, 4, 5, 6, 7, 8]"), ins("Array.from({ length: 101 }, () => 'ab')"),
	inso("[1, 2, 3, 4, 5]", "{ maxArrayLength: 2 }"), inso("[1, 2, 3]", "{ maxArrayLength: 0 }"),
	ins("(function () { return arguments; })(1, 'a')"),
	// depth
	inso("nested", "{ depth: 0 }"), inso("nested", "{ depth: 1 }"), inso("nested", "{ depth: null }"),
	inso("nested", "{ depth: Infinity }"), inso("[[[[[1]]]]]", "{ depth: 1 }"), inso("{ a: new Foo() }", "{ depth: 0 }"),
	inso("{ a: nullProto }", "{ depth: 0 }"), inso("{ m: new Map([[1, 2]]) }", "{ depth: 0 }"),
	// circular
	ins("circ"), ins("circ2"), ins("[circ, circ]"), ins("(() => { const a = [1]; a.push(a); return a; })()"),
	ins("(() => { const m = new Map(); m.set('self', m); return m; })()"),
	// Map, Set, weak
	ins("new Map()"), ins("new Map([[1, 2]])"), ins("new Map([['a', { b: 1 }], [{ k: 1 }, [1, 2]]])"), ins("new Set()"),
	ins("new Set([1, 'a', [2]])"), ins("new WeakMap()"), ins("new WeakSet()"), ins("new Set(big)"),
	ins("Object.assign(new Map([[1, 2]]), { extra: true })"), ins("new (class M extends Map {})([[1, 1]])"),
	inso("new Map([[1, 2], [3, 4]])", "{ maxArrayLength: 1 }"),
	// typed arrays and buffers
	ins("new Uint8Array([1, 2, 3])"), ins("new Float64Array([1.5, -0, NaN])"), ins("new Int16Array(0)"),
	ins("new BigInt64Array([1n, -2n])"), ins("new ArrayBuffer(4)"), ins("new Uint8Array([1, 2, 255]).buffer"),
	ins("new DataView(new ArrayBuffer(3), 1)"), ins("new Uint8Array(120)"), ins("new Uint8ClampedArray([300])"),
	ins("new Uint32Array([4294967295])"), ins("new Float32Array([0.1])"), inso("new Uint8Array(3)", "{ showHidden: true }"),
	ins("new ArrayBuffer(120)"), ins("{ buf: new Uint16Array([1, 2]) }"),
	// dates, regexps
	ins("new Date(0)"), ins("new Date(NaN)"), ins("new Date(Date.UTC(2020, 1, 29, 12, 30, 15, 123))"),
	ins("Object.assign(new Date(0), { k: 1 })"), ins("/ab+c/gi"), ins("new RegExp('a/b')"), ins("Object.assign(/x/, { y: 1 })"),
	ins("{ d: new Date(0), r: /r/ }"),
	// errors
	ins("withErr('boom')"), ins("{ e: withErr('nested') }"), ins("Object.assign(withErr('with code'), { code: 'E_CODE' })"),
	ins("noStack(new Error('no stack'))"), ins("noStack(new TypeError('type'))"), ins("noStack(new RangeError(''))"),
	ins("(() => { const e = withErr('outer'); Object.defineProperty(e, 'cause', { value: noStack(new Error('inner')), enumerable: false }); return e; })()"),
	ins("noStack(new Error('with cause', { cause: 42 }))"), ins("noStack(new Error('obj cause', { cause: { a: 1 } }))"),
	ins("(() => { class MyError extends Error {} const e = noStack(new MyError('mine')); return e; })()"),
	ins("(() => { class MyError extends TypeError {} const e = new MyError('sub'); e.stack = 'TypeError: sub\\n    at x (y.js:1:1)'; return e; })()"),
	ins("[noStack(new Error('in array'))]"),
	// functions and classes
	ins("function foo() {}"), ins("(function () {})"), ins("() => {}"), ins("async function af() {}"), ins("function* gen() {}"),
	ins("class A {}"), ins("class B extends Foo {}"), ins("(class {})"), ins("Math.max"),
	ins("Object.assign(function withProps() {}, { a: 1 })"), ins("class S { static x = 1 }"), ins("Foo"), ins("Bar"),
	ins("Object.setPrototypeOf(function np() {}, null)"), ins("named.bind(null)"),
	// boxed primitives
	ins("new Number(3)"), ins("new Number(-0)"), ins("new String('abc')"), ins("new Boolean(false)"), ins("Object(Symbol('b'))"),
	ins("Object(5n)"), ins("Object.assign(new String('ab'), { x: 1 })"),
	// promises
	ins("Promise.resolve(42)"), ins("new Promise(() => {})"), ins("(() => { const p = Promise.reject(new Number(3)); p.catch(() => {}); return p; })()"),
	ins("Promise.resolve({ a: [1] })"),
	// proxies
	ins("new Proxy({ a: 1 }, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } })"),
	ins("new Proxy([1, 2], {})"), ins("(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })()"),
	// strings in objects
	ins("{ s: 'short' }"), ins("{ s: longStr }"), ins("{ s: multi }"), ins("[multi]"), ins("multi"),
	inso("'abcdefghij'", "{ maxStringLength: 4 }"), inso("{ s: 'abcdefghij' }", "{ maxStringLength: 1 }"),
	inso("longStr", "{ maxStringLength: 10 }"),
	// line breaking
	ins("{ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'dddddddddd', eps: 'eeee' }"),
	ins("{ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'dddddddddd', eps: 'eeeee' }"),
	ins("{ a: { b: { c: { d: 1 } } }, x: 1 }"), ins("{ a: { b: 1 }, c: { d: { e: 1 } } }"),
	ins("Array.from({ length: 7 }, (_, i) => ({ id: i, name: 'n' + i }))"),
	ins("{ list: Array.from({ length: 40 }, (_, i) => i) }"),
	inso("{ a: 1, b: { c: 2 } }", "{ compact: false }"), inso("{ a: 1, b: { c: 2 } }", "{ compact: true }"),
	inso("{ a: 1, b: { c: 2 } }", "{ compact: 1 }"), inso("[1, 2, 3]", "{ compact: false }"),
	inso("{ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'dddddddddd', eps: 'eeeeeeeeeeee' }", "{ compact: true }"),
	inso("{ a: 1, b: 2 }", "{ breakLength: 5 }"), inso("{ a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }", "{ breakLength: Infinity }"),
	inso("big", "{ breakLength: Infinity, maxArrayLength: 10 }"),
	inso("{ c: 1, a: 2, b: 3 }", "{ sorted: true }"), inso("['c', 'a']", "{ sorted: true }"),
	// showHidden
	inso("[1]", "{ showHidden: true }"), inso("Object.defineProperty({}, 'hidden', { value: 1 })", "{ showHidden: true }"),
	ins("Object.defineProperty({ v: 1 }, 'hidden', { value: 1 })"),
	// custom inspect
	ins("{ [Symbol.for('nodejs.util.inspect.custom')]() { return 'CUSTOM'; } }"),
	ins("{ inner: { [Symbol.for('nodejs.util.inspect.custom')](depth) { return { depth }; } } }"),
	inso("{ [Symbol.for('nodejs.util.inspect.custom')]() { return 'x'; } }", "{ customInspect: false }"),
	ins("{ [Symbol.for('nodejs.util.inspect.custom')](d, o) { return o.stylize('styled', 'special') + ' ' + o.depth + ' ' + o.breakLength; } }"),
	ins("{ a: { [Symbol.for('nodejs.util.inspect.custom')](d, o, insp) { return 'Box<' + insp({ inner: [1, 2] }, o) + '>'; } } }"),
	ins("{ m: { [Symbol.for('nodejs.util.inspect.custom')]() { return 'two\\nlines'; } } }"),
	ins("{ r: { [Symbol.for('nodejs.util.inspect.custom')]() { return { replaced: true }; } } }"),
	// toStringTag
	ins("({ [Symbol.toStringTag]: 'Tagged' })"), ins("Object.assign(new Foo(), { [Symbol.toStringTag]: 'T' })"),
	ins("(() => { class T { get [Symbol.toStringTag]() { return 'G'; } } return new T(); })()"),
	ins("Object.defineProperty(new Foo(), Symbol.toStringTag, { value: 'Hidden' })"),
	ins("Math"), ins("JSON"),
	// more layout
	ins("{ a: [[1, 2], [3, 4]], b: { c: [{ d: 1 }] } }"), ins("Array.from({ length: 7 }, (_, i) => 'abc'.repeat(i % 3 + 1))"),
	ins("Array.from({ length: 12 }, (_, i) => i % 2 ? 'str' + i : i)"), ins("new Uint16Array(Array.from({ length: 30 }, (_, i) => i * 997))"),
	ins("[undefined, null, undefined, null, undefined, null, undefined]"), ins("[[[[]]]]"), ins("[[[[1]]]]"),
	ins("Object.fromEntries(Array.from({ length: 30 }, (_, i) => ['key' + i, i]))"),
	ins("{ é: 1, '': 2, '-1': 3, 'a.b': 4, 'UPPER': 5, 'd$': 6 }"), ins("{ [Symbol('a\\nb')]: 1 }"),
	ins("{ a: 'x'.repeat(75) }"), ins("{ a: { b: multi } }"), ins("[{ s: multi }]"), ins("{ veryLongPropertyNameNumberOne: 1, veryLongPropertyNameNumberTwo: 2, three: 3 }"),
	ins("{ e: { nested: noStack(new Error('deep')) } }"), ins("new Set([{ a: 1, b: 'two' }, [1, 2, 3], 'str', 1])"),
	ins("new Map([[{ k: 1 }, new Set([1])], ['s', new Map([[1, { deep: { er: 1 } }]])]])"),
	ins("Object.create(Array.prototype)"), ins("Object.setPrototypeOf([1, 2], null)"),
	ins("Object.setPrototypeOf(new Map([[1, 2]]), null)"), ins("Object.setPrototypeOf(new Set([1]), null)"),
	ins("new (class Arr extends Array {})(1, 2)"), ins("new (class Q extends Set {})([1])"),
	ins("(function* () {})()"), ins("new (class N extends null { constructor() { return Object.create(N.prototype); } })()"),
	ins("Object.setPrototypeOf(new Uint8Array([1]), null)"), ins("Object.setPrototypeOf(new Date(0), null)"),
	ins("Object.setPrototypeOf(/x/, null)"), ins("Object.setPrototypeOf(new Number(1), null)"),
	ins("(() => { class A { get g() { return 1; } m() {} } return new A(); })()"),
	ins("Object.defineProperties({}, { a: { get() { return 1; }, enumerable: true }, b: { set(v) {}, enumerable: true } })"),
	ins("[function () {}, class {}, Symbol('in array')]"), ins("{ und: undefined, nul: null, nan: NaN, neg: -0, big: 10n }"),
	ins("Array.from({ length: 3 }, () => Array.from({ length: 3 }, () => 'x'))"),
	ins("Array.from({ length: 25 }, (_, i) => ({ i }))"), ins("Array.from({ length: 101 }, (_, i) => i)"),
	inso("Array.from({ length: 10 }, (_, i) => i)", "{ compact: 1 }"), inso("{ a: { b: { c: {} } } }", "{ compact: 0 }"),
	inso("nested", "{ depth: 0, compact: true }"), inso("circ", "{ compact: true }"),
	inso("new Map([['a', 1]])", "{ showHidden: true }"), inso("noStack(new Error('x'))", "{ depth: -1 }"), inso("{ a: 1 }", "{ depth: -1 }"), inso("[{ a: 1 }]", "{ depth: -2 }"),
	inso("'a'.repeat(30)", "{ breakLength: 10 }"), inso("{ s: 'ab\\ncd\\nef'.repeat(5) }", "{ breakLength: 20 }"),
	// more errors
	ins("noStack(new AggregateError([noStack(new Error('a')), 1], 'agg'))"),
	ins("(() => { const e = noStack(new Error('x')); e.name = 'Renamed'; return e; })()"),
	ins("(() => { const e = withErr('msg'); e.name = 'CustomError'; return e; })()"),
	ins("(() => { const e = new Error('multi\\nline'); e.stack = 'Error: multi\\nline\\n    at x (y.js:1:1)'; return e; })()"),
	ins("(() => { const e = new Error('m'); e.stack = 'totally custom'; return e; })()"),
	ins("(() => { const e = new Error('m'); e.stack = ''; return e; })()"),
	ins("Object.setPrototypeOf(noStack(new Error('np')), null)"),
	ins("(() => { const e = noStack(new TypeError('t')); Object.setPrototypeOf(e, Error.prototype); return e; })()"),
	ins("(() => { class E2 extends Error { constructor() { super('e2'); this.extra = { deep: [1] }; } } return noStack(new E2()); })()"),
	ins("[withErr('in array'), { k: withErr('in object') }]"),
	ins("(() => { const e = noStack(new Error('c1', { cause: noStack(new Error('c2', { cause: 'c3' })) })); return e; })()"),
	ins("(() => { const e = noStack(new Error('self')); e.cause = e; return e; })()"),
	ins("(() => { const e = withErr('swap'); e.message = 'swap'; return Object.assign(e, { cause: 1 }); })()"),
	ins("(() => { const e = withErr('named'); Object.defineProperty(e, 'cause', { value: { c: 1 }, enumerable: false }); e.name = 'Error'; return e; })()"),
	// more objects
	ins("(() => { class S { static m() {} static p = 1; } return S; })()"),
	ins("Object.defineProperty(function f() {}, Symbol.toStringTag, { value: 'FT' })"),
	ins("(() => { const a = [1, 2]; Object.defineProperty(a, 0, { get() { return 9; }, enumerable: true }); return a; })()"),
	ins("{ a: [new Map([[1, [2]]])], b: [[new Set([[1]])]] }"), ins("[new Date(0), /x/, () => {}, Symbol()]"),
	ins("{ 'key with spaces and a very long name that goes on and on': 'and a value that is long too' }"),
	ins("['a'.repeat(20), 'b'.repeat(20), 'c'.repeat(20), 'd'.repeat(20)]"),
	ins("Array.from({ length: 200 }, (_, i) => String.fromCharCode(97 + i % 26).repeat(i % 7))"),
	ins("{ x: Array.from({ length: 12 }, (_, i) => i * 11) }"), ins("[[1, 2, [3, 4, [5, [6]]]], 7]"),
	ins("new Array(3).fill({ same: 1 })"), ins("(() => { const o = {}; return [o, o, { o }]; })()"),
	ins("Object.assign(Object.create(null), { [Symbol.toStringTag]: 'NT', v: 1 })"),
	ins("Object.assign(Object.create(null), { [Symbol.toStringTag]: 'NT' })"),
	ins("Object.defineProperty(Object.create(null), Symbol.toStringTag, { value: 'H' })"),
	ins("Object.assign(Object.defineProperty(Object.create(null), Symbol.toStringTag, { value: 'H' }), { x: 1 })"),
	ins("Object.assign(Object.create(null), { [Symbol.toStringTag]: 5, y: 1 })"),
	inso("{ n: Object.assign(Object.create(null), { [Symbol.toStringTag]: 'NT', v: 1 }) }", "{ depth: 0 }"),
	ins("new (class extends Map { get [Symbol.toStringTag]() { return 'MyMap'; } })()"),
	ins("Object.freeze({ frozen: true })"), ins("{ 'a\\nb': 1, 'tab\\t': 2, \"q'uote\": 3 }"),
	// showProxy, getters, numericSeparator
	inso("new Proxy({ a: 1 }, { get() { return 2; } })", "{ showProxy: true }"), inso("new Proxy(new Proxy([], {}), {})", "{ showProxy: true }"),
	inso("{ p: new Proxy({}, {}) }", "{ showProxy: true, depth: 0 }"),
	inso("(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })()", "{ showProxy: true }"),
	inso("getters", "{ getters: true }"), inso("getters", "{ getters: 'get' }"), inso("getters", "{ getters: 'set' }"),
	inso("{ get o() { return { x: [1] }; }, get n() { return null; }, get t() { throw new Error('no'); } }", "{ getters: true }"),
	inso("[1234567, -1234567.891, 0.0001234, 123, 1e21, -0, NaN, 12345678901234567890n, 1234.5]", "{ numericSeparator: true }"),
	inso("new Float64Array([1234.5678, 100000])", "{ numericSeparator: true }"),
	// the examples
	ins("({ a: 1 })"), ins("[1, 2]"), ins("new Map([[1, 2]])"), ins("{ [Symbol('k')]: Symbol('v') }"),
}

func TestInspectMatchesNode(t *testing.T) {
	compareWithNode(t, inspectPrelude, inspectCases)
}
