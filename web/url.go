package web

import (
	_ "embed"
	neturl "net/url"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/url"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// The WHATWG URL API in every realm: URL and URLSearchParams as globals (as in browsers and Node), and
// require('url') / import from 'node:url' in Node-style realms and module workers. The implementation is
// goja_nodejs's url module. The globals are lazy accessors, like the worker globals: a realm that never uses them
// pays two accessor properties, not the constructors.

// urlKey keeps a realm's url module exports once made.
var urlKey = realmdata.NewKey[*goja.Object]("web.url")

//go:embed js/url.js
var urlJS string

// urlSource makes the URL subclass that resolves relative references correctly.
var urlSource = jsutil.NewSource("jsworker:url", urlJS)

// URLExports returns rt's url module exports ({URL, URLSearchParams, domainToASCII, domainToUnicode}), made on
// first use.
func URLExports(rt *goja.Runtime) *goja.Object {
	if o, ok := urlKey.Get(rt); ok {
		return o
	}
	module := rt.NewObject()
	exports := rt.NewObject()
	_ = module.Set("exports", exports)
	url.Require(rt, module)
	// goja_nodejs resolves a relative reference against a base wrongly (it makes "./x" absolute first:
	// new URL("./w.js", "file:///app/main.js") gives file:///w.js), so URL is a subclass that resolves the pair
	// with net/url first, as the WHATWG algorithm does for these cases, and hands the constructor one absolute URL.
	if sub, err := urlSource.Call(rt, exports.Get("URL"), rt.ToValue(resolveURL)); err == nil {
		_ = exports.Set("URL", sub)
	}
	urlKey.Set(rt, exports)
	return exports
}

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
		if err := jsutil.DefineLazyGlobal(rt, name, func() goja.Value { return URLExports(rt).Get(name) }); err != nil {
			return err
		}
	}
	return nil
}
