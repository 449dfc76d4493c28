package inspector

// Commands of features goja cannot give: the DevTools front end sends them, so
// they answer -32000 with the reason rather than -32601 "wasn't found" (which
// reads as a bug of ours).

// msgNoRestartFrame: goja's frames cannot be unwound and re-entered.
const msgNoRestartFrame = "Debugger.restartFrame is not supported: goja cannot rewind a running call frame"

// msgNoCoverage: the instrumented statement hooks count no executions.
const msgNoCoverage = "precise coverage is not available in this runtime: record a CPU profile (Profiler.start) instead"

func restartFrame(c *call) { c.failServer(msgNoRestartFrame) }

func noCoverage(c *call) { c.failServer(msgNoCoverage) }
