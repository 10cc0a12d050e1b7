#!/usr/bin/env bash
# Benchmarks notif-summarize against the same rules written in jq (bench/summarize.jq), on one
# generated file of group objects, checks that both write the same bytes, and prints Markdown
# tables for the README.
#
# usage: bench/summarize.sh [GROUPS]        (default 1000000)
#
# 1. Throughput: `notif-summarize --categories bench/categories.json FILE` against
#    `jq -c --argjson categories ... -f bench/summarize.jq FILE`, output to /dev/null; three runs
#    each, tools alternating, median wall time; MB/s, groups/s and peak RSS (GNU time %M); the
#    throughput ratio to jq.
# 2. Output check: the two outputs compared byte for byte.
# 3. Start-up: hyperfine (20 warm-up runs, 200 runs, no shell) on empty input, when installed.
# 4. Memory flatness: notif-summarize's peak RSS on a tenth of the groups and on all of them.
#
# The input is bench/data/groups-GROUPS.ndjson (git-ignored), made by bench/gen-groups.py when
# missing. notif-summarize is $NOTIF_BIN_DIR/notif-summarize, else
# .build/release/notif-summarize (built when missing). Progress goes to stderr, the tables to
# stdout. The machine is shared and noisy: quote the ratios, measured in one run.
# Needs bash 5, GNU time at /usr/bin/time, jq and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

if ((BASH_VERSINFO[0] < 5)); then
  echo "bench: needs bash 5 or later (EPOCHREALTIME)" >&2
  exit 2
fi

groups=${1:-1000000}
if [[ ! $groups =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: bench/summarize.sh [GROUPS]" >&2
  exit 2
fi
runs=3

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

for tool in jq python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
if [[ ! -x /usr/bin/time ]]; then
  echo "bench: GNU time (/usr/bin/time) is required" >&2
  exit 2
fi

dir=${NOTIF_BIN_DIR:-.build/release}
summarize=$dir/notif-summarize
if [[ ! -x $summarize ]]; then
  if [[ -n ${NOTIF_BIN_DIR:-} ]]; then
    echo "bench: no executable notif-summarize in NOTIF_BIN_DIR ($dir)" >&2
    exit 2
  fi
  echo "bench: building notif-summarize (swift build -c release --static-swift-stdlib)" >&2
  swift build -c release --static-swift-stdlib --product notif-summarize >&2
fi

# Prints the path of a file of COUNT generated group objects, making it when missing (cut from
# a bigger one when there is one: the generator is prefix-stable).
bench_groups() {
  local count=$1 file bigger
  file=$bench_data/groups-$count.ndjson
  if [[ ! -s $file ]]; then
    mkdir -p "$bench_data"
    bigger=$(find "$bench_data" -maxdepth 1 -name 'groups-*.ndjson' -size +0 2>/dev/null |
      sed -n 's/.*groups-\([0-9]*\)\.ndjson$/\1 &/p' | sort -n |
      awk -v n="$count" '$1 > n { print $2; exit }')
    if [[ -n $bigger ]]; then
      echo "bench: cutting $file from $bigger" >&2
      head -n "$count" "$bigger" >"$file.tmp"
    else
      echo "bench: generating $file (bench/gen-groups.py $count)" >&2
      python3 bench/gen-groups.py "$count" >"$file.tmp"
    fi
    mv "$file.tmp" "$file"
  fi
  printf '%s\n' "$file"
}

file=$(bench_groups "$groups")
tenth=$((groups / 10))
small_file=
if ((tenth > 0)); then
  small_file=$(bench_groups "$tenth")
fi
bytes=$(wc -c <"$file")
lines=$(wc -l <"$file")
categories=bench/categories.json
categories_json=$(<"$categories")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools=(notif-summarize jq)

# Sets `cmd` to the command line that runs TOOL on INPUT.
tool_command() {
  case $1 in
    notif-summarize) cmd=("$summarize" --categories "$categories" "$2") ;;
    jq) cmd=(jq -c --argjson categories "$categories_json" -f bench/summarize.jq "$2") ;;
  esac
}

# Sets `wall_us` and `rss_kb` for one run of TOOL on INPUT, output to /dev/null.
measure() {
  local tool=$1 input=$2 start stop cmd status=0
  tool_command "$tool" "$input"
  start=$EPOCHREALTIME
  /usr/bin/time -f %M -o "$tmp/rss" "${cmd[@]}" >/dev/null 2>"$tmp/stderr" || status=$?
  stop=$EPOCHREALTIME
  wall_us=$((${stop/./} - ${start/./}))
  rss_kb=$(tail -n 1 "$tmp/rss")
  if ((status != 0)); then
    echo "bench: $tool failed on $input (status $status):" >&2
    head -n 5 "$tmp/stderr" >&2
    exit 1
  fi
}

