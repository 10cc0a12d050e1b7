#!/usr/bin/env bash
# Times notif-responses on one Expo receipts answer of RECEIPTS receipts written by Python's
# json.dumps with indent=0 (every member on a line of its own, the lines of the nested objects
# starting with a bracket) and with indent=2, and exits 1 when indent=0 takes more than twice as
# long: a reader that parses a text again at each line that may end it goes quadratic on the
# first layout (the old reader took 109 s on 5.6 MB, against 0.08 s for indent=2).
#
# usage: bench/responses-layout.sh [RECEIPTS]        (default 20000)
#
# RUNS runs of each (default 5), alternating; medians. The binary is $NOTIF_BIN_DIR/notif-
# responses, else .build/release/notif-responses (built when missing). Needs bash 5, GNU time
# at /usr/bin/time and python3.
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
receipts=${1:-20000}
bench_check_count "$receipts" "bench/responses-layout.sh [RECEIPTS]"
runs=${RUNS:-5}
bench_require python3

responses=$(bench_find_tool notif-responses)
bench_make_tmp
for indent in 0 2; do
  python3 - "$indent" "$receipts" >"$tmp/indent-$indent.json" <<'PY'
import json, sys
indent, count = int(sys.argv[1]), int(sys.argv[2])
data = {
    "%08x-0000-4000-8000-%012x" % (i, i): {
        "status": "error",
        "message": "ExponentPushToken[%022d] is not a registered push notification recipient" % i,
        "details": {"error": "DeviceNotRegistered", "expoPushToken": "ExponentPushToken[%022d]" % i},
    }
    for i in range(count)
}
sys.stdout.write(json.dumps({"data": data}, indent=indent) + "\n")
PY
done

tool_command() { cmd=("$responses" --now "$bench_now" "$2"); }
for ((run = 0; run < runs; run++)); do
  for indent in 0 2; do
    bench_measure notif-responses "$tmp/indent-$indent.json" "$tmp/indent-$indent.out"
    bench_walls[$indent]+="$wall_us "
  done
done
cmp -s "$tmp/indent-0.out" "$tmp/indent-2.out" || {
  echo "bench: the two layouts gave different records" >&2
  exit 1
}
records=$(wc -l <"$tmp/indent-0.out")
zero=$(bench_median_wall 0)
two=$(bench_median_wall 2)
ratio=$(awk -v a="$zero" -v b="$two" 'BEGIN { printf "%.2f", a / b }')
echo "notif-responses on $(bench_thousands "$records") receipts in one answer:" \
  "indent=0 $(bench_seconds "$zero" 3) s ($(bench_megabytes "$(wc -c <"$tmp/indent-0.json")") MB)," \
  "indent=2 $(bench_seconds "$two" 3) s ($(bench_megabytes "$(wc -c <"$tmp/indent-2.json")") MB):" \
  "${ratio}× (median of $runs)"
if awk -v r="$ratio" 'BEGIN { exit !(r > 2) }'; then
  echo "bench: FAIL: indent=0 takes more than twice as long as indent=2" >&2
  exit 1
fi
