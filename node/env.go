package node

import (
	"slices"
	"sync"

	"github.com/dop251/goja"
)

// process.env is a plain object in each realm, a copy of its parent's (or options.env), until a realm creates a
// worker with env: SHARE_ENV. Then its process.env becomes an object over an envStore, a Go map of strings that the
// worker's process.env is over too, so what either sets or deletes the other sees at once, as in Node; a value set
// is converted with String(), as Node's process.env does. The swap happens once per realm (code that kept the old
// object keeps a snapshot), and only there: a plain process.env stays cloneable and shows no Go state.

// An envStore is one environment, shared by the realms whose process.env it is; safe for concurrent use.
type envStore struct {
	mu   sync.RWMutex
	vals map[string]string
	keys []string // in insertion order, as Object.keys(process.env)
}

// copyStore is a new store with s's variables.
func (s *envStore) copyStore() *envStore {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := &envStore{vals: make(map[string]string, len(s.vals)), keys: slices.Clone(s.keys)}
	for k, v := range s.vals {
		c.vals[k] = v
	}
	return c
}

func (s *envStore) get(k string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.vals[k]
	return v, ok
}

func (s *envStore) set(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.vals[k]; !ok {
		s.keys = append(s.keys, k)
	}
	s.vals[k] = v
}

func (s *envStore) del(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.vals[k]; !ok {
		return
	}
	delete(s.vals, k)
	if i := slices.Index(s.keys, k); i >= 0 {
		s.keys = slices.Delete(s.keys, i, i+1)
	}
}

func (s *envStore) list() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.keys)
}

// envObject is process.env in one realm (a goja.DynamicObject over the store).
type envObject struct {
	rt *goja.Runtime
	s  *envStore
}

func (e *envObject) Get(k string) goja.Value {
	if v, ok := e.s.get(k); ok {
		return e.rt.ToValue(v)
	}
	return nil
}

func (e *envObject) Set(k string, v goja.Value) bool {
	e.s.set(k, v.String())
	return true
}

func (e *envObject) Has(k string) bool {
	_, ok := e.s.get(k)
	return ok
}

func (e *envObject) Delete(k string) bool {
	e.s.del(k)
	return true
}

func (e *envObject) Keys() []string { return e.s.list() }

// envObject makes process.env over the realm's store.
func (n *nodeState) envObject() *goja.Object {
	rt := n.r.Runtime()
	return rt.NewDynamicObject(&envObject{rt: rt, s: n.envStore})
}

// shareEnv returns the store a SHARE_ENV worker shares with this realm, making the realm's process.env an object
// over it the first time.
func (n *nodeState) shareEnv() *envStore {
	if n.envStore != nil && !n.envCopy {
		return n.envStore
	}
	if n.envStore == nil {
		o, _ := n.process.Get("env").(*goja.Object)
		if o == nil {
			o = n.r.Runtime().NewObject()
		}
		n.envStore = envFromObject(o)
	}
	n.envCopy = false
	_ = n.process.Set("env", n.envObject())
	return n.envStore
}

// envFromObject makes a store from a plain object's own enumerable properties (a worker's options.env, read in
// the worker's realm), converting each value with String().
func envFromObject(o *goja.Object) *envStore {
	s := &envStore{vals: make(map[string]string)}
	for _, k := range o.Keys() {
		if v := o.Get(k); v != nil {
			s.set(k, v.String())
		}
	}
	return s
}
