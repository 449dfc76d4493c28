package inspector

import "github.com/dop251/goja/ast"

// redeclaresParam reports whether a let, const or class declared directly in a function body has the name of one of
// the function's parameters: an early error goja reports when it compiles the function ("Identifier 'x' has already
// been declared"). guard leaves such a body alone, because inside its try block the declaration would be legal and
// the instrumented program would compile where the plain one does not (FuzzInstrument's 1a5b12b2ff2d7889); the
// program fails to compile either way, with goja's own error.
func redeclaresParam(pl *ast.ParameterList, body []ast.Statement) bool {
	if pl == nil || (len(pl.List) == 0 && pl.Rest == nil) {
		return false
	}
	names := map[string]bool{}
	for _, b := range pl.List {
		patternNames(names, b.Target)
	}
	patternNames(names, pl.Rest)
	for _, st := range body {
		switch st := st.(type) {
		case *ast.LexicalDeclaration:
			for _, b := range st.List {
				declared := map[string]bool{}
				patternNames(declared, b.Target)
				for n := range declared {
					if names[n] {
						return true
					}
				}
			}
		case *ast.ClassDeclaration:
			if st.Class != nil && st.Class.Name != nil && names[string(st.Class.Name.Name)] {
				return true
			}
		}
	}
	return false
}

// patternNames adds the names a binding target (an identifier, or an object or array pattern with defaults and
// rests) binds.
func patternNames(into map[string]bool, target ast.Node) {
	switch t := target.(type) {
	case *ast.Identifier:
		if t != nil {
			into[string(t.Name)] = true
		}
	case *ast.ObjectPattern:
		if t == nil {
			return
		}
		for _, p := range t.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				into[string(p.Name.Name)] = true
			case *ast.PropertyKeyed:
				patternNames(into, p.Value)
			}
		}
		patternNames(into, t.Rest)
	case *ast.ArrayPattern:
		if t == nil {
			return
		}
		for _, e := range t.Elements {
			patternNames(into, e)
		}
		patternNames(into, t.Rest)
	case *ast.AssignExpression:
		if t != nil {
			patternNames(into, t.Left)
		}
	case *ast.Binding:
		if t != nil {
			patternNames(into, t.Target)
		}
	}
}
