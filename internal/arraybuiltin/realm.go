package arraybuiltin

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

const (
	// Threshold is the longest receiver left to goja's own methods: a walk of this many indices takes goja well
	// under a millisecond, and no ordinary array pays for this package.
	Threshold = 1 << 16
	// PollEvery is how many indices a walk visits between two looks at whether the realm was asked to stop.
	PollEvery = 4096
)

// A Realm is what the methods need of the realm they serve. Only RT is required.
type Realm struct {
	RT *goja.Runtime
	// Poll, if not nil, is called every PollEvery steps before the look at the interrupt flag: the realm's
	// checkpoint (a memory measurement, which may interrupt the realm).
	Poll func()
	// Building, if not nil, is the realm's count of bytes made by native calls still running: the methods that make
	// an array add what they made (elementBytes an element) until they return it, since no measurement of the
	// realm's graph sees it before — a measurement made inside a callback they call included.
	Building *int64
	// RangeError, if not nil, throws a RangeError with message msg (a panic with a goja value); nil: one made by the
	// realm's global RangeError.
	RangeError func(msg string)
}

// stepper counts a walk's steps and stops it when its realm was interrupted.
type stepper struct {
	r     *Realm
	count int
	built int64 // bytes made so far (define), counted in the realm's Building until the call returns (release)
}

// step counts n steps and, every PollEvery, polls.
func (s *stepper) step(n int) {
	s.count += n
	if s.count >= PollEvery {
		s.count = 0
		if s.r.Poll != nil {
			s.r.Poll()
		}
		gojainternal.EndIfInterrupted(s.r.RT)
	}
}
