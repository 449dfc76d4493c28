#!/bin/sh
# compare_node.sh - the C API message benchmarks beside Node's same measures, alternating, ROUNDS times (default 5):
# each round runs capi_message_bench once against this build's library and once against BASE_LIB_DIR's (if set: a
# library without the JSON calls skips their rows), the two in turn first, then Node's throughput.js, rtt.js and clone.js; the load average
# is printed before every program. Take the medians per column from the output.
#
#   bench/capi/compare_node.sh [ROUNDS]      (after `make ctest-build`; NODE_BENCH=/work/shared/bench/node by default)
set -eu
rounds=${1:-5}
bench=${BENCH:-build/ctest/capi_message_bench}
node_dir=${NODE_BENCH:-/work/shared/bench/node}
i=1
while [ "$i" -le "$rounds" ]; do
	echo "== round $i"
	for which in $(if [ $((i % 2)) = 1 ]; then echo after base; else echo base after; fi); do
		if [ "$which" = after ]; then
			echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; echo "after: $("$bench" 1 | tail -1)"
		elif [ -n "${BASE_LIB_DIR:-}" ]; then
			echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
			echo "base: $(LD_LIBRARY_PATH="$BASE_LIB_DIR" "$bench" 1 | tail -1)"
		fi
	done
	for js in throughput rtt clone; do
		echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; echo "node: $(node "$node_dir/$js.js")"
	done
	i=$((i + 1))
done
