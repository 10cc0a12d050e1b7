#!/usr/bin/env bash
# Benchmarks notif-parse against jq (and jaq and gojq when installed) on one generated file of
# APNs payloads, and prints Markdown tables for the README.
#
# usage: bench/parse.sh [RECORDS]        (default 1000000)
#
# 1. Throughput: `notif-parse --now 2026-11-22T09:00:00Z FILE` against `jq -c . FILE` (and
#    `jaq -c .`, `gojq -c .`), output to /dev/null; three runs each, tools alternating, median
#    wall time; MB/s, records/s and peak RSS (GNU time %M); the throughput ratio to jq.
# 2. Start-up: hyperfine (20 warm-up runs, 200 runs, no shell) of each tool on empty input.
# 3. Memory flatness: notif-parse's peak RSS on a tenth of the records and on all of them.
#
# The input is bench/data/payloads-RECORDS.ndjson (git-ignored), made by bench/gen-payloads.py
# when missing. notif-parse is $NOTIF_BIN_DIR/notif-parse, else .build/release/notif-parse
# (built when missing). Progress goes to stderr, the tables to stdout. The machine is shared and
# noisy: quote the ratios, which are measured in one run, rather than the absolute times.
# Needs bash 5, GNU time at /usr/bin/time, jq, hyperfine and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

if ((BASH_VERSINFO[0] < 5)); then
  echo "bench: needs bash 5 or later (EPOCHREALTIME)" >&2
  exit 2
fi

