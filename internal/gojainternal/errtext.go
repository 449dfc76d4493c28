package gojainternal

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// goja's error and stack text.

// stackFrame matches the position in a goja stack line: "at f
// (file:3:9(12))" or "at file:3:9(12)".
var stackFrame = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*at (?:.*? \()?(.+?):(\d+):(\d+)(?:\(\d+\))?\)?$`)
})

// FirstStackPosition returns the first position in stack, goja's
// Error.stack text (1-based line and column), whose file accept accepts, or
// ok=false. A nil accept accepts every file.
func FirstStackPosition(stack string, accept func(file string) bool) (file string, line, col int, ok bool) {
	for l := range strings.SplitSeq(stack, "\n") {
		m := stackFrame().FindStringSubmatch(l)
		if m == nil || (accept != nil && !accept(m[1])) {
			continue
		}
		line, _ = strconv.Atoi(m[2])
		col, _ = strconv.Atoi(m[3])
		return m[1], line, col, true
	}
	return "", 0, 0, false
}

// stackPC matches the program counter goja appends to a stack position
// ("file.js:3:9(5)").
var stackPC = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(:\d+:\d+)\(\d+\)`) })

// StripStackPC removes from stack text the program counters goja appends to
// positions ("file.js:3:9(5)" becomes "file.js:3:9"), which Node does not
// print.
func StripStackPC(stack string) string { return stackPC().ReplaceAllString(stack, "$1") }

// syntaxError matches goja's parser errors: "FILE: Line 2:9 Unexpected
// token ; (and 1 more errors)".
var syntaxError = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`: Line (\d+):(\d+) (.*?)(?: \(and \d+ more errors?\))?$`)
})

// SyntaxErrorPosition reads the position (1-based line and column) and the
// bare message out of the text of one of goja's parser errors, as found in
// goja.CompilerSyntaxError's Message and Error(): "FILE: Line 2:9 Unexpected
// token ; (and 1 more errors)" gives 2, 9, "Unexpected token ;". ok is false
// for text of another shape.
func SyntaxErrorPosition(text string) (line, col int, msg string, ok bool) {
	m := syntaxError().FindStringSubmatch(text)
	if m == nil {
		return 0, 0, "", false
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	return line, col, m[3], true
}
