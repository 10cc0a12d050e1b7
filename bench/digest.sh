#!/usr/bin/env bash
# Benchmarks notif-digest against the same digest written in jq, and prints Markdown tables for
# the README.
#
# usage: bench/digest.sh [RECORDS]        (default 1000000)
#
# 1. Throughput: `notif-digest --window 1h --limit 3 --now T FILE` (one digest per app, thread
#    and hour, with its count, unread count, distinct actors and first three records) against a
#    jq program that makes the same digests in one `reduce` over the records; notif-digest
#    three runs, jq one, alternating; median wall time, MB/s, records/s, peak RSS (GNU time
#    %M); the ratio to jq. Then a check that both made the same digests: key, window, count,
#    unread count, number of actors and the ids of the first three records.
# 2. Memory: notif-digest's peak RSS on a tenth of the records and on all of them (memory is
#    bounded by the windows still open, not by the input).
# 3. In place: `notif-digest --store S --out O` on a copy of the records (two passes, the
#    digests synced, the store written again with digested_at), then a second run that finds
#    nothing to digest (the store is read and not rewritten).
#
# The records are bench/data/records-week-RECORDS.ndjson (git-ignored, as bench/expire.sh
# makes them: notif-parse records of bench/gen-payloads.py payloads in 14 chunks whose --now
# steps by 12 hours over the week before 2026-11-22T09:00:00Z). Binaries are
# $NOTIF_BIN_DIR/notif-*, else .build/release/notif-* (built when missing). Progress goes to
# stderr, the tables to stdout. The machine is shared and noisy: quote the ratios, measured in
# one run. Needs bash 5, GNU time at /usr/bin/time, jq and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
records=${1:-1000000}
bench_check_count "$records" "bench/digest.sh [RECORDS]"
runs=${RUNS:-3}
bench_require jq python3

parse=$(bench_find_parse)
digest=$(bench_find_tool notif-digest)
file=$(bench_records_week "$parse" "$records")
tenth=$(bench_records_week "$parse" $((records / 10)))
bench_input "$file"
bench_make_tmp

# The same digests in jq: by app, thread and hour; windows ended by $now; the first three
# records by created_at, then id (notif-digest's order).
cat >"$tmp/digest.jq" <<'EOF'
def t: sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601;
($now | t) as $n
| reduce inputs as $r ({};
    ($r.created_at | t) as $c
    | ($c - ($c % 3600)) as $w
    | ([$r.app, $r.thread_id, $w] | tojson) as $k
    | .[$k] |= ((. // {app: $r.app, thread_id: $r.thread_id, window_start: $w, count: 0,
                       unread_count: 0, actors: {}, items: []})
        | .count += 1
        | (if $r.read_at == null then .unread_count += 1 else . end)
        | (if ($r.summary_arg | type) == "string" and $r.summary_arg != ""
           then .actors[$r.summary_arg] = true else . end)
        | .items = ((.items + [[$c, $r.id]]) | sort | .[:3])))
| .[] | select(.window_start + 3600 <= $n)
| {app, thread_id, window_start: (.window_start | todate), count, unread_count,
   actors: (.actors | length), items: [.items[][1]]}
EOF

tool_command() {
  # shellcheck disable=SC2016 # $now in the jq program is jq's, not the shell's
  case $1 in
    notif-digest) cmd=("$digest" --window 1h --limit 3 --now "$bench_now" "$2") ;;
    jq) cmd=(jq -n -c --arg now "$bench_now" -f "$tmp/digest.jq" "$2") ;;
    notif-digest-store) cmd=("$digest" --window 1h --limit 3 --now "$bench_now" --store "$2"
      --out "$tmp/out.ndjson") ;;
  esac
}
bench_once[jq]=1

cat "$file" >/dev/null # warm the page cache

