// Node-style timers (node/worker.go): setTimeout, setInterval and setImmediate return objects with ref/unref; their
// numeric id is their primitive value, so clearTimeout takes either.
(function (g, setRef) {
'use strict';
const defineProperty = Object.defineProperty;

	class Timeout {
		constructor(id, repeat) { this._id = id; this._repeat = repeat; this._ref = true; }
		ref() { this._ref = true; setRef(this._id, true); return this; }
		unref() { this._ref = false; setRef(this._id, false); return this; }
		hasRef() { return this._ref; }
		refresh() { return this; }
		close() { clearTimeout_(this._id); return this; }
		[Symbol.toPrimitive]() { return this._id; }
	}
	class Immediate {
		constructor(id) { this._id = id; this._ref = true; }
		ref() { this._ref = true; return this; }
		unref() { this._ref = false; return this; }
		hasRef() { return this._ref; }
		[Symbol.toPrimitive]() { return this._id; }
	}
	const setTimeout_ = g.setTimeout, setInterval_ = g.setInterval, setImmediate_ = g.setImmediate;
	const clearTimeout_ = g.clearTimeout;
	const wrap = function (name, fn) { defineProperty(fn, 'name', { value: name }); return fn; };
	g.setTimeout = wrap('setTimeout', function (fn, ms, ...args) { return new Timeout(setTimeout_(fn, ms, ...args), false); });
	g.setInterval = wrap('setInterval', function (fn, ms, ...args) { return new Timeout(setInterval_(fn, ms, ...args), true); });
	g.setImmediate = wrap('setImmediate', function (fn, ...args) { return new Immediate(setImmediate_(fn, ...args)); });
})
