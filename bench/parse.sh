#!/usr/bin/env bash
# Benchmarks notif-parse against jq (and jaq and gojq when installed) on one generated file of
# APNs payloads, and prints Markdown tables for the README.
#
# usage: bench/parse.sh [--fcm] [RECORDS]        (default 1000000)
#
# With --fcm the input is FCM HTTP v1 send requests from bench/gen-fcm.py instead of APNs
# payloads (bench/data/fcm-RECORDS.ndjson), read with notif-parse's default --platform ios.
#
# 1. Throughput: `notif-parse --now 2026-11-22T09:00:00Z FILE` against `jq -c . FILE` (and
#    `jaq -c .`, `gojq -c .`), output to /dev/null; three runs each, tools alternating, median
#    wall time; MB/s, records/s and peak RSS (GNU time %M); the throughput ratio to jq.
# 2. From a pipe: notif-parse on the file through `cat |`, three runs, median, against the file.
# 3. Start-up: hyperfine (20 warm-up runs, 200 runs, no shell) of each tool on empty input, and
#    of /bin/true, the floor of any process here; the ratio of the medians to it.
# 4. Memory flatness: notif-parse's peak RSS on a tenth of the records and on all of them.
#
# The input is bench/data/payloads-RECORDS.ndjson (git-ignored), made by bench/gen-payloads.py
# when missing. notif-parse is $NOTIF_BIN_DIR/notif-parse, else .build/release/notif-parse
# (built when missing). Progress goes to stderr, the tables to stdout. The machine is shared and
# noisy: quote the ratios, which are measured in one run, rather than the absolute times.
# Needs bash 5, GNU time at /usr/bin/time, jq, hyperfine and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
kind=payloads generator=bench/gen-payloads.py what="APNs payloads"
if [[ ${1:-} == --fcm ]]; then
  kind=fcm generator=bench/gen-fcm.py what="FCM HTTP v1 messages"
  shift
fi
records=${1:-1000000}
bench_check_count "$records" "bench/parse.sh [--fcm] [RECORDS]"
runs=3
bench_require jq hyperfine python3

parse=$(bench_find_parse)
file=$(bench_generated "$kind" "$generator" "$records")
tenth=$((records / 10))
small_file=
if ((tenth > 0)); then
  small_file=$(bench_generated "$kind" "$generator" "$tenth")
fi
bench_input "$file"
bench_make_tmp

tools=(notif-parse jq)
for peer in jaq gojq; do
  if command -v "$peer" >/dev/null; then tools+=("$peer"); fi
done

# Sets `cmd` to the command line that runs TOOL on INPUT.
tool_command() {
  case $1 in
    notif-parse) cmd=("$parse" --now "$bench_now" "$2") ;;
    *) cmd=("$1" -c . "$2") ;;
  esac
}

# notif-parse may exit 1 (some records rejected: the output check reports it).
bench_ok_status[notif-parse]=1

# --- Output check (also warms the page cache) --------------------------------------------------
echo "bench: checking notif-parse output on $file" >&2
read -r written written_bytes < <({
  "$parse" --now "$bench_now" "$file" 2>"$tmp/check.err"
  echo $? >"$tmp/check.status"
} | wc -lc)
check_status=$(<"$tmp/check.status")
rejected=$(wc -l <"$tmp/check.err")
if [[ $check_status -gt 1 ]]; then
  echo "bench: notif-parse failed (status $check_status):" >&2
  head -n 5 "$tmp/check.err" >&2
  exit 1
fi
cat "$file" >/dev/null

# --- Throughput ---------------------------------------------------------------------------------
bench_rounds "$runs" "$file" "" "${tools[@]}"

