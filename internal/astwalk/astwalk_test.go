package astwalk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	gast "github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	gparser "github.com/dop251/goja/parser"
)

// allNodes names every node type of goja/ast. TestAllNodeTypesListed checks
// it against goja/ast's source, TestWalk_Complete that the corpus has each.
var allNodes = []gast.Node{
	&gast.ArrayLiteral{}, &gast.ArrayPattern{}, &gast.ArrowFunctionLiteral{}, &gast.AssignExpression{},
	&gast.AwaitExpression{}, &gast.BadExpression{}, &gast.BadStatement{}, &gast.BinaryExpression{},
	&gast.Binding{}, &gast.BlockStatement{}, &gast.BooleanLiteral{}, &gast.BracketExpression{},
	&gast.BranchStatement{}, &gast.CallExpression{}, &gast.CaseStatement{}, &gast.CatchStatement{},
	&gast.ClassDeclaration{}, &gast.ClassLiteral{}, &gast.ClassStaticBlock{}, &gast.ConditionalExpression{},
	&gast.DebuggerStatement{}, &gast.DoWhileStatement{}, &gast.DotExpression{}, &gast.EmptyStatement{},
	&gast.ExpressionBody{}, &gast.ExpressionStatement{}, &gast.FieldDefinition{}, &gast.ForDeclaration{},
	&gast.ForInStatement{}, &gast.ForIntoExpression{}, &gast.ForIntoVar{}, &gast.ForLoopInitializerExpression{},
	&gast.ForLoopInitializerLexicalDecl{}, &gast.ForLoopInitializerVarDeclList{}, &gast.ForOfStatement{},
	&gast.ForStatement{}, &gast.FunctionDeclaration{}, &gast.FunctionLiteral{}, &gast.Identifier{},
	&gast.IfStatement{}, &gast.LabelledStatement{}, &gast.LexicalDeclaration{}, &gast.MetaProperty{},
	&gast.MethodDefinition{}, &gast.NewExpression{}, &gast.NullLiteral{}, &gast.NumberLiteral{},
	&gast.ObjectLiteral{}, &gast.ObjectPattern{}, &gast.Optional{}, &gast.OptionalChain{},
	&gast.ParameterList{}, &gast.PrivateDotExpression{}, &gast.PrivateIdentifier{}, &gast.Program{},
	&gast.PropertyKeyed{}, &gast.PropertyShort{}, &gast.RegExpLiteral{}, &gast.ReturnStatement{},
	&gast.SequenceExpression{}, &gast.SpreadElement{}, &gast.StringLiteral{}, &gast.SuperExpression{},
	&gast.SwitchStatement{}, &gast.TemplateElement{}, &gast.TemplateLiteral{}, &gast.ThisExpression{},
	&gast.ThrowStatement{}, &gast.TryStatement{}, &gast.UnaryExpression{}, &gast.VariableDeclaration{},
	&gast.VariableStatement{}, &gast.WhileStatement{}, &gast.WithStatement{}, &gast.YieldExpression{},
}

func typeName(n any) string { return reflect.TypeOf(n).Elem().Name() }

// TestAllNodeTypesListed: every struct type goja/ast declares (read from the
// source of the goja version in go.mod) is in allNodes, so a node type goja
// adds fails here until the walker handles it.
func TestAllNodeTypesListed(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "github.com/dop251/goja/ast").Output()
	if err != nil {
		t.Fatalf("go list goja/ast: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	fset := token.NewFileSet()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var declared []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.IsExported() {
				if _, ok := ts.Type.(*ast.StructType); ok {
					declared = append(declared, ts.Name.Name)
				}
			}
			return true
		})
	}
	if len(declared) < 50 {
		t.Fatalf("found only %d struct types in %s", len(declared), dir)
	}
	var listed []string
	for _, n := range allNodes {
		listed = append(listed, typeName(n))
	}
	for _, d := range declared {
		if !slices.Contains(listed, d) {
			t.Errorf("goja/ast declares %s, which the walker does not know (add it to Children, Positions and allNodes)", d)
		}
	}
	for _, l := range listed {
		if !slices.Contains(declared, l) {
			t.Errorf("allNodes lists %s, which goja/ast no longer declares", l)
		}
	}
}

