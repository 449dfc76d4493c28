// fs and fs/promises (node/fs.go): the file system in Node's three forms — fooSync, foo(…, callback) and
// promises.foo — each over one Go operation (N.sync / N.async). Streams, watchers, fs.Dir and ownership changes
// are not provided (they throw an error naming them).
(function (N, require, core) {
'use strict';
const { Buffer } = require('buffer');

function typeError(code, msg) { const e = new TypeError(msg); e.code = code; return e; }

function toPath(p, name) {
	if (typeof p === 'string') {
		if (p.includes('\u0000')) throw typeError('ERR_INVALID_ARG_VALUE', "The argument '" + (name || 'path') + "' must be a string, Uint8Array, or URL without null bytes. Received " + JSON.stringify(p));
		return p;
	}
	if (p instanceof Uint8Array) return Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString();
	if (p !== null && typeof p === 'object' && typeof p.href === 'string' && p.protocol !== undefined) {
		if (p.protocol !== 'file:') throw typeError('ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
		return decodeURIComponent(p.pathname);
	}
	throw typeError('ERR_INVALID_ARG_TYPE', 'The "' + (name || 'path') + '" argument must be of type string or an instance of Buffer or URL. Received ' + (p === null ? 'null' : p === undefined ? 'undefined' : 'type ' + typeof p));
}

function checkFd(fd) {
	if (typeof fd !== 'number' || fd !== Math.floor(fd) || fd < 0) throw typeError('ERR_INVALID_ARG_TYPE', 'The "fd" argument must be of type number. Received ' + typeof fd);
	return fd;
}

function optionsOf(o, defEnc, defFlag) {
	if (o === undefined || o === null) return { encoding: defEnc, flag: defFlag };
	if (typeof o === 'string') return { encoding: o, flag: defFlag };
	if (typeof o !== 'object') throw typeError('ERR_INVALID_ARG_TYPE', 'The "options" argument must be one of type string or an instance of Object. Received type ' + typeof o);
	return Object.assign({ encoding: defEnc, flag: defFlag }, o);
}

function dataBytes(data, enc) {
	if (typeof data === 'string') return Buffer.from(data, enc || 'utf8');
	if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
	throw typeError('ERR_INVALID_ARG_TYPE', 'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ' + (data === null ? 'null' : typeof data));
}

const S_IFMT = 0o170000, S_IFREG = 0o100000, S_IFDIR = 0o040000, S_IFLNK = 0o120000, S_IFIFO = 0o010000,
	S_IFSOCK = 0o140000, S_IFCHR = 0o020000, S_IFBLK = 0o060000;

class Stats {
	constructor(a) {
		this.dev = a[0]; this.mode = a[1]; this.nlink = a[2]; this.uid = a[3]; this.gid = a[4]; this.rdev = a[5];
		this.blksize = a[6]; this.ino = a[7]; this.size = a[8]; this.blocks = a[9];
		this.atimeMs = a[10]; this.mtimeMs = a[11]; this.ctimeMs = a[12]; this.birthtimeMs = a[13];
		this.atime = new Date(a[10]); this.mtime = new Date(a[11]); this.ctime = new Date(a[12]); this.birthtime = new Date(a[13]);
	}
	isFile() { return (this.mode & S_IFMT) === S_IFREG; }
	isDirectory() { return (this.mode & S_IFMT) === S_IFDIR; }
	isSymbolicLink() { return (this.mode & S_IFMT) === S_IFLNK; }
	isFIFO() { return (this.mode & S_IFMT) === S_IFIFO; }
	isSocket() { return (this.mode & S_IFMT) === S_IFSOCK; }
	isCharacterDevice() { return (this.mode & S_IFMT) === S_IFCHR; }
	isBlockDevice() { return (this.mode & S_IFMT) === S_IFBLK; }
}

class Dirent {
	constructor(name, type, path) { this.name = name; this.parentPath = path; this.path = path; Object.defineProperty(this, '_t', { value: type }); }
	isFile() { return this._t === 'file'; }
	isDirectory() { return this._t === 'dir'; }
	isSymbolicLink() { return this._t === 'symlink'; }
	isFIFO() { return this._t === 'fifo'; }
	isSocket() { return this._t === 'socket'; }
	isCharacterDevice() { return this._t === 'char'; }
	isBlockDevice() { return this._t === 'block'; }
}

// Each operation: args(...userArgs) -> [opName, nativeArgs, finish(raw) -> value].
const ops = {
	open(path, flags, mode) { return ['open', [toPath(path), flags === undefined ? 'r' : flags, mode]]; },
	close(fd) { return ['close', [checkFd(fd)]]; },
	read(fd, buffer, offset, length, position) {
		checkFd(fd);
		if (buffer !== null && typeof buffer === 'object' && !ArrayBuffer.isView(buffer)) {
			({ buffer, offset, length, position } = Object.assign({ buffer: Buffer.alloc(16384) }, buffer));
		}
		if (!ArrayBuffer.isView(buffer)) throw typeError('ERR_INVALID_ARG_TYPE', 'The "buffer" argument must be an instance of Buffer, TypedArray, or DataView.');
		if (offset !== null && typeof offset === 'object') ({ offset, length, position } = offset); // read(fd, buffer, options)
		offset = offset === undefined || offset === null ? 0 : offset;
		length = length === undefined || length === null ? buffer.byteLength - offset : length;
		if (offset < 0 || offset + length > buffer.byteLength) {
			const e = new RangeError('The value of "length" is out of range. It must be <= ' + (buffer.byteLength - offset) + '. Received ' + length);
			e.code = 'ERR_OUT_OF_RANGE';
			throw e;
		}
		const view = new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length);
		return ['read', [fd, view, typeof position === 'bigint' ? Number(position) : position], function (n) { return n; }, function (n) { return [n, buffer]; }];
	},
	write(fd, data, a, b, c) {
		checkFd(fd);
		if (typeof data === 'string') {
			// write(fd, string[, position[, encoding]])
			return ['write', [fd, Buffer.from(data, typeof b === 'string' ? b : 'utf8'), typeof a === 'number' ? a : null], function (n) { return n; }, function (n) { return [n, data]; }];
		}
		let offset = a, length = b, position = c;
		if (a !== null && typeof a === 'object') ({ offset, length, position } = a);
		const bytes = dataBytes(data);
		offset = offset === undefined || offset === null ? 0 : offset;
		length = length === undefined || length === null ? bytes.length - offset : length;
		return ['write', [fd, bytes.subarray(offset, offset + length), position], function (n) { return n; }, function (n) { return [n, data]; }];
	},
	readFile(path, options) {
		const o = optionsOf(options, null, 'r');
		const isFd = typeof path === 'number';
		return ['readFile', [isFd ? path : toPath(path), o.flag, isFd], function (ab) {
			const b = Buffer.from(ab);
			return o.encoding === null || o.encoding === undefined || o.encoding === 'buffer' ? b : b.toString(o.encoding);
		}];
	},
	writeFile(path, data, options) {
		const o = optionsOf(options, 'utf8', 'w');
		const isFd = typeof path === 'number';
		return ['writeFile', [isFd ? path : toPath(path), dataBytes(data, o.encoding), o.flag, o.mode, isFd]];
	},
	appendFile(path, data, options) {
		const o = optionsOf(options, 'utf8', 'a');
		const isFd = typeof path === 'number';
		return ['writeFile', [isFd ? path : toPath(path), dataBytes(data, o.encoding), o.flag, o.mode, isFd]];
	},
	stat(path, options) { return ['stat', [toPath(path), true], statsOf(options)]; },
	lstat(path, options) { return ['stat', [toPath(path), false], statsOf(options)]; },
	fstat(fd, options) { return ['fstat', [checkFd(fd)], statsOf(options)]; },
	access(path, mode) { return ['access', [toPath(path), mode === undefined ? 0 : mode]]; },
	readdir(path, options) {
		const o = optionsOf(options, 'utf8');
		const p = toPath(path);
		if (o.recursive) throw new Error('jsworker: fs.readdir with recursive is not supported');
		return ['readdir', [p, !!o.withFileTypes], function (list) {
			if (o.withFileTypes) return list.map(function (e) { return new Dirent(e[0], e[1], p); });
			if (o.encoding === 'buffer') return list.map(function (s) { return Buffer.from(s); });
			return list;
		}];
	},
	mkdir(path, options) {
		const o = typeof options === 'number' || typeof options === 'string' ? { mode: options } : (options || {});
		const mode = typeof o.mode === 'string' ? parseInt(o.mode, 8) : o.mode;
		return ['mkdir', [toPath(path), !!o.recursive, mode]];
	},
	rmdir(path, options) {
		if (options && options.recursive) return ['rm', [toPath(path), true, false]];
		return ['rmdir', [toPath(path)]];
	},
	rm(path, options) { const o = options || {}; return ['rm', [toPath(path), !!o.recursive, !!o.force]]; },
	unlink(path) { return ['unlink', [toPath(path)]]; },
	rename(oldPath, newPath) { return ['rename', [toPath(oldPath, 'oldPath'), toPath(newPath, 'newPath')]]; },
	link(existing, newPath) { return ['link', [toPath(existing, 'existingPath'), toPath(newPath, 'newPath')]]; },
	symlink(target, path) { return ['symlink', [toPath(target, 'target'), toPath(path)]]; },
	readlink(path) { return ['readlink', [toPath(path)]]; },
	realpath(path) { return ['realpath', [toPath(path)]]; },
	copyFile(src, dest, mode) { return ['copyFile', [toPath(src, 'src'), toPath(dest, 'dest'), mode || 0]]; },
	truncate(path, len) {
		const isFd = typeof path === 'number';
		return ['truncate', [isFd ? path : toPath(path), len || 0, isFd]];
	},
	ftruncate(fd, len) { return ['truncate', [checkFd(fd), len || 0, true]]; },
	chmod(path, mode) { return ['chmod', [toPath(path), typeof mode === 'string' ? parseInt(mode, 8) : mode]]; },
	utimes(path, atime, mtime) { return ['utimes', [toPath(path), timeOf(atime), timeOf(mtime)]]; },
	mkdtemp(prefix) { return ['mkdtemp', [toPath(prefix, 'prefix')]]; },
	fsync(fd) { return ['fsync', [checkFd(fd)]]; },
	fdatasync(fd) { return ['fsync', [checkFd(fd)]]; },
};

function statsOf(options) {
	return function (a) {
		if (options && options.bigint) {
			const s = new Stats(a);
			for (const k of ['dev', 'mode', 'nlink', 'uid', 'gid', 'rdev', 'blksize', 'ino', 'size', 'blocks']) s[k] = BigInt(s[k]);
			return s;
		}
		return new Stats(a);
	};
}

function timeOf(t) {
	if (t instanceof Date) return t.getTime() / 1000;
	if (typeof t === 'string') return Number(t);
	return t;
}

const fs = {};
const promises = {};
const identity = function (v) { return v; };

for (const name of Object.keys(ops)) {
	const prep = ops[name];
	fs[name + 'Sync'] = function (...args) {
		const [op, nargs, finish] = prep(...args);
		const v = N.sync(op, nargs);
		return (finish || identity)(v);
	};
	Object.defineProperty(fs[name + 'Sync'], 'name', { value: name + 'Sync' });
	fs[name] = function (...args) {
		const cb = args.pop();
		if (typeof cb !== 'function') throw typeError('ERR_INVALID_ARG_TYPE', 'The "cb" argument must be of type function. Received ' + (cb === undefined ? 'undefined' : typeof cb));
		const [op, nargs, finish, cbArgs] = prep(...args);
		N.async(op, nargs, function (err, v) {
			if (err !== null) { cb(err); return; }
			const r = (finish || identity)(v);
			if (cbArgs !== undefined) cb(null, ...cbArgs(r));
			else if (r === undefined) cb(null);
			else cb(null, r);
		});
	};
	Object.defineProperty(fs[name], 'name', { value: name });
	promises[name] = function (...args) {
		return new Promise(function (resolve, reject) {
			const [op, nargs, finish] = prep(...args);
			N.async(op, nargs, function (err, v) {
				if (err !== null) reject(err); else resolve((finish || identity)(v));
			});
		});
	};
	Object.defineProperty(promises[name], 'name', { value: name });
}

fs.existsSync = function existsSync(path) {
	try { return N.sync('exists', [toPath(path)]); } catch (e) { return false; }
};
fs.exists = function exists(path, cb) {
	let p;
	try { p = toPath(path); } catch (e) { globalThis.process.nextTick(cb, false); return; }
	N.async('exists', [p], function (err, v) { cb(err === null && v); });
};
Object.defineProperty(fs.exists, Symbol.for('nodejs.util.promisify.custom'), {
	value: function exists(path) { return new Promise(function (resolve) { fs.exists(path, resolve); }); },
});

// fs.promises.open gives a FileHandle; the other promise forms take paths.
class FileHandle {
	constructor(fd) { this.fd = fd; }
	read(buffer, offset, length, position) {
		const fd = this.fd;
		return new Promise(function (resolve, reject) {
			const [op, nargs] = ops.read(fd, buffer === undefined ? Buffer.alloc(16384) : buffer, offset, length, position);
			const buf = buffer === undefined ? undefined : buffer;
			N.async(op, nargs, function (err, n) {
				if (err !== null) reject(err); else resolve({ bytesRead: n, buffer: buf !== undefined && ArrayBuffer.isView(buf) ? buf : nargs[1] });
			});
		});
	}
	write(data, a, b, c) {
		const fd = this.fd;
		return new Promise(function (resolve, reject) {
			const [op, nargs] = ops.write(fd, data, a, b, c);
			N.async(op, nargs, function (err, n) {
				if (err !== null) reject(err); else resolve({ bytesWritten: n, buffer: data });
			});
		});
	}
	readFile(options) { return promises.readFile(this.fd, options); }
	writeFile(data, options) { return promises.writeFile(this.fd, data, options); }
	appendFile(data, options) { return promises.appendFile(this.fd, data, options); }
	stat(options) { return fdPromises.fstat(this.fd, options); }
	truncate(len) { return fdPromises.ftruncate(this.fd, len); }
	sync() { return fdPromises.fsync(this.fd); }
	datasync() { return fdPromises.fsync(this.fd); }
	close() { const fd = this.fd; this.fd = -1; return fdPromises.close(fd); }
	[Symbol.asyncDispose || Symbol.for('nodejs.asyncDispose')]() { return this.close(); }
}
const openFd = promises.open;
promises.open = function open(path, flags, mode) {
	return openFd(path, flags, mode).then(function (fd) { return new FileHandle(fd); });
};
// the descriptor forms are FileHandle methods, not fs.promises functions
const fdPromises = {};
for (const k of ['close', 'read', 'write', 'fstat', 'ftruncate', 'fsync', 'fdatasync']) {
	fdPromises[k] = promises[k];
	delete promises[k];
}

const constants = Object.freeze({
	F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
	O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_SYNC: 1052672,
	S_IFMT: S_IFMT, S_IFREG: S_IFREG, S_IFDIR: S_IFDIR, S_IFLNK: S_IFLNK, S_IFIFO: S_IFIFO, S_IFSOCK: S_IFSOCK,
	S_IFCHR: S_IFCHR, S_IFBLK: S_IFBLK,
});
promises.constants = constants;
Object.assign(fs, constants);
fs.constants = constants;
fs.Stats = Stats;
fs.Dirent = Dirent;
fs.promises = promises;

const notSupported = function (name) {
	return function () { throw new Error('jsworker: fs.' + name + ' is not supported'); };
};
for (const name of ['createReadStream', 'createWriteStream', 'watch', 'watchFile', 'unwatchFile', 'opendir',
	'opendirSync', 'chown', 'chownSync', 'lchown', 'lchownSync', 'fchown', 'fchownSync', 'cp', 'cpSync',
	'readv', 'readvSync', 'writev', 'writevSync', 'statfs', 'statfsSync', 'openAsBlob', 'glob', 'globSync']) {
	fs[name] = notSupported(name);
}
for (const name of ['opendir', 'watch', 'chown', 'lchown', 'cp', 'statfs', 'glob']) promises[name] = notSupported('promises.' + name);
return fs;
})
