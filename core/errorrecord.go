package core

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// ErrorKind tells what produced an error record.
type ErrorKind uint8

// Error record kinds.
const (
	// ErrorUncaught: an exception escaped the worker script, an event
	// listener, a timer callback or a queueMicrotask callback.
	ErrorUncaught ErrorKind = iota + 1
	// ErrorUnhandledRejection: a promise was rejected and no handler was
	// attached by the end of the macrotask that rejected it.
	ErrorUnhandledRejection
	// ErrorInternal: the engine failed (a Go panic inside goja, or a Setup
	// error). The worker ends; Join returns the error.
	ErrorInternal
	// ErrorOutOfMemory: the worker went over its memory budget
	// (Options.MaxHeapBytes) or was the largest contributor when the process
	// neared its cap (SetMemoryLimit). The worker ends; Join returns
	// ErrWorkerOutOfMemory.
	ErrorOutOfMemory
	// ErrorTimeLimit: one task of the worker ran longer than
	// Options.ExecutionTimeLimit. The worker ends; Join returns
	// ErrTimeLimit.
	ErrorTimeLimit
)

func (k ErrorKind) String() string {
	switch k {
	case ErrorUncaught:
		return "uncaught exception"
	case ErrorUnhandledRejection:
		return "unhandled rejection"
	case ErrorInternal:
		return "internal error"
	case ErrorOutOfMemory:
		return "out of memory"
	case ErrorTimeLimit:
		return "time limit"
	}
	return "unknown error"
}

// An ErrorRecord describes one error a worker did not handle. Uncaught
// exceptions and unhandled rejections do not stop the worker: it goes on
// serving messages, as a web worker does.
type ErrorRecord struct {
	WorkerID uint64
	Kind     ErrorKind
	Name     string // the error's name ("TypeError"), or "" for a thrown non-Error
	Message  string // the error's message, or the thrown value as a string
	Stack    string // the JavaScript stack, "Name: message\n\tat …"; may be empty
	// Filename, Line and Column locate where the exception was thrown (or
	// the rejection reason was created); Line and Column are 1-based and 0
	// when unknown.
	Filename     string
	Line, Column int

	thrown  goja.Value // the thrown value or rejection reason, for observers; nil if none
	promise goja.Value // the rejected promise of an unhandled rejection; nil otherwise
}

// Value returns the thrown value or rejection reason, nil if there is none. It belongs to the worker's realm: use
// it only on the worker's thread, while the record is being reported.
func (r ErrorRecord) Value() goja.Value { return r.thrown }

// Promise returns the rejected promise of an ErrorUnhandledRejection record (what Node's 'unhandledRejection'
// listeners get after the reason), nil for other kinds. Like Value, it belongs to the worker's realm.
func (r ErrorRecord) Promise() goja.Value { return r.promise }

// Error formats the record like Node's report of an uncaught error.
func (r ErrorRecord) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "worker %d: %s: ", r.WorkerID, r.Kind)
	switch {
	case r.Stack != "":
		b.WriteString(r.Stack)
	case r.Name != "":
		b.WriteString(r.Name + ": " + r.Message)
	default:
		b.WriteString(r.Message)
	}
	if r.Stack == "" && r.Line > 0 {
		fmt.Fprintf(&b, " at %s:%d:%d", r.Filename, r.Line, r.Column)
	}
	return b.String()
}

// report hands rec to the error hook, or writes it to Stderr when none is
// installed.
func (w *Worker) report(rec ErrorRecord) {
	rec.WorkerID = w.id
	w.observeError(rec)
	if w.ext != nil && (rec.Kind == ErrorUncaught || rec.Kind == ErrorUnhandledRejection) && w.ext.Uncaught(rec) {
		return // e.g. a Node-style worker ends with exit code 1
	}
	if h := w.errorHook.Load(); h != nil {
		p := callErrorHook(*h, rec)
		if p == nil {
			return
		}
		// A hook that panics is not trusted with the record: it goes to
		// Stderr instead, with a note.
		rec.Message += fmt.Sprintf(" (and the error handler panicked: %v)", p)
		rec.Stack = ""
	}
	var out io.Writer = os.Stderr
	if w.opts.Stderr != nil {
		out = w.opts.Stderr
	}
	fmt.Fprintf(out, "jsworker: %s\n", strings.TrimRight(rec.Error(), "\n"))
}

