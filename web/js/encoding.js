// TextEncoder and TextDecoder: thin classes over the Go functions of web/text.go that do the byte work.
(function (encode, encodeInto, newDecoder) {
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
			this.#fatal = !!(options && options.fatal);
			this.#ignoreBOM = !!(options && options.ignoreBOM);
			const d = newDecoder(String(label), this.#fatal, this.#ignoreBOM); // throws RangeError for an unknown label
			this.#encoding = d.encoding;
			this.#decode = d.decode;
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
