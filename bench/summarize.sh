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

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
groups=${1:-1000000}
bench_check_count "$groups" "bench/summarize.sh [GROUPS]"
runs=3
bench_require jq python3

summarize=$(bench_find_tool notif-summarize)

# Prints the path of a file of COUNT generated group objects (bench/gen-groups.py).
bench_groups() {
  bench_generated groups bench/gen-groups.py "$1"
}

file=$(bench_groups "$groups")
tenth=$((groups / 10))
small_file=
if ((tenth > 0)); then
  small_file=$(bench_groups "$tenth")
fi
bench_input "$file"
categories=bench/categories.json
categories_json=$(<"$categories")

bench_make_tmp
tools=(notif-summarize jq)

# Sets `cmd` to the command line that runs TOOL on INPUT.
tool_command() {
  case $1 in
    notif-summarize) cmd=("$summarize" --categories "$categories" "$2") ;;
    jq) cmd=(jq -c --argjson categories "$categories_json" -f bench/summarize.jq "$2") ;;
  esac
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
bench_rounds "$runs" "$file" "" "${tools[@]}"

mb=$(bench_megabytes "$bytes")
echo "## notif-summarize benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") group objects, $mb MB, from" \
  "\`bench/gen-groups.py\`."
echo "Machine: $(bench_machine). $runs runs per tool, alternating; medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | groups/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
for tool in "${tools[@]}"; do
  case $tool in
    notif-summarize)
      command="notif-summarize --categories bench/categories.json FILE"
      name=$("$summarize" --version) ;;
    jq)
      command="jq -c --argjson categories … -f bench/summarize.jq FILE"
      name=$(jq --version) ;;
  esac
  bench_throughput_row "$tool" "$name" "$command"
done
echo
ratio=$(bench_ratio "$(bench_median_wall jq)" "$(bench_median_wall notif-summarize)")
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
  if ! bench_startup notif-summarize \
    "$(printf '%q' "$summarize") --categories $categories /dev/null" \
    jq "jq -c --argjson categories '$(jq -c . "$categories")' -f bench/summarize.jq /dev/null"
  then
    echo "hyperfine failed: $(head -n 1 "$tmp/hyperfine.err")"
  fi
fi

# --- Memory flatness ----------------------------------------------------------------------------
if [[ -n $small_file ]]; then
  echo "bench: memory on a tenth of the input" >&2
  bench_measure notif-summarize "$small_file"
  small_rss=$rss_kb
  bench_measure notif-summarize "$file"
  echo
  echo "### Memory"
  echo
  echo "notif-summarize peak RSS: $(bench_memory "$small_rss") MB on" \
    "$(bench_thousands "$tenth") groups, $(bench_memory "$rss_kb") MB on" \
    "$(bench_thousands "$groups")."
fi
