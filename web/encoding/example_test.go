package encoding_test

import (
	"fmt"

	"github.com/jsworker/jsworker/web/encoding"
)

func ExampleNewDecoder() {
	d, _ := encoding.NewDecoder(" Shift_JIS ", false, false)
	a, _ := d.Decode([]byte{0x93, 0xFA, 0x96}, true) // the last byte starts a character
	b, _ := d.Decode([]byte{0x7B}, false)
	fmt.Println(d.Encoding(), a, b)

	f, _ := encoding.NewDecoder("utf-8", true, false)
	_, err := f.Decode([]byte{0xFF}, false)
	fmt.Println(err)
	// Output:
	// shift_jis 日 本
	// The encoded data was not valid for encoding utf-8
}

func ExampleEncodeString() {
	s := []uint16{'h', 'i', 0xD83D, 0xDE00} // "hi😀"
	for _, enc := range []string{"utf8", "utf16le", "latin1", "hex"} {
		b, _ := encoding.EncodeString(s, enc)
		fmt.Printf("%s: [% x]\n", enc, b)
	}
	b, _ := encoding.EncodeString([]uint16{'a', 'G', '=', 'x'}, "base64")
	fmt.Printf("base64 \"aG=x\": %q\n", b)
	// Output:
	// utf8: [68 69 f0 9f 98 80]
	// utf16le: [68 00 69 00 3d d8 00 de]
	// latin1: [68 69 3d 00]
	// hex: []
	// base64 "aG=x": "h"
}
