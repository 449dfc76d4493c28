// Runtime-domain commands the Chrome DevTools front end sends for its
// Console and Memory panels: the isolate id, heap usage, the global lexical
// scope's names, and compileScript/runScript.

package inspector

import (
	"runtime/metrics"
	"slices"
	"strconv"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// sessionExt is the Session state of the Profiler domain and of
// compileScript. Used on the target's thread only.
type sessionExt struct {
	prof     profiler
	compiled map[string]*goja.Program // compileScript with persistScript: scriptId -> program
	compSeq  int
	heap     heapIDs // HeapProfiler (heapprofiler.go)
}

// getIsolateId answers the id of the target's isolate: here its realm, named
// by the context's unique id (DevTools groups targets of one isolate).
func getIsolateID(c *call) {
	c.reply(struct {
		ID string `json:"id"`
	}{c.s.ctx.UniqueID})
}

// getHeapUsage answers the Go heap's live bytes (usedSize) and the heap's
// mapped size (totalSize). Every target of the process shares that heap: a
// goja realm has no heap of its own to measure.
func getHeapUsage(c *call) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	used := s[1].Value.Uint64()
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > 0 {
		used = s[0].Value.Uint64()
	}
	c.reply(struct {
		UsedSize  float64 `json:"usedSize"`
		TotalSize float64 `json:"totalSize"`
	}{float64(used), float64(s[2].Value.Uint64())})
}

// globalLexicalScopeNames lists the let, const and class names the target's
// scripts declare at their top level (ES modules' are module-scoped and not
// listed, as in V8). Names declared by Runtime.evaluate are not tracked.
func globalLexicalScopeNames(c *call) {
	var p struct {
		ExecutionContextID *int `json:"executionContextId"`
	}
	if !c.decode(&p) || !c.checkContext(p.ExecutionContextID, nil) {
		return
	}
	names := []string{}
	if d := c.s.debugger(); d != nil {
		for _, sc := range d.scripts {
			if sc.module {
				continue
			}
			prg, err := depthguard.Parse(sc.file, sc.source)
			if err != nil {
				continue
			}
			names = append(names, topLexicals(prg)...)
		}
	}
	c.reply(struct {
		Names []string `json:"names"`
	}{slices.Compact(names)})
}

func topLexicals(prg *ast.Program) []string {
	var out []string
	for _, st := range prg.Body {
		switch d := st.(type) {
		case *ast.LexicalDeclaration:
			for _, l := range bindingNames(nil, false, d.List) {
				out = append(out, l.name)
			}
		case *ast.ClassDeclaration:
			if d.Class.Name != nil {
				out = append(out, string(d.Class.Name.Name))
			}
		}
	}
	return out
}

// compileScript compiles an expression as a global script; with
// persistScript it is kept for runScript under the scriptId answered. A
// syntax error is answered as exceptionDetails, as V8 does.
func compileScript(c *call) {
	var p struct {
		Expression         *string `json:"expression"`
		SourceURL          *string `json:"sourceURL"`
		PersistScript      *bool   `json:"persistScript"`
		ExecutionContextID *int    `json:"executionContextId"`
	}
	if !c.decode(&p) {
		return
	}
	switch {
	case p.Expression == nil:
		c.missing("expression")
		return
	case p.SourceURL == nil:
		c.missing("sourceURL")
		return
	case p.PersistScript == nil:
		c.missing("persistScript")
		return
	}
	if !c.checkContext(p.ExecutionContextID, nil) {
		return
	}
	defer c.fence()
	prg := compileGuarded(c.rt, *p.SourceURL, *p.Expression)
	if prg == nil {
		var err error
		if prg, err = depthguard.CompileUnguarded(*p.SourceURL, *p.Expression, false); err != nil {
			c.syntaxError(err)
			return
		}
	}
	if !*p.PersistScript {
		c.reply(empty{})
		return
	}
	if c.s.compiled == nil {
		c.s.compiled = make(map[string]*goja.Program)
	}
	c.s.compSeq++
	id := "compiled-" + strconv.Itoa(c.s.compSeq)
	c.s.compiled[id] = prg
	c.reply(struct {
		ScriptID string `json:"scriptId"`
	}{id})
}

// syntaxError answers a compile error as exceptionDetails with a
// SyntaxError of the realm.
func (c *call) syntaxError(err error) {
	text, msg := err.Error(), err.Error()
	line, col := 0, 0
	if se, ok := err.(*goja.CompilerSyntaxError); ok {
		msg = se.Message
		text = "SyntaxError: " + msg
		if se.File != nil {
			pos := se.File.Position(se.Offset)
			line, col = pos.Line-1, pos.Column-1
		}
	}
	details := &exceptionDetails{ExceptionID: c.s.nextExceptionID(), Text: text, LineNumber: line, ColumnNumber: col, ExecutionContextID: c.s.ctx.ID}
	if ctor, ok := goja.AssertConstructor(c.rt.Get("SyntaxError")); ok {
		if ex, err := ctor(nil, c.rt.ToValue(msg)); err == nil {
			details.Exception = c.mirror(ex, "", false)
		}
	}
	c.reply(struct {
		ExceptionDetails *exceptionDetails `json:"exceptionDetails"`
	}{details})
}

// runScript runs a script compileScript kept.
func runScript(c *call) {
	var p struct {
		ScriptID           *string `json:"scriptId"`
		ExecutionContextID *int    `json:"executionContextId"`
		ObjectGroup        string  `json:"objectGroup"`
		ReturnByValue      bool    `json:"returnByValue"`
		AwaitPromise       bool    `json:"awaitPromise"`
	}
	if !c.decode(&p) {
		return
	}
	if p.ScriptID == nil {
		c.missing("scriptId")
		return
	}
	if !c.checkContext(p.ExecutionContextID, nil) {
		return
	}
	prg := c.s.compiled[*p.ScriptID]
	if prg == nil {
		c.failServer("No script with given id")
		return
	}
	defer c.fence()
	v, err := c.rt.RunProgram(prg)
	c.finish(v, err, "", p.ObjectGroup, p.ReturnByValue, p.AwaitPromise)
}
