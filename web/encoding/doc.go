// Package encoding is the byte work behind TextDecoder and Buffer: the
// WHATWG Encoding standard's decoders with its label table, fatal mode,
// byte order marks and streaming, and Node's Buffer encodings, matching
// what Node v20 does.
//
// # TextDecoder
//
// [Lookup] resolves a label ("latin1", " UTF8 ", "csshiftjis", ...) to the
// encoding's WHATWG name, as the TextDecoder constructor does; [NewDecoder]
// makes a [Decoder] for it. The encodings are those Node supports with ICU:
// utf-8, utf-16le, utf-16be, the single-byte ones (ibm866, iso-8859-2 to
// -16, koi8-r, koi8-u, macintosh, windows-874, windows-1250 to -1258,
// x-mac-cyrillic; latin1, ascii and iso-8859-1 are windows-1252, as the
// standard says) and the multi-byte CJK ones (gbk, gb18030, big5, euc-jp,
// iso-2022-jp, shift_jis, euc-kr). Like Node, the "replacement" encoding
// and x-user-defined are refused. Single-byte tables and the CJK decoders
// come from golang.org/x/text, whose tables are generated from the WHATWG
// indexes.
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
