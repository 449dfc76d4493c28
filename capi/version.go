package capi

/*
// jsworkerVersionString returns the version string: static C data owned by the library and never freed, so no Go
// pointer reaches C. Keep it equal to versionNumber and to JSWORKER_VERSION_STRING in include/jsworker.h
// (version_test.go checks).
//
// It is a function, not a file-scope variable, because cgo reaches C variables through a linker symbol, which a
// static variable does not have: the reference would stay undefined in the .so and fail only when loaded.
static inline const char *jsworkerVersionString(void) {
	static const char s[] = "0.2.0";
	return s;
}
*/
import "C"

// versionNumber is the library version as major*1000000 + minor*1000 + patch: 0.2.0.
//
// It is the one Go copy of the version. include/jsworker.h repeats it as the JSWORKER_VERSION_* macros and the cgo
// preamble above as a C string; version_test.go fails if any of them disagree.
const versionNumber = 0*1_000_000 + 2*1_000 + 0

// ZJSGetVersionNumber returns versionNumber. It may be called from any thread.
//
//export ZJSGetVersionNumber
func ZJSGetVersionNumber() (n C.int) {
	defer func() {
		if recover() != nil {
			n = versionNumber
		}
	}()
	return versionNumber
}

// ZJSGetVersionString returns the version as a static NUL-terminated C string owned by the library. It may be
// called from any thread.
//
//export ZJSGetVersionString
func ZJSGetVersionString() (s *C.char) {
	defer func() {
		if recover() != nil {
			s = C.jsworkerVersionString()
		}
	}()
	return C.jsworkerVersionString()
}
