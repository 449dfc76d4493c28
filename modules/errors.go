package modules

import (
	"errors"
	"fmt"
)

// ErrNotFound is what a Loader returns, wrapped or as is, when no module
// answers to a specifier.
var ErrNotFound = errors.New("module not found")

// An Error is a failure to load or link a module of a graph: a module not
// found, a loader error, a syntax error (top-level await included). It is
// located in original source coordinates.
type Error struct {
	// Name is the JavaScript error name the failure is reported with:
	// "SyntaxError" for a module that does not parse, "Error" otherwise.
	Name string
	// Message says what failed, without the position.
	Message string
	// Path is the module the error is in: the module with the syntax
	// error, or the importing module for one that was not found.
	Path string
	// Line and Column are 1-based (the column counts bytes of the line),
	// 0 when unknown: the syntax error, or the import statement of the
	// module not found.
	Line, Column int
	// Code is Node's error code for the failure, "ERR_MODULE_NOT_FOUND"
	// for a module not found and "" otherwise.
	Code string
	// Err is the cause: the loader's error, or nil.
	Err error
}

// Error formats e as "path:line:column: Name: Message".
func (e *Error) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", e.Path, e.Line, e.Column)
	}
	if loc == "" {
		return e.Name + ": " + e.Message
	}
	return loc + ": " + e.Name + ": " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
