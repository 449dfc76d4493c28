function classify(n) {
  switch (true) {
    case n < 0: return "negative";
    case n === 0: return "zero";
    case n % 2 === 0: return "even";
    default: return "odd";
  }
}
let out = [];
outer: for (let i = -2; i < 10; i++) {
  for (let j = 0; j < 3; j++) {
    if (i === 5) continue outer;
    if (i === 8 && j === 1) break outer;
    if (j > 0) continue;
    out.push(classify(i));
  }
}
console.log(out.join(","));
let k = 0;
do { k += 3; } while (k < 10);
while (k > 0) { if (k-- === 5) break; }
console.log(k);
try { null.x } catch ({ name, message }) { console.log(name) } finally { console.log("finally") }
function f() { try { return "try" } finally { console.log("cleanup") } }
console.log(f());