mb=$(bench_megabytes "$bytes")
echo "## notif-parse benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") $what, $mb MB, from \`$generator\`."
echo "Machine: $(bench_machine). $runs runs per tool, alternating; medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
for tool in "${tools[@]}"; do
  case $tool in
    notif-parse) command="notif-parse --now $bench_now FILE" name=$(bench_version "$parse") ;;
    *) command="$tool -c . FILE" name=$(bench_version "$tool") ;;
  esac
  bench_throughput_row "$tool" "${name:-$tool}" "$command"
done
echo
# Throughput ratios: MB/s over MB/s, i.e. their wall over ours.
ratio=$(bench_ratio "$(bench_median_wall jq)" "$(bench_median_wall notif-parse)")
echo "notif-parse throughput: **${ratio}× jq -c .** (notif-parse / jq MB/s, same run)."
for peer in jaq gojq; do
  if [[ -n ${bench_walls[$peer]:-} ]]; then
    echo "Against $peer: $(bench_ratio "$(bench_median_wall "$peer")" \
      "$(bench_median_wall notif-parse)")×."
  fi
done
echo
echo "Output check: notif-parse wrote $(bench_thousands "$written") lines for" \
  "$(bench_thousands "$lines") input lines (exit status $check_status," \
  "$(bench_thousands "$rejected") diagnostic lines)."
if ((lines > 0 && written > 0)); then
  echo "Bytes: $((bytes / lines)) in a payload, $((written_bytes / written)) out a record" \
    "(null fields left out; \`--dense\` writes them)."
fi
if [[ $written -ne $lines ]]; then
  echo
  echo "**Warning: the line counts differ; every generated payload is valid, so they should" \
    "be equal.** First diagnostics:"
  echo
  echo '```'
  head -n 5 "$tmp/check.err"
  echo '```'
  echo "bench: WARNING: notif-parse wrote $written lines for $lines input lines" >&2
fi

# --- From a pipe ----------------------------------------------------------------------------------
# The same file through `cat |`: read in chunks on the threads as the file is, cut also where
# the pipe pauses. The wall time includes cat's, which shares the cores.
echo "bench: through a pipe" >&2
pipe_walls=()
for ((run = 0; run < runs; run++)); do
  # Exit status 1 (records rejected) is checked above, not here.
  bench_time_copies 1 "$file" /dev/null "$parse" --now "$bench_now" || true
  pipe_walls+=("$wall_us")
done
pipe_us=$(bench_median "${pipe_walls[@]}")
file_us=$(bench_median_wall notif-parse)
echo
echo "### From a pipe"
echo
echo "| input | wall | MB/s |"
echo "|---|---:|---:|"
echo "| the file | $(bench_seconds "$file_us") s | $(bench_mbps "$bytes" "$file_us") |"
echo "| \`cat FILE \|\` | $(bench_seconds "$pipe_us") s | $(bench_mbps "$bytes" "$pipe_us") |"
echo
echo "A pipe takes $(bench_ratio "$pipe_us" "$file_us")× the time of the file (medians of $runs)."

# --- Start-up -------------------------------------------------------------------------------------
echo "bench: start-up (hyperfine)" >&2
startup=()
for tool in "${tools[@]}"; do
  case $tool in
    notif-parse) startup+=("$tool" "$(printf '%q' "$parse") --now $bench_now /dev/null") ;;
    *) startup+=("$tool" "$tool -c . /dev/null") ;;
  esac
done
# The floor of any process on this machine, measured in the same run: the goal is 1.5× of it.
startup+=("/bin/true" "/bin/true")
echo
echo "### Start-up"
echo
echo "Empty input (\`/dev/null\`); hyperfine, 20 warm-up runs and 200 runs, no shell."
echo
if bench_startup "${startup[@]}"; then
  echo
  jq -r '.results | "jq takes \(.[1].mean / .[0].mean * 10 | round / 10)× as long as notif-parse" +
    " to start; notif-parse takes \(.[0].median / .[-1].median * 100 | round / 100)× as long as" +
    " /bin/true (medians)."' "$tmp/startup.json"
else
  echo "(hyperfine failed: $(head -n 1 "$tmp/hyperfine.err"))"
  echo "bench: hyperfine failed:" >&2
  cat "$tmp/hyperfine.err" >&2
fi

# --- Memory flatness ------------------------------------------------------------------------------
if [[ -n $small_file ]]; then
  echo "bench: memory flatness" >&2
  small_rss=()
  for ((run = 0; run < runs; run++)); do
    bench_measure notif-parse "$small_file"
    small_rss+=("$rss_kb")
  done
  small_kb=$(bench_median "${small_rss[@]}")
  big_kb=$(bench_median_rss notif-parse)
  small_mb=$(bench_megabytes "$(wc -c <"$small_file")")
  echo
  echo "### Memory flatness"
  echo
  echo "| records | input | notif-parse peak RSS |"
  echo "|---:|---:|---:|"
  echo "| $(bench_thousands "$tenth") | $small_mb MB | $(bench_memory "$small_kb") MB |"
  echo "| $(bench_thousands "$lines") | $mb MB | $(bench_memory "$big_kb") MB |"
  echo
  awk -v a="$small_kb" -v b="$big_kb" \
    'BEGIN { printf "10× the input, %.2f× the memory.\n", b / a }'
fi
