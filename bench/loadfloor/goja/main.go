// Command goja is a c-shared library holding the Go runtime and goja with its dependencies' package
// initializers, and one exported function, ZJSGetVersionNumber: the floor below libjsworker's load that goja alone
// sets (bench/loadfloor).
package main

import "C"

import "github.com/dop251/goja"

var engine = goja.New // keeps goja linked in, so its package initializers run at load

// ZJSGetVersionNumber answers as the real library's does; calling it waits for the Go runtime to finish starting.
//
//export ZJSGetVersionNumber
func ZJSGetVersionNumber() C.int {
	if engine == nil {
		return 0
	}
	return 2000
}

func main() {}
