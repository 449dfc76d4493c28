package depthguard

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// goja compiles code it knows is dead in "dummy mode" (compiler.enterDummyMode): into a throw-away program, under a
// shallow copy of the innermost block whose outer link is the real enclosing block. A break or continue in that code
// that targets a block beyond the copy (a labelled outer loop; any loop when the innermost block is a let/const scope
// or a switch) is added to the real block's jump list with an offset in the throw-away program, and patching it
// writes into the real code: a Go panic (index out of range), a wrong ReferenceError, or silently wrong jumps.
// goja takes that path for an if, while or for whose test folds to a constant (a literal, or unary, binary and
// logical operators on literals), and for the statements after a break or continue in a statement list.
//
// Rewrite keeps both out of dummy mode, only where such a jump exists:
//
//   - a foldable test of an if, while or for whose branch or body holds a break or continue that leaves it becomes a
//     one-element sequence expression: goja folds no sequence (compiledSequenceExpr has baseCompiledExpr's constant,
//     false), a one-element sequence compiles to exactly its element's code, and the node's positions are the
//     element's, so values, side effects, Error.stack and breakpoints stay;
//   - in the statements that follow a break or continue in the same list, which can never run, every break or
//     continue that leaves them becomes an empty statement. Everything else stays: their var and function
//     declarations are still hoisted, their let and const still bind in the list's scope. The parser has already
//     checked every label and every break and continue's place, so no syntax error is lost.

// unfoldTest makes the test of n, an if, while or for statement, one goja does not fold, when it would fold and a
// jump out of the code goja would then compile in dummy mode exists. It reports whether it changed n.
func unfoldTest(n ast.Node) bool {
	switch s := n.(type) {
	case *ast.IfStatement:
		if foldable(s.Test) && (leaves(s.Consequent, 0) || s.Alternate != nil && leaves(s.Alternate, 0)) {
			s.Test = unfolded(s.Test)
			return true
		}
	case *ast.WhileStatement:
		if foldable(s.Test) && leaves(s.Body, 1) {
			s.Test = unfolded(s.Test)
			return true
		}
	case *ast.ForStatement:
		if s.Test != nil && foldable(s.Test) && leaves(s.Body, 1) {
			s.Test = unfolded(s.Test)
			return true
		}
	}
	return false
}

// unfolded is e as a one-element sequence expression, which goja compiles as e but never folds.
func unfolded(e ast.Expression) ast.Expression {
	return &ast.SequenceExpression{Sequence: []ast.Expression{e}}
}

// foldable reports whether goja may fold e to a constant (its compiledExpr.constant): a number, string, boolean or
// null literal, a unary operator on one, a binary operator on two, a logical operator whose left operand is one
// (goja folds `1 || x` without looking at x). It may answer true for an expression goja does not fold (a unary
// typeof, say): that only unfolds a test that needed no unfolding.
func foldable(e ast.Expression) bool {
	for {
		switch x := e.(type) {
		case *ast.NumberLiteral, *ast.StringLiteral, *ast.BooleanLiteral, *ast.NullLiteral:
			return true
		case *ast.UnaryExpression:
			e = x.Operand
		case *ast.BinaryExpression:
			switch x.Operator {
			case token.LOGICAL_AND, token.LOGICAL_OR, token.COALESCE:
			default:
				if !foldable(x.Right) {
					return false
				}
			}
			e = x.Left
		default:
			return false
		}
	}
}

// A label is one of the labels a walk has passed, innermost first.
type label struct {
	name string
	next *label
}

func (l *label) has(name string) bool {
	for ; l != nil; l = l.next {
		if l.name == name {
			return true
		}
	}
	return false
}

// A region is one statement of a walk for jumps: the loops, switches and labels around it inside the walked code,
// and the field holding it (nil for the walk's root).
type region struct {
	st       ast.Node
	slot     *ast.Statement
	loops    int
	switches int
	labels   *label
}

// jumps calls f for every break and continue in root (not in nested functions or classes) that jumps out of root,
// with the field holding it (slot for root itself; nil for one no field of statement type holds); root sits in loops
// loops of the walked code. It walks with an explicit stack, so that deeply nested code does not overflow the Go
// stack; it stops early when f returns false.
func jumps(root ast.Statement, slot *ast.Statement, loops int, f func(b *ast.BranchStatement, slot *ast.Statement) bool) {
	stack := []region{{st: root, slot: slot, loops: loops}}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch s := r.st.(type) {
		case *ast.BranchStatement:
			out := false
			switch {
			case s.Label != nil:
				out = !r.labels.has(string(s.Label.Name))
			case s.Token == token.CONTINUE:
				out = r.loops == 0
			default:
				out = r.loops == 0 && r.switches == 0
			}
			if out && !f(s, r.slot) {
				return
			}
			continue
		case *ast.ForStatement, *ast.ForInStatement, *ast.ForOfStatement, *ast.WhileStatement, *ast.DoWhileStatement:
			r.loops++
		case *ast.SwitchStatement:
			r.switches++
		case *ast.LabelledStatement:
			r.labels = &label{name: string(s.Label.Name), next: r.labels}
		}
		astwalk.Children(r.st, func(c astwalk.Child) {
			// A jump is a statement, and expressions hold statements only in functions and classes, where no jump
			// can leave: statement children are all there is to walk.
			push := func(st ast.Node, slot *ast.Statement) {
				stack = append(stack, region{st: st, slot: slot, loops: r.loops, switches: r.switches, labels: r.labels})
			}
			switch {
			case c.List != nil:
				list := *c.List
				for i := len(list) - 1; i >= 0; i-- {
					push(list[i], &list[i])
				}
			case c.Slot != nil:
				push(*c.Slot, c.Slot)
			default:
				if _, isExpr := c.Node.(ast.Expression); !isExpr {
					push(c.Node, nil) // a case clause, a catch clause, a try's blocks, declarations
				}
			}
		})
	}
}

// leaves reports whether root, in loops loops of the walked code, holds a break or continue that jumps out of it.
func leaves(root ast.Statement, loops int) bool {
	found := false
	jumps(root, nil, loops, func(*ast.BranchStatement, *ast.Statement) bool {
		found = true
		return false
	})
	return found
}

// dropDeadJumps replaces, in the statements of list after its first break or continue, every break or continue
// that jumps out of them by an empty statement at its position. It reports whether it changed the list.
func dropDeadJumps(list []ast.Statement) bool {
	first := -1
	for i, st := range list {
		if _, ok := st.(*ast.BranchStatement); ok {
			first = i
			break
		}
	}
	if first < 0 {
		return false
	}
	changed := false
	for i := first + 1; i < len(list); i++ {
		jumps(list[i], &list[i], 0, func(b *ast.BranchStatement, slot *ast.Statement) bool {
			if slot == nil {
				return true // not seen: jumps sit in statement lists and statement fields
			}
			*slot = &ast.EmptyStatement{Semicolon: b.Idx}
			changed = true
			return true
		})
	}
	return changed
}
