package modules

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Conditions of package.json "exports" and "imports" that Node matches,
// in the order it prefers them (the package's key order decides).
var (
	// ImportConditions are the conditions of import and import().
	ImportConditions = []string{"import", "node", "node-addons", "default"}
	// RequireConditions are the conditions of require() and require.resolve.
	RequireConditions = []string{"require", "node", "node-addons", "default"}
)

// nodeExtensions are tried after the exact path of a relative, absolute or
// main specifier that names no file, and for index files: Node's CommonJS
// list (.js, .json) then the other extensions jsworker loads.
var nodeExtensions = []string{".js", ".json", ".mjs", ".cjs", ".ts", ".mts", ".cts"}

// A Resolver resolves and loads modules as Node does, from the file system:
// relative and absolute paths and file: URLs (with the extensions and
// directory index files Node's CommonJS tries), bare specifiers through
// node_modules directories (package.json "exports" with conditions and
// subpath patterns, else "main", else index files), "#" specifiers through
// the package's "imports", and the module format of each file (Format).
// It caches the package.json files it reads; it is safe for concurrent
// use.
type Resolver struct {
	pkgs *pkgCache
}

// NewResolver returns a Resolver with an empty package.json cache.
func NewResolver() *Resolver { return &Resolver{pkgs: newPkgCache()} }

// Loader returns a Loader that resolves with the given conditions
// (ImportConditions for import, RequireConditions for require).
func (r *Resolver) Loader(conditions []string) Loader {
	return func(specifier, referrer string) (string, string, error) {
		p, err := r.Resolve(specifier, referrer, conditions)
		if err != nil {
			return "", "", err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return "", "", err
		}
		return p, string(b), nil
	}
}

// Resolve returns the absolute path of the file specifier names for the
// module at referrer (a file path; its directory is where the search
// starts). Not found is an error wrapping ErrNotFound.
func (r *Resolver) Resolve(specifier, referrer string, conditions []string) (string, error) {
	base := filepath.Dir(referrer)
	if !filepath.IsAbs(base) {
		if abs, err := filepath.Abs(base); err == nil {
			base = abs
		}
	}
	spec := specifier
	if strings.HasPrefix(spec, "file:") {
		u, err := url.Parse(spec)
		if err != nil || u.Path == "" {
			return "", fmt.Errorf("%w: %s (not a file URL)", ErrNotFound, spec)
		}
		spec = u.Path
	}
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") ||
		filepath.IsAbs(spec):
		p := spec
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		if f, ok := r.fileOrDir(filepath.Clean(p)); ok {
			return f, nil
		}
		return "", fmt.Errorf("%w: %s", ErrNotFound, filepath.Clean(p))
	case strings.HasPrefix(spec, "#"):
		return r.resolveImports(spec, base, conditions)
	}
	return r.resolvePackage(spec, base, conditions)
}

// isFile reports whether p is a regular file (after symlinks).
func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// findFile tries p, then p with each extension.
func findFile(p string) (string, bool) {
	if isFile(p) {
		return p, true
	}
	for _, ext := range nodeExtensions {
		if isFile(p + ext) {
			return p + ext, true
		}
	}
	return "", false
}

// fileOrDir tries p as a file, then as a directory: its package.json
// "main" (as a file, then as a directory's index), then its index files.
func (r *Resolver) fileOrDir(p string) (string, bool) {
	if f, ok := findFile(p); ok {
		return f, true
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return "", false
	}
	if pkg, _ := r.pkgs.read(p); pkg != nil && pkg.main != "" {
		m := filepath.Join(p, pkg.main)
		if f, ok := findFile(m); ok {
			return f, true
		}
		if f, ok := index(m); ok {
			return f, true
		}
	}
	return index(p)
}

// index tries dir/index with each extension.
func index(dir string) (string, bool) {
	for _, ext := range nodeExtensions {
		if f := filepath.Join(dir, "index"+ext); isFile(f) {
			return f, true
		}
	}
	return "", false
}

// splitPackage splits a bare specifier into the package name ("a",
// "@scope/a") and the subpath ("." or "./rest").
func splitPackage(spec string) (name, sub string, ok bool) {
	parts := strings.SplitN(spec, "/", 3)
	n := 1
	if strings.HasPrefix(spec, "@") {
		if len(parts) < 2 || parts[1] == "" {
			return "", "", false
		}
		n = 2
	}
	name = strings.Join(parts[:min(n, len(parts))], "/")
	if name == "" || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `\%`) {
		return "", "", false
	}
	sub = "." + strings.TrimPrefix(spec, name)
	return name, sub, true
}

// resolvePackage looks for the package in node_modules of base and of each
// directory above it, as Node does, trying the package's own name first
// (a package may import itself by name through its "exports").
func (r *Resolver) resolvePackage(spec, base string, conditions []string) (string, error) {
	name, sub, ok := splitPackage(spec)
	if !ok {
		return "", fmt.Errorf("%w: invalid module specifier %q", ErrNotFound, spec)
	}
	if scope, err := r.pkgs.scope(base); err != nil {
		return "", err
	} else if scope != nil && scope.name == name && scope.hasExp {
		return r.resolveExports(scope, sub, spec, conditions)
	}
	for dir := base; ; {
		if filepath.Base(dir) != "node_modules" {
			pdir := filepath.Join(dir, "node_modules", name)
			if fi, err := os.Stat(pdir); err == nil && fi.IsDir() {
				pkg, err := r.pkgs.read(pdir)
				if err != nil {
					return "", err
				}
				if pkg != nil && pkg.hasExp {
					return r.resolveExports(pkg, sub, spec, conditions)
				}
				if f, ok := r.fileOrDir(filepath.Join(pdir, sub)); ok {
					return f, nil
				}
				return "", fmt.Errorf("%w: %s", ErrNotFound, filepath.Join(pdir, sub))
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w: package %q (no node_modules/%s from %s up)", ErrNotFound, name, name, base)
		}
		dir = parent
	}
}

// resolveExports resolves subpath through pkg's "exports".
func (r *Resolver) resolveExports(pkg *pkgJSON, sub, spec string, conditions []string) (string, error) {
	exp := pkg.exports
	if o, ok := exp.(*jsonObject); !ok || len(o.keys) == 0 || !strings.HasPrefix(o.keys[0], ".") {
		// A string, an array or an object of conditions is the "." entry.
		exp = &jsonObject{keys: []string{"."}, vals: map[string]jsonValue{".": exp}}
	}
	target, ok, err := matchSubpath(exp.(*jsonObject), sub, pkg.dir, conditions, false)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", &notExported{spec: spec, sub: sub, pkg: filepath.Join(pkg.dir, "package.json")}
	}
	if !isFile(target) {
		return "", fmt.Errorf("%w: %s (from the \"exports\" of %s)", ErrNotFound, target, filepath.Join(pkg.dir, "package.json"))
	}
	return target, nil
}

