#!/usr/bin/env bash
# Benchmarks notif-digest against the same digest written in jq, and prints Markdown tables for
# the README.
#
# usage: bench/digest.sh [RECORDS]        (default 1000000)
#
# 1. Throughput: `notif-digest --window 1h --item-limit 3 --now T FILE` (one digest per app, thread
#    and hour, with its count, unread count, distinct actors and first three records) against a
#    jq program that makes the same digests with group_by over the records; notif-digest
#    three runs, jq one, alternating; median wall time, MB/s, records/s, peak RSS (GNU time
#    %M); the ratio to jq. Then a check that both made the same digests: key, window, count,
#    unread count, number of actors and the ids of the first three records. A line "Bytes:"
#    gives the mean size of a record in and of a digest out (as written, before --merge).
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

# The same digests in jq: of the records the device lists (notif(5); in these records, those of
# push_type alert, or none, with text), by app, thread and hour; windows ended by $now; the first
# three records by created_at, then id (notif-digest's order). Written with group_by over the
# records' few fields: the natural `reduce` into an object keyed by digest is quadratic in jq 1.6
# (each update copies the object: 20,000 records 3.3 s, 40,000 11 s; 1M did not end in 19 minutes),
# which would measure jq's copy, not the digest.
cat >"$tmp/digest.jq" <<'EOF'
def t: sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601;
($now | t) as $n
| [inputs
    | select((.push_type // "alert") == "alert"
        and (.title // .subtitle // .body // .title_loc_key // .subtitle_loc_key // .loc_key)
          != null)
    | (.created_at | t) as $c
    | [.app, .thread_id, ($c - ($c % 3600)), $c, .id, (.read_at == null),
       (if (.summary_arg | type) == "string" and .summary_arg != "" then .summary_arg
        else null end)]]
| group_by(.[0:3])[]
| select(.[0][2] + 3600 <= $n)
| {app: .[0][0], thread_id: .[0][1], window_start: (.[0][2] | todate), count: length,
   unread_count: (map(select(.[5])) | length),
   actors: (map(.[6] // empty) | unique | length),
   items: (map(.[3:5]) | sort | .[:3] | map(.[1]))}
EOF

tool_command() {
  # shellcheck disable=SC2016 # $now in the jq program is jq's, not the shell's
  case $1 in
    notif-digest) cmd=("$digest" --window 1h --item-limit 3 --now "$bench_now" "$2") ;;
    jq) cmd=(jq -n -c --arg now "$bench_now" -f "$tmp/digest.jq" "$2") ;;
    notif-digest-store) cmd=("$digest" --window 1h --item-limit 3 --now "$bench_now" --store "$2"
      --out "$tmp/out.ndjson") ;;
  esac
}
bench_once[jq]=1

cat "$file" >/dev/null # warm the page cache

# --- Throughput and the output check ------------------------------------------------------------
bench_rounds "$runs" "$file" "$tmp" notif-digest jq
read -r digests digest_bytes < <(wc -lc <"$tmp/notif-digest.out")
# notif-digest streams: a window's digest is written once its key has moved past it, and a
# record that comes later (the week's records are not in created_at order) makes another
# digest of that window. jq, which holds everything, makes one per key and window: the check
# compares them after `notif-digest --merge`, which joins the digests of one key and window.
"$digest" --merge "$tmp/notif-digest.out" >"$tmp/merged.out"
merged=$(wc -l <"$tmp/merged.out")
summary() {
  jq -r '[.app, .thread_id, .window_start, .count, .unread_count, .actors,
    (.items | join(","))] | @tsv' "$1" | LC_ALL=C sort
}
jq -c '{app: .key.app, thread_id: .key.thread_id, window_start, count, unread_count,
  actors: (.actors | length), items: [.items[].id]}' "$tmp/merged.out" \
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
  "notif-digest --window 1h --item-limit 3 --now $bench_now FILE"
bench_throughput_row jq "$(bench_version jq)" \
  "jq -n -c --arg now $bench_now -f digest.jq FILE"
echo
ratio=$(bench_ratio "$(bench_median_wall jq)" "$(bench_median_wall notif-digest)")
echo "notif-digest: **${ratio}× jq** (jq wall / notif-digest wall, same run)."
echo
echo "notif-digest wrote $(bench_thousands "$digests") digests as their windows closed;" \
  "\`notif-digest --merge\` joins those of one key and window into $(bench_thousands "$merged")."
echo "Check: they and jq's agree (app, thread, window, count, unread count, number of actors," \
  "the first three records): $agree."
echo "Bytes: $(bench_bytes_each "$bytes" "$lines") in a record," \
  "$(bench_bytes_each "$digest_bytes" "$digests") out a digest (as written, before \`--merge\`)."

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
