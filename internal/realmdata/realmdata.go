// Package realmdata is a placeholder of the lead's until H1's package merges (same API).
package realmdata

import (
	"sync"

	"github.com/dop251/goja"
)

type Key[T any] struct{ name string }

func NewKey[T any](name string) *Key[T] { return &Key[T]{name: name} }

var table sync.Map // *goja.Runtime -> *sync.Map

func (k *Key[T]) Get(rt *goja.Runtime) (T, bool) {
	var zero T
	m, ok := table.Load(rt)
	if !ok {
		return zero, false
	}
	v, ok := m.(*sync.Map).Load(k)
	if !ok {
		return zero, false
	}
	return v.(T), true
}

func (k *Key[T]) Set(rt *goja.Runtime, v T) {
	m, _ := table.LoadOrStore(rt, &sync.Map{})
	m.(*sync.Map).Store(k, v)
}

func Drop(rt *goja.Runtime) { table.Delete(rt) }
