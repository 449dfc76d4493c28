// The prototype of every MessageEvent the worker global dispatches (core/events.go): the constant fields live
// here, each event only owns type and data.
(function (target) {
	return {
		origin: "", lastEventId: "", source: null, ports: Object.freeze([]),
		target: target, currentTarget: target, srcElement: target,
		bubbles: false, cancelable: false, composed: false,
		defaultPrevented: false, eventPhase: 2, isTrusted: true,
		preventDefault: function () {}, stopPropagation: function () {},
		stopImmediatePropagation: function () {},
	};
})
