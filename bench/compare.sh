#!/usr/bin/env bash
# compare.sh - jsworker's core benchmarks side by side with Node's worker_threads, in one run on this machine.
#
#   bench/compare.sh [REPEATS]        (default 5; `make bench-compare` runs it)
#
# Runs, REPEATS times each: the Go benchmarks of package core (go test -bench), bench/idlemem in both thread modes,
# and Node's programs in bench/node/ (copies of the project's reference programs: spawn, rtt, throughput, memory).
# Prints a Markdown table of medians with the ratio to Node; raw output stays in build/bench/.
# Node is optional: without `node` on PATH only jsworker's figures are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-5}
OUT=build/bench
mkdir -p "$OUT"

echo "[compare] go test -bench ./core/ (count $REPS)" >&2
go test -run '^$' -bench . -benchmem -count "$REPS" ./core/ | tee "$OUT/core.txt" >&2

go build -o "$OUT/idlemem" ./bench/idlemem
: > "$OUT/idlemem.jsonl"
for _ in $(seq "$REPS"); do
  "$OUT/idlemem" >> "$OUT/idlemem.jsonl"
  "$OUT/idlemem" -dedicated >> "$OUT/idlemem.jsonl"
done

: > "$OUT/node.jsonl"
if command -v node >/dev/null 2>&1; then
  for _ in $(seq "$REPS"); do
    for p in spawn rtt throughput memory; do
      echo "[compare] node bench/node/$p.js" >&2
      node "bench/node/$p.js" | grep '^{' >> "$OUT/node.jsonl" || true
    done
  done
else
  echo "[compare] node not found: printing jsworker's figures only" >&2
fi

node_or_cat() { if command -v node >/dev/null 2>&1; then node bench/summarize.js "$OUT"; else cat "$OUT/core.txt"; fi; }
node_or_cat
