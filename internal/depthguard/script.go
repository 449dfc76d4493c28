package depthguard

import (
	"errors"
	"strings"

	"github.com/dop251/goja"
)

// IsParserFailure reports whether err, from Parse or Compile, says that goja's parser panicked on the text (rather
// than reporting a syntax error in it).
func IsParserFailure(err error) bool {
	var se *goja.CompilerSyntaxError
	return errors.As(err, &se) && se.File == nil && strings.Contains(se.Message, parserFailed)
}

// RunScript is rt.RunScript — src compiled unguarded — for the paths that hand goja a text Compile refused, or
// that run a text as goja would: a syntax error is reported as goja reports its own, and a text goja's parser
// panics on returns the realm's SyntaxError exception (goja's, as for any syntax error; message "SyntaxError: NAME:
// the parser failed: …") instead of panicking on the realm's goroutine. A text that parses is compiled with its
// dead-code jumps fixed (CompileUnguarded), which goja's compiler would miscompile or panic on.
//
// A text that contains an async function or a generator has the realm's guard guard AsyncFunction and
// GeneratorFunction first (EnsureFunctionKinds), as Rewrite's programs do.
func RunScript(rt *goja.Runtime, name, src string) (goja.Value, error) {
	tree, err := Parse(name, src)
	if IsTooDeep(err) {
		return nil, TooDeepException(rt) // V8's RangeError; goja's RunScript would overflow the Go stack on the text
	}
	if IsParserFailure(err) {
		return nil, SyntaxException(rt, name, err)
	}
	var prg *goja.Program
	if err == nil {
		FixDeadJumps(tree)
		prg, err = goja.CompileAST(tree, false)
	}
	if err != nil {
		return rt.RunScript(name, src) // goja's own exception for the syntax error
	}
	if MakesFunctionKinds(tree) {
		if err := EnsureFunctionKinds(rt); err != nil {
			return nil, err
		}
	}
	return rt.RunProgram(prg)
}

// SyntaxException returns the exception goja's RunScript returns for a syntax error in a script named name, with
// err's text (err.Error()) as its message: goja's own SyntaxError (the one goja makes for the text "("), so that
// instanceof, the constructor and the stack are those of any other syntax error of the realm.
func SyntaxException(rt *goja.Runtime, name string, err error) error {
	_, e := rt.RunScript(name, "(")
	var ex *goja.Exception
	if !errors.As(e, &ex) {
		return err // not reached: "(" is a syntax error for goja
	}
	if o, ok := ex.Value().(*goja.Object); ok {
		_ = o.Set("message", err.Error())
	}
	return ex
}
