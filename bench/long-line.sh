#!/usr/bin/env bash
# Benchmarks every tool on one 100 MB line against 100 MB of ordinary lines (issue 18: lines of
# any length, in time and memory), and prints a Markdown table.
#
# usage: bench/long-line.sh [RUNS]        (default 3)
#
# For each of notif-parse, notif-group, notif-summarize, notif-expire, notif-mark and
# notif-show, with its default --max-record-bytes (64 MiB): the wall time and peak RSS (GNU time
# %M) on (a) 100 MB of the lines it reads (APNs payloads for notif-parse, group objects for
# notif-summarize, records for the others) and on (b) one line of 100 MB of the same kind (a
# payload or a record with a body of 50 MB, which its payload repeats; the group object of such
# a record, which its items repeat), which a tool rejects (RecordTooLarge) or, a sweep, passes
# through; and the ratio b/a of the medians of RUNS runs, (a) and (b) alternating. notif-show
# runs with --limit 50, as on a big file.
#
# It exits 1 when a tool takes more than 3 times as long on (b) as on (a), or when its peak RSS
# on (b) is above 2 x the limit + 32 MB (160 MiB): the reader keeps at most the limit of a text
# and two reads, and parses none of it past the limit; twice the limit leaves a tool room for
# one copy of the text besides (a sweep that passes the line through, notif-parse's kept
# payload), and 32 MB for the binary, its stacks and its small buffers. A tool linear in the
# length of a line and bounded by the limit meets both with room to spare: a rejected line is
# read once and parsed a few times up to the limit, where ordinary lines are parsed and written
# whole. (The bulk of these lines is a string, one value of the parser's tape. A line of many
# small values costs the tape too, 20 bytes a value of its first 64 MiB: a group object of
# 400,000 small items, 100 MB, peaks at about 180 MB in notif-summarize, rejected.)
#
# The inputs are in bench/data/ (git-ignored), made when missing: the ordinary lines cut to
# 100 MB from bench/gen-payloads.py, notif-parse's records of them and bench/gen-groups.py; the
# long lines by bench/gen-long-line.py (the group object by notif-group from a 100 MB thread).
# The tools are $NOTIF_BIN_DIR/notif-*, else .build/release/notif-* (built when missing).
# Progress goes to stderr, the table to stdout. The machine is shared and noisy: quote the
# ratios, each measured in one run. Needs bash 5, GNU time at /usr/bin/time and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
runs=${1:-3}
bench_check_count "$runs" "bench/long-line.sh [RUNS]"
bench_require python3

size=100000000
limit_mib=64
max_ratio=3
rss_bound_kb=$(((2 * limit_mib + 32) * 1024))
tools=(notif-parse notif-group notif-summarize notif-expire notif-mark notif-show)
declare -A bin=()
for tool in "${tools[@]}"; do bin[$tool]=$(bench_find_tool "$tool"); done

# Prints the path of bench/data/NAME, SIZE bytes (rounded down to whole lines) of FILE.
bench_cut() {
  local file=$1 out=$bench_data/$2
  if [[ ! -s $out ]]; then
    echo "bench: cutting $out from $file" >&2
    head -c "$size" "$file" | sed '$d' >"$out.tmp"
    mv "$out.tmp" "$out"
  fi
  printf '%s\n' "$out"
}

# Prints the path of bench/data/long-KIND-100m.ndjson, one line of KIND (bench/gen-long-line.py).
bench_long() {
  local kind=$1 out=$bench_data/long-$1-100m.ndjson
  if [[ ! -s $out ]]; then
    mkdir -p "$bench_data"
    echo "bench: generating $out" >&2
    python3 bench/gen-long-line.py "$kind" "$size" >"$out.tmp"
    mv "$out.tmp" "$out"
  fi
  printf '%s\n' "$out"
}

# Prints the path of bench/data/long-group-100m.ndjson: the group object of one record of 50 MB
# (bench/gen-long-line.py record-body), its leading record and its one item, one line of
# 100 MB, as notif-group writes it.
bench_long_group() {
  local out=$bench_data/long-group-100m.ndjson
  if [[ ! -s $out ]]; then
    mkdir -p "$bench_data"
    echo "bench: making $out (notif-group of one 50 MB record)" >&2
    python3 bench/gen-long-line.py record-body $((size / 2)) | "${bin[notif-group]}" >"$out.tmp"
    mv "$out.tmp" "$out"
  fi
  printf '%s\n' "$out"
}

payloads=$(bench_cut "$(bench_payloads 260000)" ordinary-payloads-100m.ndjson)
records=$(bench_cut "$(bench_records 90000)" ordinary-records-100m.ndjson)
groups=$(bench_cut "$(bench_generated groups bench/gen-groups.py 80000)" \
  ordinary-groups-100m.ndjson)