# --- Throughput and the output check ------------------------------------------------------------
bench_rounds "$runs" "$file" "$tmp" notif-digest jq
digests=$(wc -l <"$tmp/notif-digest.out")
summary() {
  jq -r '[.app, .thread_id, .window_start, .count, .unread_count, .actors,
    (.items | join(","))] | @tsv' "$1" | LC_ALL=C sort
}
jq -c '{app: .key.app, thread_id: .key.thread_id, window_start, count, unread_count,
  actors: (.actors | length), items: [.items[].id]}' "$tmp/notif-digest.out" \
  >"$tmp/notif-digest.view"
if cmp -s <(summary "$tmp/notif-digest.view") <(summary "$tmp/jq.out"); then
  agree=yes
else
  agree=no
  echo "bench: WARNING: notif-digest and jq made different digests" >&2
fi

mb=$(bench_megabytes "$bytes")
echo "## notif-digest benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") records, $mb MB (notif-parse records of"
echo "\`bench/gen-payloads.py\` payloads, created over a week). Machine: $(bench_machine), shared."
echo "notif-digest $runs runs, jq 1 run, alternating; medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
bench_throughput_row notif-digest "$(bench_version "$digest")" \
  "notif-digest --window 1h --limit 3 --now $bench_now FILE"
bench_throughput_row jq "$(bench_version jq)" \
  "jq -n -c --arg now $bench_now -f digest.jq FILE"
echo
ratio=$(bench_ratio "$(bench_median_wall jq)" "$(bench_median_wall notif-digest)")
echo "notif-digest: **${ratio}× jq** (jq wall / notif-digest wall, same run)."
echo
echo "Check: notif-digest and jq agree on all $(bench_thousands "$digests") digests (app, thread," \
  "window, count, unread count, number of actors, the first three records): $agree."

# --- Memory ---------------------------------------------------------------------------------------
echo "bench: memory on a tenth of the records" >&2
bench_measure notif-digest "$tenth"
tenth_kb=$rss_kb
bench_input "$tenth"
tenth_lines=$lines tenth_bytes=$bytes
bench_input "$file"
echo
echo "### Memory"
echo
echo "| records | input | notif-digest peak RSS |"
echo "|---:|---:|---:|"
echo "| $(bench_thousands "$tenth_lines") | $(bench_megabytes "$tenth_bytes") MB" \
  "| $(bench_memory "$tenth_kb") MB |"
echo "| $(bench_thousands "$lines") | $mb MB | $(bench_memory "$(bench_median_rss notif-digest)") MB |"

# --- In place -------------------------------------------------------------------------------------
echo "bench: in place" >&2
cp "$file" "$tmp/inbox.ndjson"
rm -f "$tmp/out.ndjson"
bench_measure notif-digest-store "$tmp/inbox.ndjson"
first_us=$wall_us first_kb=$rss_kb
written=$(wc -l <"$tmp/out.ndjson")
marked=$(grep -c '"digested_at":"' "$tmp/inbox.ndjson" || true)
inode=$(stat -c %i "$tmp/inbox.ndjson")
bench_measure notif-digest-store "$tmp/inbox.ndjson"
unchanged=no
[[ $(stat -c %i "$tmp/inbox.ndjson") == "$inode" ]] && unchanged=yes
echo
echo "### In place (\`--store\`, \`--out\`, with fsync)"
echo
echo "| run | wall | records/s | peak RSS | result |"
echo "|---|---:|---:|---:|---|"
echo "| first, $(bench_thousands "$lines") records | $(bench_seconds "$first_us") s" \
  "| $(bench_per_second "$lines" "$first_us") | $(bench_memory "$first_kb") MB" \
  "| $(bench_thousands "$written") digests, $(bench_thousands "$marked") records marked |"
echo "| second, nothing to digest | $(bench_seconds "$wall_us") s" \
  "| $(bench_per_second "$lines" "$wall_us") | $(bench_memory "$rss_kb") MB" \
  "| store not rewritten: $unchanged |"