// resolveImports resolves a "#" specifier through the "imports" of the
// package scope of base.
func (r *Resolver) resolveImports(spec, base string, conditions []string) (string, error) {
	pkg, err := r.pkgs.scope(base)
	if err != nil {
		return "", err
	}
	if pkg != nil {
		if o, ok := pkg.imports.(*jsonObject); ok {
			target, ok, err := matchSubpath(o, spec, pkg.dir, conditions, true)
			if err != nil {
				return "", err
			}
			if ok {
				if strings.HasPrefix(target, "bare:") { // a package, resolved from the package's directory
					return r.resolvePackage(strings.TrimPrefix(target, "bare:"), pkg.dir, conditions)
				}
				if isFile(target) {
					return target, nil
				}
				return "", fmt.Errorf("%w: %s (from the \"imports\" of %s)", ErrNotFound, target, filepath.Join(pkg.dir, "package.json"))
			}
		}
	}
	return "", fmt.Errorf("%w: package import specifier %q is not defined in the package.json \"imports\" of the importing module", ErrNotFound, spec)
}

// notExported is Node's ERR_PACKAGE_PATH_NOT_EXPORTED.
type notExported struct{ spec, sub, pkg string }

func (e *notExported) Error() string {
	if e.sub == "." {
		return fmt.Sprintf("No \"exports\" main defined in %s", e.pkg)
	}
	return fmt.Sprintf("Package subpath '%s' is not defined by \"exports\" in %s", e.sub, e.pkg)
}

// Is makes a path not exported a module not found.
func (e *notExported) Is(target error) bool { return target == ErrNotFound }

// matchSubpath finds key in a subpath map ("exports" or "imports"): the
// exact key, else the pattern with a "*" whose prefix is longest, and
// resolves its target. imports allows bare targets (returned as "bare:x").
func matchSubpath(m *jsonObject, key, dir string, conditions []string, imports bool) (string, bool, error) {
	if v, ok := m.vals[key]; ok && !strings.Contains(key, "*") {
		return resolveTarget(v, "", dir, conditions, imports)
	}
	best, bestStar := "", ""
	for _, k := range m.keys {
		i := strings.Index(k, "*")
		if i < 0 || strings.Count(k, "*") != 1 {
			continue
		}
		prefix, suffix := k[:i], k[i+1:]
		if len(key) < len(k) || !strings.HasPrefix(key, prefix) || !strings.HasSuffix(key, suffix) {
			continue
		}
		// Node's PATTERN_KEY_COMPARE: the longer prefix, then the longer key.
		if bi := strings.Index(best, "*"); best == "" || i > bi || i == bi && len(k) > len(best) {
			best, bestStar = k, key[len(prefix):len(key)-len(suffix)]
		}
	}
	if best == "" {
		return "", false, nil
	}
	return resolveTarget(m.vals[best], bestStar, dir, conditions, imports)
}

// resolveTarget resolves one "exports"/"imports" target: a string (with
// "*" replaced by star), an array (the first that resolves), an object of
// conditions (the first key, in the package's order, among conditions or
// "default"), or null (explicitly not exported).
func resolveTarget(t jsonValue, star, dir string, conditions []string, imports bool) (string, bool, error) {
	switch t := t.(type) {
	case string:
		s := strings.ReplaceAll(t, "*", star)
		if !strings.HasPrefix(s, "./") {
			if imports && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "../") {
				return "bare:" + s, true, nil
			}
			return "", false, fmt.Errorf("invalid package target %q in %s (targets start with \"./\")", t, filepath.Join(dir, "package.json"))
		}
		for _, seg := range strings.Split(s[2:], "/") {
			if seg == ".." || seg == "node_modules" {
				return "", false, fmt.Errorf("invalid package target %q in %s", t, filepath.Join(dir, "package.json"))
			}
		}
		return filepath.Join(dir, filepath.FromSlash(s)), true, nil
	case []jsonValue:
		var lastErr error
		for _, e := range t {
			p, ok, err := resolveTarget(e, star, dir, conditions, imports)
			if err != nil {
				lastErr = err
				continue
			}
			if ok {
				return p, true, nil
			}
		}
		return "", false, lastErr
	case *jsonObject:
		for _, k := range t.keys {
			if k != "default" && !contains(conditions, k) {
				continue
			}
			p, ok, err := resolveTarget(t.vals[k], star, dir, conditions, imports)
			if err != nil || ok {
				return p, ok, err
			}
		}
		return "", false, nil
	case nil:
		return "", false, nil
	}
	return "", false, errors.New("invalid package target in " + filepath.Join(dir, "package.json"))
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
