#!/usr/bin/env bash
# Benchmarks notif-expire (and notif-mark) against jq doing the same work in one run, and
# prints Markdown tables for the README.
#
# usage: bench/expire.sh [RECORDS]        (default 1000000)
#
# 1. Stream throughput: `notif-expire --policy P --now T FILE` against a jq program that keeps
#    the same records by the same per-category time to live, read_ttl and own dates (one
#    `select`, one run); output to /dev/null, RUNS runs each (default 2), alternating, median
#    wall time; records/s and peak RSS (GNU time %M); the ratio to jq. The outputs are compared:
#    they may differ only in records that notif-expire collapses (jq does no collapse). A line
#    "Bytes:" gives the mean size of a record in and of a kept record out (the check's output).
# 2. From a pipe: the file through `cat |` (the first pass copies the pipe as it reads it, in
#    memory up to 16 MiB, then to a temporary file), median of three runs, against the file's median wall time; and the pipe
#    alone, `cat FILE | cat >/dev/null`, median of three runs: the floor under any tool's pipe.
# 3. Memory flatness: notif-expire's peak RSS on RECORDS records and on ten copies of them sent
#    through a pipe (so the input is also copied past 16 MiB to a temporary file; every collapse key then
#    repeats ten times, the worst case for the collapse table).
# 4. In place: `notif-expire --store S --archive A` on a copy of the records, timed, then a
#    second sweep that finds nothing to remove (the store is read and not rewritten).
# 5. notif-mark --read --all (median of three runs) against
#    `jq -c '.read_at //= $now | .seen_at //= $now'` (one run); then notif-mark through
#    `cat |` (median of three runs) against its file.
# Before 2 and 5 the script waits for what it wrote to reach the disk (`sync`): the outputs of
# the check, and the store and archive of the in-place sweeps, were written back during the
# runs that followed them and took a third of their time. Before 5 it reads the file once.
#
# The records are bench/data/records-week-RECORDS.ndjson (git-ignored): the payloads of
# bench/gen-payloads.py turned into records by notif-parse in 14 chunks whose `--now` steps by
# 12 hours over the week before 2026-11-22T09:00:00Z, so that created_at spreads over the week
# and the policy below removes some of every day. Binaries are $NOTIF_BIN_DIR/notif-*, else
# .build/release/notif-* (built when missing). Progress goes to stderr, the tables to stdout.
# The machine is shared and noisy: quote the ratios, measured in one run. Needs bash 5, GNU
# time at /usr/bin/time, jq and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
records=${1:-1000000}
bench_check_count "$records" "bench/expire.sh [RECORDS]"
runs=${RUNS:-2}
bench_require jq python3

parse=$(bench_find_parse)
expire=$(bench_find_tool notif-expire)
mark=$(bench_find_tool notif-mark)

file=$(bench_records_week "$parse" "$records")
bench_input "$file"
bench_make_tmp

cat >"$tmp/policy.json" <<'EOF'
{"default": {"ttl": "3d"},
 "categories": {
   "MESSAGE": {"ttl": "30d", "read_ttl": "1d"}, "MESSAGE_REPLY": {"ttl": "30d", "read_ttl": "1d"},
   "NEW_MAIL": {"ttl": "14d"}, "MAIL_REPLY": {"ttl": "14d"}, "SECURITY": {"ttl": "30d"},
   "PROMO": {"ttl": "1d"}, "DIGEST": {"ttl": "1d12h"}, "BREAKING": {"ttl": "12h"}}}
EOF
# The same rules for jq: [ttl, read_ttl] in seconds by category; the default for the rest.
cat >"$tmp/expire.jq" <<'EOF'
def t: if . == null then null else fromdateiso8601 end;
($now | fromdateiso8601) as $n
| {"MESSAGE": [2592000, 86400], "MESSAGE_REPLY": [2592000, 86400], "NEW_MAIL": [1209600, null],
   "MAIL_REPLY": [1209600, null], "SECURITY": [2592000, null], "PROMO": [86400, null],
   "DIGEST": [129600, null], "BREAKING": [43200, null]} as $rules
