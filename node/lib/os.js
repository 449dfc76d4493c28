// os (node/os.go): Node's os module over the Go runtime and /proc.
(function (N, require, core) {
'use strict';
const u = N.uname();
const constants = Object.freeze({
	signals: Object.freeze({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGBUS: 7, SIGFPE: 8,
		SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17,
		SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20 }),
	errno: Object.freeze({ ENOENT: 2, EACCES: 13, EEXIST: 17, ENOTDIR: 20, EISDIR: 21, EINVAL: 22, ENOTEMPTY: 39 }),
	priority: Object.freeze({ PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0,
		PRIORITY_ABOVE_NORMAL: -7, PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20 }),
});
const notSupported = function (name) {
	return function () { throw new Error('jsworker: os.' + name + ' is not supported'); };
};
return {
	EOL: '\n',
	devNull: '/dev/null',
	constants: constants,
	availableParallelism() { return N.numCPU(); },
	cpus() { return N.cpus(); },
	arch() { return globalThis.process.arch; },
	platform() { return globalThis.process.platform; },
	type() { return u[0] === 'Linux' ? 'Linux' : u[0]; },
	release() { return u[1]; },
	version() { return u[2]; },
	machine() { return u[3]; },
	endianness() { return 'LE'; },
	tmpdir() { return N.tmpdir(); },
	homedir() { return N.homedir(); },
	hostname() { return N.hostname(); },
	totalmem() { return N.meminfo()[0]; },
	freemem() { return N.meminfo()[1]; },
	loadavg() { return N.loadavg(); },
	uptime() { return N.uptime(); },
	userInfo() { return N.userInfo(); },
	networkInterfaces: notSupported('networkInterfaces'),
	getPriority: notSupported('getPriority'),
	setPriority: notSupported('setPriority'),
};
})
