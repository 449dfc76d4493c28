package inspector

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// JSON-RPC error codes CDP uses (crdtp's DispatchResponse::ErrorCode).
const (
	codeParseError     = -32700 // the message is not JSON
	codeInvalidRequest = -32600 // JSON, but not a command: no object, no integer id, no string method
	codeMethodNotFound = -32601 // a command this backend does not implement
	codeInvalidParams  = -32602 // params missing or of the wrong type
	codeInternalError  = -32603 // a Go panic while running the command
	codeServerError    = -32000 // the command failed: unknown objectId, unsupported option, ...
)

// Error messages that clients match on; the texts are Chrome's.
const (
	msgParseError      = "Message must be a valid JSON"
	msgNotObject       = "Message must be an object"
	msgNoID            = "Message must have integer 'id' property"
	msgNoMethod        = "Message must have string 'method' property"
	msgInvalidParams   = "Invalid parameters"
	msgInternalError   = "Internal error"
	msgNoObject        = "Could not find object with given id"
	msgNoContext       = "Cannot find context with specified id"
	msgTargetGone      = "Inspected target navigated or closed"
	msgByValueFailed   = "Object couldn't be returned by value"
	msgNotFunction     = "Given expression does not evaluate to a function"
	msgBadUnserialized = "Invalid unserializable value"
)

// protoError is the error member of an error response.
type protoError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

// errorResponse answers a command that failed. ID is nil when no id could be
// read from the command; Chrome then replies without one.
type errorResponse struct {
	ID    *int64     `json:"id,omitempty"`
	Error protoError `json:"error"`
}

type response struct {
	ID     int64 `json:"id"`
	Result any   `json:"result"`
}

type event struct {
	Method string `json:"method"`
	Params any    `json:"params"`
}

// empty is the result of commands that return nothing: {}.
type empty struct{}

// command is a parsed request envelope.
type command struct {
	id     int64
	method string
	params json.RawMessage // nil when absent or null
}

// parseCommand reads the envelope of a CDP command. On failure it returns the
// complete error response to queue.
func parseCommand(msg []byte) (command, []byte) {
	if !json.Valid(msg) {
		return command{}, encodeError(nil, codeParseError, msgParseError, "")
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(msg, &env); err != nil || env == nil {
		return command{}, encodeError(nil, codeInvalidRequest, msgNotObject, "")
	}
	rawID, ok := env["id"]
	if !ok {
		return command{}, encodeError(nil, codeInvalidRequest, msgNoID, "")
	}
	// CDP ids are int32: 1.0, 1e2, "1" and out-of-range numbers are refused.
	id, err := strconv.ParseInt(string(bytes.TrimSpace(rawID)), 10, 32)
	if err != nil {
		return command{}, encodeError(nil, codeInvalidRequest, msgNoID, "")
	}
	var method string
	if raw, ok := env["method"]; !ok || json.Unmarshal(raw, &method) != nil || method == "" {
		return command{}, encodeError(&id, codeInvalidRequest, msgNoMethod, "")
	}
	c := command{id: id, method: method}
	if raw, ok := env["params"]; ok {
		raw = bytes.TrimSpace(raw)
		switch {
		case string(raw) == "null":
		case len(raw) > 0 && raw[0] == '{':
			c.params = raw
		default:
			return command{}, encodeError(&id, codeInvalidParams, msgInvalidParams, "params: object expected")
		}
	}
	return c, nil
}

// marshal encodes v as one compact JSON message. HTML escaping is off: CDP
// peers expect "<" and not "\u003c".
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only our own types are encoded here; a failure is a bug in this package.
		panic("inspector: cannot encode message: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func encodeError(id *int64, code int, message, data string) []byte {
	return marshal(errorResponse{ID: id, Error: protoError{Code: code, Message: message, Data: data}})
}

func encodeResult(id int64, result any) []byte {
	return marshal(response{ID: id, Result: result})
}

func encodeEvent(method string, params any) []byte {
	return marshal(event{Method: method, Params: params})
}

// rawNumber encodes a finite float64 the way JSON.stringify does.
func rawNumber(f float64) json.RawMessage {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return json.RawMessage("null")
	}
	b, _ := json.Marshal(f)
	return b
}
