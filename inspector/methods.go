package inspector

import (
	"slices"
	"strings"
)

// The implemented protocol surface. Methods and Events are the machine-readable
// list that Schema.getDomains and docs/inspector.md are built from; the tests
// fail if they and the dispatcher (handlers) or the emitted events disagree.
// Do not modify them.
var (
	Methods = []string{
		"Debugger.continueToLocation",
		"Debugger.disable",
		"Debugger.enable",
		"Debugger.evaluateOnCallFrame",
		"Debugger.getPossibleBreakpoints",
		"Debugger.getScriptSource",
		"Debugger.pause",
		"Debugger.removeBreakpoint",
		"Debugger.restartFrame",
		"Debugger.resume",
		"Debugger.setAsyncCallStackDepth",
		"Debugger.setBlackboxPatterns",
		"Debugger.setBlackboxedRanges",
		"Debugger.setBreakpoint",
		"Debugger.setBreakpointByUrl",
		"Debugger.setBreakpointsActive",
		"Debugger.setPauseOnExceptions",
		"Debugger.setSkipAllPauses",
		"Debugger.setVariableValue",
		"Debugger.stepInto",
		"Debugger.stepOut",
		"Debugger.stepOver",
		"HeapProfiler.addInspectedHeapObject",
		"HeapProfiler.collectGarbage",
		"HeapProfiler.disable",
		"HeapProfiler.enable",
		"HeapProfiler.getHeapObjectId",
		"HeapProfiler.getObjectByHeapObjectId",
		"HeapProfiler.getSamplingProfile",
		"HeapProfiler.startSampling",
		"HeapProfiler.startTrackingHeapObjects",
		"HeapProfiler.stopSampling",
		"HeapProfiler.stopTrackingHeapObjects",
		"HeapProfiler.takeHeapSnapshot",
		"Profiler.disable",
		"Profiler.enable",
		"Profiler.getBestEffortCoverage",
		"Profiler.setSamplingInterval",
		"Profiler.start",
		"Profiler.startPreciseCoverage",
		"Profiler.stop",
		"Profiler.stopPreciseCoverage",
		"Profiler.takePreciseCoverage",
		"Runtime.callFunctionOn",
		"Runtime.compileScript",
		"Runtime.disable",
		"Runtime.discardConsoleEntries",
		"Runtime.enable",
		"Runtime.evaluate",
		"Runtime.getHeapUsage",
		"Runtime.getIsolateId",
		"Runtime.getProperties",
		"Runtime.globalLexicalScopeNames",
		"Runtime.releaseObject",
		"Runtime.releaseObjectGroup",
		"Runtime.runIfWaitingForDebugger",
		"Runtime.runScript",
		"Schema.getDomains",
	}
	Events = []string{
		"Debugger.breakpointResolved",
		"Debugger.paused",
		"Debugger.resumed",
		"Debugger.scriptParsed",
		"HeapProfiler.addHeapSnapshotChunk",
		"HeapProfiler.reportHeapSnapshotProgress",
		"Inspector.detached",
		"Runtime.consoleAPICalled",
		"Runtime.exceptionThrown",
		"Runtime.executionContextCreated",
		"Runtime.executionContextDestroyed",
		"Runtime.executionContextsCleared",
	}
)

// Event names, as emitted.
const (
	evBreakpointResolved = "Debugger.breakpointResolved"
	evPaused             = "Debugger.paused"
	evResumed            = "Debugger.resumed"
	evScriptParsed       = "Debugger.scriptParsed"
	evHeapChunk          = "HeapProfiler.addHeapSnapshotChunk"
	evHeapProgress       = "HeapProfiler.reportHeapSnapshotProgress"
	evDetached           = "Inspector.detached"
	evConsoleAPICalled   = "Runtime.consoleAPICalled"
	evExceptionThrown    = "Runtime.exceptionThrown"
	evContextCreated     = "Runtime.executionContextCreated"
	evContextDestroyed   = "Runtime.executionContextDestroyed"
	evContextsCleared    = "Runtime.executionContextsCleared"
)

// A handler runs one command on the target's thread. It answers through
// call.reply or call.fail, now or later (awaitPromise).
type handler func(c *call)

