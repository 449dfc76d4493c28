package inspector

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Options this backend refuses rather than silently ignoring.
const (
	msgNoSideEffectCheck = "throwOnSideEffect is not supported: this backend cannot prove that an expression has no side effects"
	msgNoTimeout         = "timeout is not supported: this backend cannot interrupt an evaluation on a timer"
	msgNoSerialization   = "serializationOptions is not supported: use returnByValue"
)

type evaluateParams struct {
	Expression           *string         `json:"expression"`
	ObjectGroup          string          `json:"objectGroup"`
	ContextID            *int            `json:"contextId"`
	UniqueContextID      *string         `json:"uniqueContextId"`
	ReturnByValue        bool            `json:"returnByValue"`
	AwaitPromise         bool            `json:"awaitPromise"`
	ThrowOnSideEffect    bool            `json:"throwOnSideEffect"`
	Timeout              *float64        `json:"timeout"`
	SerializationOptions json.RawMessage `json:"serializationOptions"`
	// Accepted and ignored: includeCommandLineAPI, silent, generatePreview,
	// userGesture, replMode, disableBreaks, allowUnsafeEvalBlockedByCSP.
}

type evaluateResult struct {
	Result           *remoteObject     `json:"result"`
	ExceptionDetails *exceptionDetails `json:"exceptionDetails,omitempty"`
}

type exceptionDetails struct {
	ExceptionID        int           `json:"exceptionId"`
	Text               string        `json:"text"`
	LineNumber         int           `json:"lineNumber"`
	ColumnNumber       int           `json:"columnNumber"`
	URL                string        `json:"url,omitempty"`
	Exception          *remoteObject `json:"exception,omitempty"`
	ExecutionContextID int           `json:"executionContextId"`
}

// evaluate runs an expression as a global script in the target's realm.
func evaluate(c *call) {
	var p evaluateParams
	if !c.decode(&p) {
		return
	}
	if p.Expression == nil {
		c.missing("expression")
		return
	}
	if !c.checkContext(p.ContextID, p.UniqueContextID) || !c.refuseUnsupported(p.ThrowOnSideEffect, p.Timeout != nil, p.SerializationOptions) {
		return
	}
	v, err := runGuarded(c.rt, "", *p.Expression)
	c.finish(v, err, *p.Expression, p.ObjectGroup, p.ReturnByValue, p.AwaitPromise)
}

func (c *call) refuseUnsupported(sideEffects, timeout bool, serialization json.RawMessage) bool {
	switch {
	case sideEffects:
		c.failServer(msgNoSideEffectCheck)
	case timeout:
		c.failServer(msgNoTimeout)
	case len(serialization) > 0 && string(serialization) != "null":
		c.failServer(msgNoSerialization)
	default:
		return true
	}
	return false
}

// finish answers an evaluation: its value, its exception, or — with
// awaitPromise and a promise still pending — later, from the target's thread,
// when the promise settles.
func (c *call) finish(v goja.Value, err error, src, group string, byValue, await bool) {
	if err != nil {
		var ex *goja.Exception
		if !errors.As(err, &ex) {
			var intr *goja.InterruptedError
			if errors.As(err, &intr) {
				c.failServer("Execution was terminated")
			} else {
				c.failServer(err.Error())
			}
			return
		}
		line, col := exceptionPosition(ex, src)
		c.replyException(ex.Value(), "Uncaught", line, col, group, byValue)
		return
	}
	if await {
		if p := promiseOf(v); p != nil {
			c.await(v.(*goja.Object), p, group, byValue)
			return
		}
	}
	c.replyValue(v, group, byValue)
}

func (c *call) replyValue(v goja.Value, group string, byValue bool) {
	ro := c.mirror(v, group, byValue)
	if ro == nil {
		c.failServer(msgByValueFailed)
		return
	}
	c.reply(evaluateResult{Result: ro})
}

