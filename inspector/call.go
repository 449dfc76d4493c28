package inspector

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/dop251/goja"
)

// A call is one command being run on the target's thread.
type call struct {
	s      *Session
	rt     *goja.Runtime
	tok    uint64
	id     int64
	params json.RawMessage
	tools  *realmTools

	descState uint8 // descriptorsReadable: 0 unknown, 1 yes, 2 no
}

// reply answers the command with a result.
func (c *call) reply(result any) {
	c.s.answer(c.tok, encodeResult(c.id, result))
}

// answered reports whether the command has been answered (or can no longer
// be: the session closed or its target ended).
func (c *call) answered() bool {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	_, pending := c.s.pending[c.tok]
	return !pending
}

// fail answers the command with an error.
func (c *call) fail(code int, message, data string) {
	c.s.answer(c.tok, encodeError(&c.id, code, message, data))
}

// failServer answers with CDP's generic server error (-32000).
func (c *call) failServer(message string) {
	c.fail(codeServerError, message, "")
}

// fence turns a panic in the command (goja has known panics, such as
// `arguments` inside an arrow function) into an error response. Deferred by
// every entry point that calls into goja.
func (c *call) fence() {
	if x := recover(); x != nil {
		c.fail(codeInternalError, msgInternalError, fmt.Sprint(x))
	}
}

// realm returns the realm's captured builtins.
func (c *call) realm() *realmTools {
	if c.tools == nil {
		c.tools = c.s.realmTools(c.rt)
	}
	return c.tools
}

// decode reads the command's params into p (a pointer to a struct whose
// required fields are pointers). On failure it answers -32602 and returns false.
func (c *call) decode(p any) bool {
	if c.params == nil {
		return true
	}
	err := json.Unmarshal(c.params, p)
	if err == nil {
		return true
	}
	data := "Failed to deserialize params"
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		data += "." + te.Field + " - BINDINGS: " + cdpTypeName(te.Type) + " value expected"
	}
	c.fail(codeInvalidParams, msgInvalidParams, data)
	return false
}

// missing answers -32602 for a mandatory parameter that is absent.
func (c *call) missing(field string) {
	c.fail(codeInvalidParams, msgInvalidParams, "Failed to deserialize params."+field+" - BINDINGS: mandatory field missing")
}

func cdpTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.Slice:
		if t == reflect.TypeFor[json.RawMessage]() {
			return "any"
		}
		return "array"
	}
	return "object"
}

// checkContext verifies an optional executionContextId / uniqueContextId
// names this session's context.
func (c *call) checkContext(id *int, uniqueID *string) bool {
	if (id != nil && *id != c.s.ctx.ID) || (uniqueID != nil && *uniqueID != c.s.ctx.UniqueID) {
		c.failServer(msgNoContext)
		return false
	}
	return true
}

// invoke calls a captured builtin; ok is false when it is missing or threw.
func invoke(fn goja.Callable, this goja.Value, args ...goja.Value) (goja.Value, bool) {
	if fn == nil {
		return nil, false
	}
	v, err := fn(this, args...)
	if err != nil {
		return nil, false
	}
	return v, true
}
