// The loop's wrapped callback (node/ticks.go, RunCallback): runCallback(N) runs the callback the loop was given
// (N.runLoopCallback, a native, N itself) inside this JavaScript call, so that goja runs no promise job before it
// returns, then drains the tick queue (N.ticks, lib/ticks.js's runTicks) before them, as Node orders it. It is made
// with the realm, before the program runs; the tick queue itself is made with process (the only way to queue a
// tick, perhaps during the callback), and until then N.runLoopCallback answers false, so nothing is drained.
//
// It has no closure: the realm pays one function for it. Its call sites stay where they were when it was part of
// lib/ticks.js (line 20, the same columns, the same instructions), so that stacks through it read as before:
//   at runLoopCallback (native)
//   at runCallback (node:internal/ticks:20:73(7))
// and, for a tick,
//   at runTicks (node:internal/ticks:17:13(41))
//   at runCallback (node:internal/ticks:20:85(11))
// (TestTickStacks, node). Do not add or remove a line above the function, or move it along its line.
//
//
//
//
//
(function runCallback(N) {                         if (N.runLoopCallback())  N.ticks(); })
