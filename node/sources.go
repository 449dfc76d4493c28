package node

import (
	_ "embed"

	"github.com/jsworker/jsworker/internal/jsutil"
)

// The built-in modules written in JavaScript alone (no Go natives); each is compiled once per process on first
// require. Modules with natives declare their source next to them (os.go, util.go, buffer.go, …).

var (
	//go:embed lib/events.js
	eventsJS string
	//go:embed lib/path.js
	pathJS string
	//go:embed lib/assert.js
	assertJS string
	//go:embed lib/string_decoder.js
	stringDecoderJS string
	//go:embed lib/querystring.js
	querystringJS string
	//go:embed lib/timers_module.js
	timersModJS string
	//go:embed lib/perf_hooks.js
	perfHooksJS string
	//go:embed lib/globals.js
	globalsJS string
	//go:embed lib/url.js
	urlJS string
	//go:embed lib/cluster.js
	clusterJS string
	//go:embed lib/comparisons.js
	comparisonsJS string
)

var (
	eventsSource        = jsutil.NewSource("node:events", eventsJS)
	pathSource          = jsutil.NewSource("node:path", pathJS)
	assertSource        = jsutil.NewSource("node:assert", assertJS)
	stringDecoderSource = jsutil.NewSource("node:string_decoder", stringDecoderJS)
	querystringSource   = jsutil.NewSource("node:querystring", querystringJS)
	timersModSource     = jsutil.NewSource("node:timers", timersModJS)
	perfHooksSource     = jsutil.NewSource("node:perf_hooks", perfHooksJS)
	globalsSource       = jsutil.NewSource("node:internal/globals", globalsJS)
	urlSource           = jsutil.NewSource("node:url", urlJS)
	clusterSource       = jsutil.NewSource("node:cluster", clusterJS)
	comparisonsSource   = jsutil.NewSource("node:internal/comparisons", comparisonsJS)
)
