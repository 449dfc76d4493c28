package depthguard

import (
	"math/big"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
)

// Positions for what goja throws without recording one.
//
// goja records a source position (a srcMap entry) at the start of most expressions' code, and reports an
// exception at the last entry at or before the instruction that raised it. Two kinds of code raise an error with
// no entry of their own, so the error is reported at whatever position the code before them in the same function
// recorded (the previous statement, the function's start, or 1:1), and at the statement's own hook when the
// inspector instruments it (found by inspector.FuzzInstrument: ` +0n` threw at 1:1 plain, 1:2 instrumented):
//
//   - a constant expression that throws when goja folds it at compile time (`+0n`, `1n + 1`, `1n / 0n`,
//     `2n ** -1n`, `'a' in 1`, `1 instanceof 2`): goja compiles it to `throw new TypeError(…)` (or RangeError)
//     without the entry its if and for statements give the same throw;
//   - a literal consumed by an instruction that throws for it: the initializer of a destructuring pattern
//     (`var {a} = null`, `[b] = 1`), the iterable of a for-of (`for (x of 1)`), the object of a with (`with (null)`),
//     the tag of a tagged template when it is never a function (a literal tag: goja's call of a tag records no
//     position), the null or undefined
//     object of a logical assignment's target (`null.p ??= 1`: goja resolves the target without a position). A
//     literal's code records no position; a name or a call there would.
//
// Rewrite gives each such expression E the position of its own as `[] && E`, with the array literal (whose code
// records its position first) at the place node reports: the operator of the innermost operation that throws
// (for `-(-0n + 1)`, the `+`), or the start of the literal of the second kind (where goja reports a name or a call
// in its place; for a tag, the template's opening quote). E is unchanged and still folded, so the values, the
// error thrown and its message are goja's; the empty array is truthy, so E runs exactly when it ran before. Only
// expressions that throw every time they run are rewritten (for the first kind, goja's own folding run in a
// pooled runtime decides; for the second, the literal's type), so code that does not throw this way compiles to
// the same instructions as before. An instruction without an entry that follows such an expression in the code
// and is reached by another path now inherits the wrap's position where it inherited an earlier one (the `+`
// conversion of `+(x ? b : +0n)` with x true and b a BigInt): both runs alike, in code no program needs.

// positionFolds gives every constant expression under *top that throws when folded its position (the first
// kind above). top holds a unary or binary expression whose parent is neither.
func positionFolds(top *ast.Expression, f *file.File) {
	if !foldable1(*top) {
		return // the common case, `a && b()`, `x + y.z`: nothing to fold
	}
	_, largest := foldTree(top)
	for _, slot := range largest {
		if ev := evalConst(*slot, f); ev.ok && ev.threw {
			innermost(slot, f)
		}
	}
}

// foldable1 reports whether an operand of e, a unary or binary expression, is a literal or an operator: when
// none is, no constant is under e (foldTree would find none), and the walk over a program's operators stops at
// once.
func foldable1(e ast.Expression) bool {
	kids, n := operands(e)
	for _, k := range kids[:n] {
		switch (*k).(type) {
		case *ast.NumberLiteral, *ast.StringLiteral, *ast.BooleanLiteral, *ast.NullLiteral,
			*ast.UnaryExpression, *ast.BinaryExpression:
			return true
		}
	}
	return false
}

// A foldInfo is what foldTree knows of one operator node: whether goja folds it, whether folding it can
// throw (it has a BigInt literal, an in or an instanceof), and the field holding it.
type foldInfo struct {
	konst, cand bool
	slot        *ast.Expression
}