// handlers is the dispatcher: CDP method name -> implementation.
var handlers = map[string]handler{
	"Debugger.continueToLocation":           continueToLocation,
	"HeapProfiler.addInspectedHeapObject":   addInspectedHeapObject,
	"HeapProfiler.collectGarbage":           collectGarbage,
	"HeapProfiler.disable":                  heapProfilerDisable,
	"HeapProfiler.enable":                   heapProfilerEnable,
	"HeapProfiler.getHeapObjectId":          getHeapObjectID,
	"HeapProfiler.getObjectByHeapObjectId":  getObjectByHeapObjectID,
	"HeapProfiler.getSamplingProfile":       noAllocationHooks,
	"HeapProfiler.startSampling":            noAllocationHooks,
	"HeapProfiler.startTrackingHeapObjects": noAllocationHooks,
	"HeapProfiler.stopSampling":             noAllocationHooks,
	"HeapProfiler.stopTrackingHeapObjects":  noAllocationHooks,
	"HeapProfiler.takeHeapSnapshot":         takeHeapSnapshot,
	"Debugger.setAsyncCallStackDepth":       setAsyncCallStackDepth,
	"Debugger.setBlackboxPatterns":          setBlackboxPatterns,
	"Debugger.setBlackboxedRanges":          setBlackboxedRanges,
	"Profiler.disable":                      profilerDisable,
	"Profiler.enable":                       profilerEnable,
	"Profiler.setSamplingInterval":          setSamplingInterval,
	"Profiler.start":                        profilerStart,
	"Profiler.stop":                         profilerStop,
	"Profiler.getBestEffortCoverage":        noCoverage,
	"Profiler.startPreciseCoverage":         noCoverage,
	"Profiler.stopPreciseCoverage":          noCoverage,
	"Profiler.takePreciseCoverage":          noCoverage,
	"Debugger.restartFrame":                 restartFrame,
	"Runtime.compileScript":                 compileScript,
	"Runtime.getHeapUsage":                  getHeapUsage,
	"Runtime.getIsolateId":                  getIsolateID,
	"Runtime.globalLexicalScopeNames":       globalLexicalScopeNames,
	"Runtime.runScript":                     runScript,
	"Debugger.disable":                      debuggerDisable,
	"Debugger.enable":                       debuggerEnable,
	"Debugger.evaluateOnCallFrame":          evaluateOnCallFrame,
	"Debugger.setVariableValue":             setVariableValue,
	"Debugger.getPossibleBreakpoints":       getPossibleBreakpoints,
	"Debugger.getScriptSource":              getScriptSource,
	"Debugger.pause":                        debuggerPause,
	"Debugger.removeBreakpoint":             removeBreakpoint,
	"Debugger.resume":                       stepper(stepNone),
	"Debugger.setBreakpoint":                setBreakpoint,
	"Debugger.setBreakpointByUrl":           setBreakpointByURL,
	"Debugger.setPauseOnExceptions":         setPauseOnExceptions,
	"Debugger.setBreakpointsActive":         setBreakpointsActive,
	"Debugger.setSkipAllPauses":             setSkipAllPauses,
	"Debugger.stepInto":                     stepper(stepInto),
	"Debugger.stepOut":                      stepper(stepOut),
	"Debugger.stepOver":                     stepper(stepOver),
	"Runtime.callFunctionOn":                callFunctionOn,
	"Runtime.disable":                       runtimeDisable,
	"Runtime.discardConsoleEntries":         discardConsoleEntries,
	"Runtime.enable":                        runtimeEnable,
	"Runtime.evaluate":                      evaluate,
	"Runtime.getProperties":                 getProperties,
	"Runtime.releaseObject":                 releaseObject,
	"Runtime.releaseObjectGroup":            releaseObjectGroup,
	"Runtime.runIfWaitingForDebugger":       runIfWaitingForDebugger,
	"Schema.getDomains":                     getDomains,
}

// protocolVersion is the version Schema.getDomains reports for each domain,
// the one Chrome reports for its stable domains.
const protocolVersion = "1.3"

type domain struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// domains lists the domains with an implemented method or event, sorted.
func domains() []domain {
	var names []string
	for _, m := range slices.Concat(Methods, Events) {
		name, _, _ := strings.Cut(m, ".")
		names = append(names, name)
	}
	slices.Sort(names)
	var out []domain
	for _, name := range slices.Compact(names) {
		out = append(out, domain{Name: name, Version: protocolVersion})
	}
	return out
}

func getDomains(c *call) {
	c.reply(struct {
		Domains []domain `json:"domains"`
	}{domains()})
}
