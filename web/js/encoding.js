// TextEncoder and TextDecoder: thin classes over the Go functions of web/text.go that do the byte work.
(function (encode, encodeInto, newDecoder) {
	const labels = {
		"utf-8": "utf-8", "utf8": "utf-8", "unicode-1-1-utf-8": "utf-8", "unicode11utf8": "utf-8",
		"unicode20utf8": "utf-8", "x-unicode20utf8": "utf-8",
		"utf-16le": "utf-16le", "utf-16": "utf-16le", "ucs-2": "utf-16le", "unicode": "utf-16le",
		"csunicode": "utf-16le", "iso-10646-ucs-2": "utf-16le", "unicodefeff": "utf-16le",
	};
	class TextEncoder {
		get encoding() { return "utf-8"; }
		encode(input = "") { return encode(String(input)); }
		encodeInto(source, destination) {
			if (!(destination instanceof Uint8Array)) throw new TypeError("TextEncoder.encodeInto: the destination must be a Uint8Array");
			return encodeInto(String(source), destination);
		}
		get [Symbol.toStringTag]() { return "TextEncoder"; }
	}
	class TextDecoder {
		#encoding; #fatal; #ignoreBOM; #decode;
		constructor(label = "utf-8", options = {}) {
			const enc = labels[String(label).trim().toLowerCase()];
			if (enc === undefined) throw new RangeError('TextDecoder: the encoding "' + label + '" is not supported (utf-8 and utf-16le are)');
			this.#encoding = enc;
			this.#fatal = !!(options && options.fatal);
			this.#ignoreBOM = !!(options && options.ignoreBOM);
			this.#decode = newDecoder(enc, this.#fatal, this.#ignoreBOM);
		}
		get encoding() { return this.#encoding; }
		get fatal() { return this.#fatal; }
		get ignoreBOM() { return this.#ignoreBOM; }
		decode(input, options) {
			const stream = !!(options && options.stream);
			if (input !== undefined && !(input instanceof ArrayBuffer) && !ArrayBuffer.isView(input) &&
				!(typeof SharedArrayBuffer === "function" && input instanceof SharedArrayBuffer)) {
				throw new TypeError("TextDecoder.decode: the input must be an ArrayBuffer, a SharedArrayBuffer or a view of one");
			}
			return this.#decode(input, stream);
		}
		get [Symbol.toStringTag]() { return "TextDecoder"; }
	}
	return { TextEncoder, TextDecoder };
})
