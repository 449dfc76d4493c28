package inspector

import "strings"

// absentDomains are the domains the Chrome DevTools front end uses that
// this runtime does not have at all: their commands answer -32000 with the
// reason instead of "wasn't found", so that a client can tell a feature
// that does not exist here from a command it misspelt.
var absentDomains = map[string]string{
	"Network": "Network domain is not available: jsworker's runtime makes no network requests the inspector observes",
}

// absentDomain returns the reason for a command of an absent domain, or "".
func absentDomain(method string) string {
	domain, _, ok := strings.Cut(method, ".")
	if !ok {
		return ""
	}
	return absentDomains[domain]
}
