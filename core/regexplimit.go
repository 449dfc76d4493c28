package core

import (
	"time"

	"github.com/dlclark/regexp2/v2"
)

// RegexpMatchTimeout bounds one match of a regular expression that goja
// runs on its backtracking engine (regexp2: patterns with backreferences or
// lookaround; the others run on Go's linear-time engine). goja checks no
// interrupt inside a match, so without a bound a catastrophic pattern —
// /(a+)+(?=$)/.test("a".repeat(40) + "b") runs for days — could never be
// terminated. A match that runs longer fails as goja fails a timed-out
// match: it finds nothing (test answers false, exec null). The bound applies
// to expressions compiled after the library is loaded; it is set once, at
// start, for the whole process (see docs/limits.md).
const RegexpMatchTimeout = time.Second

func init() {
	regexp2.DefaultMatchTimeout = RegexpMatchTimeout
}
