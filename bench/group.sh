#!/usr/bin/env bash
# Benchmarks notif-group (and notif-group | notif-summarize, when built) against jq's group_by
# doing the same counting, on one generated file of notification records, and prints Markdown
# tables for the README.
#
# usage: bench/group.sh [--threads N|each] [--no-jq] [RECORDS]        (default 1000000)
#
# The records hold about 500 threads (1,031 groups on 1M records). With --threads, their app and
# thread_id are rewritten by bench/regroup.py: one of N threads at random (200,000 records over
# 50,000 threads make about 49,000 groups), or, with `each`, one thread per record (1M records,
# 1M groups). --no-jq leaves jq and the check out (on 1M groups it takes many minutes and GBs).
#
# 1. Throughput: `notif-group --no-items FILE`, `notif-group --no-items FILE | notif-summarize`
#    (only when an executable notif-summarize sits next to notif-group; "skipped" otherwise,
#    "failed" with its message if it fails; extra arguments in NOTIF_SUMMARIZE_ARGS) and
#    `jq -s 'group_by([.app, .thread_id]) | map({...})' FILE` computing count, unread_count,
#    new_count, latest_at, the leading record, more_weight and the per-category counts; output
#    to a file; notif-group three runs, jq one (it takes minutes), tools alternating; median
#    wall time; MB/s, records/s, peak RSS (GNU time %M); the ratio to jq. Then a check that
#    notif-group and jq found the same groups with the same counts. A line "Bytes:" gives the
#    mean size of a record in and of a group object out (notif-group --no-items's output).
# 2. Threads: notif-group -j1 --no-items against -j2, RUNS_J runs each (default 5),
#    alternating, medians of wall time and peak RSS; the outputs compared byte for byte.
#    Then -j2 on the file through `cat |`, RUNS_J runs, against the file; outputs compared.
# 3. Memory: without --threads, flatness: notif-group --no-items's peak RSS on RECORDS records
#    and on ten times as many (the file streamed ten times through a pipe with cat, so no 10x
#    file is written). With --threads, the memory per group: the peak RSS of -j1 less that of a
#    run on the records as made (1,031 groups), over the group count; and the mean length of
#    the leading records, which a group keeps whole.
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
usage="bench/group.sh [--threads N|each] [--no-jq] [RECORDS]"
threads='' with_jq=1
while (($# > 0)); do
  case $1 in
    --threads)
      [[ ${2:-} =~ ^([1-9][0-9]*|each)$ ]] || { echo "usage: $usage" >&2; exit 2; }
      threads=$2
      shift 2
      ;;
    --no-jq) with_jq='' && shift ;;
    *) break ;;
  esac
done
records=${1:-1000000}
bench_check_count "$records" "$usage"
runs=3
runs_j=${RUNS_J:-5}
bench_require jq python3