// mirror is remote or byValue; nil when byValue cannot serialize v.
func (c *call) mirror(v goja.Value, group string, byValue bool) *remoteObject {
	if !byValue {
		return c.remote(v, group)
	}
	ro, ok := c.byValue(v)
	if !ok {
		return nil
	}
	return ro
}

// replyException answers with the thrown value as result and exceptionDetails.
func (c *call) replyException(thrown goja.Value, text string, line, col int, group string, byValue bool) {
	exc := c.remote(thrown, group)
	result := exc
	if byValue {
		if ro, ok := c.byValue(thrown); ok {
			result = ro
		}
	}
	c.reply(evaluateResult{Result: result, ExceptionDetails: &exceptionDetails{
		ExceptionID: c.s.nextExceptionID(), Text: text, LineNumber: line, ColumnNumber: col,
		Exception: exc, ExecutionContextID: c.s.ctx.ID,
	}})
}

// promiseOf returns v's promise when v is a native Promise (or a subclass).
func promiseOf(v goja.Value) *goja.Promise {
	o, ok := v.(*goja.Object)
	if !ok || classify(o).kind != kindPromise {
		return nil
	}
	p, _ := o.Export().(*goja.Promise)
	return p
}

// await answers with the promise's outcome. A settled promise is answered at
// once; a pending one when it settles, from the reaction the realm's captured
// Promise.prototype.then attached (which also marks a rejection handled). On
// a synchronous target that is whenever the host next runs JavaScript.
func (c *call) await(o *goja.Object, p *goja.Promise, group string, byValue bool) {
	settle := func(fulfilled bool) func(goja.FunctionCall) goja.Value {
		return func(fc goja.FunctionCall) goja.Value {
			defer c.fence()
			if c.answered() { // answered at once below, or the session is gone
				return goja.Undefined()
			}
			if fulfilled {
				c.replyValue(fc.Argument(0), group, byValue)
			} else {
				c.replyException(fc.Argument(0), "Uncaught (in promise)", 0, 0, group, byValue)
			}
			return goja.Undefined()
		}
	}
	if _, ok := invoke(c.realm().then, o, c.rt.ToValue(settle(true)), c.rt.ToValue(settle(false))); !ok && p.State() == goja.PromiseStatePending {
		c.failServer("inspector: cannot wait for the promise: the realm's Promise.prototype.then is missing or threw")
		return
	}
	if c.answered() { // the reaction already ran: then drained the job queue
		return
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		c.replyValue(p.Result(), group, byValue)
	case goja.PromiseStateRejected:
		c.replyException(p.Result(), "Uncaught (in promise)", 0, 0, group, byValue)
	}
}

// exceptionPosition returns the 0-based line and column where ex was thrown:
// the innermost frame with a position, or for a syntax error the position the
// compiler reports.
func exceptionPosition(ex *goja.Exception, src string) (line, col int) {
	for _, f := range ex.Stack() {
		if pos := f.Position(); pos.Line > 0 {
			return pos.Line - 1, max(pos.Column-1, 0)
		}
	}
	if _, err := depthguard.CompileUnguarded("", src, false); err != nil {
		if l, c, _, ok := gojainternal.SyntaxErrorPosition(err.Error()); ok {
			return max(l-1, 0), max(c-1, 0)
		}
	}
	return 0, 0
}

type callArgument struct {
	Value               json.RawMessage `json:"value"`
	UnserializableValue *string         `json:"unserializableValue"`
	ObjectID            *string         `json:"objectId"`
}

type callFunctionOnParams struct {
	FunctionDeclaration  *string         `json:"functionDeclaration"`
	ObjectID             *string         `json:"objectId"`
	Arguments            []callArgument  `json:"arguments"`
	ReturnByValue        bool            `json:"returnByValue"`
	AwaitPromise         bool            `json:"awaitPromise"`
	ExecutionContextID   *int            `json:"executionContextId"`
	UniqueContextID      *string         `json:"uniqueContextId"`
	ObjectGroup          *string         `json:"objectGroup"`
	ThrowOnSideEffect    bool            `json:"throwOnSideEffect"`
	SerializationOptions json.RawMessage `json:"serializationOptions"`
	// Accepted and ignored: silent, generatePreview, userGesture.
}

