// Package devtools serves inspector sessions to Chrome DevTools, VS Code,
// chrome-remote-interface and any other Chrome DevTools Protocol client, over
// the HTTP and WebSocket endpoint those clients expect from Node's --inspect:
//
//	GET /json/version     {"Browser": "jsworker/0.2.0", "Protocol-Version": "1.1"}
//	GET /json, /json/list  one entry per target: id, type, title, url,
//	                       webSocketDebuggerUrl, devtoolsFrontendUrl, …
//	GET /json/protocol    the implemented domains, commands and events
//	ws://HOST:PORT/<id>   one WebSocket = one inspector.Session on the target
//
// The endpoint has no authentication, so it listens on loopback only (Listen
// refuses any other address), answers only requests whose Host header names
// the machine by an IP address or "localhost" (a DNS-rebinding page sends its
// own host name), and gives every target a random 128-bit id that a web page
// cannot read from /json/list (no CORS) and cannot guess — Node's model.
//
// The package knows nothing about workers: a Provider lists the targets and
// opens sessions on them. cmd/jsworker and the C ABI supply providers for
// core's workers and for the C host's main contexts; dependencies keep
// pointing one way (capi → core → inspector).
package devtools
