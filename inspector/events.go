package inspector

import (
	"time"

	"github.com/dop251/goja"
)

type consoleAPICalledParams struct {
	Type               string          `json:"type"`
	Args               []*remoteObject `json:"args"`
	ExecutionContextID int             `json:"executionContextId"`
	Timestamp          float64         `json:"timestamp"`
}

type exceptionThrownParams struct {
	Timestamp        float64          `json:"timestamp"`
	ExceptionDetails exceptionDetails `json:"exceptionDetails"`
}

// consoleTypes maps console method names to CDP's ConsoleAPICalled type.
var consoleTypes = map[string]string{
	"log":            "log",
	"info":           "info",
	"debug":          "debug",
	"warn":           "warning",
	"error":          "error",
	"dir":            "dir",
	"dirxml":         "dirxml",
	"table":          "table",
	"trace":          "trace",
	"clear":          "clear",
	"group":          "startGroup",
	"groupCollapsed": "startGroupCollapsed",
	"groupEnd":       "endGroup",
	"assert":         "assert",
	"profile":        "profile",
	"profileEnd":     "profileEnd",
	"count":          "count",
	"timeEnd":        "timeEnd",
}

// timestamp is CDP's Runtime.Timestamp: milliseconds since the epoch.
func timestamp() float64 {
	return float64(time.Now().UnixMicro()) / 1e3
}

// ConsoleAPICalled reports a console call of the realm: level is the console
// method ("log", "warn", "table", "group" …, reported with CDP's type for it;
// methods CDP has no type for are reported as "log") and args its arguments. Called by the target's owner on the target's
// thread. It queues Runtime.consoleAPICalled only while Runtime is enabled;
// objects among args are held in the "console" object group.
func (s *Session) ConsoleAPICalled(rt *goja.Runtime, level string, args []goja.Value) {
	if !s.isEnabled() {
		return
	}
	c := &call{s: s, rt: rt}
	defer func() { _ = recover() }() // an event that cannot be built is not sent
	typ, ok := consoleTypes[level]
	if !ok {
		typ = "log"
	}
	params := consoleAPICalledParams{Type: typ, Args: make([]*remoteObject, len(args)), ExecutionContextID: s.ctx.ID}
	for i, a := range args {
		params.Args[i] = c.remote(a, consoleGroup)
	}
	params.Timestamp = timestamp()
	s.emit(encodeEvent(evConsoleAPICalled, params))
}

// ExceptionThrown reports an uncaught exception of the realm: thrown is the
// value, text a summary (V8 uses "Uncaught"), url the script's name, line and
// column the 1-based position where it was thrown (0 when unknown). Called by
// the target's owner on the target's thread. It queues Runtime.exceptionThrown,
// with 0-based positions, only while Runtime is enabled; the exception object
// is held in the "console" object group.
func (s *Session) ExceptionThrown(rt *goja.Runtime, thrown goja.Value, text string, url string, line, column int) {
	if !s.isEnabled() {
		return
	}
	c := &call{s: s, rt: rt}
	defer func() { _ = recover() }()
	d := exceptionDetails{
		ExceptionID:        s.nextExceptionID(),
		Text:               text,
		LineNumber:         max(line-1, 0),
		ColumnNumber:       max(column-1, 0),
		URL:                url,
		Exception:          c.remote(thrown, consoleGroup),
		ExecutionContextID: s.ctx.ID,
	}
	s.emit(encodeEvent(evExceptionThrown, exceptionThrownParams{Timestamp: timestamp(), ExceptionDetails: d}))
}
