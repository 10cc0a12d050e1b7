#!/usr/bin/env bash
# Benchmarks notif-group (and notif-group | notif-summarize, when built) against jq's group_by
# doing the same counting, on one generated file of notification records, and prints Markdown
# tables for the README.
#
# usage: bench/group.sh [RECORDS]        (default 1000000)
#
# 1. Throughput: `notif-group --no-items FILE`, `notif-group --no-items FILE | notif-summarize`
#    (only when an executable notif-summarize sits next to notif-group; "skipped" otherwise,
#    "failed" with its message if it fails; extra arguments in NOTIF_SUMMARIZE_ARGS) and
#    `jq -s 'group_by([.app, .thread_id]) | map({...})' FILE` computing count, unread_count,
#    new_count, latest_at, the leading record, more_weight and the per-category counts; output
#    to a file; notif-group three runs, jq one (it takes minutes), tools alternating; median
#    wall time; MB/s, records/s, peak RSS (GNU time %M); the ratio to jq. Then a check that
#    notif-group and jq found the same groups with the same counts.
# 2. Memory flatness: notif-group --no-items's peak RSS on RECORDS records and on ten times as
#    many (the file streamed ten times through a pipe with cat, so no 10x file is written).
#
# The input is bench/data/records-RECORDS.ndjson (git-ignored): bench/gen-payloads.py's payloads
# (about 30 apps, 500 threads, categories, summary arguments, relevance scores) turned into
# records by notif-parse --now 2026-11-22T09:00:00Z. notif-group is $NOTIF_BIN_DIR/notif-group,
# else .build/release/notif-group (built when missing). Progress goes to stderr, the tables to
# stdout. The machine is shared and noisy: quote the ratios, measured in one run.
# Needs bash 5, GNU time at /usr/bin/time, jq and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

if ((BASH_VERSINFO[0] < 5)); then
  echo "bench: needs bash 5 or later (EPOCHREALTIME)" >&2
  exit 2
fi

