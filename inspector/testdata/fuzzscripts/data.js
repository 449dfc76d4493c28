const people = [
  { name: "Ada", born: 1815, langs: ["analytical engine"] },
  { name: "Grace", born: 1906, langs: ["COBOL", "FLOW-MATIC"] },
  { name: "Barbara", born: 1939, langs: ["CLU"] },
];
const byCentury = people.reduce((acc, { name, born }) => {
  const c = Math.floor(born / 100) + 1;
  (acc[c] ??= []).push(name);
  return acc;
}, {});
console.log(JSON.stringify(byCentury), Object.entries(byCentury).length);
const { name, ...rest } = people[1];
console.log(name, Object.keys(rest).sort().join("|"), rest.langs?.[1], rest.missing?.x);
const text = people.map(p => `${p.name.padEnd(8, ".")}${p.born}`).join("\n");
console.log(text, /(\w+)\.+(\d{4})/.exec(text).slice(1).join("-"));
const m = new Map(people.map(p => [p.name, p])); const s = new Set("mississippi");
console.log(m.get("Ada").born, [...s].join(""), JSON.parse(JSON.stringify({ d: new Date(0) })).d);
label: { if (people.length) break label; console.log("unreachable"); }
console.log([3, 1, 2].sort((x, y) => y - x), typeof Symbol(), 0.1 + 0.2, (123.456).toFixed(1), parseInt("ff", 16));
