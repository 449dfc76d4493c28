package core

import (
	neturl "net/url"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/url"
)

// The WHATWG URL API in every realm: URL and URLSearchParams as globals (as in browsers and Node), and
// require('url') / import from 'node:url' in Node-style realms and module workers. The implementation is
// goja_nodejs's url module. The globals are lazy accessors, like the worker globals: a realm that never uses them
// pays two accessor properties, not the constructors.

// urlKey is the private symbol under which a realm keeps its url module exports once made.
var urlKey = goja.NewSymbol("jsworker.core.url")

// urlExports returns rt's url module exports ({URL, URLSearchParams, domainToASCII, domainToUnicode}), made on
// first use.
func urlExports(rt *goja.Runtime) *goja.Object {
	g := rt.GlobalObject()
	if v := g.GetSymbol(urlKey); v != nil {
		if o, ok := v.(*goja.Object); ok {
			return o
		}
	}
	module := rt.NewObject()
	exports := rt.NewObject()
	_ = module.Set("exports", exports)
	url.Require(rt, module)
	// goja_nodejs resolves a relative reference against a base wrongly (it makes "./x" absolute first:
	// new URL("./w.js", "file:///app/main.js") gives file:///w.js), so URL is a subclass that resolves the pair
	// with net/url first, as the WHATWG algorithm does for these cases, and hands the constructor one absolute URL.
	if f, err := rt.RunProgram(urlSubclass()); err == nil {
		if mk, ok := goja.AssertFunction(f); ok {
			if sub, err := mk(goja.Undefined(), exports.Get("URL"), rt.ToValue(resolveURL)); err == nil {
				_ = exports.Set("URL", sub)
			}
		}
	}
	_ = g.DefineDataPropertySymbol(urlKey, exports, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	return exports
}

var urlSubclass = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("jsworker:url", `(function (NodeURL, resolve) {
	return class URL extends NodeURL {
		constructor(input, base) {
			if (base === undefined) { super(input); return; }
			const abs = resolve(String(input), String(base));
			if (abs === null) { super(input, base); return; } // goja_nodejs throws its ERR_INVALID_URL
			super(abs);
		}
	};
})`, true)
})

// resolveURL resolves ref against the absolute URL base, or returns null when base is not one (or ref does not
// parse), leaving the error to the constructor.
func resolveURL(ref, base string) any {
	b, err := neturl.Parse(base)
	if err != nil || !b.IsAbs() {
		return nil
	}
	r, err := neturl.Parse(ref)
	if err != nil {
		return nil
	}
	return b.ResolveReference(r).String()
}

// installURLGlobals defines the lazy URL and URLSearchParams globals of rt.
func installURLGlobals(rt *goja.Runtime) error {
	for _, name := range []string{"URL", "URLSearchParams"} {
		if err := defineLazyGlobal(rt, name, func() goja.Value { return urlExports(rt).Get(name) }); err != nil {
			return err
		}
	}
	return nil
}
