package inspector

import (
	"net/url"
	"path/filepath"
)

// fileURL returns the URL a script compiled under name is reported with, as
// Node reports them: an absolute file path becomes a file:// URL (the
// DevTools front end files it in the Sources tree under file://); any other
// name — a URL, a module specifier, "[worker eval]" — stays as it is. Frames
// (script.file) keep the name.
func fileURL(name string) string {
	if !filepath.IsAbs(name) {
		return name
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(name)}).String()
}
