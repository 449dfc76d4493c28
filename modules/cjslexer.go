package modules

import (
	"strconv"
	"strings"
)

// The names an ES module may import from a CommonJS module besides its
// default (module.exports) are those Node's cjs-module-lexer finds in the
// source without running it. cjsNames finds the same common forms:
//
//	exports.a = …            module.exports.a = …       exports['a'] = …
//	Object.defineProperty(exports, 'a', …)     (also of module.exports)
//	module.exports = { a, b: …, 'c': …, ...require('./x') }
//	module.exports = require('./x')            (a re-export: x's names too)
//
// It is a lexer, not a parser: strings, templates, comments and regular
// expressions are skipped, so names inside them are never taken.

// A lexToken is one token of the lexer: an identifier or keyword, a string literal (str
// holds its value), or one punctuator character.
type lexToken struct {
	kind byte // 'i' identifier, 's' string, 'p' punctuator
	text string
	str  string
}

// lex splits src into tokens. Template literals and regular expressions
// become a single 's' token with no value; numbers become 'i' tokens.
func lex(src string) []lexToken {
	var out []lexToken
	i, n := 0, len(src)
	regexOK := func() bool { // can a '/' here start a regular expression?
		if len(out) == 0 {
			return true
		}
		t := out[len(out)-1]
		switch t.kind {
		case 's':
			return false
		case 'i':
			switch t.text {
			case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
				return true
			}
			return false
		}
		return t.text != ")" && t.text != "]" && t.text != "}"
	}
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '\'' || c == '"':
			j := i + 1
			for j < n && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			raw := src[i:min(j+1, n)]
			v, err := strconv.Unquote(`"` + strings.ReplaceAll(raw[1:max(1, len(raw)-1)], `"`, `\"`) + `"`)
			if err != nil {
				v = raw[1:max(1, len(raw)-1)]
			}
			out = append(out, lexToken{kind: 's', text: raw, str: v})
			i = j + 1
		case c == '`':
			i = skipTemplate(src, i+1)
			out = append(out, lexToken{kind: 's', text: "`"})
		case c == '/' && regexOK():
			j, inClass := i+1, false
			for j < n && src[j] != '\n' {
				if src[j] == '\\' {
					j += 2
					continue
				}
				if src[j] == '[' {
					inClass = true
				} else if src[j] == ']' {
					inClass = false
				} else if src[j] == '/' && !inClass {
					break
				}
				j++
			}
			j++
			for j < n && isIdentChar(src[j]) {
				j++
			}
			out = append(out, lexToken{kind: 's', text: "/"})
			i = j
		case isIdentChar(c) || c >= 0x80:
			j := i
			for j < n && (isIdentChar(src[j]) || src[j] >= 0x80) {
				j++
			}
			out = append(out, lexToken{kind: 'i', text: src[i:j]})
			i = j
		case c == '.' && i+2 < n && src[i+1] == '.' && src[i+2] == '.':
			out = append(out, lexToken{kind: 'p', text: "..."})
			i += 3
		case c == '=' && i+1 < n && (src[i+1] == '=' || src[i+1] == '>'):
			out = append(out, lexToken{kind: 'p', text: src[i : i+2]})
			i += 2
		default:
			out = append(out, lexToken{kind: 'p', text: string(c)})
			i++
		}
	}
	return out
}

// skipTemplate returns the offset after the template literal whose body
// starts at i, nested substitutions included.
func skipTemplate(src string, i int) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
		case '`':
			return i + 1
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				depth := 1
				i += 2
				for i < len(src) && depth > 0 {
					switch src[i] {
					case '{':
						depth++
					case '}':
						depth--
					case '`':
						i = skipTemplate(src, i+1) - 1
					case '\'', '"':
						q := src[i]
						for i++; i < len(src) && src[i] != q; i++ {
							if src[i] == '\\' {
								i++
							}
						}
					}
					i++
				}
				continue
			}
			i++
		default:
			i++
		}
	}
	return i
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// cjsNames returns the export names found in a CommonJS source and the
// specifiers it re-exports (module.exports = require(…), or a spread of
// one in an object literal assigned to module.exports).
func cjsNames(src string) (names, reexports []string) {
	t := lex(src)
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	is := func(i int, text string) bool { return i >= 0 && i < len(t) && t[i].kind != 's' && t[i].text == text }
	isStr := func(i int) bool { return i < len(t) && t[i].kind == 's' && t[i].text != "`" && t[i].text != "/" }
	// exportsAt reports whether t[i:] is `exports` or `module.exports`, not
	// a property of something else, and returns the index after it.
	exportsAt := func(i int) (int, bool) {
		if is(i-1, ".") {
			return 0, false
		}
		if is(i, "exports") {
			return i + 1, true
		}
		if is(i, "module") && is(i+1, ".") && is(i+2, "exports") {
			return i + 3, true
		}
		return 0, false
	}
	requireCall := func(i int) (string, int, bool) { // require('x')
		if is(i, "require") && is(i+1, "(") && isStr(i+2) && is(i+3, ")") {
			return t[i+2].str, i + 4, true
		}
		return "", 0, false
	}
	for i := 0; i < len(t); i++ {
		if is(i, "Object") && is(i+1, ".") && is(i+2, "defineProperty") && is(i+3, "(") {
			if j, ok := exportsAt(i + 4); ok && is(j, ",") && isStr(j+1) {
				add(t[j+1].str)
			}
			continue
		}
		j, ok := exportsAt(i)
		if !ok {
			continue
		}
		switch {
		case is(j, ".") && j+1 < len(t) && t[j+1].kind == 'i' && is(j+2, "="):
			add(t[j+1].text)
		case is(j, "[") && isStr(j+1) && is(j+2, "]") && is(j+3, "="):
			add(t[j+1].str)
		case is(j, "=") && j == i+3: // module.exports = …
			if spec, _, ok := requireCall(j + 1); ok {
				reexports = append(reexports, spec)
			} else if is(j+1, "{") {
				objectNames(t, j+2, add, func(s string) { reexports = append(reexports, s) }, requireCall)
			}
		}
	}
	return names, reexports
}

