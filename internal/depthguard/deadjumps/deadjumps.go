// Package deadjumps holds the scripts of issue 16 that goja miscompiled — a break or continue in code goja knows
// is dead, compiled into the wrong program — with the completion values node v20 gives them
// (vm.runInNewContext). It is test data only: internal/depthguard's tests run them through Compile, core's through
// the Go API (HostRealm, inspectable realms, importScripts).
package deadjumps

// Case is one script and the completion value node gives it.
type Case struct{ Src, Want string }

// Cases are constant tests whose dead branch or body jumps out, and jumps after a break, which goja compiles in
// dummy mode when the script's completion value is wanted. The first six leave their result in the variable s.
var Cases = []Case{
	{`var s = ""; outer: for (let i = 0; i < 2; i++) { for (let j = 0; j < 2; j++) { if (false) continue outer; s += i + "" + j } } s`, "00011011"},
	{`var s = ""; for (let i = 0; i < 3; i++) { { let b = i; if (false) continue; s += b } } s`, "012"},
	{`var s = ""; for (let i = 0; i < 3; i++) { switch (i) { case 1: if (0) continue; s += i } } s`, "1"},
	{`var s = ""; a: { for (let i = 0; i < 3; i++) { if (false) break a; s += i } } s`, "012"},
	{`var s = ""; o: for (let i = -2; i < 10; i++) { for (let j = 0; j < 3; j++) { if (2 === 5) continue o; if (i === 8 && j === 1) break o; if (j > 0) continue; s += i } } s`, "-2-1012345678"},
	{`var s = ""; o: for (let i = 0; i < 3; i++) { { let z = i; while (false) continue o; if (!1) { break o } else s += z } } s`, "012"},
	{`var s = ""; o: for (let i = 0; i < 3; i++) { for (let j = 0; j < 2; j++) { s += j; break; if (i) continue o; var v = 1 } } s + typeof v`, "000undefined"},
	{`o: for (let i = 0; i < 3; i++) { { let z = i; continue; break o; } }`, "undefined"},
	// In a function, a dead branch longer than the code before it: goja's compiler panicked (index out of range).
	{`(function () { var s = ""; o: for (let i = 0; i < 2; i++) { for (let j = 0; j < 2; j++) { if (false) { s += 1; s += 2; s += 3; s += 4; s += 5; s += 6; s += 7; s += 8; s += 9; s += 10; s += 11; s += 12; continue o; } s += j } } return s })()`, "0101"},
}
