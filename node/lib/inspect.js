// internal/inspect (node/util.go): util.inspect, util.format and util.formatWithOptions for the util and assert
// modules. The formatting itself is the console's (package web/console, in Go), so console.log and util.inspect
// print exactly the same text; N holds the natives over it.
(function (N, require, core) {
'use strict';
const custom = Symbol.for('nodejs.util.inspect.custom');

function options(opts) {
	const o = Object.assign({}, inspect.defaultOptions);
	if (opts !== null && typeof opts === 'object') Object.assign(o, opts);
	return o;
}

// inspect(value, options) — or the legacy inspect(value, showHidden, depth, colors).
function inspect(value, opts) {
	if (typeof opts !== 'object' || opts === null) {
		const legacy = {};
		if (arguments.length > 1 && opts !== undefined) legacy.showHidden = !!opts;
		if (arguments.length > 2 && arguments[2] !== undefined) legacy.depth = arguments[2];
		opts = legacy;
	}
	return N.inspect(value, options(opts));
}
inspect.custom = custom;
inspect.defaultOptions = {};
inspect.colors = Object.create(null);
inspect.styles = Object.create(null);

function formatWithOptions(opts, ...args) {
	if (opts === null || typeof opts !== 'object') {
		const e = new TypeError('The "inspectOptions" argument must be of type object.' +
			(opts === null ? ' Received null' : ' Received type ' + typeof opts + ' (' + String(opts) + ')'));
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
	return N.format(options(opts), args);
}

return {
	inspect: inspect,
	format: function format(...args) { return N.format(options(undefined), args); },
	formatWithOptions: formatWithOptions,
};
})
