package inspector

import (
	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
)

// CompileModule instruments and compiles one ES module of an inspectable
// module worker; it has the shape of modules.Instrumenter. prg is the
// module's transformed code (a wrapper function), parsed, with every
// position already moved to source, the module's original text (prg.File
// holds source under the name url). The module becomes a script of its own:
// url is its URL (Debugger.scriptParsed, with isModule true, and the
// breakpoints set by URL), getScriptSource answers source, and breakpoints
// and pauses are in source's coordinates, TypeScript included. Statements
// for which skip reports true (code the transform generated) get no hook:
// no breakpoint resolves to them and stepping does not stop in them.
//
// Like Compile, it is called on the target's thread or before it starts; a
// session with the domain enabled gets scriptParsed at once, and URL
// breakpoints set before resolve in the new script. The program is compiled
// in strict mode (module code is strict). Errors are goja's
// (*goja.CompilerSyntaxError).
func (d *Debugger) CompileModule(url, source string, prg *ast.Program, skip func(ast.Statement) bool) (*goja.Program, error) {
	sc := d.newScript(url, source)
	sc.module = true
	return d.instrument(sc, prg, true, skip)
}
