// Command empty is a c-shared library with nothing but the Go runtime and one exported function,
// ZJSGetVersionNumber: what loading any Go library costs a C host on this machine (bench/loadfloor).
package main

import "C"

// ZJSGetVersionNumber answers as the real library's does; calling it waits for the Go runtime to finish starting.
//
//export ZJSGetVersionNumber
func ZJSGetVersionNumber() C.int { return 2000 }

func main() {}
