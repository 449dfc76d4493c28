// Command libbuild links package capi into the C shared library libjsworker.so.
//
// It has no behaviour of its own: the exported C functions live in package capi and are pulled in by the blank
// import. Build it with
//
//	go build -buildmode=c-shared -o build/libjsworker.so ./cmd/libbuild
//
// (or `make build`). The contract is the hand-written include/jsworker.h. cgo's generated header would list only the
// main package's exports, so it would never show capi's; with none here, go build currently writes no header at all,
// and `make build` deletes a stray build/libjsworker.h should a toolchain write one.
package main

import _ "github.com/jsworker/jsworker/capi"

func main() {}
