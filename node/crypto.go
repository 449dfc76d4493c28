package node

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	_ "embed"
	"hash"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/crypto.js
var cryptoJS string

// cryptoSource is the crypto module (randomness, hashes and HMACs over Go's crypto) and the crypto global
// (webcrypto: getRandomValues, randomUUID).
var cryptoSource = jsutil.NewSource("node:crypto", cryptoJS)

// hashes are the digests createHash and createHmac accept, by Node's names.
var hashes = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha224": sha256.New224, "sha256": sha256.New,
	"sha384": sha512.New384, "sha512": sha512.New, "sha512-256": sha512.New512_256,
}

// cryptoNatives are crypto.js's natives.
func cryptoNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	r, rt := n.r, n.r.Runtime()
	def("randomFill", 1, func(c goja.FunctionCall) goja.Value {
		b, _ := c.Argument(0).Export().([]byte)
		_, _ = rand.Read(b)
		return goja.Undefined()
	})
	def("hashes", 0, func(goja.FunctionCall) goja.Value {
		names := make([]any, 0, len(hashes))
		for _, k := range []string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512-256"} {
			names = append(names, k)
		}
		return rt.NewArray(names...)
	})
	// newHash returns [update(bytes), digest() ArrayBuffer] for algorithm name (with key: an HMAC), or null when
	// the algorithm is not one of hashes.
	def("newHash", 2, func(c goja.FunctionCall) goja.Value {
		mk, ok := hashes[strings.ToLower(c.Argument(0).String())]
		if !ok {
			return goja.Null()
		}
		var h hash.Hash
		if k := c.Argument(1); !goja.IsUndefined(k) {
			key, _ := k.Export().([]byte)
			h = hmac.New(mk, append([]byte(nil), key...))
		} else {
			h = mk()
		}
		update := func(c goja.FunctionCall) goja.Value {
			b, _ := c.Argument(0).Export().([]byte)
			h.Write(b)
			return goja.Undefined()
		}
		digest := func(goja.FunctionCall) goja.Value {
			return rt.ToValue(rt.NewArrayBuffer(h.Sum(nil)))
		}
		return rt.NewArray(update, digest)
	})
	def("timingSafeEqual", 2, func(c goja.FunctionCall) goja.Value {
		a, _ := c.Argument(0).Export().([]byte)
		b, _ := c.Argument(1).Export().([]byte)
		if len(a) != len(b) {
			e := r.NewError("RangeError", "", "Input buffers must have the same byte length")
			_ = e.Set("code", "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH")
			panic(e)
		}
		return rt.ToValue(subtle.ConstantTimeCompare(a, b) == 1)
	})
}