// foldTree returns what it knows of *top, and the fields under *top (top itself included) that hold a largest
// constant expression that may throw when folded, by goja's rules for folding (compiledExpr.constant): a number,
// string, boolean or null literal; a unary operator on one; a binary operator on two; a logical operator on two,
// or on a literal that decides it. It walks with an explicit stack (a long chain of operators cannot overflow the Go stack), in post
// order.
func foldTree(top *ast.Expression) (foldInfo, []*ast.Expression) {
	type frame struct {
		slot *ast.Expression
		done int // how many of the node's operands are done (on infos)
	}
	var out []*ast.Expression
	var stackBuf [8]frame
	var infoBuf [8]foldInfo
	stack, infos := append(stackBuf[:0], frame{slot: top}), infoBuf[:0]
	for len(stack) > 0 {
		fr := &stack[len(stack)-1]
		kids, n := operands(*fr.slot)
		if fr.done < n {
			k := kids[fr.done]
			fr.done++
			stack = append(stack, frame{slot: k})
			continue
		}
		stack = stack[:len(stack)-1]
		ops := infos[len(infos)-n:]
		info := foldOf(*fr.slot, ops)
		info.slot = fr.slot
		if !info.konst {
			for _, k := range ops {
				if k.konst && k.cand {
					out = append(out, k.slot)
				}
			}
		}
		infos = append(infos[:len(infos)-n], info)
	}
	if top := infos[0]; top.konst && top.cand {
		out = append(out, top.slot)
	}
	return infos[0], out
}

// operands returns the fields of e that foldTree descends into (n of them): the operands of a unary or binary
// expression, except under an expression this file already positioned (positioned). An array, not a slice: the
// walks over every operator of a program allocate nothing for it.
func operands(e ast.Expression) (ops [2]*ast.Expression, n int) {
	switch x := e.(type) {
	case *ast.UnaryExpression:
		return [2]*ast.Expression{&x.Operand}, 1
	case *ast.BinaryExpression:
		if positioned(x) {
			return ops, 0
		}
		if _, ok := x.Left.(*ast.PrivateIdentifier); ok {
			return ops, 0
		}
		return [2]*ast.Expression{&x.Left, &x.Right}, 2
	}
	return ops, 0
}

// foldOf is e's foldInfo from its operands' (ops, in order; empty for a leaf).
func foldOf(e ast.Expression, ops []foldInfo) foldInfo {
	switch x := e.(type) {
	case *ast.NumberLiteral:
		_, bigint := x.Value.(*big.Int)
		return foldInfo{konst: true, cand: bigint}
	case *ast.StringLiteral, *ast.BooleanLiteral, *ast.NullLiteral:
		return foldInfo{konst: true}
	case *ast.UnaryExpression:
		if len(ops) == 1 {
			return foldInfo{konst: ops[0].konst, cand: ops[0].cand}
		}
	case *ast.BinaryExpression:
		if len(ops) != 2 {
			return foldInfo{}
		}
		l, r := ops[0], ops[1]
		switch x.Operator {
		case token.LOGICAL_AND, token.LOGICAL_OR, token.COALESCE:
			if l.konst && decides(x.Operator, x.Left) {
				return foldInfo{konst: true, cand: l.cand}
			}
			return foldInfo{konst: l.konst && r.konst, cand: l.cand || r.cand}
		case token.IN, token.INSTANCEOF:
			return foldInfo{konst: l.konst && r.konst, cand: true}
		}
		return foldInfo{konst: l.konst && r.konst, cand: l.cand || r.cand}
	}
	return foldInfo{}
}

// decides reports whether the literal left operand of a logical operator op decides it (goja then folds the
// expression to left without looking at the right operand). Only literals are judged; for any other left operand
// it answers false, which at worst leaves a throwing fold under the right operand unseen.
func decides(op token.Token, left ast.Expression) bool {
	var truthy, nullish bool
	switch l := left.(type) {
	case *ast.NullLiteral:
		nullish = true
	case *ast.BooleanLiteral:
		truthy = l.Value
	case *ast.StringLiteral:
		truthy = l.Value != ""
	case *ast.NumberLiteral:
		switch v := l.Value.(type) {
		case int64:
			truthy = v != 0
		case float64:
			truthy = v == v && v != 0
		case *big.Int:
			truthy = v.Sign() != 0
		default:
			return false
		}
	default:
		return false
	}
	switch op {
	case token.LOGICAL_AND:
		return !truthy
	case token.LOGICAL_OR:
		return truthy
	}
	return !nullish // ??
}

