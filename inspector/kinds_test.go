package inspector

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/jsworker/jsworker/internal/gojainternal"
)

// When gojainternal cannot read goja, the inspector fails closed: it keeps
// answering, classifies objects through goja's public API only (a Map is
// shown as a generic object), and still recognises a Proxy without running its
// traps.
func TestKindsFailClosed(t *testing.T) {
	defer gojainternal.SimulateChange(errors.New("test: simulated goja upgrade"))()
	st := newSyncTarget()
	s := st.attach()
	defer func() { s.Close(); requireReleased(t, s) }()
	next(t, s)
	st.rt.Set("trapRan", false)
	for i, tc := range []struct {
		expr string
		want remoteObject
	}{
		// Named after their constructor, as generic objects are, with no subtype.
		{`new Map([[1, 2]])`, remoteObject{Type: "object", ClassName: "Map", Description: "Map", ObjectID: "x"}},
		{`new Uint8Array(2)`, remoteObject{Type: "object", ClassName: "Uint8Array", Description: "Uint8Array", ObjectID: "x"}},
		{`[1, 2]`, remoteObject{Type: "object", Subtype: "array", ClassName: "Array", Description: "Array(2)", ObjectID: "x"}},
		{`new Proxy({}, { get() { trapRan = true; }, ownKeys() { trapRan = true; return []; }, getPrototypeOf() { trapRan = true; return null; } })`,
			remoteObject{Type: "object", Subtype: "proxy", ClassName: "Object", Description: "Proxy(Object)", ObjectID: "x"}},
	} {
		dispatch(t, s, `{"id":%d,"method":"Runtime.evaluate","params":{"expression":%q}}`, i, tc.expr)
		msg, r := s.Next(0)
		if r != PumpMessage {
			t.Fatalf("Next = %v", r)
		}
		var reply struct {
			Result struct{ Result remoteObject }
		}
		if err := json.Unmarshal(msg, &reply); err != nil {
			t.Fatalf("%v: %s", err, msg)
		}
		got := reply.Result.Result
		if got.ObjectID != "" {
			got.ObjectID = "x"
		}
		if got.Type != tc.want.Type || got.Subtype != tc.want.Subtype || got.ClassName != tc.want.ClassName ||
			got.Description != tc.want.Description || got.ObjectID != tc.want.ObjectID {
			t.Errorf("%s: got %+v\nwant %+v", tc.expr, got, tc.want)
		}
		if id := reply.Result.Result.ObjectID; id != "" {
			dispatch(t, s, `{"id":%d,"method":"Runtime.getProperties","params":{"objectId":%q,"ownProperties":true}}`, 100+i, id)
			if m := next(t, s); m["error"] != nil {
				t.Errorf("%s: getProperties: %v", tc.expr, m["error"])
			}
		}
	}
	if v := st.rt.Get("trapRan"); v.ToBoolean() {
		t.Error("a Proxy trap ran")
	}
}
