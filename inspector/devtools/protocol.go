package devtools

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/jsworker/jsworker/inspector"
)

// protocolJSON is the body of /json/protocol: the domains, commands and
// events this backend implements (inspector.Methods and inspector.Events,
// and the Provider's own, Config.Methods and Config.Events), in the shape of
// Chrome's protocol description. Clients such as chrome-remote-interface
// build their API objects (client.Debugger.resume) from it, so it lists
// exactly what is implemented; parameters are not described.
func (s *Server) protocolJSON() []byte {
	s.protoOnce.Do(func() { s.proto = describeProtocol(s.cfg.Methods, s.cfg.Events) })
	return s.proto
}

func describeProtocol(methods, events []string) []byte {
	type item struct {
		Name string `json:"name"`
	}
	type domain struct {
		Domain   string `json:"domain"`
		Commands []item `json:"commands"`
		Events   []item `json:"events"`
		Types    []item `json:"types"`
	}
	byName := map[string]*domain{}
	var names []string
	get := func(full string) (*domain, string) {
		d, member, _ := strings.Cut(full, ".")
		if byName[d] == nil {
			byName[d] = &domain{Domain: d, Commands: []item{}, Events: []item{}, Types: []item{}}
			names = append(names, d)
		}
		return byName[d], member
	}
	for _, m := range slices.Concat(inspector.Methods, methods) {
		d, name := get(m)
		d.Commands = append(d.Commands, item{name})
	}
	for _, e := range slices.Concat(inspector.Events, events) {
		d, name := get(e)
		d.Events = append(d.Events, item{name})
	}
	slices.Sort(names)
	out := struct {
		Version struct {
			Major string `json:"major"`
			Minor string `json:"minor"`
		} `json:"version"`
		Domains []*domain `json:"domains"`
	}{}
	out.Version.Major, out.Version.Minor = "1", "3"
	for _, n := range names {
		out.Domains = append(out.Domains, byName[n])
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		panic(err) // plain strings only: cannot fail
	}
	return b
}
