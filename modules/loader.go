package modules

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// A Loader resolves specifier (as written in the import) relative to
// referrer (the importing module's resolved path; the entry's path for the
// entry) and returns the resolved path and the module's source.
//
// It is called on the worker's thread, once per import statement and
// dynamic import() of a specifier the module map has not resolved for that
// referrer yet, so it must be safe for concurrent use across workers. It
// should return promptly: a worker cannot be interrupted while its loader
// runs. Two specifiers that resolve to the same path name the same module
// instance in a worker; the source of the first load is used. Return an
// error wrapping ErrNotFound when there is no such module; any other error
// fails the import with that error's text. The returned strings are kept
// (Go strings are immutable; the C ABI copies).
type Loader func(specifier, referrer string) (resolved, source string, err error)

// fileExtensions are tried, in order, after the exact path.
var fileExtensions = []string{".js", ".mjs", ".ts", ".mts", ".json"}

// FileLoader loads modules from the file system: relative ("./", "../") and
// absolute specifiers, resolved against the referrer's directory, trying the
// exact path then the extensions .js .mjs .ts .mts .json and /index.js. Bare
// specifiers are not found. The resolved path is cleaned, and absolute when
// the referrer's is.
func FileLoader() Loader {
	return func(specifier, referrer string) (string, string, error) {
		if u, err := url.Parse(specifier); err == nil && u.Scheme == "file" && u.Path != "" {
			specifier = u.Path // file:///abs/path, as import.meta.url-based specifiers are
		}
		if !strings.HasPrefix(specifier, "./") && !strings.HasPrefix(specifier, "../") && !filepath.IsAbs(specifier) {
			return "", "", fmt.Errorf("%w: bare specifier %q (FileLoader loads relative and absolute paths only)", ErrNotFound, specifier)
		}
		p := specifier
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(referrer), p)
		}
		p = filepath.Clean(p)
		candidates := []string{p}
		for _, ext := range fileExtensions {
			candidates = append(candidates, p+ext)
		}
		candidates = append(candidates, filepath.Join(p, "index.js"))
		for _, c := range candidates {
			fi, err := os.Stat(c)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			b, err := os.ReadFile(c)
			if err != nil {
				return "", "", err
			}
			return c, string(b), nil
		}
		return "", "", fmt.Errorf("%w: %s", ErrNotFound, p)
	}
}

// FileURL returns the file: URL of an absolute file path ("/a/b c.js" →
// "file:///a/b%20c.js"), and any other path unchanged: the MetaURL of
// programs that load files.
func FileURL(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