// innermost rewrites the throwing constant expression in *slot: it descends to the innermost operation whose
// fold throws (the operands are folded first, left to right) and wraps that one (wrapAt) at its operator.
//
// Each step down folds an operand again, so a tree of more than maxDescent operators is wrapped at its own
// operator instead (plain and instrumented code still agree; only node's column is not sought).
func innermost(slot *ast.Expression, f *file.File) {
	for operators(*slot, maxDescent+1) <= maxDescent {
		var next *ast.Expression
		kids, n := operands(*slot)
		for _, k := range kids[:n] {
			if !isOperator(*k) {
				continue // a literal: it does not throw
			}
			if info, _ := foldTree(k); !info.cand {
				continue // no BigInt, in or instanceof: it folds without throwing
			}
			if ev := evalConst(*k, f); ev.ok && ev.threw {
				next = k
				break
			}
		}
		if next == nil {
			break
		}
		slot = next
	}
	at := (*slot).Idx0()
	if b, ok := (*slot).(*ast.BinaryExpression); ok {
		at = operatorIdx(b, f)
	}
	*slot = wrapAt(at, *slot)
}

// maxDescent is the largest constant tree innermost descends into.
const maxDescent = 256

// operators counts the unary and binary operators of the tree e, up to limit.
func operators(e ast.Expression, limit int) int {
	n := 0
	stack := []ast.Expression{e}
	for len(stack) > 0 && n < limit {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !isOperator(x) {
			continue
		}
		n++
		kids, m := operands(x)
		for _, k := range kids[:m] {
			stack = append(stack, *k)
		}
	}
	return n
}

// wrapAt is `[] && e` with the array literal at at.
func wrapAt(at file.Idx, e ast.Expression) ast.Expression {
	return &ast.BinaryExpression{Operator: token.LOGICAL_AND, Left: &ast.ArrayLiteral{LeftBracket: at, RightBracket: at}, Right: e}
}

// positioned reports whether b is a wrapAt's `[] && e`: rewriting a program again (or a node the inspector's
// loop copies share) does not wrap it twice.
func positioned(b *ast.BinaryExpression) bool {
	a, ok := b.Left.(*ast.ArrayLiteral)
	return ok && b.Operator == token.LOGICAL_AND && len(a.Value) == 0 && a.LeftBracket == a.RightBracket
}

// operatorIdx is the position of b's operator, which goja's AST does not keep: the first character after the
// left operand that is not white space, a comment or a closing parenthesis. When the text there is not the
// operator (not reached for a parsed program), it is b's start, where goja reports a binary operator's errors.
func operatorIdx(b *ast.BinaryExpression, f *file.File) file.Idx {
	src := f.Source()
	i := int(b.Left.Idx1()) - f.Base()
	end := int(b.Right.Idx0()) - f.Base()
	for i >= 0 && i < end && i < len(src) {
		switch c := src[i]; {
		case c == ')' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := indexFrom(src, "*/", i+2)
			if j < 0 {
				return b.Idx0()
			}
			i = j + 2
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i + 2
			for j < len(src) && src[j] != '\n' && src[j] != '\r' {
				j++
			}
			i = j
		case c >= 0x80: // a Unicode space or line terminator: left to goja's convention
			return b.Idx0()
		default:
			op := b.Operator.String()
			if len(src)-i >= len(op) && src[i:i+len(op)] == op {
				return file.Idx(i + f.Base())
			}
			return b.Idx0()
		}
	}
	return b.Idx0()
}