records=${1:-1000000}
if [[ ! $records =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: bench/parse.sh [RECORDS]" >&2
  exit 2
fi
runs=3

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

for tool in jq hyperfine python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
if [[ ! -x /usr/bin/time ]]; then
  echo "bench: GNU time (/usr/bin/time) is required" >&2
  exit 2
fi

parse=$(bench_find_parse)
file=$(bench_payloads "$records")
tenth=$((records / 10))
small_file=
if ((tenth > 0)); then
  small_file=$(bench_payloads "$tenth")
fi
bytes=$(wc -c <"$file")
lines=$(wc -l <"$file")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

# Sets `wall_us`, `rss_kb` and `status` for one run of TOOL on INPUT, output to /dev/null.
# notif-parse may exit 1 (some records rejected: the output check reports it); any other
# failure stops the benchmark. The wall clock is bash's, around GNU time.
measure() {
  local tool=$1 input=$2 start stop cmd
  tool_command "$tool" "$input"
  status=0
  start=$EPOCHREALTIME
  /usr/bin/time -f %M -o "$tmp/rss" "${cmd[@]}" >/dev/null 2>"$tmp/stderr" || status=$?
  stop=$EPOCHREALTIME
  wall_us=$((${stop/./} - ${start/./}))
  rss_kb=$(tail -n 1 "$tmp/rss") # after "Command exited with non-zero status N", if any
  if [[ $status -ne 0 && ! ($tool == notif-parse && $status -eq 1) ]]; then
    echo "bench: $tool failed on $input (status $status):" >&2
    head -n 5 "$tmp/stderr" >&2
    exit 1
  fi
}

median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# --- Output check (also warms the page cache) --------------------------------------------------
echo "bench: checking notif-parse output on $file" >&2
written=$({
  "$parse" --now "$bench_now" "$file" 2>"$tmp/check.err"
  echo $? >"$tmp/check.status"
} | wc -l)
check_status=$(<"$tmp/check.status")
rejected=$(wc -l <"$tmp/check.err")
if [[ $check_status -gt 1 ]]; then
  echo "bench: notif-parse failed (status $check_status):" >&2
  head -n 5 "$tmp/check.err" >&2
  exit 1
fi
cat "$file" >/dev/null

# --- Throughput ---------------------------------------------------------------------------------
declare -A walls rsss
for ((run = 0; run < runs; run++)); do
  # Rotate the order each run so that no tool always goes first after another's cache traffic.
  for ((k = 0; k < ${#tools[@]}; k++)); do
    tool=${tools[$(((k + run) % ${#tools[@]}))]}
    echo "bench: run $((run + 1))/$runs: $tool" >&2
    measure "$tool" "$file"
    walls[$tool]+="$wall_us "
    rsss[$tool]+="$rss_kb "
  done
done

version() {
  case $1 in
    notif-parse) "$parse" --version 2>/dev/null | head -n 1 || true ;;
    *) "$1" --version 2>/dev/null | head -n 1 || true ;;
  esac
}

mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
echo "## notif-parse benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") records, $mb MB, from \`bench/gen-payloads.py\`."
echo "Machine: $(nproc) cores${cpu:+, $cpu}. $runs runs per tool, alternating; medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
declare -A rate
for tool in "${tools[@]}"; do
  read -ra samples <<<"${walls[$tool]}"
  read -ra memories <<<"${rsss[$tool]}"
  wall=$(median "${samples[@]}")
  rss=$(median "${memories[@]}")
  rate[$tool]=$(awk -v b="$bytes" -v us="$wall" 'BEGIN { printf "%.3f", b / us }')
  case $tool in
    notif-parse) command="notif-parse --now $bench_now FILE" ;;
    *) command="$tool -c . FILE" ;;
  esac
  name=$(version "$tool")
  seconds=$(awk -v us="$wall" 'BEGIN { printf "%.2f", us / 1e6 }')
  mbps=$(awk -v b="$bytes" -v us="$wall" 'BEGIN { printf "%.0f", b / us }')
  per_second=$(awk -v n="$lines" -v us="$wall" 'BEGIN { printf "%.0f", n / (us / 1e6) }')
  memory=$(awk -v kb="$rss" 'BEGIN { printf "%.1f", kb / 1024 }')
  echo "| ${name:-$tool} | \`$command\` | $seconds s | $(bench_thousands "$mbps")" \
    "| $(bench_thousands "$per_second") | $memory MB |"
done
echo
ratio=$(awk -v a="${rate[notif-parse]}" -v b="${rate[jq]}" 'BEGIN { printf "%.1f", a / b }')
echo "notif-parse throughput: **${ratio}× jq -c .** (notif-parse / jq MB/s, same run)."
for peer in jaq gojq; do
  if [[ -n ${rate[$peer]:-} ]]; then
    echo "Against $peer: $(awk -v a="${rate[notif-parse]}" -v b="${rate[$peer]}" \
      'BEGIN { printf "%.1f", a / b }')×."
  fi
done
echo
echo "Output check: notif-parse wrote $(bench_thousands "$written") lines for" \
  "$(bench_thousands "$lines") input lines (exit status $check_status," \
  "$(bench_thousands "$rejected") diagnostic lines)."
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

# --- Start-up -------------------------------------------------------------------------------------
echo "bench: start-up (hyperfine)" >&2
commands=()
for tool in "${tools[@]}"; do
  case $tool in
    notif-parse) commands+=("$(printf '%q' "$parse") --now $bench_now /dev/null") ;;
    *) commands+=("$tool -c . /dev/null") ;;
  esac
done
echo
echo "### Start-up"
echo
echo "Empty input (\`/dev/null\`); hyperfine, 20 warm-up runs and 200 runs, no shell."
echo
if hyperfine --warmup 20 --runs 200 -N --style none --export-json "$tmp/startup.json" \
  "${commands[@]}" >/dev/null 2>"$tmp/hyperfine.err"; then
  echo "| tool | mean | σ |"
  echo "|---|---:|---:|"
  jq -r --argjson names "$(printf '%s\n' "${tools[@]}" | jq -R . | jq -s .)" '
    .results | to_entries[] |
    "| \($names[.key]) | \(.value.mean * 1000 * 100 | round / 100) ms " +
    "| \(.value.stddev * 1000 * 100 | round / 100) ms |"' "$tmp/startup.json"
  echo
  jq -r '.results | "jq takes \(.[1].mean / .[0].mean * 10 | round / 10)× as long as notif-parse" +
    " to start."' "$tmp/startup.json"
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
    measure notif-parse "$small_file"
    small_rss+=("$rss_kb")
  done
  small_kb=$(median "${small_rss[@]}")
  read -ra memories <<<"${rsss[notif-parse]}"
  big_kb=$(median "${memories[@]}")
  small_mb=$(awk -v b="$(wc -c <"$small_file")" 'BEGIN { printf "%.1f", b / 1e6 }')
  echo
  echo "### Memory flatness"
  echo
  echo "| records | input | notif-parse peak RSS |"
  echo "|---:|---:|---:|"
  awk -v kb="$small_kb" -v n="$(bench_thousands "$tenth")" -v mb="$small_mb" \
    'BEGIN { printf "| %s | %s MB | %.1f MB |\n", n, mb, kb / 1024 }'
  awk -v kb="$big_kb" -v n="$(bench_thousands "$lines")" -v mb="$mb" \
    'BEGIN { printf "| %s | %s MB | %.1f MB |\n", n, mb, kb / 1024 }'
  echo
  awk -v a="$small_kb" -v b="$big_kb" \
    'BEGIN { printf "10× the input, %.2f× the memory.\n", b / a }'
fi
