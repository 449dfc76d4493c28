package inspector_test

import (
	"fmt"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
)

// hostRealm is a synchronous target: commands run at once on the caller's
// goroutine, which owns the runtime.
type hostRealm struct{ rt *goja.Runtime }

func (h hostRealm) Run(fn func(*goja.Runtime)) bool { fn(h.rt); return true }
func (h hostRealm) Context() inspector.ContextInfo {
	return inspector.ContextInfo{ID: 1, Name: "main", UniqueID: "main-1"}
}

func Example() {
	s := inspector.NewSession(hostRealm{goja.New()})
	defer s.Close()
	s.Dispatch([]byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"[6 * 7, 'x']","returnByValue":true}}`))
	s.Dispatch([]byte(`{"id":2,"method":"Runtime.nope"}`))
	for {
		msg, r := s.Next(0)
		if r != inspector.PumpMessage {
			fmt.Println(r)
			break
		}
		fmt.Println(string(msg))
	}
	// Output:
	// {"method":"Runtime.executionContextsCleared","params":{}}
	// {"id":1,"result":{"result":{"type":"object","value":[42,"x"]}}}
	// {"id":2,"error":{"code":-32601,"message":"'Runtime.nope' wasn't found"}}
	// Timeout
}
