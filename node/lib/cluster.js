// cluster (node/builtins.go): jsworker runs one process, the primary: isPrimary is true and there are no cluster
// workers. fork, setupPrimary and the other ways of making worker processes throw an error naming them (use
// worker_threads).
(function (N, require, core) {
'use strict';
const EventEmitter = require('events');
const cluster = new EventEmitter();
const notSupported = function (name) {
	return function () { throw new Error('jsworker: cluster.' + name + ' is not supported (jsworker runs one process: use worker_threads)'); };
};
cluster.isPrimary = true;
cluster.isMaster = true;
cluster.isWorker = false;
cluster.workers = {};
cluster.settings = {};
cluster.SCHED_NONE = 1;
cluster.SCHED_RR = 2;
cluster.schedulingPolicy = 2;
cluster.fork = notSupported('fork');
cluster.setupPrimary = notSupported('setupPrimary');
cluster.setupMaster = notSupported('setupMaster');
cluster.disconnect = function disconnect(cb) { if (typeof cb === 'function') globalThis.process.nextTick(cb); };
cluster.Worker = notSupported('Worker');
return cluster;
})
