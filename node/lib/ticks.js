// process.nextTick's queue (node/ticks.go), made with the realm's process (on first use: lib/process.js takes this
// nextTick), the only way to queue a tick. Drained after every callback of the loop (lib/tickrun.js's runCallback),
// before its promise jobs, and again after them while ticks are left. When the queue fills outside a loop
// callback (a preload's Setup), a microtask drains it instead. N holds the tick natives, bind (timers.js: run in the
// async context current when bound) and queueMicrotask (the realm's own as it
// began, made on first use: node/timers.go).
(function (N) {
'use strict';
const bindCtx = N.bind;
const ticks = [];
let tickHead = 0;
const runTicks = function runTicks() {
	while (tickHead < ticks.length) {
		const t = ticks[tickHead];
		ticks[tickHead++] = undefined;
		if (tickHead === ticks.length) { ticks.length = 0; tickHead = 0; }
		t.fn.apply(undefined, t.args);
	}
};
N.setTickRunner(runTicks); // the loop's runCallback (lib/tickrun.js) calls it after each callback
return function nextTick(fn, ...args) {
	if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function.');
	ticks.push({ fn: bindCtx(fn), args });
	if (ticks.length - tickHead === 1) {
		// N.ticksScheduled (node/ticks.go): 0, a RunCallback drains the queue; 1, a microtask; 2, a microtask moved
		// ahead of the promise jobs queued so far (the realm's first tick in an unwrapped callback).
		const how = N.ticksScheduled();
		if (how !== 0) {
			N.queueMicrotask(runTicks);
			if (how === 2) N.hoistTicks();
		}
	}
};
})