median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# --- Output check (also warms the page cache) --------------------------------------------------
echo "bench: checking that notif-summarize and jq write the same bytes" >&2
tool_command notif-summarize "$file"
"${cmd[@]}" >"$tmp/ours.ndjson"
tool_command jq "$file"
"${cmd[@]}" >"$tmp/jq.ndjson"
if cmp -s "$tmp/ours.ndjson" "$tmp/jq.ndjson"; then
  same="identical"
else
  same="**different** (first difference: $(cmp "$tmp/ours.ndjson" "$tmp/jq.ndjson" | head -n 1))"
  echo "bench: WARNING: the outputs differ" >&2
fi
rm -f "$tmp/ours.ndjson" "$tmp/jq.ndjson"

# --- Throughput ---------------------------------------------------------------------------------
declare -A walls rsss
for ((run = 0; run < runs; run++)); do
  for ((k = 0; k < ${#tools[@]}; k++)); do
    tool=${tools[$(((k + run) % ${#tools[@]}))]}
    echo "bench: run $((run + 1))/$runs: $tool" >&2
    measure "$tool" "$file"
    walls[$tool]+="$wall_us "
    rsss[$tool]+="$rss_kb "
  done
done

mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
echo "## notif-summarize benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") group objects, $mb MB, from" \
  "\`bench/gen-groups.py\`."
echo "Machine: $(nproc) cores${cpu:+, $cpu}. $runs runs per tool, alternating; medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | groups/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
declare -A rate
for tool in "${tools[@]}"; do
  read -ra samples <<<"${walls[$tool]}"
  read -ra memories <<<"${rsss[$tool]}"
  wall=$(median "${samples[@]}")
  rss=$(median "${memories[@]}")
  rate[$tool]=$(awk -v b="$bytes" -v us="$wall" 'BEGIN { printf "%.3f", b / us }')
  case $tool in
    notif-summarize)
      command="notif-summarize --categories bench/categories.json FILE"
      name=$("$summarize" --version) ;;
    jq)
      command="jq -c --argjson categories … -f bench/summarize.jq FILE"
      name=$(jq --version) ;;
  esac
  seconds=$(awk -v us="$wall" 'BEGIN { printf "%.2f", us / 1e6 }')
  mbps=$(awk -v b="$bytes" -v us="$wall" 'BEGIN { printf "%.0f", b / us }')
  per_second=$(awk -v n="$lines" -v us="$wall" 'BEGIN { printf "%.0f", n / (us / 1e6) }')
  memory=$(awk -v kb="$rss" 'BEGIN { printf "%.1f", kb / 1024 }')
  echo "| $name | \`$command\` | $seconds s | $(bench_thousands "$mbps")" \
    "| $(bench_thousands "$per_second") | $memory MB |"
done
echo
ratio=$(awk -v a="${rate[notif-summarize]}" -v b="${rate[jq]}" 'BEGIN { printf "%.1f", a / b }')
echo "notif-summarize throughput: **${ratio}× jq** running the same rules (MB/s, same run)."
echo "Output check: the two outputs are $same."

# --- Start-up -------------------------------------------------------------------------------------
if command -v hyperfine >/dev/null; then
  echo "bench: start-up (hyperfine)" >&2
  echo
  echo "### Start-up"
  echo
  echo "Empty input (\`/dev/null\`), with the categories file; hyperfine, 20 warm-up runs and" \
    "200 runs, no shell."
  echo
  if hyperfine --warmup 20 --runs 200 -N --style none --export-json "$tmp/startup.json" \
    "$(printf '%q' "$summarize") --categories $categories /dev/null" \
    "jq -c --argjson categories '$(jq -c . "$categories")' -f bench/summarize.jq /dev/null" \
    >/dev/null 2>"$tmp/hyperfine.err"; then
    echo "| tool | mean | σ |"
    echo "|---|---:|---:|"
    jq -r '.results[] | "| \(.command | split(" ")[0] | split("/")[-1]) |" +
      " \(.mean * 1000 | . * 100 | round / 100) ms | \(.stddev * 1000 | . * 100 | round / 100) ms |"' \
      "$tmp/startup.json"
  else
    echo "hyperfine failed: $(head -n 1 "$tmp/hyperfine.err")"
  fi
fi

# --- Memory flatness ----------------------------------------------------------------------------
if [[ -n $small_file ]]; then
  echo "bench: memory on a tenth of the input" >&2
  measure notif-summarize "$small_file"
  small_rss=$rss_kb
  measure notif-summarize "$file"
  echo
  echo "### Memory"
  echo
  echo "notif-summarize peak RSS: $(awk -v kb="$small_rss" 'BEGIN { printf "%.1f", kb / 1024 }')" \
    "MB on $(bench_thousands "$tenth") groups, $(awk -v kb="$rss_kb" \
    'BEGIN { printf "%.1f", kb / 1024 }') MB on $(bench_thousands "$groups")."
fi
