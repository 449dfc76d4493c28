// Package encoding is the byte work behind TextDecoder and Buffer: the
// WHATWG Encoding standard's decoders with its label table, fatal mode,
// byte order marks and streaming, and Node's Buffer encodings, matching
// what Node v20 does.
//
// # TextDecoder
//
// [Lookup] resolves a label ("latin1", " UTF8 ", "csshiftjis", ...) to the
// encoding's WHATWG name, as the TextDecoder constructor does; [NewDecoder]
// makes a [Decoder] for it. The encodings are the standard's, as Node
// (with ICU) has them: utf-8, utf-16le, utf-16be, the single-byte ones
// (ibm866, iso-8859-2 to -16, koi8-r, koi8-u, macintosh, windows-874,
// windows-1250 to -1258, x-mac-cyrillic; the labels latin1, ascii and
// iso-8859-1 name windows-1252, as the standard says) and the multi-byte
// CJK ones (gbk, gb18030, big5, euc-jp, iso-2022-jp, shift_jis, euc-kr).
// Like Node, the "replacement" encoding and x-user-defined are refused.
//
// The single-byte tables are golang.org/x/text's, with the bytes where
// Node decodes differently set as Node does (checked byte by byte against
// node v20): 0x80–0x9F are the C1 controls wherever x/text leaves them
// undefined, windows-1252 decodes every byte to the code point of the same
// value (Node's TextDecoder("latin1") is ISO-8859-1), and a few bytes of
// ibm866, koi8-u, windows-874, -1253 and -1255 follow ICU's tables.
// iso-8859-16, which Node refuses, is decoded as the standard says. The
// CJK decoders are x/text's (the WHATWG ones): on well-formed text they
// agree with Node; on malformed input and in the private-use and HKSCS
// areas ICU, and so Node, decodes some bytes differently.
//
// # Buffer
//
// [BufferEncoding] normalizes Node's encoding names; [EncodeString] is
// Buffer.from(string, encoding), [DecodeBytes] is buf.toString(encoding)
// and [ByteLength] is Buffer.byteLength(string, encoding). Strings are
// JavaScript strings: UTF-16 code units, lone surrogates included.
//
// Nothing in this package knows about goja or workers; every function may
// be called from any goroutine, and a Decoder by one goroutine at a time.
package encoding
