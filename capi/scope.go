package capi

// #include "capi.h"
import "C"

import "unsafe"

// Value lifetime (docs/c-api.md, "Lifetimes"): a JSValueRef lives until the first of
//
//   - its context is released (JSGlobalContextRelease of the last reference);
//   - the innermost handle scope open when it was made closes, unless it is protected (JSValueProtect) at that
//     moment, in which case it moves to the enclosing scope;
//   - ZJSValueRelease is called on it.
//
// The values a host function receives live in a scope the library opens around the call.

// unsafeSlice views n elements of C (or caller) memory at p.
func unsafeSlice[T any](p *T, n uintptr) []T { return unsafe.Slice(p, n) }

// innermostMark returns the mark of the innermost open scope, or 0.
func (c *context) innermostMark() int {
	if n := len(c.scopes); n > 0 {
		return c.scopes[n-1].mark
	}
	return 0
}

// openScope opens a handle scope; h is its handle, or 0 for an internal scope.
func (c *context) openScope(h uintptr) {
	c.scopes = append(c.scopes, scopeMark{mark: len(c.values), h: h})
}

// closeScopes closes the scope at depth and every scope inside it, releasing their unprotected values.
func (c *context) closeScopes(depth int) {
	if depth < 0 || depth >= len(c.scopes) {
		return
	}
	mark := c.scopes[depth].mark
	trash := c.trash[:0]
	for _, s := range c.scopes[depth:] {
		if s.h != 0 {
			trash = append(trash, s.h)
		}
	}
	clear(c.scopes[depth:])
	c.scopes = c.scopes[:depth]
	c.trash = trash
	c.releaseFrom(mark)
}

// maxSpare bounds the value records a context keeps for reuse.
const maxSpare = 256

// releaseFrom releases every unprotected value at index mark or above; protected values move down to mark and so
// into the enclosing scope. It also removes the handles already collected in c.trash (closed scopes').
func (c *context) releaseFrom(mark int) {
	mark = min(mark, len(c.values))
	keep := mark
	trash := c.trash
	for _, val := range c.values[mark:] {
		switch {
		case val.released:
			c.dead--
		case val.protect > 0:
			c.values[keep] = val
			keep++
		default:
			val.released = true
			c.unplaceValue(val)
			if len(c.spare) < maxSpare { // nothing refers to the record once its handle is gone
				val.v = nil
				c.spare = append(c.spare, val)
			}
		}
	}
	clear(c.values[keep:])
	c.values = c.values[:keep]
	if len(trash) > 0 {
		handles.remove(trash...)
		clear(trash)
	}
	if cap(trash) > 4096 { // a huge scope closed: do not keep its scratch space forever
		trash = nil
	}
	c.trash = trash[:0]
}

// releaseValue ends val's life now, protected or not (ZJSValueRelease).
func (c *context) releaseValue(val *value) {
	if val.released {
		return
	}
	val.released = true
	c.unplaceValue(val)
	if n := len(c.values); n > c.innermostMark() && c.values[n-1] == val {
		c.values[n-1] = nil
		c.values = c.values[:n-1]
		return
	}
	c.dead++
	if c.dead >= 64 && c.dead*2 > len(c.values) {
		c.compact()
	}
}

// compact drops released values from c.values and moves the scope marks to match.
func (c *context) compact() {
	j, si := 0, 0
	for i, val := range c.values {
		for si < len(c.scopes) && c.scopes[si].mark == i {
			c.scopes[si].mark = j
			si++
		}
		if !val.released {
			c.values[j] = val
			j++
		}
	}
	for ; si < len(c.scopes); si++ {
		c.scopes[si].mark = j
	}
	clear(c.values[j:])
	c.values = c.values[:j]
	c.dead = 0
}

// destroy releases every handle of c, c's own included (the last JSGlobalContextRelease).
func (c *context) destroy() {
	c.gone.Store(true)
	ctxCache[(c.h>>shardBits)&63].CompareAndSwap(c, nil)
	trash := make([]uintptr, 0, len(c.scopes)+1)
	for _, val := range c.values {
		val.released = true
	}
	c.dropBlocks()
	for _, s := range c.scopes {
		if s.h != 0 {
			trash = append(trash, s.h)
		}
	}
	trash = append(trash, c.h)
	handles.remove(trash...)
	c.values, c.scopes, c.trash, c.spare, c.dead = nil, nil, nil, nil, 0
}

// ZJSHandleScopeOpen opens a handle scope in ctx.
//
//export ZJSHandleScopeOpen
func ZJSHandleScopeOpen(ctx uintptr) (result uintptr) {
	defer fence("ZJSHandleScopeOpen", ctx, nil)
	c, err := enter("ZJSHandleScopeOpen", ctx)
	if err != nil {
		return 0
	}
	s := &scope{c: c, depth: len(c.scopes)}
	h := handles.add(kindScope, c.tid, s)
	c.openScope(h)
	return h
}

// ZJSHandleScopeClose closes scope (and any scope opened inside it and still open).
//
//export ZJSHandleScopeClose
func ZJSHandleScopeClose(ctx, scopeRef uintptr) {
	defer fence("ZJSHandleScopeClose", ctx, nil)
	c, err := enter("ZJSHandleScopeClose", ctx)
	if err != nil || scopeRef == 0 {
		return
	}
	o, err := resolve("ZJSHandleScopeClose", "scope", scopeRef, kindScope, c.tid)
	if err != nil {
		return
	}
	s := o.(*scope)
	if s.c != c || s.depth >= len(c.scopes) || c.scopes[s.depth].h != scopeRef {
		return
	}
	c.closeScopes(s.depth)
}

// ZJSValueRelease releases value now.
//
//export ZJSValueRelease
func ZJSValueRelease(ctx, value uintptr) {
	defer fence("ZJSValueRelease", ctx, nil)
	c, err := enter("ZJSValueRelease", ctx)
	if err != nil || value == 0 {
		return
	}
	if val, err := c.value("ZJSValueRelease", "value", value); err == nil {
		c.releaseValue(val)
	}
}

// JSValueProtect protects value from the closing of its handle scope.
//
//export JSValueProtect
func JSValueProtect(ctx, value uintptr) {
	defer fence("JSValueProtect", ctx, nil)
	c, err := enter("JSValueProtect", ctx)
	if err != nil {
		return
	}
	if val, err := c.value("JSValueProtect", "value", value); err == nil {
		val.protect++
	}
}

// JSValueUnprotect undoes one JSValueProtect.
//
//export JSValueUnprotect
func JSValueUnprotect(ctx, value uintptr) {
	defer fence("JSValueUnprotect", ctx, nil)
	c, err := enter("JSValueUnprotect", ctx)
	if err != nil {
		return
	}
	if val, err := c.value("JSValueUnprotect", "value", value); err == nil && val.protect > 0 {
		val.protect--
	}
}