// corpus parses testdata/corpus.js and adds the nodes only a parse error
// makes.
func corpus(t *testing.T) *gast.Program {
	t.Helper()
	src, err := os.ReadFile("testdata/corpus.js")
	if err != nil {
		t.Fatal(err)
	}
	prg, err := gparser.ParseFile(nil, "corpus.js", string(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	prg.Body = append(prg.Body, &gast.BadStatement{From: 1, To: 2},
		&gast.ExpressionStatement{Expression: &gast.BadExpression{From: 3, To: 4}})
	return prg
}

var (
	typeNode = reflect.TypeFor[gast.Node]()
	typeIdx  = reflect.TypeFor[file.Idx]()
	typeFile = reflect.TypeFor[*file.File]()
)

// A nodeKey identifies a node: its address and type (a struct and its first
// field share an address).
type nodeKey struct {
	t reflect.Type
	p uintptr
}

// reflectWalk finds, by reflection over every exported field, every node
// reachable from v (each once) and the address of every file.Idx field in
// them: what a walker with typed field access must reach.
func reflectWalk(v reflect.Value, nodes map[nodeKey]bool, idx map[*file.Idx]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == typeFile {
			return
		}
		k := nodeKey{v.Type(), v.Pointer()}
		if nodes[k] {
			return
		}
		if v.Type().Implements(typeNode) {
			nodes[k] = true
		}
		reflectWalk(v.Elem(), nodes, idx)
	case reflect.Interface:
		if !v.IsNil() {
			reflectWalk(v.Elem(), nodes, idx)
		}
	case reflect.Slice:
		for i := range v.Len() {
			reflectWalk(v.Index(i), nodes, idx)
		}
	case reflect.Struct:
		if v.CanAddr() && v.Addr().Type().Implements(typeNode) {
			nodes[nodeKey{v.Addr().Type(), v.Addr().Pointer()}] = true
		}
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			f := v.Field(i)
			if f.Type() == typeIdx {
				idx[f.Addr().Interface().(*file.Idx)] = true
				continue
			}
			reflectWalk(f, nodes, idx)
		}
	}
}

// TestWalk_Complete: Inspect over the corpus visits every node a reflective
// walk finds, each exactly once, among them every node type; Positions gives
// every file.Idx field of them.
func TestWalk_Complete(t *testing.T) {
	prg := corpus(t)
	wantNodes := make(map[nodeKey]bool)
	wantIdx := make(map[*file.Idx]bool)
	reflectWalk(reflect.ValueOf(prg), wantNodes, wantIdx)

	got := make(map[nodeKey]int)
	gotIdx := make(map[*file.Idx]int)
	types := make(map[string]bool)
	Inspect(prg, func(n gast.Node) bool {
		v := reflect.ValueOf(n)
		got[nodeKey{v.Type(), v.Pointer()}]++
		types[typeName(n)] = true
		Positions(n, func(p *file.Idx) { gotIdx[p]++ })
		return true
	})
	for k, c := range got {
		if c != 1 {
			t.Errorf("%v at %#x visited %d times", k.t, k.p, c)
		}
		if !wantNodes[k] {
			t.Errorf("%v at %#x visited, not in the tree", k.t, k.p)
		}
	}
	for k := range wantNodes {
		if got[k] == 0 {
			t.Errorf("%v at %#x not visited", k.t, k.p)
		}
	}
	for p, c := range gotIdx {
		if c != 1 || !wantIdx[p] {
			t.Errorf("position %p given %d times (in the tree: %v)", p, c, wantIdx[p])
		}
	}
	for p := range wantIdx {
		if gotIdx[p] == 0 {
			t.Errorf("position %p (value %d) not given", p, *p)
		}
	}
	for _, n := range allNodes {
		if !types[typeName(n)] {
			t.Errorf("the corpus has no %s", typeName(n))
		}
	}
	t.Logf("%d nodes, %d positions, %d node types", len(got), len(gotIdx), len(types))
}

// TestChildren_Replace: a List or Slot stored through replaces the field.
func TestChildren_Replace(t *testing.T) {
	prg, err := gparser.ParseFile(nil, "x.js", "if (a) b; else c;", 0)
	if err != nil {
		t.Fatal(err)
	}
	empty := &gast.EmptyStatement{Semicolon: 1}
	Children(prg, func(c Child) {
		if c.List == nil || len(*c.List) != 1 {
			t.Fatalf("program child %+v, want its body", c)
		}
		*c.List = append(*c.List, empty)
	})
	if len(prg.Body) != 2 || prg.Body[1] != empty {
		t.Fatalf("body %v", prg.Body)
	}
	ifs := prg.Body[0].(*gast.IfStatement)
	var slots int
	Children(ifs, func(c Child) {
		if c.Slot != nil {
			if *c.Slot != c.Node {
				t.Errorf("slot holds %v, child %v", *c.Slot, c.Node)
			}
			*c.Slot = empty
			slots++
		}
	})
	if slots != 2 || ifs.Consequent != empty || ifs.Alternate != empty {
		t.Fatalf("%d slots; if %+v", slots, ifs)
	}
}

// TestChildren_Nil: nil nodes, typed or not, and unknown types have no
// children and no positions.
func TestChildren_Nil(t *testing.T) {
	for _, n := range []gast.Node{nil, (*gast.Program)(nil), (*gast.FunctionLiteral)(nil), (*gast.Identifier)(nil)} {
		Children(n, func(c Child) { t.Errorf("%T: child %v", n, c) })
		Positions(n, func(p *file.Idx) { t.Errorf("%T: position", n) })
	}
	Inspect(nil, func(gast.Node) bool { t.Error("nil visited"); return true })
}
