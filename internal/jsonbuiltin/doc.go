// Package jsonbuiltin is JSON.parse and JSON.stringify for every realm jsworker makes: ECMA-262's algorithms
// (InternalizeJSONProperty, SerializeJSONProperty), written for a runtime that other code must be able to stop.
//
// goja's own JSON builtins are native functions, and goja looks at its interrupt flag only between instructions:
// a long call (a 100 MB text, a value a million levels deep) could not be terminated, time-limited or
// measured until it returned, and goja's stringify checked for cycles by scanning its whole stack at every level
// (quadratic: a chain of 100,000 objects took 41 s). These builtins
//
//   - look, every PollEvery steps, whether their realm was asked to stop (gojainternal.Interrupted) after running
//     the realm's checkpoint (Realm.Poll), and if so end the call with the realm's own uncatchable interruption;
//   - detect cycles with a set, so that stringify is linear;
//   - bound nesting (MaxParseDepth, MaxStringifyDepth) with the catchable RangeError the depth guard throws
//     (Realm.Overflow), and recurse on the Go stack only that deep (parse does not recurse at all);
//   - refuse a result longer than V8's string limit (MaxStringLength code units) with RangeError
//     "Invalid string length" while it is being written, never after;
//   - parse straight from the text to goja values, building plain objects in one step where gojainternal can
//     (FillPlainObject), and write JSON with one buffer.
//
// Output is the same text goja's builtins write wherever goja followed the specification; parse errors carry
// V8's messages ("Unexpected token 'x', \"x\" is not valid JSON"), and a cycle keeps goja's message, which is the
// first line of V8's. Install puts the builtins in place in a realm's JSON object; internal/depthguard calls it
// when goja makes JSON, so that a realm that never touches JSON never pays for it.
package jsonbuiltin
