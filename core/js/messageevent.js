// The prototype of every MessageEvent the worker global dispatches (core/events.go): the constant fields live
// here, each event only owns type and data. Made with the realm's first event; freeze is Object.freeze as it was
// when the realm was set up.
(function (target, freeze) {
	return {
		origin: "", lastEventId: "", source: null, ports: freeze([]),
		target: target, currentTarget: target, srcElement: target,
		bubbles: false, cancelable: false, composed: false,
		defaultPrevented: false, eventPhase: 2, isTrusted: true,
		preventDefault: function () {}, stopPropagation: function () {},
		stopImmediatePropagation: function () {},
	};
})
