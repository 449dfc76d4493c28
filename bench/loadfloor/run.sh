#!/bin/sh
# run.sh - the library-load floor: dlopen + first call of an empty Go c-shared library, of one holding goja, and of
# libjsworker (built first with `make build`), each in ROUNDS fresh processes (default 7), alternating; prints every
# line, then the medians of the wall-clock total and of the process's CPU time (which load on the machine moves
# less). `make bench-load-floor` runs it.
set -eu
cd "$(dirname "$0")/../.."
rounds=${1:-7}
out=build/loadfloor
mkdir -p "$out"
go build -buildmode=c-shared -o "$out/libempty.so" ./bench/loadfloor/empty
go build -buildmode=c-shared -o "$out/libgoja.so" ./bench/loadfloor/goja
cc -O2 -Wall -Wextra -Werror -o "$out/load" bench/loadfloor/load.c -ldl
: > "$out/results.txt"
i=1
while [ "$i" -le "$rounds" ]; do
	for lib in "$out/libempty.so" "$out/libgoja.so" "$PWD/build/libjsworker.so"; do
		echo "$(basename "$lib") $("$out/load" "$lib")" | tee -a "$out/results.txt"
	done
	i=$((i + 1))
done
for lib in libempty.so libgoja.so libjsworker.so; do
	for what in total cpu; do
		grep "^$lib " "$out/results.txt" | sed -E "s/.*$what ([0-9.]+) ms.*/\1/" | sort -n |
			awk -v lib="$lib" -v what="$what" '{ a[NR] = $1 } END { printf "%s: median %s %.2f ms (min %.2f, n %d)\n", lib, what, a[int((NR + 1) / 2)], a[1], NR }'
	done
done
