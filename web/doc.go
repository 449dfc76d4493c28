// Package web installs the globals every realm gets — worker realms, the
// program's realm and host realms alike: console, timers over the realm's
// event loop (package internal/loop), TextEncoder and TextDecoder, URL,
// events, performance. It knows nothing of workers.
package web
