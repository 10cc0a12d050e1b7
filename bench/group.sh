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

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
records=${1:-1000000}
bench_check_count "$records" "bench/group.sh [RECORDS]"
runs=3
bench_require jq python3

group=$(bench_find_tool notif-group)
summarize=
if [[ -x ${group%/*}/notif-summarize ]]; then
  summarize=${group%/*}/notif-summarize
fi
file=$(bench_records "$records")
bench_input "$file"
bench_make_tmp

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

# NOTIF_SUMMARIZE_ARGS is split into arguments (at blanks) on purpose.
read -ra summarize_args <<<"${NOTIF_SUMMARIZE_ARGS:-}"

# Sets `cmd` to the command line that runs TOOL on INPUT. For the pipeline, GNU time measures
# bash, whose children's peak is the larger of the two tools'.
tool_command() {
  # shellcheck disable=SC2016 # the pipeline's $1, $2 and $@ are expanded by the inner bash
  case $1 in
    notif-group) cmd=("$group" --no-items "$2") ;;
    pipeline) cmd=(bash -o pipefail -c '"$1" --no-items "$2" | "${@:3}"' bench "$group" "$2"
      "$summarize" "${summarize_args[@]}") ;;
    jq) cmd=(jq -s -c "$jq_program" "$2") ;;
  esac
}
# notif-summarize is another tool's: report its failure in the table, go on.
bench_may_fail[pipeline]=1
# jq takes minutes on the default input: one run.
bench_once[jq]=1

cat "$file" >/dev/null # warm the page cache

bench_rounds "$runs" "$file" "$tmp" "${tools[@]}"

mb=$(bench_megabytes "$bytes")
groups=$(wc -l <"$tmp/notif-group.out")
echo "## notif-group benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") records, $mb MB, $(bench_thousands "$groups")" \
  "groups; records made by notif-parse from \`bench/gen-payloads.py\`."
echo "Machine: $(bench_machine). notif-group $runs runs, jq 1 run, alternating;" \
  "medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
for tool in notif-group pipeline jq; do
  if [[ -z ${bench_walls[$tool]:-} ]]; then
    why="skipped (no notif-summarize next to notif-group)"
    if [[ -n ${bench_failed[pipeline]:-} ]]; then why="failed (${bench_failed[pipeline]})"; fi
    echo "| notif-group \\| notif-summarize | \`notif-group --no-items FILE \\| notif-summarize\`" \
      "| ${why//|/\\|} | | | |"
    continue
  fi
  case $tool in
    notif-group) name="notif-group" command="notif-group --no-items FILE" ;;
    pipeline)
      name="notif-group \\| notif-summarize"
      command="notif-group --no-items FILE \\| notif-summarize"
      ;;
    jq) name="$(jq --version)" command="jq -s 'group_by([.app, .thread_id]) \\| map({…})' FILE" ;;
  esac
  bench_throughput_row "$tool" "$name" "$command"
done
echo
jq_wall=$(bench_median_wall jq)
echo "notif-group --no-items: **$(bench_ratio "$jq_wall" "$(bench_median_wall notif-group)")×" \
  "jq group_by** (MB/s over MB/s, same run)."
if [[ -n ${bench_walls[pipeline]:-} ]]; then
  echo "notif-group | notif-summarize: **$(bench_ratio "$jq_wall" \
    "$(bench_median_wall pipeline)")× jq group_by**."
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
bench_time_copies 10 "$file" "$tmp/ten.out" "$group" --no-items
big_kb=$rss_kb
small_kb=$(bench_median_rss notif-group)
echo
echo "### Memory with --no-items"
echo
echo "| records | input | groups | notif-group --no-items peak RSS |"
echo "|---:|---:|---:|---:|"
echo "| $(bench_thousands "$lines") | $mb MB | $groups | $(bench_memory "$small_kb") MB |"
echo "| $(bench_thousands "$((lines * 10))") | $(bench_megabytes "$((bytes * 10))") MB" \
  "| $(wc -l <"$tmp/ten.out") | $(bench_memory "$big_kb") MB |"
echo
awk -v a="$small_kb" -v b="$big_kb" -v s="$(bench_seconds "$wall_us" 1)" \
  'BEGIN { printf "10× the records, %.2f× the memory (the 10× run, through cat and a pipe, took %s s).\n", b / a, s }'
