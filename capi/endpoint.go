package capi

import "C"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/jsworker/jsworker/inspector/devtools"
	"github.com/jsworker/jsworker/internal/workertargets"
)

// The DevTools endpoint for C hosts (ZJSInspectorEndpointStart/Stop): the same HTTP and WebSocket endpoint as
// `jsworker run --inspect` (package inspector/devtools), listing every inspectable worker of the process — created
// through the C API or from JavaScript — and serving each WebSocket as one inspector session on the worker's thread.
// There is one endpoint per process; it runs on goroutines of its own, so the host need not pump anything.

// endpointDefaultAddress is where the endpoint listens when the host passes NULL: Node's --inspect default.
const endpointDefaultAddress = "127.0.0.1:9229"

var endpoint struct {
	mu  sync.Mutex
	srv *devtools.Server
}

// Endpoint results (ZJSInspectorEndpointResult).
const (
	endpointOK             int32 = 0
	endpointInvalidAddress int32 = 1 // not host:port, or not a loopback host
	endpointListenFailed   int32 = 2 // the address is in use or cannot be bound
	endpointAlreadyRunning int32 = 3
	endpointInternal       int32 = 4
)

// startEndpoint starts the process's endpoint on addr and returns its port, or the result code and why not.
func startEndpoint(addr string) (int, int32, error) {
	endpoint.mu.Lock()
	defer endpoint.mu.Unlock()
	if endpoint.srv != nil {
		return 0, endpointAlreadyRunning, fmt.Errorf("the endpoint is already running on %s", endpoint.srv.Addr())
	}
	srv, err := devtools.Listen(devtools.Config{
		Addr:     addr,
		Provider: devtools.Join(contextTargets{}, workertargets.Provider{}),
		Browser:  "jsworker/v" + versionText(),
		Methods:  workertargets.ChildMethods,
		Events:   workertargets.ChildEvents,
	})
	if err != nil {
		code := endpointListenFailed
		if errors.Is(err, devtools.ErrAddress) {
			code = endpointInvalidAddress
		}
		return 0, code, err
	}
	endpoint.srv = srv
	return srv.Port(), endpointOK, nil
}

// stopEndpoint closes the process's endpoint, if it runs: every session is detached and its WebSocket closed.
func stopEndpoint() {
	endpoint.mu.Lock()
	srv := endpoint.srv
	endpoint.srv = nil
	endpoint.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// copyError writes msg into the host's buffer (NUL-terminated, truncated to fit), if it gave one.
func copyError(buf *byte, size uintptr, msg string) {
	if buf == nil || size == 0 {
		return
	}
	b := unsafe.Slice(buf, size)
	n := copy(b[:size-1], msg)
	b[n] = 0
}

//export ZJSInspectorEndpointStart
func ZJSInspectorEndpointStart(address *byte, port *uint16, errorBuf *byte, errorSize uintptr) (result int32) {
	const fn = "ZJSInspectorEndpointStart"
	result = endpointInternal
	defer func() {
		if r := recover(); r != nil {
			result = endpointInternal
			copyError(errorBuf, errorSize, fmt.Sprintf("%s: internal error: %v", fn, r))
		}
	}()
	addr := endpointDefaultAddress
	if address != nil {
		addr = goStringFromC(address)
		if strings.TrimSpace(addr) == "" {
			addr = endpointDefaultAddress
		}
	}
	p, code, err := startEndpoint(addr)
	if err != nil {
		copyError(errorBuf, errorSize, fn+": "+err.Error())
		return code
	}
	if port != nil {
		*port = uint16(p)
	}
	copyError(errorBuf, errorSize, "")
	return endpointOK
}

//export ZJSInspectorEndpointStop
func ZJSInspectorEndpointStop() {
	defer fence("ZJSInspectorEndpointStop", 0, nil)
	stopEndpoint()
}

// versionText is versionNumber as "MAJOR.MINOR.PATCH".
func versionText() string {
	return fmt.Sprintf("%d.%d.%d", versionNumber/1_000_000, versionNumber/1_000%1_000, versionNumber%1_000)
}

// goStringFromC copies a NUL-terminated C string.
func goStringFromC(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
