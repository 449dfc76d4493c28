// Package stackpos reads source positions out of goja's Error.stack text,
// for the places that need the position an error was raised at: core's
// error records and the debugger's exception pauses.
package stackpos

import (
	"regexp"
	"strconv"
	"strings"
)

// frame matches the position in a goja stack line: "at f (file:3:9(12))" or
// "at file:3:9(12)".
var frame = regexp.MustCompile(`^\s*at (?:.*? \()?(.+?):(\d+):(\d+)(?:\(\d+\))?\)?$`)

// First returns the first position in stack (1-based line and column) whose
// file accept accepts, or ok=false. A nil accept accepts every file.
func First(stack string, accept func(file string) bool) (file string, line, col int, ok bool) {
	for _, l := range strings.Split(stack, "\n") {
		m := frame.FindStringSubmatch(l)
		if m == nil || (accept != nil && !accept(m[1])) {
			continue
		}
		line, _ = strconv.Atoi(m[2])
		col, _ = strconv.Atoi(m[3])
		return m[1], line, col, true
	}
	return "", 0, 0, false
}

// goPC matches the program counter goja appends to a stack position ("file.js:3:9(5)"), which Node does not print.
var goPC = regexp.MustCompile(`(:\d+:\d+)\(\d+\)`)

// NodeStyle rewrites a goja stack the way Node prints one: frames indented by four spaces, no program counters.
func NodeStyle(stack string) string {
	return goPC.ReplaceAllString(strings.ReplaceAll(stack, "\tat ", "    at "), "$1")
}
