package core_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// A worker whose JSON.parse builds far more than its budget from a text well within it (6 MB of "{}," makes two
// million objects, some 400 MiB), or whose JSON.stringify writes far more, is terminated while the call runs: the values a native call has made so far are
// counted at its polls (depthguard.Checkpoint.Building), although no measurement of the realm's graph can see them
// until the call returns. The parse never returns (the script posts nothing after it), Join reports
// ErrWorkerOutOfMemory with one ErrorOutOfMemory record, and another worker goes on answering.
func TestWorker_BudgetStopsABuildingParse(t *testing.T) {
	const budget = 32 << 20
	for name, call := range map[string]string{
		"parse":     `JSON.parse(text)`,
		"stringify": `JSON.stringify(new Array(2e7), null, 10)`, // some 320 MB of text from a sparse array
	} {
		t.Run(name, func(t *testing.T) {
			t.Log(budgetStopsInside(t, `var text = "[" + "{},".repeat(2e6) + "{}]";
				postMessage("started"); var v = `+call, budget))
		})
	}
}

// budgetStopsInside runs src, which posts "started" and then makes one native call that should never return, in
// a worker with the given budget. It checks that the worker was ended for its memory inside the call (Join reports
// ErrWorkerOutOfMemory, one ErrorOutOfMemory record, nothing posted after the call) while another worker goes on
// answering, and returns the record's message.
func budgetStopsInside(t *testing.T, src string, budget int64) string {
	t.Helper()
	w, other, rec := spawnBudgeted(t, src+`; postMessage("returned")`, budget)
	rt := goja.New()
	if v, err := w.Receive(rt, time.Minute); err != nil || v.String() != "started" {
		t.Fatalf("first message = %v, %v", v, err)
	}
	if err := w.Join(joinOOM); !errors.Is(err, core.ErrWorkerOutOfMemory) {
		t.Fatalf("Join = %v, want ErrWorkerOutOfMemory", err)
	}
	if v, err := w.Receive(rt, 0); err == nil {
		t.Fatalf("the call returned: the worker posted %v", v)
	}
	rec.mu.Lock()
	recs := rec.recs
	rec.mu.Unlock()
	if len(recs) != 1 || recs[0].Kind != core.ErrorOutOfMemory || !strings.HasPrefix(recs[0].Message, core.OutOfMemoryMessage) {
		t.Fatalf("records = %+v, want one ErrorOutOfMemory", recs)
	}
	roundTrips(t, other, 20)
	return recs[0].Message
}
