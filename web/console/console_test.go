package console

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// consoleScript exercises every console method whose output does not
// depend on time; node and the goja console must print the same.
const consoleScript = `
console.log({ a: 1 });
console.log([1, 2]);
console.log(new Map([[1, 2]]));
console.log({ s: Symbol('k') }, Symbol('v'));
console.log('%s is %d years', 'Bob', 42, { extra: true }, 'tail');
console.log('%o and %O', { a: [1] }, { b: 2 });
console.log();
console.log('');
console.log(1, 'a', null, undefined, 2n);
console.info('info %i', 3.9);
console.debug('debug');
console.group('Group 1');
console.log('inside');
console.log({ a: { b: 1 }, long: 'x'.repeat(70) });
console.group();
console.log('deeper\nsecond line');
console.groupEnd();
console.groupCollapsed('collapsed', 2);
console.info('in collapsed');
console.groupEnd();
console.groupEnd();
console.groupEnd();
console.log('outside');
console.count();
console.count();
console.count('x');
console.countReset();
console.count();
console.count(undefined);
console.table([{ a: 1, b: 'x' }, { a: 2, c: true }]);
console.table({ r1: { c: 1 }, r2: { c: 2, d: [1, 2, 3, 4] } });
console.table([1, 2, 'three']);
console.table(new Map([['k', { v: 1 }], [{ o: 1 }, 2]]));
console.table(new Set([1, 'a']));
console.table([{ a: 1, b: 2 }, { a: 3 }], ['a']);
console.table(5);
console.table('str');
console.table([[1, 2], [3, 4, 5]]);
console.table([{ name: 'wide 日本', n: 1 }, { name: 'x', n: 22222 }]);
console.table([{ nested: { a: 1, b: 2, c: 3 } }, { nested: { a: 1 } }]);
console.table([]);
console.dir({ a: { b: { c: { d: 1 } } } });
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
console.dir({ [Symbol.for('nodejs.util.inspect.custom')]() { return 'custom'; } });
console.log({ [Symbol.for('nodejs.util.inspect.custom')]() { return 'custom'; } });
console.dirxml({ a: 1 }, [2]);
console.assert(true, 'not printed');
console.assert(false, 'failed %s', 'fmt');
console.assert(false);
console.assert(0, { o: 1 });
console.warn('warned', { w: 1 });
console.error(new Set([1]));
console.error('%c styled', 'color: red');
`

func TestConsoleMatchesNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the side-by-side comparison with Node needs it")
	}
	var nodeOut, nodeErr bytes.Buffer
	cmd := exec.Command(node, "-e", consoleScript)
	cmd.Stdout, cmd.Stderr = &nodeOut, &nodeErr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, nodeErr.String())
	}
	stdout, stderr := runConsole(t, consoleScript, Config{})
	compareLines(t, "stdout", nodeOut.String(), stdout)
	compareLines(t, "stderr", nodeErr.String(), stderr)
}

// runConsole runs src in a goja runtime with this package's console and
// returns what it printed on the stdout and the stderr levels.
func runConsole(t *testing.T, src string, cfg Config) (string, string) {
	t.Helper()
	rt := goja.New()
	var out, errs strings.Builder
	cfg.Write = func(level Level, text string) {
		if level >= LevelWarn {
			errs.WriteString(text + "\n")
		} else {
			out.WriteString(text + "\n")
		}
	}
	if err := Install(rt, rt.GlobalObject(), cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.RunString(src); err != nil {
		t.Fatalf("script: %v", err)
	}
	return out.String(), errs.String()
}

func compareLines(t *testing.T, what, want, got string) {
	t.Helper()
	if want == got {
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s differs from node at line %d:\nnode:     %q\njsworker: %q\n--- node:\n%s\n--- jsworker:\n%s", what, i+1, w, g, want, got)
			return
		}
	}
}

// TestConsoleTime drives time, timeLog and timeEnd with a fake clock; the
// expected texts follow Node's formatTime.
func TestConsoleTime(t *testing.T) {
	now := time.Unix(1000, 0)
	steps := []time.Duration{0, 1500 * time.Microsecond, 0, 1234567800 * time.Nanosecond, 0, 62345 * time.Millisecond, 0, 3723456 * time.Millisecond}
	i := 0
	clock := func() time.Time {
		if i < len(steps) {
			now = now.Add(steps[i])
			i++
		}
		return now
	}
	stdout, stderr := runConsole(t, `
		console.time(); console.timeEnd();
		console.time('a'); console.timeLog('a', { x: 1 }, 'more');
		console.time('m'); console.timeEnd('m');
		console.time('h'); console.timeEnd('h');
		console.timeEnd('missing');
		console.time('dup'); console.time('dup');
		console.countReset('nope');
	`, Config{Now: clock})
	want := "default: 1.5ms\na: 1.235s { x: 1 } more\nm: 1:02.345 (m:ss.mmm)\nh: 1:02:03.456 (h:mm:ss.mmm)\n"
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	wantErr := "Warning: No such label 'missing' for console.timeEnd()\nWarning: Label 'dup' already exists for console.time()\nWarning: Count for 'nope' does not exist\n"
	if stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, wantErr)
	}
}

func TestFormatTime(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"}, {123456 * time.Nanosecond, "0.123ms"}, {999 * time.Millisecond, "999ms"}, {time.Second, "1.000s"},
		{59999 * time.Millisecond, "59.999s"}, {time.Minute, "1:00.000 (m:ss.mmm)"}, {61 * time.Minute, "1:01:00.000 (h:mm:ss.mmm)"},
	} {
		if got := formatTime(c.d); got != c.want {
			t.Errorf("formatTime(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestConsoleObserveAndTrace checks that Observe sees the original values
// before they are printed, and trace's output.
func TestConsoleObserveAndTrace(t *testing.T) {
	var seen []string
	var firstArg goja.Value
	stdout, stderr := runConsole(t, `
		const o = { k: 1 };
		console.log(o);
		console.table([1]);
		console.assert(true);
		function inner() { console.trace('here %d', 1); }
		function outer() { inner(); }
		outer();
	`, Config{Observe: func(method string, args []goja.Value) {
		seen = append(seen, method)
		if method == "log" {
			firstArg = args[0]
		}
	}})
	if strings.Join(seen, ",") != "log,table,trace" {
		t.Errorf("observed %v", seen)
	}
	if o, ok := firstArg.(*goja.Object); !ok || o.Get("k").ToInteger() != 1 {
		t.Errorf("observe got %v, not the object itself", firstArg)
	}
	if !strings.HasPrefix(stdout, "{ k: 1 }\n") {
		t.Errorf("stdout %q", stdout)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) < 3 || lines[0] != "Trace: here 1" || !strings.HasPrefix(lines[1], "    at inner (") || !strings.HasPrefix(lines[2], "    at outer (") {
		t.Errorf("trace printed:\n%s", stderr)
	}
}