group=$(bench_find_tool notif-group)
summarize=
if [[ -x ${group%/*}/notif-summarize ]]; then
  summarize=${group%/*}/notif-summarize
fi
few=$(bench_records "$records")
file=$few
if [[ -n $threads ]]; then
  file=$bench_data/records-threads-$threads-$records.ndjson
  if [[ ! -s $file ]]; then
    echo "bench: making $file (bench/regroup.py $threads)" >&2
    python3 bench/regroup.py "$threads" <"$few" >"$file.tmp"
    mv "$file.tmp" "$file"
  fi
fi
bench_input "$file"
bench_make_tmp

# The same counting as notif-group --no-items, of the records the device lists (notif(5); in
# these records, those of push_type alert, or none, with text): per (app, thread_id), the count, the unread and
# new counts, the newest created_at, the leading record (newest, then most relevant, then first
# read), the summary-arg weight of the others and their count per category.
# shellcheck disable=SC2016 # $lead is jq's, not the shell's
jq_program='map(select((.push_type // "alert") == "alert"
    and (.title // .subtitle // .body // .title_loc_key // .subtitle_loc_key // .loc_key) != null))
  | group_by([.app, .thread_id]) | map(
  (to_entries | max_by([.value.created_at, (.value.relevance // 0), -.key]) | .value) as $lead |
  {app: .[0].app, thread_id: .[0].thread_id, count: length,
   unread_count: (map(select(.read_at == null)) | length),
   new_count: (map(select(.seen_at == null)) | length),
   latest_at: (map(.created_at) | max), leading: $lead.id,
   more_weight: ((map(.summary_arg_count // 1) | add) - ($lead.summary_arg_count // 1)),
   categories: (map(.category) | group_by(.) | map({category: .[0], count: length}))}) | .[]'

tools=(notif-group)
if [[ -n $summarize ]]; then tools+=(pipeline); fi
if [[ -n $with_jq ]]; then tools+=(jq); fi

# NOTIF_SUMMARIZE_ARGS is split into arguments (at blanks) on purpose.
read -ra summarize_args <<<"${NOTIF_SUMMARIZE_ARGS:-}"

# Sets `cmd` to the command line that runs TOOL on INPUT. For the pipeline, GNU time measures
# bash, whose children's peak is the larger of the two tools'.
tool_command() {
  # shellcheck disable=SC2016 # the pipeline's $1, $2 and $@ are expanded by the inner bash
  case $1 in
    notif-group) cmd=("$group" --no-items "$2") ;;
    group-1) cmd=("$group" -j1 --no-items "$2") ;;
    group-j2) cmd=("$group" -j2 --no-items "$2") ;;
    few-groups) cmd=("$group" -j1 --no-items "$few") ;;
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
read -r groups group_bytes < <(wc -lc <"$tmp/notif-group.out")
echo "## notif-group benchmark"
echo
how="records made by notif-parse from \`bench/gen-payloads.py\`"
if [[ -n $threads ]]; then how+=", app and thread_id by \`bench/regroup.py $threads\`"; fi
echo "Input: \`$file\`, $(bench_thousands "$lines") records, $mb MB, $(bench_thousands "$groups")" \
  "groups; $how."
echo "Machine: $(bench_machine). notif-group $runs runs${with_jq:+, jq 1 run}, alternating;" \
  "medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
for tool in notif-group pipeline jq; do
  if [[ $tool == jq && -z $with_jq ]]; then continue; fi
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
if [[ -n $with_jq ]]; then
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
fi
echo
echo "Bytes: $(bench_bytes_each "$bytes" "$lines") in a record," \
  "$(bench_bytes_each "$group_bytes" "$groups") out a group object (with \`--no-items\`)."

# --- Threads ---------------------------------------------------------------------------------------
mkdir -p "$tmp/j"
bench_rounds "$runs_j" "$file" "$tmp/j" group-1 group-j2
g1=$(bench_median_wall group-1)
g2=$(bench_median_wall group-j2)
same="the same bytes"
cmp -s "$tmp/j/group-1.out" "$tmp/j/group-j2.out" || same="**different bytes**"
echo
echo "### Threads"
echo
echo "| command | -j1 | -j2 | speed-up | peak RSS -j1 / -j2 |"
echo "|---|---:|---:|---:|---:|"
bench_jobs_row "notif-group --no-items" group-1 group-j2
echo
echo "notif-group -j2: **$(bench_ratio "$g1" "$g2")× -j1**, medians of $runs_j runs each," \
  "alternating; -j1 and -j2 wrote $same."

# --- From a pipe ----------------------------------------------------------------------------------
# The file through `cat |`, with -j2: read in chunks on the threads as the file is (a chunk goes
# to them while its lines read alone). The wall time includes cat's, which shares the cores.
echo "bench: through a pipe" >&2
pipe_walls=()
for ((run = 0; run < runs_j; run++)); do
  bench_time_copies 1 "$file" "$tmp/j/pipe.out" "$group" -j2 --no-items
  pipe_walls+=("$wall_us")
done
pipe_us=$(bench_median "${pipe_walls[@]}")
same="the same bytes"
cmp -s "$tmp/j/group-j2.out" "$tmp/j/pipe.out" || same="**different bytes**"
echo
echo "From a pipe (\`cat FILE | notif-group -j2 --no-items\`): $(bench_seconds "$pipe_us") s," \
  "$(bench_ratio "$pipe_us" "$g2")× the file's time (medians of $runs_j), $same as from the file."

if [[ -n $threads ]]; then
  # --- Memory per group ---------------------------------------------------------------------------
  bench_rounds "$runs" "$few" "" few-groups
  base_kb=$(bench_median_rss few-groups)
  j1_kb=$(bench_median_rss group-1)
  # The leading records' bytes: from `"leading":` to `,"more_count":` of each group object.
  lead=$(awk '{ a = index($0, "\"leading\":"); b = index($0, ",\"more_count\":")
    s += b - a - 10 } END { printf "%.0f", s / NR }' "$tmp/j/group-1.out")
  echo
  echo "### Memory per group"
  echo
  echo "| groups | -j1 peak RSS | with 1,031 groups | per group | leading record (mean) |"
  echo "|---:|---:|---:|---:|---:|"
  awk -v g="$groups" -v a="$j1_kb" -v b="$base_kb" -v l="$lead" 'BEGIN {
    printf "| %d | %.1f MB | %.1f MB | %.0f bytes | %d bytes |\n", g, a / 1024, b / 1024,
      (a - b) * 1024 / g, l }'
  exit 0
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