records=${1:-1000000}
if [[ ! $records =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: bench/group.sh [RECORDS]" >&2
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

# Prints the path of notif-group, building it (static, release) when it is missing.
find_group() {
  local dir=${NOTIF_BIN_DIR:-.build/release}
  if [[ ! -x $dir/notif-group ]]; then
    if [[ -n ${NOTIF_BIN_DIR:-} ]]; then
      echo "bench: no executable notif-group in NOTIF_BIN_DIR ($dir)" >&2
      return 2
    fi
    echo "bench: building notif-group (swift build -c release --static-swift-stdlib)" >&2
    swift build -c release --static-swift-stdlib --product notif-group >&2
  fi
  printf '%s\n' "$dir/notif-group"
}

# Prints the path of a file of COUNT records, making it from COUNT payloads when missing.
bench_records() {
  local count=$1 file payloads parse
  file=$bench_data/records-$count.ndjson
  if [[ ! -s $file ]]; then
    payloads=$(bench_payloads "$count")
    parse=$(bench_find_parse)
    echo "bench: making $file (notif-parse --now $bench_now)" >&2
    "$parse" --now "$bench_now" "$payloads" >"$file.tmp"
    mv "$file.tmp" "$file"
  fi
  printf '%s\n' "$file"
}

group=$(find_group)
summarize=
if [[ -x ${group%/*}/notif-summarize ]]; then
  summarize=${group%/*}/notif-summarize
fi
file=$(bench_records "$records")
bytes=$(wc -c <"$file")
lines=$(wc -l <"$file")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The same counting as notif-group --no-items: per (app, thread_id), the count, the unread and
# new counts, the newest created_at, the leading record (newest, then most relevant, then first
# read), the summary-arg weight of the others and their count per category.
# shellcheck disable=SC2016 # $lead is jq's, not the shell's
jq_program='group_by([.app, .thread_id]) | map(
  (to_entries | max_by([.value.created_at, (.value.relevance // 0), -.key]) | .value) as $lead |
  {app: .[0].app, thread_id: .[0].thread_id, count: length,
   unread_count: (map(select(.read_at == null)) | length),
   new_count: (map(select(.seen_at == null)) | length),
   latest_at: (map(.created_at) | max), leading: $lead.id,
   more_weight: ((map(.summary_arg_count // 1) | add) - ($lead.summary_arg_count // 1)),
   categories: (map(.category) | group_by(.) | map({category: .[0], count: length}))}) | .[]'

tools=(notif-group)
if [[ -n $summarize ]]; then tools+=(pipeline); fi
tools+=(jq)

# Sets `wall_us` and `rss_kb` for one run of TOOL, output to $tmp/TOOL.out. For the pipeline,
# GNU time measures bash, whose children's peak is the larger of the two tools'.
measure() {
  local tool=$1 start stop status=0
  start=$EPOCHREALTIME
  case $tool in
    notif-group)
      /usr/bin/time -f %M -o "$tmp/rss" "$group" --no-items "$file" >"$tmp/$tool.out" \
        2>"$tmp/stderr" || status=$?
      ;;
    pipeline)
      # shellcheck disable=SC2016 # expanded by the inner bash
      # shellcheck disable=SC2086 # NOTIF_SUMMARIZE_ARGS is split into arguments on purpose
      /usr/bin/time -f %M -o "$tmp/rss" bash -o pipefail -c '"$1" --no-items "$2" | "${@:3}"' \
        bench "$group" "$file" "$summarize" ${NOTIF_SUMMARIZE_ARGS:-} >"$tmp/$tool.out" \
        2>"$tmp/stderr" || status=$?
      ;;
    jq)
      /usr/bin/time -f %M -o "$tmp/rss" jq -s -c "$jq_program" "$file" >"$tmp/$tool.out" \
        2>"$tmp/stderr" || status=$?
      ;;
  esac
  stop=$EPOCHREALTIME
  wall_us=$((${stop/./} - ${start/./}))
  rss_kb=$(tail -n 1 "$tmp/rss")
  if ((status != 0)); then
    echo "bench: $tool failed (status $status):" >&2
    head -n 5 "$tmp/stderr" >&2
    if [[ $tool == pipeline ]]; then
      # notif-summarize is another tool's: report its failure in the table, go on.
      pipeline_failure="status $status: $(head -n 1 "$tmp/stderr")"
      return 0
    fi
    exit 1
  fi
}
pipeline_failure=

median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

cat "$file" >/dev/null # warm the page cache

declare -A walls rsss
for ((run = 0; run < runs; run++)); do
  for ((k = 0; k < ${#tools[@]}; k++)); do
    tool=${tools[$(((k + run) % ${#tools[@]}))]}
    if [[ $tool == jq ]] && ((run > 0)); then continue; fi
    echo "bench: run $((run + 1))/$runs: $tool" >&2
    if [[ $tool == pipeline && -n $pipeline_failure ]]; then continue; fi
    measure "$tool"
    if [[ $tool == pipeline && -n $pipeline_failure ]]; then continue; fi
    walls[$tool]+="$wall_us "
    rsss[$tool]+="$rss_kb "
  done
done

mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
groups=$(wc -l <"$tmp/notif-group.out")
echo "## notif-group benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") records, $mb MB, $(bench_thousands "$groups")" \
  "groups; records made by notif-parse from \`bench/gen-payloads.py\`."
echo "Machine: $(nproc) cores${cpu:+, $cpu}. notif-group $runs runs, jq 1 run, alternating;" \
  "medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
declare -A rate
for tool in notif-group pipeline jq; do
  if [[ -z ${walls[$tool]:-} ]]; then
    why="skipped (no notif-summarize next to notif-group)"
    if [[ -n $pipeline_failure ]]; then why="failed ($pipeline_failure)"; fi
    echo "| notif-group \\| notif-summarize | \`notif-group --no-items FILE \\| notif-summarize\`" \
      "| ${why//|/\\|} | | | |"
    continue
  fi
  read -ra samples <<<"${walls[$tool]}"
  read -ra memories <<<"${rsss[$tool]}"
  wall=$(median "${samples[@]}")
  rss=$(median "${memories[@]}")
  rate[$tool]=$(awk -v b="$bytes" -v us="$wall" 'BEGIN { printf "%.3f", b / us }')
  case $tool in
    notif-group) name="notif-group" command="notif-group --no-items FILE" ;;
    pipeline)
      name="notif-group \\| notif-summarize"
      command="notif-group --no-items FILE \\| notif-summarize"
      ;;
    jq) name="$(jq --version)" command="jq -s 'group_by([.app, .thread_id]) \\| map({…})' FILE" ;;
  esac
  seconds=$(awk -v us="$wall" 'BEGIN { printf "%.2f", us / 1e6 }')
  mbps=$(awk -v b="$bytes" -v us="$wall" 'BEGIN { printf "%.0f", b / us }')
  per_second=$(awk -v n="$lines" -v us="$wall" 'BEGIN { printf "%.0f", n / (us / 1e6) }')
  memory=$(awk -v kb="$rss" 'BEGIN { printf "%.1f", kb / 1024 }')
  echo "| $name | \`$command\` | $seconds s | $(bench_thousands "$mbps")" \
    "| $(bench_thousands "$per_second") | $memory MB |"
done
echo
ratio=$(awk -v a="${rate[notif-group]}" -v b="${rate[jq]}" 'BEGIN { printf "%.1f", a / b }')
echo "notif-group --no-items: **${ratio}× jq group_by** (MB/s over MB/s, same run)."
if [[ -n ${rate[pipeline]:-} ]]; then
  echo "notif-group | notif-summarize: **$(awk -v a="${rate[pipeline]}" -v b="${rate[jq]}" \
    'BEGIN { printf "%.1f", a / b }')× jq group_by**."
fi

# Both found the same groups with the same counts and the same leading record?
jq -c '[.app, .thread_id, .count, .unread_count, .new_count, .latest_at, .leading.id,
  .more_weight]' "$tmp/notif-group.out" | sort >"$tmp/ours"
jq -c '[.app, .thread_id, .count, .unread_count, .new_count, .latest_at, .leading,
  .more_weight]' "$tmp/jq.out" | sort >"$tmp/theirs"
echo
if cmp -s "$tmp/ours" "$tmp/theirs"; then
  echo "Check: notif-group and jq agree on all $(bench_thousands "$groups") groups (app," \
    "thread_id, count, unread_count, new_count, latest_at, leading record, more_weight)."
else
  echo "**Check failed: notif-group and jq disagree** (first differences below)."
  echo
  echo '```'
  diff "$tmp/ours" "$tmp/theirs" | head -n 6 || true
  echo '```'
  echo "bench: WARNING: notif-group and jq disagree" >&2
fi

# --- Memory flatness ------------------------------------------------------------------------------
echo "bench: memory flatness, 10 × $lines records through a pipe" >&2
start=$EPOCHREALTIME
for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$file"; done |
  /usr/bin/time -f %M -o "$tmp/rss10" "$group" --no-items >"$tmp/ten.out"
stop=$EPOCHREALTIME
big_kb=$(tail -n 1 "$tmp/rss10")
read -ra memories <<<"${rsss[notif-group]}"
small_kb=$(median "${memories[@]}")
ten_seconds=$(awk -v us="$((${stop/./} - ${start/./}))" 'BEGIN { printf "%.1f", us / 1e6 }')
echo
echo "### Memory with --no-items"
echo
echo "| records | input | groups | notif-group --no-items peak RSS |"
echo "|---:|---:|---:|---:|"
awk -v kb="$small_kb" -v n="$(bench_thousands "$lines")" -v mb="$mb" -v g="$groups" \
  'BEGIN { printf "| %s | %s MB | %s | %.1f MB |\n", n, mb, g, kb / 1024 }'
awk -v kb="$big_kb" -v n="$(bench_thousands "$((lines * 10))")" -v b="$bytes" \
  -v g="$(wc -l <"$tmp/ten.out")" \
  'BEGIN { printf "| %s | %.1f MB | %s | %.1f MB |\n", n, b * 10 / 1e6, g, kb / 1024 }'
echo
awk -v a="$small_kb" -v b="$big_kb" -v s="$ten_seconds" \
  'BEGIN { printf "10× the records, %.2f× the memory (the 10× run, through cat and a pipe, took %s s).\n", b / a, s }'
