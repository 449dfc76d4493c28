package devtools

import (
	"errors"
	"time"

	"github.com/jsworker/jsworker/inspector"
)

// A Target is one entry of /json/list, as its Provider describes it.
type Target struct {
	// Key names the target to its Provider: unique in the process and never
	// reused for another target (for example "worker-5"). Clients never see
	// it: the Server gives each key a random id.
	Key string
	// Type is the entry's "type"; empty means "node", which Chrome DevTools
	// opens with its JavaScript-only front end (js_app.html).
	Type        string
	Title       string // a human-readable name, for example "app.js"
	URL         string // the main script, for example "file:///home/me/app.js"
	Description string // Node puts "node.js instance" here
}

// A Session is a client's attachment to a target: *inspector.Session's
// Dispatch and Next, and a Close that detaches it from the target.
type Session interface {
	Dispatch(msg []byte) error
	Next(timeout time.Duration) ([]byte, inspector.PumpResult)
	Close()
}

// A Provider lists targets and opens sessions on them. Both methods are
// called from the server's goroutines, concurrently.
type Provider interface {
	// Targets returns the targets to list now, in the order to list them:
	// clients that pick one on their own take the first.
	Targets() []Target
	// Attach opens a new session on the target named by key. It returns
	// ErrNoTarget (possibly wrapped) when there is no such target or it has
	// ended.
	Attach(key string) (Session, error)
}

// ErrNoTarget is what Provider.Attach returns for a key that names no live
// target.
var ErrNoTarget = errors.New("devtools: no such target")

// Join returns a Provider that lists the targets of every p in order and
// attaches through the first whose Attach does not return ErrNoTarget.
func Join(ps ...Provider) Provider { return joined(ps) }

type joined []Provider

func (j joined) Targets() []Target {
	var out []Target
	for _, p := range j {
		out = append(out, p.Targets()...)
	}
	return out
}

func (j joined) Attach(key string) (Session, error) {
	for _, p := range j {
		s, err := p.Attach(key)
		if !errors.Is(err, ErrNoTarget) {
			return s, err
		}
	}
	return nil, ErrNoTarget
}