func indexFrom(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// positionLiteral gives the literal operand in *slot of a destructuring pattern (pattern true: object or array,
// array false for an object pattern), a for-of or a with its position when the consuming instruction throws for
// it every time (the second kind above): a null or undefined for every consumer; for an array pattern and a
// for-of, any value but a string (numbers, booleans, BigInts and regular expressions are not iterable, unless a
// script gives their prototype an iterator: then the rewritten code runs as before, one empty array dearer).
func positionLiteral(slot *ast.Expression, iterates bool, f *file.File) {
	if *slot == nil {
		return
	}
	nullish, str := false, false
	switch x := (*slot).(type) {
	case *ast.NullLiteral:
		nullish = true
	case *ast.StringLiteral:
		str = true
	case *ast.NumberLiteral, *ast.BooleanLiteral, *ast.RegExpLiteral:
	case *ast.UnaryExpression, *ast.BinaryExpression:
		if info, _ := foldTree(slot); !info.konst {
			return
		}
		ev := evalConst(x, f)
		if !ev.ok || ev.threw {
			return // a throwing fold is the first kind's (positionFolds)
		}
		nullish, str = goja.IsNull(ev.v) || goja.IsUndefined(ev.v), isString(ev.v)
	default:
		return
	}
	if nullish || iterates && !str {
		*slot = wrapAt((*slot).Idx0(), *slot)
	}
}

func isString(v goja.Value) bool {
	_, ok := v.Export().(string)
	return ok
}

// positionConsumed applies positionLiteral to the operand n consumes, when n is a destructuring (a binding or an
// assignment of a pattern), a for-of, a with or a logical assignment to a property, and wraps a template's tag
// that is never a function.
func positionConsumed(n ast.Node, f *file.File) {
	switch n := n.(type) {
	case *ast.Binding:
		if pattern, array := isPattern(n.Target); pattern {
			positionLiteral(&n.Initializer, array, f)
		}
	case *ast.AssignExpression:
		if pattern, array := isPattern(n.Left); pattern && n.Operator == token.ASSIGN {
			positionLiteral(&n.Right, array, f)
		}
		switch n.Operator {
		case token.LOGICAL_AND, token.LOGICAL_OR, token.COALESCE: // a logical assignment's target is resolved unpositioned
			switch t := n.Left.(type) {
			case *ast.DotExpression:
				positionLiteral(&t.Left, false, f)
			case *ast.BracketExpression:
				positionLiteral(&t.Left, false, f)
			}
		}
	case *ast.ForOfStatement:
		positionLiteral(&n.Source, true, f)
	case *ast.WithStatement:
		positionLiteral(&n.Object, false, f)
	case *ast.TemplateLiteral:
		if n.Tag != nil && notCallable(n.Tag) {
			n.Tag = wrapAt(n.OpenQuote, n.Tag) // where node reports the call
		}
	}
}

// notCallable reports whether the value of e, a template's tag, is never a function, and e's code records no
// position: a literal, a template without a tag, a constant goja folds, or a comma expression ending in one.
// The tagged call then throws every time, at a position of its own once e is wrapped.
func notCallable(e ast.Expression) bool {
	for {
		switch x := e.(type) {
		case *ast.NumberLiteral, *ast.StringLiteral, *ast.BooleanLiteral, *ast.NullLiteral, *ast.RegExpLiteral:
			return true
		case *ast.TemplateLiteral:
			return x.Tag == nil
		case *ast.UnaryExpression, *ast.BinaryExpression:
			info, _ := foldTree(&e)
			return info.konst
		case *ast.SequenceExpression:
			if len(x.Sequence) == 0 {
				return false
			}
			e = x.Sequence[len(x.Sequence)-1]
		default:
			return false
		}
	}
}

// isOperator reports whether n is a unary or binary expression.
func isOperator(n ast.Node) bool {
	switch n.(type) {
	case *ast.UnaryExpression, *ast.BinaryExpression:
		return true
	}
	return false
}

// isPattern reports whether e is an object or array pattern, and whether it is an array pattern.
func isPattern(e ast.Node) (pattern, array bool) {
	switch e.(type) {
	case *ast.ObjectPattern:
		return true, false
	case *ast.ArrayPattern:
		return true, true
	}
	return false, false
}

// A constEval is what evalConst found: the value, or that folding threw; ok is false when the expression could
// not be evaluated alone (it does not compile by itself).
type constEval struct {
	v         goja.Value
	threw, ok bool
}

// constRealms are the runtimes evalConst folds expressions in: goja folds constants in a runtime of its own too
// (compiler.evalConst), and a constant expression cannot change one.
var constRealms = sync.Pool{New: func() any { return goja.New() }}

// evalConst evaluates e, a constant expression, as goja folds it: compiled alone (goja folds it while
// compiling) and run.
func evalConst(e ast.Expression, f *file.File) (r constEval) {
	defer func() {
		if recover() != nil {
			r = constEval{}
		}
	}()
	prg, err := goja.CompileAST(&ast.Program{Body: []ast.Statement{&ast.ExpressionStatement{Expression: e}}, File: f}, false)
	if err != nil {
		return constEval{}
	}
	rt := constRealms.Get().(*goja.Runtime)
	defer constRealms.Put(rt)
	v, err := rt.RunProgram(prg)
	if err != nil {
		return constEval{threw: true, ok: true}
	}
	return constEval{v: v, ok: true}
}