// callErrorHook calls h and returns what it panicked with, or nil.
func callErrorHook(h func(ErrorRecord), rec ErrorRecord) (panicked any) {
	defer func() { panicked = recover() }()
	h(rec)
	return nil
}

// reportErr turns an error returned by a call into JavaScript into a record.
// An interruption caused by Terminate is not an error.
func (w *Worker) reportErr(err error) {
	var intr *goja.InterruptedError
	var ex *goja.Exception
	var syn *goja.CompilerSyntaxError
	var so *goja.StackOverflowError
	switch {
	case errors.As(err, &so):
		// goja makes stack overflow uncatchable in JavaScript; report it
		// the way V8 words it.
		rec := ErrorRecord{Kind: ErrorUncaught, Name: "RangeError", Message: "Maximum call stack size exceeded"}
		for _, fr := range so.Stack() {
			if p := fr.Position(); p.Line > 0 {
				rec.Filename, rec.Line, rec.Column = p.Filename, p.Line, p.Column
				break
			}
		}
		w.report(rec)
	case errors.As(err, &intr):
		if !w.isTerminating() {
			w.report(ErrorRecord{Kind: ErrorInternal, Message: intr.Error()})
		}
	case errors.As(err, &ex):
		w.report(w.recordFromException(ex))
	case errors.As(err, &syn):
		rec := ErrorRecord{Kind: ErrorUncaught, Name: "SyntaxError", Message: syn.Message}
		if depthguard.IsTooDeep(syn) { // refused before goja's parser, as V8 refuses it: a RangeError
			rec.Name, rec.Message = "RangeError", depthguard.Message
		}
		if syn.File != nil {
			p := syn.File.Position(syn.Offset)
			rec.Filename, rec.Line, rec.Column = p.Filename, p.Line, p.Column
		}
		w.report(rec)
	default:
		w.report(ErrorRecord{Kind: ErrorInternal, Message: err.Error()})
	}
}

func (w *Worker) recordFromException(ex *goja.Exception) ErrorRecord {
	rec := w.recordFromValue(ErrorUncaught, ex.Value())
	for _, fr := range ex.Stack() {
		if p := fr.Position(); p.Line > 0 {
			rec.Filename, rec.Line, rec.Column = p.Filename, p.Line, p.Column
			break
		}
	}
	if rec.Stack == "" {
		rec.Stack = strings.TrimRight(ex.String(), "\n")
	}
	return rec
}

// recordFromValue describes a thrown value or rejection reason. Reading its
// properties runs no user code that could escape: getters that throw are
// caught and ignored.
func (w *Worker) recordFromValue(kind ErrorKind, v goja.Value) ErrorRecord {
	rec := ErrorRecord{Kind: kind, thrown: v}
	if v == nil {
		rec.Message = "undefined"
		return rec
	}
	w.rt.Try(func() {
		if o, ok := v.(*goja.Object); ok && o.ClassName() == "Error" {
			rec.Name = valueString(o.Get("name"))
			rec.Message = valueString(o.Get("message"))
			rec.Stack = strings.TrimRight(valueString(o.Get("stack")), "\n")
			rec.Filename, rec.Line, rec.Column = firstStackPosition(rec.Stack)
			return
		}
		rec.Message = v.String()
	})
	if rec.Message == "" && rec.Name == "" {
		rec.Message = "(unprintable value)"
	}
	return rec
}

func valueString(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return ""
	}
	return v.String()
}

func firstStackPosition(stack string) (file string, line, col int) {
	file, line, col, _ = gojainternal.FirstStackPosition(stack, nil)
	return file, line, col
}

// internalError records a Go panic that escaped the engine and terminates
// the worker: after such a panic the runtime's state cannot be trusted.
func (w *Worker) internalError(r any) error {
	err := fmt.Errorf("jsworker: internal error in worker %d: %v", w.id, r)
	w.report(ErrorRecord{Kind: ErrorInternal, Message: err.Error()})
	w.Terminate()
	return err
}