long_payload=$(bench_long payload-body)
long_record=$(bench_long record-body)
long_group=$(bench_long_group)
bench_make_tmp

cat >"$tmp/policy.json" <<'EOF'
{"default": {"ttl": "3d"},
 "categories": {"MESSAGE": {"ttl": "30d", "read_ttl": "1d"}, "PROMO": {"ttl": "1d"}}}
EOF

# The ordinary input and the long line of TOOL, and its command line on FILE (in `cmd`).
inputs() {
  case $1 in
    notif-parse) ordinary=$payloads long=$long_payload ;;
    notif-summarize) ordinary=$groups long=$long_group ;;
    *) ordinary=$records long=$long_record ;;
  esac
}
tool_command() {
  local path=${bin[$1]}
  case $1 in
    notif-parse) cmd=("$path" --now "$bench_now" "$2") ;;
    notif-group | notif-summarize) cmd=("$path" "$2") ;;
    notif-expire) cmd=("$path" -p "$tmp/policy.json" --now "$bench_now" "$2") ;;
    notif-mark) cmd=("$path" --read --all --now "$bench_now" "$2") ;;
    notif-show) cmd=("$path" --now "$bench_now" --limit 50 --width 100 "$2") ;;
  esac
}

# Wall times (microseconds), peak RSS (KiB) and exit statuses per tool and input, one entry a
# run; the first line of stderr of the last run on the long line.
declare -A walls=() rsss=() statuses=() said=()
for ((run = 0; run < runs; run++)); do
  for tool in "${tools[@]}"; do
    inputs "$tool"
    for which in a b; do
      file=$ordinary
      if [[ $which == b ]]; then file=$long; fi
      echo "bench: run $((run + 1))/$runs: $tool ($which)" >&2
      cat "$file" >/dev/null # from the page cache, as the other runs
      tool_command "$tool" "$file"
      bench_time /dev/null "${cmd[@]}"
      walls[$tool.$which]+="$wall_us "
      rsss[$tool.$which]+="$rss_kb "
      statuses[$tool.$which]="$status"
      # What the first diagnostic says of the long line: its position and code.
      if [[ $which == b ]]; then
        said[$tool]=$(head -c 1000 "$tmp/stderr" | head -n 1 |
          sed -n 's/^[^ ]* [^ ]*:\([0-9]*:[0-9]*\): [a-z]*: .*\[\([A-Za-z]*\)\]$/\2 at \1/p')
      fi
    done
  done
done

echo "## Lines of any length"
echo
echo "(a) 100 MB of ordinary lines: \`$(basename "$payloads")\`, \`$(basename "$records")\`," \
  "\`$(basename "$groups")\`; (b) one line of 100 MB: \`$(basename "$long_payload")\`," \
  "\`$(basename "$long_record")\`, \`$(basename "$long_group")\`."
echo "Machine: $(bench_machine). $runs runs each, (a) and (b) alternating; medians."
echo "Bounds: (b) at most ${max_ratio}× (a), peak RSS on (b) at most $((rss_bound_kb / 1024)) MB" \
  "(2 × the ${limit_mib} MiB limit + 32 MB)."
echo
echo "| tool | (a) wall | (a) peak RSS | (b) wall | (b) peak RSS | b/a | (b): status, diagnostic |"
echo "|---|---:|---:|---:|---:|---:|---|"
failures=()
for tool in "${tools[@]}"; do
  a=$(bench_median "${walls[$tool.a]}")
  b=$(bench_median "${walls[$tool.b]}")
  a_rss=$(bench_median "${rsss[$tool.a]}")
  b_rss=$(bench_median "${rsss[$tool.b]}")
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')
  mark=""
  if awk -v r="$ratio" -v m="$max_ratio" 'BEGIN { exit !(r > m) }'; then
    failures+=("$tool takes ${ratio}× as long on one 100 MB line as on 100 MB of lines")
    mark=" **over**"
  fi
  rss_mark=""
  if ((b_rss > rss_bound_kb)); then
    failures+=("$tool peaks at $(bench_memory "$b_rss") MB on one 100 MB line")
    rss_mark=" **over**"
  fi
  note=${said[$tool]:-}
  echo "| $tool | $(bench_seconds "$a") s | $(bench_memory "$a_rss") MB |" \
    "$(bench_seconds "$b") s | $(bench_memory "$b_rss") MB$rss_mark | ${ratio}×$mark |" \
    "${statuses[$tool.b]}, ${note:-none} |"
done
echo
if ((${#failures[@]} > 0)); then
  echo "**Over the bounds:**"
  for failure in "${failures[@]}"; do echo "- $failure"; done
  exit 1
fi
echo "Every tool within the bounds."
