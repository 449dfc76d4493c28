// allocguard.js: refuses single allocation requests too large to satisfy with a catchable RangeError, before goja
// makes them (goja would ask Go for the memory, and Go aborts the process when it cannot have it). Evaluates to a
// factory called once per realm with the largest buffer in bytes the realm may ask for (core/allocguard.go).
(function (maxBytes) {
	'use strict';
	var MAX_STRING = 536870888; // 2**29 - 24 code units, V8's limit
	var maxElements = Math.floor(maxBytes / 16); // a dense array slot is an interface value
	var apply = Reflect.apply, construct = Reflect.construct, defineProperty = Object.defineProperty;
	var RangeErr = RangeError, Str = String, Obj = Object, Num = Number, MathTrunc = Math.trunc;
	var isView = ArrayBuffer.isView;
	var AB = ArrayBuffer, SAB = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : null;
	// brand checks: the byteLength getters throw for anything but a genuine buffer (instanceof only reads prototypes)
	var abLength = Obj.getOwnPropertyDescriptor(AB.prototype, 'byteLength').get;
	var sabLength = SAB !== null ? Obj.getOwnPropertyDescriptor(SAB.prototype, 'byteLength').get : null;
	function isBuffer(a, getter) {
		if (getter === null) return false;
		try { apply(getter, a, []); return true; } catch (e) { return false; }
	}

	function toInteger(v) {
		var n = Num(v);
		return n !== n ? 0 : MathTrunc(n);
	}
	function replaceMethod(obj, name, fn) {
		defineProperty(obj, name, {value: fn, writable: true, enumerable: false, configurable: true});
	}
	// guardCtor replaces the global constructor name by a function that runs check(args) and then constructs the
	// original with the same new.target. It takes over the original's prototype object, static properties, name,
	// length and [[Prototype]], and the prototype's constructor points at it, so that instanceof, subclassing and
	// identity behave as a script expects. (goja's instanceof does not accept a Proxy, so a proxy would not do.)
	function guardCtor(g, name, check) {
		var target = g[name];
		if (typeof target !== 'function') return;
		var wrapper = function () {
			if (new.target === undefined) return apply(target, this, arguments); // throws the original TypeError
			check(arguments);
			return construct(target, arguments, new.target === wrapper ? target : new.target);
		};
		var keys = Reflect.ownKeys(target);
		for (var i = 0; i < keys.length; i++) {
			var d = Obj.getOwnPropertyDescriptor(target, keys[i]);
			defineProperty(wrapper, keys[i], d);
		}
		Obj.setPrototypeOf(wrapper, Obj.getPrototypeOf(target));
		defineProperty(target.prototype, 'constructor', {value: wrapper, writable: true, enumerable: false, configurable: true});
		defineProperty(g, name, {value: wrapper, writable: true, enumerable: false, configurable: true});
	}
	function bufferCheck(args) {
		if (args.length > 0 && toInteger(args[0]) > maxBytes) throw new RangeErr('Array buffer allocation failed');
	}

	return function install(g) {
		guardCtor(g, 'ArrayBuffer', bufferCheck);
		if (SAB !== null) guardCtor(g, 'SharedArrayBuffer', bufferCheck);
		['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
			'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'].forEach(function (name) {
			var ctor = g[name];
			if (typeof ctor !== 'function') return;
			var size = ctor.BYTES_PER_ELEMENT;
			guardCtor(g, name, function (args) {
				var a = args[0], n;
				if (typeof a === 'object' && a !== null) {
					if (isView(a) || isBuffer(a, abLength) || isBuffer(a, sabLength)) return;
					n = toInteger(a.length);
				} else if (args.length > 0) {
					n = toInteger(a);
				} else {
					return;
				}
				if (n * size > maxBytes) throw new RangeErr('Invalid typed array length: ' + n);
			});
		});

		var repeat = Str.prototype.repeat, padStart = Str.prototype.padStart, padEnd = Str.prototype.padEnd;
		replaceMethod(Str.prototype, 'repeat', {repeat: function (count) {
			if (this === null || this === undefined) return apply(repeat, this, [count]);
			var s = Str(this), n = toInteger(count);
			if (s.length > 0 && n !== Infinity && n * s.length > MAX_STRING) throw new RangeErr('Invalid string length');
			return apply(repeat, s, [n]);
		}}.repeat);
		function pad(orig) {
			return function (maxLength, fillString) {
				if (this === null || this === undefined) return apply(orig, this, [maxLength, fillString]);
				var s = Str(this), n = toInteger(maxLength);
				var fill = fillString === undefined ? ' ' : Str(fillString);
				if (n > MAX_STRING && n > s.length && fill !== '') throw new RangeErr('Invalid string length');
				return apply(orig, s, [n, fill]);
			};
		}
		replaceMethod(Str.prototype, 'padStart', {padStart: function (maxLength, fillString) {
			return apply(padStartGuard, this, [maxLength, fillString]);
		}}.padStart);
		replaceMethod(Str.prototype, 'padEnd', {padEnd: function (maxLength, fillString) {
			return apply(padEndGuard, this, [maxLength, fillString]);
		}}.padEnd);
		var padStartGuard = pad(padStart), padEndGuard = pad(padEnd);

		var join = Array.prototype.join, fill = Array.prototype.fill;
		replaceMethod(Array.prototype, 'join', {join: function (separator) {
			var o = Obj(this), len = toInteger(o.length);
			var sep = separator === undefined ? ',' : Str(separator);
			if (len > 1 && (len - 1) * sep.length > MAX_STRING) throw new RangeErr('Invalid string length');
			return apply(join, o, [sep]);
		}}.join);
		replaceMethod(Array.prototype, 'fill', {fill: function (value, start, end) {
			var o = Obj(this), len = toInteger(o.length);
			var s = toInteger(start), e = end === undefined ? len : toInteger(end);
			s = s < 0 ? Math.max(len + s, 0) : Math.min(s, len);
			e = e < 0 ? Math.max(len + e, 0) : Math.min(e, len);
			if (e - s > maxElements) throw new RangeErr('Invalid array length');
			return apply(fill, o, [value, s, e]);
		}}.fill);

		// Argument lists and array results goja makes at once (allocguard_lists.go).
		var MAX_ARGS = 1048576, MAX_LIST = 134217728;
		function toLength(v) {
			var n = toInteger(v);
			return n < 0 ? 0 : Math.min(n, 9007199254740991);
		}
		function checkList(list) {
			var n = toLength(list.length);
			if (n > MAX_LIST) throw new RangeErr('Invalid array length');
			if (n > MAX_ARGS) throw new RangeErr('Maximum call stack size exceeded');
			if (Array.isArray(list)) return list;
			var copy = [];
			for (var i = 0; i < n; i++) copy[i] = list[i];
			return copy;
		}
		function isObject(v) {
			return (typeof v === 'object' && v !== null) || typeof v === 'function';
		}
		var fnApply = Function.prototype.apply;
		replaceMethod(Function.prototype, 'apply', {apply: function (thisArg, argArray) {
			if (typeof this !== 'function' || argArray === null || argArray === undefined || !isObject(argArray)) {
				return apply(fnApply, this, arguments);
			}
			return apply(this, thisArg, checkList(argArray));
		}}.apply);
		var R = g.Reflect;
		if (isObject(R)) {
			var rApply = R.apply, rConstruct = R.construct;
			replaceMethod(R, 'apply', {apply: function (target, thisArg, list) {
				if (typeof target !== 'function' || !isObject(list)) return apply(rApply, R, arguments);
				return apply(target, thisArg, checkList(list));
			}}.apply);
			replaceMethod(R, 'construct', {construct: function (target, list) {
				var newTarget = arguments.length > 2 ? arguments[2] : target;
				if (typeof target !== 'function' || typeof newTarget !== 'function' || !isObject(list)) {
					return apply(rConstruct, R, arguments);
				}
				return construct(target, checkList(list), newTarget);
			}}.construct);
		}
		function guardResult(name, callback, extra) {
			var orig = Array.prototype[name];
			if (typeof orig !== 'function') return;
			var holder = {};
			holder[name] = function () {
				if (this === null || this === undefined) return apply(orig, this, arguments);
				var f = arguments[0];
				if (callback !== 0 && typeof f !== 'function' && !(callback === 1 && f === undefined)) {
					return apply(orig, this, arguments);
				}
				var o = Obj(this), n = toLength(o.length) + (extra ? Math.max(arguments.length - 2, 0) : 0);
				if (n > maxElements) throw new RangeErr('Invalid array length');
				return apply(orig, o, arguments);
			};
			replaceMethod(Array.prototype, name, holder[name]);
		}
		guardResult('sort', 1);
		guardResult('toSorted', 1);
		guardResult('map', 2);
		guardResult('toReversed', 0);
		guardResult('with', 0);
		guardResult('toSpliced', 0, true);
	};
})
