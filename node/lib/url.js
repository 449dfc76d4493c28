// url (node/builtins.go): the web URL and URLSearchParams (web/url.go) with Node's file URL helpers,
// fileURLToPath, pathToFileURL and urlToHttpOptions. The legacy url.parse, url.format and url.resolve are not
// provided (they throw an error naming them).
(function (N, require, core) {
'use strict';
const web = require('internal/url');
const URL = web.URL;

function typeError(code, msg) { const e = new TypeError(msg); e.code = code; return e; }

function fileURLToPath(u) {
	if (typeof u === 'string') u = new URL(u);
	else if (!(u instanceof URL)) throw typeError('ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string or an instance of URL. Received ' + (u === null ? 'null' : typeof u));
	if (u.protocol !== 'file:') throw typeError('ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
	if (u.hostname !== '') throw typeError('ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
	const p = u.pathname;
	if (/%2f/i.test(p)) throw typeError('ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
	return decodeURIComponent(p);
}

function pathToFileURL(p) {
	if (typeof p !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string. Received ' + (p === null ? 'null' : typeof p));
	let resolved = require('path').resolve(p);
	if (p.endsWith('/') && !resolved.endsWith('/')) resolved += '/';
	const enc = resolved.replace(/%/g, '%25').replace(/\\\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D')
		.replace(/\t/g, '%09').replace(/#/g, '%23').replace(/\?/g, '%3F');
	return new URL('file://' + enc);
}

function urlToHttpOptions(u) {
	const o = {
		protocol: u.protocol,
		hostname: typeof u.hostname === 'string' && u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
		hash: u.hash, search: u.search, pathname: u.pathname, path: (u.pathname || '') + (u.search || ''), href: u.href,
	};
	if (u.port !== '') o.port = Number(u.port);
	if (u.username || u.password) o.auth = decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password);
	return o;
}

const notSupported = function (name) {
	return function () { throw new Error('jsworker: url.' + name + ' is not supported (use the WHATWG URL)'); };
};
const m = Object.assign({}, web);
m.fileURLToPath = fileURLToPath;
m.pathToFileURL = pathToFileURL;
m.urlToHttpOptions = urlToHttpOptions;
m.parse = notSupported('parse');
m.format = function format(u, options) {
	if (u instanceof URL) {
		const o = options || {};
		let s = u.href;
		if (o.fragment === false) s = s.replace(/#.*$/, '');
		if (o.search === false) s = s.replace(/\?[^#]*/, '');
		return s;
	}
	throw new Error('jsworker: url.format of a legacy URL object is not supported (pass a WHATWG URL)');
};
m.resolve = notSupported('resolve');
return m;
})
