package devtools

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// ErrAddress is wrapped by the error Listen returns for an address that is
// malformed or not a loopback address.
var ErrAddress = errors.New("devtools: bad address")

// checkLoopback returns an error unless addr ("host:port") names a loopback
// address: 127.0.0.0/8, ::1 or "localhost". An empty host means 127.0.0.1.
func checkLoopback(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%w %q: %v", ErrAddress, addr, err)
	}
	switch {
	case host == "":
		host = "127.0.0.1"
	case strings.EqualFold(host, "localhost"):
		// Resolves to loopback addresses only (RFC 6761); listen on 127.0.0.1
		// so that the URLs printed name an address, as Node's do.
		host = "127.0.0.1"
	default:
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return "", fmt.Errorf("%w: refusing to listen on %q: the endpoint has no authentication "+
				"and serves loopback addresses only (127.0.0.1, ::1 or localhost)", ErrAddress, host)
		}
	}
	return net.JoinHostPort(host, port), nil
}

// allowedHost reports whether a request's Host header may be served: empty
// (HTTP/1.0), an IP address, or "localhost", with or without a port — Node's
// rule. A page that rebinds its own domain name to 127.0.0.1 sends that name
// and is refused.
func allowedHost(hostport string) bool {
	if hostport == "" {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	return net.ParseIP(host) != nil
}
