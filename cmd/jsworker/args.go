package main

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/jsworker/jsworker/inspector/devtools"
)

// version is the jsworker release this command belongs to: the library's
// (include/jsworker.h JSWORKER_VERSION_STRING; main_test.go checks).
const version = "0.2.0"

// Exit codes, as Node's (https://nodejs.org/api/process.html#exit-codes).
const (
	exitOK           = 0
	exitUncaught     = 1  // an uncaught error, a syntax error, a missing file
	exitInvalidArg   = 9  // an unknown option or a missing argument
	exitInspectorArg = 12 // the inspector's address was invalid or could not be listened on
)

const usage = `Usage: jsworker [options] run FILE [args...]
       jsworker [options] eval CODE [args...]
       jsworker --help | --version

Runs FILE (.js, .cjs: a script; .mjs, .ts, .mts: an ES module) or CODE on the
jsworker runtime. process.argv is [jsworker, FILE, args...] ([jsworker,
args...] for eval).

Options (before or right after the command):
  --inspect[=[HOST:]PORT]      serve the Chrome DevTools Protocol on HOST:PORT
                               (default 127.0.0.1:9229; loopback addresses only)
  --inspect-brk[=[HOST:]PORT]  the same, and wait before the first statement
                               until a debugger attaches and resumes
  -h, --help                   print this help
  -v, --version                print the version

Exit codes: the program's process.exit(n), 0 when it ends by itself, 1 after
an uncaught error or a syntax error, 9 for a bad command line, 12 when the
inspector cannot listen.
`

// command is a parsed command line.
type command struct {
	help, version bool
	verb          string // "run" or "eval"
	target        string // FILE or CODE
	args          []string
	inspect       bool   // --inspect or --inspect-brk
	brk           bool   // --inspect-brk
	inspectAddr   string // host:port
}

// errUsage wraps command-line errors (exit code 9).
var errUsage = errors.New("bad command line")

// errInspectAddr wraps a bad --inspect address (exit code 12).
var errInspectAddr = errors.New("bad inspector address")

// parseArgs parses the arguments after the program name.
func parseArgs(args []string) (command, error) {
	var c command
	c.inspectAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(devtools.DefaultPort))
	for len(args) > 0 {
		a := args[0]
		if !strings.HasPrefix(a, "-") || a == "-" {
			if c.verb != "" {
				break // FILE or CODE
			}
			if a != "run" && a != "eval" {
				return c, fmt.Errorf("%w: unknown command %q (want run or eval; see --help)", errUsage, a)
			}
			c.verb = a
			args = args[1:]
			continue
		}
		args = args[1:]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "-h", "--help":
			c.help = true
			return c, nil
		case "-v", "--version":
			c.version = true
			return c, nil
		case "--inspect", "--inspect-brk":
			c.inspect = true
			c.brk = c.brk || name == "--inspect-brk"
			if hasVal {
				addr, err := inspectAddress(val)
				if err != nil {
					return c, err
				}
				c.inspectAddr = addr
			}
		default:
			return c, fmt.Errorf("%w: %s: unknown option", errUsage, a)
		}
	}
	if c.verb == "" {
		return c, fmt.Errorf("%w: missing command: run FILE or eval CODE (see --help)", errUsage)
	}
	if len(args) == 0 {
		what := "FILE"
		if c.verb == "eval" {
			what = "CODE"
		}
		return c, fmt.Errorf("%w: %s: missing %s", errUsage, c.verb, what)
	}
	c.target, c.args = args[0], args[1:]
	return c, nil
}

// inspectAddress parses --inspect's value as Node does: PORT, HOST:PORT or
// HOST (port 9229). Whether HOST is loopback is checked by devtools.Listen.
func inspectAddress(v string) (string, error) {
	host, port := "127.0.0.1", strconv.Itoa(devtools.DefaultPort)
	switch h, p, err := net.SplitHostPort(v); {
	case err == nil:
		if h != "" {
			host = h
		}
		port = p
	case isDigits(v):
		port = v
	default:
		host = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 || (n > 0 && n < 1024) {
		return "", fmt.Errorf("%w: %q: the port must be 0 or 1024-65535", errInspectAddr, v)
	}
	return net.JoinHostPort(host, port), nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
