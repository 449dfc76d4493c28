package inspector

import (
	"testing"

	"github.com/jsworker/jsworker/internal/depthguard"
)

// In a realm with the depth guard, recursion inside an expression a client evaluates, a function it calls on an
// object or a script it compiles and runs is a RangeError the code catches; syntax errors are reported as before.
func TestGuardedExpressions(t *testing.T) {
	st := newSyncTarget()
	if err := depthguard.Install(st.rt, 200); err != nil {
		t.Fatal(err)
	}
	s := st.attach()
	next(t, s) // executionContextCreated
	const rec = `function r() { return r() + 1 } try { r(); \"not caught\" } catch (e) { \"caught \" + e.message }`
	const want = "caught Maximum call stack size exceeded"
	dispatch(t, s, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"%s"}}`, rec)
	if got := field(answerTo(t, s, 1), "result", "result", "value"); got != want {
		t.Errorf("evaluate: %v", got)
	}
	dispatch(t, s, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"globalThis"}}`)
	id, _ := field(answerTo(t, s, 2), "result", "result", "objectId").(string)
	dispatch(t, s, `{"id":3,"method":"Runtime.callFunctionOn","params":{"objectId":"%s","functionDeclaration":"function () { %s }"}}`,
		id, `function r() { return r() + 1 } try { r(); return \"not caught\" } catch (e) { return \"caught \" + e.message }`)
	if got := field(answerTo(t, s, 3), "result", "result", "value"); got != want {
		t.Errorf("callFunctionOn: %v", got)
	}
	dispatch(t, s, `{"id":4,"method":"Runtime.compileScript","params":{"expression":"%s","sourceURL":"c.js","persistScript":true}}`, rec)
	sid, _ := field(answerTo(t, s, 4), "result", "scriptId").(string)
	dispatch(t, s, `{"id":5,"method":"Runtime.runScript","params":{"scriptId":"%s"}}`, sid)
	if got := field(answerTo(t, s, 5), "result", "result", "value"); got != want {
		t.Errorf("runScript: %v", got)
	}
	dispatch(t, s, `{"id":6,"method":"Runtime.evaluate","params":{"expression":"let kept = 1; }"}}`)
	if got := field(answerTo(t, s, 6), "result", "exceptionDetails", "exception", "className"); got != "SyntaxError" {
		t.Errorf("syntax error: %v", got)
	}
	dispatch(t, s, `{"id":7,"method":"Runtime.evaluate","params":{"expression":"let top = 5"}}`)
	answerTo(t, s, 7)
	dispatch(t, s, `{"id":8,"method":"Runtime.evaluate","params":{"expression":"top + 1"}}`)
	if got := field(answerTo(t, s, 8), "result", "result", "value"); got != float64(6) {
		t.Errorf("a top-level let is global, as before: %v", got)
	}
	s.Close()
	drainClosed(t, s)
}
