package jsonbuiltin

import (
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// circular is V8's message for a cycle: o, reached again under key k, was first written at some depth of the
// stack; the message names the object the circle starts at, the first two and the last link of the path from it,
// and the key that closes the circle.
func (s *serializer) circular(o *goja.Object, k jsonKey) string {
	start := 0
	for i, x := range s.stack {
		if x == o {
			start = i
			break
		}
	}
	var b strings.Builder
	b.WriteString("Converting circular structure to JSON\n    --> starting at object with constructor '")
	b.WriteString(ctorName(o))
	b.WriteString("'")
	line := func(i int) {
		b.WriteString("\n    |     ")
		b.WriteString(s.keyText(s.path[i]))
		b.WriteString(" -> object with constructor '")
		b.WriteString(ctorName(s.stack[i]))
		b.WriteString("'")
	}
	const prefix, postfix = 2, 1
	n := len(s.stack)
	prefixEnd := min(n, start+1+prefix)
	for i := start + 1; i < prefixEnd; i++ {
		line(i)
	}
	if n > prefixEnd+postfix {
		b.WriteString("\n    |     ...")
	}
	for i := max(n-postfix, prefixEnd); i < n; i++ {
		line(i)
	}
	b.WriteString("\n    --- ")
	b.WriteString(s.keyText(k))
	b.WriteString(" closes the circle")
	return b.String()
}

func (s *serializer) keyText(k jsonKey) string {
	if k.kind == keyIndex {
		return "index " + strconv.FormatInt(k.index, 10)
	}
	return "property '" + k.value(s.rt).String() + "'"
}

// ctorName is the name of o's constructor as V8's message gives it: that of the function its constructor
// property holds, "Object" when there is none (or o is a proxy, whose traps the message does not run).
func ctorName(o *goja.Object) string {
	if gojainternal.ObjectKind(o) == gojainternal.KindProxy {
		return "Object"
	}
	if c, ok := o.Get("constructor").(*goja.Object); ok {
		if _, ok := goja.AssertFunction(c); ok {
			if n, ok := c.Get("name").(goja.String); ok && n.String() != "" {
				return n.String()
			}
		}
	}
	return "Object"
}
