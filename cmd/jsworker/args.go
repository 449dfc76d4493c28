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

const usage = `Usage: jsworker [options] [FILE | -] [--] [args...]
       jsworker [options] run FILE [args...]
       jsworker [options] eval CODE [args...]
       jsworker [options] repl
       jsworker --help | --version

Runs FILE (.js, .cjs: a script; .mjs, .ts, .mts: an ES module), CODE, or the
program read from standard input ("-", or a pipe with no FILE) on the jsworker
runtime, as node does. With no FILE on a terminal (or "repl") it starts an
interactive REPL. process.argv is [jsworker, FILE, args...] ([jsworker,
args...] for -e/-p/eval, [jsworker, "-", args...] for "-").

Options (before FILE or CODE; also right after run, eval and repl):
  -e, --eval CODE              run CODE as the program
  -p, --print CODE             run CODE and print its result (util.inspect)
  -r, --require MODULE         require MODULE before the program (repeatable)
  --input-type=module|commonjs how -e, -p and standard input run (commonjs)
  --inspect[=[HOST:]PORT]      serve the Chrome DevTools Protocol on HOST:PORT
                               (default 127.0.0.1:9229; loopback addresses only)
  --inspect-brk[=[HOST:]PORT]  the same, and wait before the first statement
                               until a debugger attaches and resumes
  -h, --help                   print this help
  -v, --version                print the version
  --                           the end of the options: FILE and its args follow

Exit codes: the program's process.exit(n), 0 when it ends by itself, 1 after
an uncaught error or a syntax error, 9 for a bad command line, 12 when the
inspector cannot listen.
`

// Program sources a command line can name (command.mode).
const (
	modeFile  = "file"  // FILE, or run FILE
	modeEval  = "eval"  // -e CODE, or eval CODE
	modePrint = "print" // -p CODE
	modeStdin = "stdin" // "-", or no FILE with standard input not a terminal
	modeREPL  = "repl"  // repl, or no FILE on a terminal
)

// command is a parsed command line.
type command struct {
	help, version bool
	mode          string // one of the mode constants; "" when the command line names none (stdin or REPL)
	target        string // FILE or CODE
	args          []string
	dash          bool     // the program is "-": process.argv[1] is "-"
	preload       []string // -r MODULE, in order
	module        bool     // --input-type=module
	inspect       bool     // --inspect or --inspect-brk
	brk           bool     // --inspect-brk
	inspectAddr   string   // host:port
}

// errUsage wraps command-line errors (exit code 9).
var errUsage = errors.New("bad command line")

// errInspectAddr wraps a bad --inspect address (exit code 12).
var errInspectAddr = errors.New("bad inspector address")

// parseArgs parses the arguments after the program name, as node does: options up to the first argument that is
// not one (or up to --), then FILE and its arguments. A first argument run, eval or repl names the subcommand.
func parseArgs(args []string) (command, error) {
	var c command
	c.inspectAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(devtools.DefaultPort))
	verb := ""
	for len(args) > 0 {
		a := args[0]
		if !strings.HasPrefix(a, "-") || a == "-" {
			if verb == "" && c.mode == "" && (a == "run" || a == "eval" || a == "repl") {
				verb = a
				args = args[1:]
				continue
			}
			break // FILE, CODE, "-" or the program's arguments
		}
		args = args[1:]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") {
			name, hasVal = a, false
		}
		value := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if len(args) == 0 {
				return "", fmt.Errorf("%w: %s requires an argument", errUsage, name)
			}
			v := args[0]
			args = args[1:]
			return v, nil
		}
		switch name {
		case "-h", "--help":
			c.help = true
			return c, nil
		case "-v", "--version":
			c.version = true
			return c, nil
		case "-e", "--eval", "-p", "--print", "-pe":
			code, err := value()
			if err != nil {
				return c, err
			}
			c.mode, c.target = modeEval, code
			if name != "-e" && name != "--eval" {
				c.mode = modePrint
			}
		case "-r", "--require":
			m, err := value()
			if err != nil {
				return c, err
			}
			c.preload = append(c.preload, m)
		case "--input-type":
			switch v, err := value(); {
			case err != nil:
				return c, err
			case v == "module":
				c.module = true
			case v == "commonjs":
				c.module = false
			default:
				return c, fmt.Errorf("%w: --input-type must be \"module\" or \"commonjs\"", errUsage)
			}
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
			return c, fmt.Errorf("%w: bad option: %s", errUsage, a)
		}
	}
	switch {
	case verb == "repl":
		if c.mode != "" {
			return c, fmt.Errorf("%w: repl takes no program", errUsage)
		}
		c.mode = modeREPL
	case verb == "eval" && c.mode == "":
		if len(args) == 0 {
			return c, fmt.Errorf("%w: eval: missing CODE", errUsage)
		}
		c.mode, c.target, args = modeEval, args[0], args[1:]
	case verb == "run" && c.mode == "":
		if len(args) == 0 {
			return c, fmt.Errorf("%w: run: missing FILE", errUsage)
		}
		c.mode, c.target, args = modeFile, args[0], args[1:]
	case verb != "":
		return c, fmt.Errorf("%w: %s and -e/-p both name a program", errUsage, verb)
	case c.mode != "": // -e / -p: the rest are the program's arguments
	case len(args) > 0 && args[0] == "-":
		c.mode, c.dash, args = modeStdin, true, args[1:]
	case len(args) > 0:
		c.mode, c.target, args = modeFile, args[0], args[1:]
	}
	if c.module && c.mode == modeFile {
		return c, fmt.Errorf("%w: --input-type can only be used with string input via --eval, --print, or STDIN",
			errUsage)
	}
	c.args = args
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
