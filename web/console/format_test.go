package console

import "testing"

const formatPrelude = `
class WithToString { toString() { return 'custom toString'; } }
class Plain { constructor() { this.p = 1; } }
const cyc = {}; cyc.cyc = cyc;
`

var formatCases = []nodeCase{
	fmtc("'plain'"), fmtc("'%s', 'str'"), fmtc("'%s', 42"), fmtc("'%s', -0"), fmtc("'%s', 5n"), fmtc("'%s', null"),
	fmtc("'%s', undefined"), fmtc("'%s', Symbol('s')"), fmtc("'%s', { a: { b: { c: 1 } } }"), fmtc("'%s', [1, [2, [3]]]"),
	fmtc("'%s', new WithToString()"), fmtc("'%s', new Plain()"), fmtc("'%s', Object.assign(new Error('e'), { stack: 'Error: e\\n    at x (y.js:1:1)' })"),
	fmtc("'%s', new Date(0)"), fmtc("'%s', function f() { return 1; }"), fmtc("'%s', true"),
	fmtc("'%d', 42"), fmtc("'%d', '42'"), fmtc("'%d', 'x'"), fmtc("'%d', 1.5"), fmtc("'%d', -0"), fmtc("'%d', 10n"),
	fmtc("'%d', Symbol()"), fmtc("'%d', {}"), fmtc("'%d', null"), fmtc("'%d', ''"),
	fmtc("'%i', 42.9"), fmtc("'%i', '-7.5e3'"), fmtc("'%i', 10n"), fmtc("'%i', Symbol()"), fmtc("'%i', 'x'"),
	fmtc("'%f', '1.5abc'"), fmtc("'%f', 2"), fmtc("'%f', Symbol()"), fmtc("'%f', 'x'"),
	fmtc("'%j', { a: [1, 'b'] }"), fmtc("'%j', cyc"), fmtc("'%j', undefined"), fmtc("'%j', 'str'"),
	fmtc("'%j', { toJSON() { return 'J'; } }"),
	fmtc("'%o', { a: [1, 2] }"), fmtc("'%o', [1]"), fmtc("'%o', (() => { const f = () => {}; return f; })()"), fmtc("'%o', Math.max"),
	fmtc("'%o', Object.assign(() => {}, { p: 1 })"), fmtc("'%O', { a: { b: { c: { d: 1 } } } }"),
	fmtc("'%O', 'str'"), fmtc("'%c%s', 'color: red', 'x'"), fmtc("'100%%'"), fmtc("'100%%', 1"), fmtc("'%%s', 1"),
	fmtc("'%x', 1"), fmtc("'%', 1"), fmtc("'a%'"), fmtc("'%s %s', 'one'"), fmtc("'%s', 'a', 'b', { c: 1 }"),
	fmtc("'%s:%s', 'x'"), fmtc("'%d%%', 50"), fmtc("1, 2, 3"), fmtc("{ a: 1 }, 'x', [2]"), fmtc("null, undefined"),
	fmtc("'%s'"), fmtc("'', 1"), fmtc("'x', ''"), fmtc("Symbol('a'), 1"), fmtc("'%s', '%d', 1"),
	fmtc("'%s', { [Symbol.toStringTag]: 'T' }"), fmtc("'%s', Object.create(null)"),
	fmtc("'%s', new Map([[1, { a: 1 }]])"), fmtc("'%s', new Proxy({ a: 1 }, {})"),
	fmtc("'%s %o', 'a'"), fmtc("'%o', new Proxy({ a: 1 }, {})"), fmtc("'%O', new Proxy({ a: 1 }, {})"), fmtc("'🙂 %s', 'b'"), fmtc("'%s', 'x'.repeat(100)"),
}

func TestFormatMatchesNode(t *testing.T) {
	compareWithNode(t, formatPrelude, formatCases)
}
