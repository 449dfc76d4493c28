// Package arraybuiltin is a stoppable implementation of the Array.prototype methods whose goja versions walk a
// receiver's whole length in one native call, with no JavaScript between two steps (indexOf, lastIndexOf, includes
// and the callback methods over holes: forEach, every, some, filter, map, reduce, reduceRight; reverse, copyWithin, shift,
// unshift; and those that make an array or a string of what they read: slice, splice, concat, flat, flatMap, join,
// toLocaleString). A script chooses that length (`new Array(2**32 - 1).indexOf(1)` takes goja minutes), and goja looks at
// its interrupt flag only between VM instructions, so nothing — a worker's terminate, a time limit, a memory budget
// — could stop the call.
//
// core routes a call here only when the receiver's length is over Threshold (concat: an argument goja could not
// bound; flat and flatMap: always), so ordinary arrays keep goja's own code. The methods follow the specification's order of observable steps (HasProperty, then Get, per index) and
// every PollEvery steps run the realm's checkpoint and end the call when the realm was asked to stop
// (gojainternal.EndIfInterrupted), as internal/jsonbuiltin does. Where nothing the walk does can run a script — the
// receiver is goja's usual array, its prototypes are ordinary objects with no index keys — the indices past the
// array's stored slots are known to be holes and are skipped at once: a huge sparse array answers as fast as in
// Node. What the making methods have made counts in the realm's Building until they return it, so that a
// measurement made during the call — at a poll, or inside a callback — sees it.
package arraybuiltin
