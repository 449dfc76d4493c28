// queueMicrotask: the callback runs as a promise job, and what it throws is reported as an uncaught exception (as
// in browsers and Node), not as a rejection.
(function (report) {
	return function queueMicrotask(callback) {
		if (typeof callback !== "function") {
			throw new TypeError("queueMicrotask: the callback must be a function");
		}
		Promise.resolve().then(function () {
			try { callback(); } catch (e) { report(e); }
		});
	};
})
