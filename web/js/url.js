// URL as a subclass of goja_nodejs's that resolves a relative reference against its base first (web/url.go).
(function (NodeURL, resolve) {
	return class URL extends NodeURL {
		constructor(input, base) {
			if (base === undefined) { super(input); return; }
			const abs = resolve(String(input), String(base));
			if (abs === null) { super(input, base); return; } // goja_nodejs throws its ERR_INVALID_URL
			super(abs);
		}
	};
})