| select(($rules[.category // ""] // [259200, null]) as [$ttl, $rttl]
  | [ (.created_at | t) + $ttl,
      (if $rttl != null and .read_at != null then (.read_at | t) + $rttl else null end),
      (.expires_at | t), (.stale_at | t), (.dismiss_at | t) ]
    | map(select(. != null)) | min > $n)
EOF

# Sets `cmd` to the command line of TOOL on INPUT.
tool_command() {
  # shellcheck disable=SC2016 # $now in the jq programs is jq's, not the shell's
  case $1 in
    notif-expire) cmd=("$expire" --policy "$tmp/policy.json" --now "$bench_now" "$2") ;;
    jq) cmd=(jq -c --arg now "$bench_now" -f "$tmp/expire.jq" "$2") ;;
    notif-mark) cmd=("$mark" --read --all --now "$bench_now" "$2") ;;
    notif-expire-store) cmd=("$expire" --policy "$tmp/policy.json" --now "$bench_now"
      --store "$2" --archive "$tmp/archive.ndjson") ;;
    jq-mark) cmd=(jq -c --arg now "$bench_now" '.read_at //= $now | .seen_at //= $now' "$2") ;;
  esac
}

# --- Output check (also warms the page cache) --------------------------------------------------
echo "bench: checking outputs on $file" >&2
bench_measure notif-expire "$file" "$tmp/expire.out"
bench_measure jq "$file" "$tmp/jq.out"
"$expire" -n --policy "$tmp/policy.json" --now "$bench_now" "$file" >"$tmp/removed.out"
read -r kept_expire kept_bytes < <(wc -lc <"$tmp/expire.out")
kept_jq=$(wc -l <"$tmp/jq.out")
ids() { cut -d '"' -f 4 "$1" | sort; }
only_jq=$(comm -23 <(ids "$tmp/jq.out") <(ids "$tmp/expire.out") | tee "$tmp/only-jq" | wc -l)
only_expire=$(comm -13 <(ids "$tmp/jq.out") <(ids "$tmp/expire.out") | wc -l)
{ grep '"removed_reason":"collapsed"' "$tmp/removed.out" || true; } | cut -d '"' -f 4 | sort \
  >"$tmp/collapsed"
unexplained=$(comm -23 "$tmp/only-jq" "$tmp/collapsed" | wc -l)
declare -A reasons
for reason in expired read-expired collapsed; do
  reasons[$reason]=$(grep -c "\"removed_reason\":\"$reason\"" "$tmp/removed.out" || true)
done

# --- Throughput -----------------------------------------------------------------------------------
tools=(notif-expire jq)
bench_rounds "$runs" "$file" "" "${tools[@]}"