// objectNames reads the keys of the object literal whose first token is
// t[i]: shorthand names, and keys (names or strings) whose value is a plain
// identifier, and spreads of require('x') (re-exports). It stops at the first
// entry of any other form, as the lexer Node uses does (so of
// { a, b: [1], c } only a is taken).
func objectNames(t []lexToken, i int, add, reexport func(string), requireCall func(int) (string, int, bool)) {
	isStr := func(j int) bool { return j < len(t) && t[j].kind == 's' && t[j].text != "`" && t[j].text != "/" }
	at := func(j int, s string) bool { return j < len(t) && t[j].kind == 'p' && t[j].text == s }
	ident := func(j int) bool { return j < len(t) && t[j].kind == 'i' }
	for i < len(t) {
		switch {
		case ident(i) && (at(i+1, ",") || at(i+1, "}")):
			add(t[i].text)
			i++
		case (ident(i) || isStr(i)) && at(i+1, ":") && ident(i+2) && (at(i+3, ",") || at(i+3, "}")):
			name := t[i].text
			if t[i].kind == 's' {
				name = t[i].str
			}
			add(name)
			i += 3
		case at(i, "..."):
			spec, j, ok := requireCall(i + 1)
			if !ok {
				return
			}
			reexport(spec)
			i = j
		default:
			return
		}
		if !at(i, ",") {
			return
		}
		i++
	}
}

// hasModuleSyntax reports whether src has ES module syntax: an import or
// export declaration at the top level, or import.meta. Node 22 runs a .js
// file with no package.json "type" as an ES module then.
func hasModuleSyntax(src string) bool {
	t := lex(src)
	depth := 0
	for i, tk := range t {
		if tk.kind == 'p' {
			switch tk.text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			continue
		}
		if tk.kind != 'i' || i > 0 && t[i-1].text == "." {
			continue
		}
		next := ""
		if i+1 < len(t) {
			next = t[i+1].text
			if t[i+1].kind == 's' {
				next = "'"
			}
		}
		switch {
		case tk.text == "import" && next == "." && i+2 < len(t) && t[i+2].text == "meta":
			return true
		case depth == 0 && tk.text == "import" && next != "(" && next != "." && next != "":
			return true
		case depth == 0 && tk.text == "export" && (next == "{" || next == "*" || next == "default" ||
			next == "const" || next == "let" || next == "var" || next == "function" || next == "class" ||
			next == "async"):
			return true
		}
	}
	return false
}

// anonymousDefault reports whether src has `export default` of an anonymous function, class or arrow function,
// whose name in Node is "default" (esbuild names the binding it makes for it, such as m_default).
func anonymousDefault(src string) bool {
	t := lex(src)
	for i := 0; i+3 < len(t); i++ {
		if t[i].text != "export" || t[i+1].text != "default" || t[i].kind != 'i' || i > 0 && t[i-1].text == "." {
			continue
		}
		j := i + 2
		if t[j].text == "async" {
			j++
		}
		a, b := t[j].text, ""
		if j+1 < len(t) {
			b = t[j+1].text
		}
		switch {
		case a == "function" && (b == "(" || b == "*" && j+2 < len(t) && t[j+2].text == "("),
			a == "class" && (b == "{" || b == "extends"),
			a == "(",
			t[j].kind == 'i' && b == "=>":
			return true
		}
	}
	return false
}

// HasDynamicImport reports whether src has an import() call. goja parses no
// import(): a CommonJS program that has one must run through a Realm (whose
// CommonJS modules lower it) rather than as a plain script.
func HasDynamicImport(src string) bool {
	if !strings.Contains(src, "import") {
		return false
	}
	t := lex(src)
	for i := 0; i+1 < len(t); i++ {
		if t[i].kind == 'i' && t[i].text == "import" && t[i+1].text == "(" && (i == 0 || t[i-1].text != ".") {
			return true
		}
	}
	return false
}

// HasAsyncIteration reports whether src has a for await loop or an async
// generator (async function*, async *method), which goja does not parse:
// like import(), a CommonJS program that has one runs through a Realm, whose
// CommonJS modules have esbuild lower them (positions mapped back to the
// source).
func HasAsyncIteration(src string) bool {
	if !strings.Contains(src, "await") && !strings.Contains(src, "async") {
		return false
	}
	t := lex(src)
	for i := 0; i+1 < len(t); i++ {
		if t[i].kind != 'i' || (i > 0 && t[i-1].text == ".") {
			continue
		}
		switch {
		case t[i].text == "for" && t[i+1].kind == 'i' && t[i+1].text == "await":
			return true
		case t[i].text == "async" && t[i+1].text == "*":
			return true
		case t[i].text == "async" && t[i+1].text == "function" && i+2 < len(t) && t[i+2].text == "*":
			return true
		}
	}
	return false
}
