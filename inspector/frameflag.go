// The frame flag: a statement hook tests a local copy of the global hook
// flag where no call can have run since the copy was taken, so that a
// call-free loop pays a local read per iteration instead of a global lookup.

package inspector

import (
	"slices"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
	"github.com/jsworker/jsworker/internal/astwalk"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// frameFlagName is the var, declared in every function that has a cached
// hook, that holds the value of onName as its last refreshing hook read it.
const frameFlagName = "__jsworker_f"

// A statement hook of a function is either a refreshing one,
// `if (__jsworker_f = __jsworker_on) hit(…)`, or a cached one,
// `if (__jsworker_f) hit(…)`. onName changes only in Go code running on the
// target's thread (Debugger.enable and disable), which JavaScript reaches
// only through a call; so a hook may be cached when no call can have run in
// its frame since the frame's last refreshing hook. The instrumenter judges
// that statically and conservatively (frameFlags): the first hook of a
// function refreshes, a hook right after a call-free statement (callFree) of
// the same list is cached, and every hook inside a call-free statement that
// was itself entered with a valid flag is cached; any other hook refreshes.
// A function with no cached hook keeps the plain `if (__jsworker_on) hit(…)`.
//
// The depth guard's value at a function's entry is the same flag
// (depthguard.Flag, set by setOn with onName), and the guard's call is the
// first thing every guarded function runs anyway; so the function's first
// hook, when it is the body's first statement, reads that value instead of
// the global (the entry hook, fnScope.entry): a function whose body the guard
// try wraps starts with `__jsworker_f = jsworker:depth();` before the try and
// its first hook is cached (entryFlag); an expression-bodied arrow's hook is
// `if (jsworker:depth()) hit(…)` (`__jsworker_f = jsworker:depth()` should
// the arrow have cached hooks); the one-statement fast path tests the call
// itself (unguarded). Rewrite, which runs after the hooks, recognizes these
// calls and inserts no second one. When the entry hook is the only one that
// reads the frame flag, the function's other hooks keep testing the global
// without storing it.
//
// Implicit calls (getters, setters, valueOf, iterators, Proxy traps) are not
// counted: a native function reached that way that enables the Debugger
// synchronously (possible only in a host realm whose host dispatches
// inspector commands from inside a native callback) leaves the frames
// already running with a stale false until their next refreshing hook.

// flagHook records the `if (flag) …` statement of a statement hook of the
// current function, cached or refreshing; finishFunction rewrites its flag.
func (in *instrumenter) flagHook(h *ast.IfStatement, cached bool) {
	if cached {
		in.fn.cachedHooks = append(in.fn.cachedHooks, h)
	} else {
		in.fn.freshHooks = append(in.fn.freshHooks, h)
	}
}

// throwTempName is the var, declared in every function with a throw
// statement, that holds the value being thrown while its hook runs.
const throwTempName = "__jsworker_t"

// finishFunction declares in decls the vars the instrumentation of the
// function fs is the scope of uses: the temporary of its throws, and its
// frame flag if it has a cached hook (then the refreshing hooks assign it) or
// an entry hook that tests it; and it sets the test of the entry hook.
// Every new position is n's start.
func finishFunction(fs *fnScope, decls *[]*ast.VariableDeclaration, n ast.Node) {
	if fs == nil {
		return
	}
	at := n.Idx0()
	if fs.throwTemp {
		*decls = append(*decls, &ast.VariableDeclaration{Var: at, List: []*ast.Binding{{Target: &ast.Identifier{Name: throwTempName, Idx: at}}}})
	}
	flag := func() *ast.Identifier { return &ast.Identifier{Name: frameFlagName, Idx: at} }
	e := fs.entry
	if e != nil { // the body's first hook tests the depth guard's value (entryFlag, concise)
		fs.freshHooks = slices.DeleteFunc(fs.freshHooks, func(h *ast.IfStatement) bool { return h == e })
		if fs.entrySet {
			e.Test = flag()
		} else {
			e.Test = depthguard.Call(e.If)
		}
	}
	if len(fs.cachedHooks) == 0 && !fs.entrySet {
		return
	}
	for _, h := range fs.cachedHooks {
		h.Test = flag()
	}
	if len(fs.cachedHooks) > 0 { // else only the entry hook reads the frame flag: the others need not store it
		for _, h := range fs.freshHooks {
			h.Test = &ast.AssignExpression{Operator: token.ASSIGN, Left: flag(), Right: &ast.Identifier{Name: onName, Idx: at}}
		}
		if e != nil && !fs.entrySet {
			e.Test = &ast.AssignExpression{Operator: token.ASSIGN, Left: flag(), Right: e.Test}
		}
	}
	*decls = append(*decls, &ast.VariableDeclaration{Var: at, List: []*ast.Binding{{Target: flag()}}})
}

// callFree reports whether n contains no explicit call of any kind: no call,
// new, tagged template, await, yield or class definition (which runs
// computed keys, static blocks and the extends clause), not counting what
// nested functions contain.
func callFree(n ast.Node) bool {
	free := true
	astwalk.Inspect(n, func(n ast.Node) bool {
		if !free {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpression, *ast.NewExpression, *ast.AwaitExpression, *ast.YieldExpression, *ast.ClassLiteral:
			free = false
		case *ast.TemplateLiteral:
			free = n.Tag == nil
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			return false
		}
		return free
	})
	return free
}