mb=$(bench_megabytes "$bytes")
echo "## notif-expire benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") records, $mb MB (notif-parse records of"
echo "\`bench/gen-payloads.py\` payloads, created over a week). Policy: 8 category rules and a"
echo "default, two with \`read_ttl\`. Machine: $(bench_machine), shared."
echo "$runs runs per tool, alternating; medians."
echo
echo "### Stream mode against jq"
echo
bench_wall_table records \
  "notif-expire=notif-expire --policy policy.json --now $bench_now FILE" \
  "jq=jq -c --arg now $bench_now -f expire.jq FILE"
echo
ratio=$(bench_ratio "${median_wall[jq]}" "${median_wall[notif-expire]}")
echo "notif-expire: **${ratio}× jq** (jq wall / notif-expire wall, same run)."
echo
echo "Output check: notif-expire kept $(bench_thousands "$kept_expire") records and removed" \
  "$(bench_thousands "${reasons[expired]}") expired, $(bench_thousands "${reasons[read-expired]}")" \
  "read-expired and $(bench_thousands "${reasons[collapsed]}") collapsed; jq kept" \
  "$(bench_thousands "$kept_jq"). Kept by jq only: $only_jq, every one collapsed by" \
  "notif-expire (jq does no collapse): $((only_jq - unexplained)) of $only_jq." \
  "Kept by notif-expire only: $only_expire."
echo "Bytes: $(bench_bytes_each "$bytes" "$lines") in a record," \
  "$(bench_bytes_each "$kept_bytes" "$kept_expire") out a kept record (written as it was read)."
if ((unexplained > 0 || only_expire > 0)); then
  echo
  echo "**Warning: the outputs differ beyond collapse.**"
  echo "bench: WARNING: outputs differ beyond collapse" >&2
fi

# --- From a pipe ----------------------------------------------------------------------------------
# The same file through `cat |`: the first pass copies the pipe as it reads it (in memory, then
# past 16 MiB in a temporary file in TMPDIR: the data folder, on disk like the file), the passes
# after it read the copy.
echo "bench: one copy through a pipe" >&2
sync
pipe_walls="" pipe_cpus="" feed_cpus=""
for _ in 1 2 3; do
  bench_time_copies 1 "$file" /dev/null \
    env TMPDIR="$bench_data" "$expire" --policy "$tmp/policy.json" --now "$bench_now"
  pipe_walls+="$wall_us " pipe_cpus+="$cpu_us " feed_cpus+="$feed_cpu_us "
done
pipe_us=$(bench_median "$pipe_walls")
pipe_cpu_us=$(bench_median "$pipe_cpus")
feed_cpu_us=$(bench_median "$feed_cpus")
file_cpu_us=$(bench_median "${bench_cpus[notif-expire]}")
# The pipe alone: the same bytes from `cat` to a `cat` that discards them, the copying that every
# `cat FILE |` row pays before its tool does anything (its wall time is about notif-expire's on
# the file here). The processor times above bound those rows more tightly (bench_pipe_floor).
transport_walls=""
for _ in 1 2 3; do
  bench_time_copies 1 "$file" /dev/null cat
  transport_walls+="$wall_us "
done
transport_us=$(bench_median "$transport_walls")
echo "### From a pipe"
echo
echo "| input | wall | records/s | notif-expire's processor time | cat's |"
echo "|---|---:|---:|---:|---:|"
echo "| the file | $(bench_seconds "${median_wall[notif-expire]}") s |" \
  "$(bench_per_second "$lines" "${median_wall[notif-expire]}") | $(bench_seconds "$file_cpu_us") s | |"
echo "| \`cat FILE \|\` | $(bench_seconds "$pipe_us") s | $(bench_per_second "$lines" "$pipe_us") |" \
  "$(bench_seconds "$pipe_cpu_us") s | $(bench_seconds "$feed_cpu_us") s |"
echo "| the pipe alone, \`cat FILE \| cat\` | $(bench_seconds "$transport_us") s |" \
  "$(bench_per_second "$lines" "$transport_us") | | |"
echo
echo "A pipe takes $(bench_ratio "$pipe_us" "${median_wall[notif-expire]}")× the time of the file" \
  "(median of 3 runs); the pipe alone takes" \
  "$(bench_ratio "$transport_us" "${median_wall[notif-expire]}")× the time of notif-expire on the file."
bench_pipe_floor "$file_cpu_us" "$feed_cpu_us" "${median_wall[notif-expire]}"
echo

# --- Memory flatness ------------------------------------------------------------------------------
echo "bench: memory flatness: ten copies through a pipe" >&2
one_kb=$(bench_median_rss notif-expire)
bench_time_copies 10 "$file" /dev/null \
  env TMPDIR="$bench_data" "$expire" --policy "$tmp/policy.json" --now "$bench_now"
ten_kb=$rss_kb ten_us=$wall_us
echo
echo "### Memory"
echo
echo "| records | input | notif-expire peak RSS | wall |"
echo "|---:|---|---:|---:|"
echo "| $(bench_thousands "$lines") | the file | $(bench_memory "$one_kb") MB |" \
  "$(bench_seconds "${median_wall[notif-expire]}") s |"
echo "| $(bench_thousands $((lines * 10))) | ten copies through a pipe (spooled) |" \
  "$(bench_memory "$ten_kb") MB | $(bench_seconds "$ten_us") s |"

# --- In place -------------------------------------------------------------------------------------
echo "bench: in-place sweeps" >&2
cp "$file" "$tmp/inbox.ndjson"
sweep() {
  bench_measure notif-expire-store "$tmp/inbox.ndjson"
  sweep_us=$wall_us sweep_kb=$rss_kb
}
sweep
first_us=$sweep_us first_kb=$sweep_kb
stored=$(wc -l <"$tmp/inbox.ndjson")
archived=$(wc -l <"$tmp/archive.ndjson")
inode=$(stat -c %i "$tmp/inbox.ndjson")
sweep
unchanged=no
[[ $(stat -c %i "$tmp/inbox.ndjson") == "$inode" ]] && unchanged=yes
echo
echo "### In place (\`--store\`, \`--archive\`, with fsync)"
echo
echo "| sweep | wall | records/s | peak RSS | result |"
echo "|---|---:|---:|---:|---|"
echo "| first, $(bench_thousands "$lines") records | $(bench_seconds "$first_us") s" \
  "| $(bench_per_second "$lines" "$first_us") | $(bench_memory "$first_kb") MB" \
  "| $(bench_thousands "$stored") kept, $(bench_thousands "$archived") archived |"
echo "| second, nothing to remove | $(bench_seconds "$sweep_us") s" \
  "| $(bench_per_second "$stored" "$sweep_us") | $(bench_memory "$sweep_kb") MB" \
  "| store not rewritten: $unchanged |"
echo
echo "Every record is in exactly one of store and archive:" \
  "$((stored + archived)) = $(bench_thousands $((stored + archived))) of $(bench_thousands "$lines")."

# --- notif-mark -------------------------------------------------------------------------------------
echo "bench: notif-mark --read --all against jq" >&2
sync
# The runs since the check read 12 GB more through the page cache: the file is read once
# untimed, so that no timed run reads it from the disk.
cat "$file" >/dev/null
mark_walls="" mark_cpus=""
for _ in 1 2 3; do
  bench_measure notif-mark "$file"
  mark_walls+="$wall_us " mark_cpus+="$cpu_us "
  mark_kb=$rss_kb
done
mark_us=$(bench_median "$mark_walls")
mark_cpu_us=$(bench_median "$mark_cpus")
mark_pipe_walls="" mark_feed_cpus=""
for _ in 1 2 3; do
  bench_time_copies 1 "$file" /dev/null "$mark" --read --all --now "$bench_now"
  mark_pipe_walls+="$wall_us " mark_feed_cpus+="$feed_cpu_us "
done
mark_pipe_us=$(bench_median "$mark_pipe_walls")
mark_feed_cpu_us=$(bench_median "$mark_feed_cpus")
bench_measure jq-mark "$file"
echo
echo "### notif-mark --read --all against jq"
echo
echo "| tool | command | wall | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|"
echo "| notif-mark | \`notif-mark --read --all --now $bench_now FILE\` | $(bench_seconds "$mark_us") s" \
  "| $(bench_per_second "$lines" "$mark_us") | $(bench_memory "$mark_kb") MB |"
echo "| jq | \`jq -c '.read_at //= \$now \| .seen_at //= \$now' FILE\` | $(bench_seconds "$wall_us") s" \
  "| $(bench_per_second "$lines" "$wall_us") | $(bench_memory "$rss_kb") MB |"
echo
echo "notif-mark: **$(bench_ratio "$wall_us" "$mark_us")× jq**" \
  "(notif-mark's median of 3 runs, jq's one run)."
echo "Through \`cat FILE |\`, notif-mark takes $(bench_seconds "$mark_pipe_us") s," \
  "$(bench_ratio "$mark_pipe_us" "$mark_us")× the time of the file (median of 3 runs); the pipe" \
  "alone took $(bench_seconds "$transport_us") s (above)."
bench_pipe_floor "$mark_cpu_us" "$mark_feed_cpu_us" "$mark_us"
