// Loop twins: a call-free loop of a function, entered with a valid frame
// flag, runs as `if (__jsworker_f) { instrumented loop } else { plain loop }`,
// so that with no session its iterations pay no hook at all.

package inspector

import (
	"reflect"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/jsworker/jsworker/internal/astwalk"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// The frame flag of a function cannot change while a call-free statement
// runs (frameflag.go): only Go code reached through a call changes onName.
// So every cached hook inside a call-free loop tests the same value the
// hook before the loop tested, and the loop may as well run without them
// when that value is false. The plain copy is the loop as parsed: a second
// parse of the script's source (made once, the first time a script has a
// loop to copy) gives a tree with the same positions, in which the loop is
// found by its position and kind. Error.stack, toString and every position
// stay those of the plain compilation.

// twinKey identifies a statement of the source by its span and kind.
type twinKey struct {
	from, to file.Idx
	kind     reflect.Type
}

// twinnable reports whether st is a loop whose plain copy may stand in for
// its instrumented one while the frame flag is false: a for, while or
// do-while loop with no function, class, throw or try in it (their hooks
// and guards matter with the flag off too, or they would be instrumented
// in one copy only). st must be call-free (callFree) and entered with a
// valid frame flag; only scripts compiled from their own source (not
// module code, whose tree a transform changed) have loop twins.
func (in *instrumenter) twinnable(st ast.Statement) bool {
	if in.fn == nil || in.skip != nil || in.s.module {
		return false
	}
	switch st.(type) {
	case *ast.ForStatement, *ast.WhileStatement, *ast.DoWhileStatement:
	default:
		return false
	}
	ok := true
	astwalk.Inspect(st, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral, *ast.ThrowStatement, *ast.TryStatement:
			ok = false
		}
		return ok
	})
	return ok
}

// twin returns the plain copy of the statement of the source with span
// [from, to) and kind like st's, or nil.
func (in *instrumenter) twin(st ast.Statement, from, to file.Idx) ast.Statement {
	if in.twins == nil {
		in.twins = map[twinKey]ast.Statement{}
		prg, err := depthguard.Parse(in.s.file, in.s.source)
		if err != nil {
			return nil
		}
		astwalk.Inspect(prg, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ForStatement, *ast.WhileStatement, *ast.DoWhileStatement:
				s := n.(ast.Statement)
				in.twins[twinKey{s.Idx0(), s.Idx1(), reflect.TypeOf(n)}] = s
			}
			return true
		})
	}
	return in.twins[twinKey{from, to, reflect.TypeOf(st)}]
}

// withTwin returns st, instrumented, as `if (__jsworker_f) st else plain`
// when it has a plain copy (plain, found before st was walked), else st. The
// test is a cached hook's flag (finishFunction declares it).
func (in *instrumenter) withTwin(st, plain ast.Statement) ast.Statement {
	if plain == nil {
		return st
	}
	idx := st.Idx0()
	h := &ast.IfStatement{If: idx, Test: &ast.Identifier{Name: onName, Idx: idx}, Consequent: st, Alternate: plain}
	in.fn.cachedHooks = append(in.fn.cachedHooks, h)
	return h
}