// callFunctionOn calls a function, given as source, with this set to the
// object objectId names (or undefined with executionContextId).
func callFunctionOn(c *call) {
	var p callFunctionOnParams
	if !c.decode(&p) {
		return
	}
	if p.FunctionDeclaration == nil {
		c.missing("functionDeclaration")
		return
	}
	if !c.refuseUnsupported(p.ThrowOnSideEffect, false, p.SerializationOptions) {
		return
	}
	this, group := goja.Value(goja.Undefined()), ""
	switch {
	case p.ObjectID != nil && (p.ExecutionContextID != nil || p.UniqueContextID != nil):
		c.failServer("ObjectId must not be specified together with executionContextId")
		return
	case p.ObjectID != nil:
		h, ok := c.s.lookup(*p.ObjectID)
		if !ok {
			c.failServer(msgNoObject)
			return
		}
		this, group = h.v, h.group
	case p.ExecutionContextID != nil || p.UniqueContextID != nil:
		if !c.checkContext(p.ExecutionContextID, p.UniqueContextID) {
			return
		}
	default:
		c.failServer("Either ObjectId or executionContextId must be specified")
		return
	}
	if p.ObjectGroup != nil {
		group = *p.ObjectGroup
	}
	args := make([]goja.Value, len(p.Arguments))
	for i, a := range p.Arguments {
		v, msg := c.argument(a)
		if msg != "" {
			c.failServer(msg)
			return
		}
		args[i] = v
	}
	// The newline keeps a trailing line comment from swallowing the parenthesis.
	src := "(" + *p.FunctionDeclaration + "\n)"
	fv, err := runGuarded(c.rt, "", src)
	if err != nil {
		c.finish(nil, err, src, group, p.ReturnByValue, false)
		return
	}
	fn, ok := goja.AssertFunction(fv)
	if !ok {
		c.failServer(msgNotFunction)
		return
	}
	v, err := fn(this, args...)
	c.finish(v, err, src, group, p.ReturnByValue, p.AwaitPromise)
}

// argument turns a CallArgument into a value of the realm: value through the
// realm's captured JSON.parse, unserializableValue by name, objectId from this
// session's objects. Neither field gives undefined.
func (c *call) argument(a callArgument) (goja.Value, string) {
	switch {
	case a.ObjectID != nil:
		h, ok := c.s.lookup(*a.ObjectID)
		if !ok {
			return nil, msgNoObject
		}
		return h.v, ""
	case a.UnserializableValue != nil:
		v := unserializable(c.rt, *a.UnserializableValue)
		if v == nil {
			return nil, msgBadUnserialized
		}
		return v, ""
	case len(a.Value) > 0:
		v, ok := invoke(c.realm().parse, goja.Undefined(), c.rt.ToValue(string(a.Value)))
		if !ok {
			return nil, "Couldn't parse value object in call argument"
		}
		return v, ""
	}
	return goja.Undefined(), ""
}

// unserializable reads CDP's UnserializableValue: NaN, Infinity, -Infinity,
// -0 or a bigint such as "123n"; nil when s is none of those.
func unserializable(rt *goja.Runtime, s string) goja.Value {
	switch s {
	case "NaN":
		return goja.NaN()
	case "Infinity":
		return goja.PositiveInf()
	case "-Infinity":
		return goja.NegativeInf()
	case "-0":
		return rt.ToValue(negativeZero())
	}
	if digits, ok := strings.CutSuffix(s, "n"); ok {
		if b, ok := new(big.Int).SetString(digits, 10); ok {
			return rt.ToValue(b)
		}
	}
	return nil
}

func negativeZero() float64 { return math.Copysign(0, -1) }
