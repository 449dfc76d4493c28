package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/loop"
	"github.com/jsworker/jsworker/web"
)

func realm(t *testing.T) (*goja.Runtime, *loop.Loop, *[]error) {
	t.Helper()
	rt := goja.New()
	var errs []error
	l := loop.New(loop.Config{Macrotask: func(fn func() error) {
		if err := fn(); err != nil {
			errs = append(errs, err)
		}
	}})
	web.InstallTimers(rt, rt.GlobalObject(), l)
	return rt, l, &errs
}

func run(t *testing.T, rt *goja.Runtime, src string) goja.Value {
	t.Helper()
	v, err := rt.RunString(src)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The timer globals over a loop: arguments and this, ids shared by the three
// kinds, browser delay coercion, errors to the loop's Macrotask.
func TestInstallTimers(t *testing.T) {
	rt, l, errs := realm(t)
	run(t, rt, `
		var log = [];
		var self = this;
		setTimeout(function (a, b) { log.push("t:" + a + b + (this === undefined || this === self)); }, 2, "x", "y");
		setTimeout(function () { log.push("nan"); }, NaN);
		setTimeout(function () { log.push("neg"); }, -5);
		setTimeout(function () { log.push("huge"); }, 2147483648);
		setImmediate(function (a) { log.push("imm:" + a); }, "z");
		var i = setImmediate(function () { log.push("cleared immediate"); });
		clearTimeout(i);       // any clear function clears any kind
		clearInterval("junk"); // ignored
		clearImmediate(-1);
		clearTimeout(1.5);
		var n = 0, iv = setInterval(function () { if (++n === 2) clearTimeout(iv); }, 0);
		setTimeout(function () { throw new Error("boom"); }, 3);
	`)
	if l.RunPending(-1, nil) {
		t.Fatal("alive after every timer ran")
	}
	got := run(t, rt, `log.join()`).String()
	for _, want := range []string{"t:xytrue", "nan", "neg", "huge", "imm:z"} {
		if !strings.Contains(got, want) {
			t.Fatalf("log %s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "cleared") {
		t.Fatalf("a cleared immediate ran: %s", got)
	}
	if n := run(t, rt, `n`).ToInteger(); n != 2 {
		t.Fatalf("the interval ran %d times", n)
	}
	if len(*errs) != 1 || !strings.Contains((*errs)[0].Error(), "boom") {
		t.Fatalf("errors = %v", *errs)
	}
	if !run(t, rt, `var a = setTimeout(function(){}), b = setImmediate(function(){}), c = setInterval(function(){}, 1);
		Number.isInteger(a) && a > 0 && a < b && b < c`).ToBoolean() {
		t.Fatal("ids are not increasing positive integers shared by the three kinds")
	}
	l.StopTimers()
}

// A non-function callback throws a TypeError, as in browsers; the functions
// have their names and lengths.
func TestInstallTimers_Surface(t *testing.T) {
	rt, _, _ := realm(t)
	v := run(t, rt, `
		var out = [];
		for (var name of ["setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"]) {
			var f = globalThis[name];
			out.push(f.name + "/" + f.length);
		}
		try { setTimeout("code", 1); } catch (e) { out.push(e instanceof TypeError); }
		try { setImmediate(); } catch (e) { out.push(e instanceof TypeError); }
		out.join()`).String()
	want := "setTimeout/1,setInterval/1,setImmediate/1,clearTimeout/1,clearInterval/1,clearImmediate/1,true,true"
	if v != want {
		t.Fatalf("got %s\nwant %s", v, want)
	}
}

// Delays count from creation: a 30 ms timeout does not fire early.
func TestInstallTimers_DelayHonoured(t *testing.T) {
	rt, l, _ := realm(t)
	start := time.Now()
	run(t, rt, `var at; setTimeout(function () { at = true; }, 30);`)
	l.RunPending(-1, nil)
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Fatalf("fired after %v", el)
	}
	if !run(t, rt, `at`).ToBoolean() {
		t.Fatal("did not fire")
	}
}
