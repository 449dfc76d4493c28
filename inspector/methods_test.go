package inspector

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestMethodsMatchDispatcher fails if Methods and the dispatcher disagree, or
// if an emitted event constant is missing from Events.
func TestMethodsMatchDispatcher(t *testing.T) {
	var dispatched []string
	for m := range handlers {
		dispatched = append(dispatched, m)
	}
	slices.Sort(dispatched)
	if !slices.Equal(dispatched, Methods) {
		t.Errorf("Methods = %v\ndispatcher = %v", Methods, dispatched)
	}
	if !slices.IsSorted(Events) || len(slices.Compact(slices.Clone(Events))) != len(Events) {
		t.Errorf("Events must be sorted and unique: %v", Events)
	}
	emitted := []string{evBreakpointResolved, evPaused, evResumed, evScriptParsed, evHeapChunk, evHeapProgress, evDetached, evConsoleAPICalled, evExceptionThrown, evContextCreated, evContextDestroyed, evContextsCleared}
	slices.Sort(emitted)
	if !slices.Equal(emitted, Events) {
		t.Errorf("Events = %v\nemitted = %v", Events, emitted)
	}
}

// TestMethods_UnknownAnswered dispatches every listed method (each must be
// found) and a few unlisted ones (each must answer -32601).
func TestMethods_UnknownAnswered(t *testing.T) {
	s := newSyncTarget().attach()
	defer s.Close()
	next(t, s)
	for i, m := range Methods {
		dispatch(t, s, `{"id":%d,"method":%q,"params":{}}`, i, m)
		if code := field(answerTo(t, s, i), "error", "code"); code == float64(codeMethodNotFound) {
			t.Errorf("%s is listed but answers -32601", m)
		}
	}
	for i, m := range []string{"Debugger.setInstrumentationBreakpoint", "Schema", "runtime.evaluate", "Runtime.evaluate.x"} {
		dispatch(t, s, `{"id":%d,"method":%q}`, 100+i, m)
		if code := field(answerTo(t, s, 100+i), "error", "code"); code != float64(codeMethodNotFound) {
			t.Errorf("%s answered %v, want -32601", m, code)
		}
	}
}

// TestDocsTable fails if docs/inspector.md's table of implemented methods and
// events disagrees with Methods and Events.
func TestDocsTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/inspector.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([A-Za-z]+\\.[A-Za-z]+)` \\| (method|event) \\|")
	var methods, events []string
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		if m[2] == "method" {
			methods = append(methods, m[1])
		} else {
			events = append(events, m[1])
		}
	}
	if !slices.Equal(methods, Methods) {
		t.Errorf("docs/inspector.md lists methods %v\nMethods = %v", methods, Methods)
	}
	if !slices.Equal(events, Events) {
		t.Errorf("docs/inspector.md lists events %v\nEvents = %v", events, Events)
	}
}
