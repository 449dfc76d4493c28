package modules

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// cacheBudget bounds the source bytes of the modules the process keeps
// compiled. A goja.Program belongs to no runtime, so every worker that loads
// the same path with the same source reuses it, skipping esbuild and goja's
// compiler; the least recently used modules go first.
const cacheBudget = 64 << 20

// cache holds compiled modules by path and source hash. Debuggable workers
// bypass it: their programs are instrumented for one Debugger.
var cache = &moduleCache{byKey: make(map[cacheKey]*list.Element), lru: list.New()}

type cacheKey struct {
	path   string
	format Format
	sum    [sha256.Size]byte
}

type moduleCache struct {
	mu    sync.Mutex
	byKey map[cacheKey]*list.Element // element values are *cacheEntry
	lru   *list.List                 // most recently used first
	bytes int
}

type cacheEntry struct {
	key cacheKey
	c   *compiled
}

func (mc *moduleCache) get(path, source string, format Format) *compiled {
	k := cacheKey{path, format, sha256.Sum256([]byte(source))}
	mc.mu.Lock()
	defer mc.mu.Unlock()
	e, ok := mc.byKey[k]
	if !ok {
		return nil
	}
	mc.lru.MoveToFront(e)
	return e.Value.(*cacheEntry).c
}

func (mc *moduleCache) put(path, source string, format Format, c *compiled) {
	if c.size > cacheBudget {
		return
	}
	k := cacheKey{path, format, sha256.Sum256([]byte(source))}
	mc.mu.Lock()
	defer mc.mu.Unlock()
	if _, ok := mc.byKey[k]; ok {
		return
	}
	mc.byKey[k] = mc.lru.PushFront(&cacheEntry{key: k, c: c})
	mc.bytes += c.size
	for mc.bytes > cacheBudget {
		old := mc.lru.Back()
		ce := old.Value.(*cacheEntry)
		mc.lru.Remove(old)
		delete(mc.byKey, ce.key)
		mc.bytes -= ce.c.size
	}
}

// reset empties the cache (tests and benchmarks measure cold starts).
func (mc *moduleCache) reset() {
	mc.mu.Lock()
	mc.byKey = make(map[cacheKey]*list.Element)
	mc.lru.Init()
	mc.bytes = 0
	mc.mu.Unlock()
}

// ResetCache empties the process-wide cache of compiled modules, so that the
// next worker transforms and compiles every module again. Benchmarks of cold
// starts use it; a host has no other reason to.
func ResetCache() { cache.reset() }
