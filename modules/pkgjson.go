package modules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// A jsonValue is a decoded JSON value that keeps the order of object keys,
// which package.json's "exports" and "imports" conditions depend on:
// string, bool, float64, nil, []jsonValue or *jsonObject.
type jsonValue any

// A jsonObject is a JSON object with its keys in source order.
type jsonObject struct {
	keys []string
	vals map[string]jsonValue
}

func (o *jsonObject) get(k string) (jsonValue, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// decodeOrdered decodes one JSON document, objects as *jsonObject.
func decodeOrdered(b []byte) (jsonValue, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := decodeValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, errors.New("unexpected data after the top-level value")
	}
	return v, nil
}

func decodeValue(d *json.Decoder) (jsonValue, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &jsonObject{vals: make(map[string]jsonValue)}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(d)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.vals[k] = v
			}
			_, err := d.Token() // '}'
			return o, err
		case '[':
			var a []jsonValue
			for d.More() {
				v, err := decodeValue(d)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := d.Token() // ']'
			return a, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case json.Number:
		f, _ := t.Float64()
		return f, nil
	default:
		return t, nil // string, bool, nil
	}
}

// A pkgJSON is what resolution reads of a package.json.
type pkgJSON struct {
	dir     string    // the directory holding it
	name    string    // "name"
	typ     string    // "type": "module", "commonjs" or ""
	main    string    // "main"
	exports jsonValue // "exports", nil when absent
	imports jsonValue // "imports", nil when absent
	hasExp  bool
}

// pkgCache reads package.json files once per resolver: a missing file is
// remembered as nil.
type pkgCache struct {
	mu sync.Mutex
	m  map[string]*pkgJSON // by directory
}

func newPkgCache() *pkgCache { return &pkgCache{m: make(map[string]*pkgJSON)} }

// read returns the package.json of dir, nil when there is none, or an error
// when it does not parse (Node fails the resolution then).
func (c *pkgCache) read(dir string) (*pkgJSON, error) {
	c.mu.Lock()
	p, ok := c.m[dir]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		c.mu.Lock()
		c.m[dir] = nil
		c.mu.Unlock()
		return nil, nil
	}
	v, err := decodeOrdered(b)
	if err != nil {
		return nil, fmt.Errorf("invalid package configuration %s: %v", filepath.Join(dir, "package.json"), err)
	}
	p = &pkgJSON{dir: dir}
	if o, ok := v.(*jsonObject); ok {
		p.name, _ = o.vals["name"].(string)
		p.typ, _ = o.vals["type"].(string)
		p.main, _ = o.vals["main"].(string)
		p.exports, p.hasExp = o.get("exports")
		p.imports, _ = o.get("imports")
	}
	c.mu.Lock()
	c.m[dir] = p
	c.mu.Unlock()
	return p, nil
}

// scope returns the nearest package.json at or above dir (Node's package
// scope), or nil. A package.json inside node_modules/ does not look above
// the node_modules directory.
func (c *pkgCache) scope(dir string) (*pkgJSON, error) {
	for {
		p, err := c.read(dir)
		if p != nil || err != nil {
			return p, err
		}
		if filepath.Base(dir) == "node_modules" {
			return nil, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}
