// tty (node/tty.go): isatty over the real descriptors. ReadStream and WriteStream are not provided (they throw an
// error naming them): jsworker has no stream module.
(function (N, require, core) {
'use strict';
const notSupported = function (name) {
	return function () { throw new Error('jsworker: tty.' + name + ' is not supported'); };
};
return {
	isatty(fd) { return Number.isInteger(fd) && fd >= 0 && fd <= 2147483647 && N.isatty(fd); },
	ReadStream: notSupported('ReadStream'),
	WriteStream: notSupported('WriteStream'),
};
})
