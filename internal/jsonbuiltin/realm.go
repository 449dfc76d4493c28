package jsonbuiltin

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Limits.
const (
	// MaxParseDepth is the deepest nesting of arrays and objects JSON.parse accepts: deeper text throws
	// Realm.Overflow's RangeError. V8 parses any depth; this bound keeps what parse makes within what the rest of
	// the library (structured clone, the inspector, stringify itself) can walk, and is far above real documents.
	MaxParseDepth = 100_000
	// MaxStringifyDepth is the deepest nesting of arrays and objects JSON.stringify writes before it throws
	// Realm.Overflow's RangeError. V8's bound is its stack: Node 20 writes a chain of plain objects or arrays
	// 4,173 levels deep and throws "Maximum call stack size exceeded" at 4,174 (fewer with toJSON or a replacer).
	MaxStringifyDepth = 4096
	// MaxStringLength is V8's limit on a string's length in UTF-16 code units: a longer result throws
	// RangeError "Invalid string length".
	MaxStringLength = 1<<29 - 24
	// PollEvery is how many steps (values read or written; a string counts a step more per 256 code units) pass between two
	// looks at whether the realm was asked to stop.
	PollEvery = 4096
)

// A Realm is what the builtins need of the realm they serve. Only RT is required.
type Realm struct {
	RT *goja.Runtime
	// Overflow throws the RangeError "Maximum call stack size exceeded" the depth guard throws (a panic with a
	// goja value, as native functions throw). nil: a RangeError made by the realm's RangeError constructor.
	Overflow func()
	// RangeError throws a RangeError with message msg. nil: made by the realm's global RangeError.
	RangeError func(msg string)
	// Poll, if not nil, is called every PollEvery steps before the look at the interrupt flag: the realm's
	// checkpoint (a memory measurement, which may interrupt the realm).
	Poll func()
	// DeepGo, if not nil, reports whether the Go stack is too deep to go on (a stringify called from a toJSON
	// called from a stringify...): the call then throws Overflow's error.
	DeepGo func() bool
	// Building, if not nil, is the realm's count of the bytes its running native calls have made and not yet
	// returned (depthguard.Checkpoint.Building): at every poll, before Poll, a call adds to it what it has made
	// since its last poll (parse: its values, estimated low; stringify: its buffer), and as it ends, normally or
	// not, it takes back all it added. The realm goroutine's only.
	Building *int64
}

// stepper counts the steps of one call and stops it when its realm was interrupted.
type stepper struct {
	r     *Realm
	count int
	limit func() // if not nil, called at every poll: stringify's check of its result's length

	built    int64 // what the call has made so far that its realm cannot see yet, in bytes (an estimate)
	reported int64 // how much of built is in *r.Building
}

// step counts n steps and, every PollEvery, polls.
func (s *stepper) step(n int) {
	s.count += n
	if s.count >= PollEvery {
		s.count = 0
		s.poll()
	}
}

// poll runs the realm's checkpoint and ends the call if the realm was asked to stop (gojainternal.EndIfInterrupted:
// goja's own uncatchable interruption, as at any instruction).
func (s *stepper) poll() {
	if s.limit != nil {
		s.limit()
	}
	if b := s.r.Building; b != nil && s.built != s.reported {
		*b += s.built - s.reported
		s.reported = s.built
	}
	if s.r.Poll != nil {
		s.r.Poll()
	}
	gojainternal.EndIfInterrupted(s.r.RT)
}

// release takes back from the realm's Building what the call added: it has returned what it made (or dropped it).
func (s *stepper) release() {
	if s.reported != 0 {
		*s.r.Building -= s.reported
		s.reported = 0
	}
	s.built = 0
}

func (r *Realm) overflow() {
	if r.Overflow != nil {
		r.Overflow()
	}
	r.rangeError("Maximum call stack size exceeded")
}

func (r *Realm) rangeError(msg string) {
	if r.RangeError != nil {
		r.RangeError(msg)
	}
	throwError(r.RT, "RangeError", r.RT.ToValue(msg))
}

func (r *Realm) deep() bool { return r.DeepGo != nil && r.DeepGo() }

// maxLength is MaxStringLength, lowered by tests.
var maxLength = MaxStringLength
