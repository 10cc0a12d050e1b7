#!/usr/bin/env bash
# Benchmarks the filters split across processes, as the README's "Running at scale" runs them,
# against one process, and prints Markdown tables for the README.
#
# usage: bench/scale.sh [RECORDS]        (default 1000000)
#
# 1. Per tool, on RECORDS inputs: one process (one thread), GNU parallel with 2 jobs, and the
#    Spark example (examples/spark/notif_spark.py) in local[2] mode, 8 partitions:
#    - notif-parse on the payloads: `notif-parse -j1`; `parallel --pipepart --block 32M -k -j2
#      notif-parse -j1`; `notif_spark.py parse`;
#    - notif-group --no-items on the records: `notif-group -j1 --no-items`; the same in blocks
#      through parallel, then `notif-group --merge`; `notif_spark.py group`;
#    - notif-expire on the records of a week, with collapse and the `keep` caps of
#      bench/policy-caps.json (which scripts/test-scale.sh uses too): one process (which
#      has its own two worker threads); examples/parallel/expire-by-app.sh with 2 jobs;
#      `notif_spark.py expire`.
#    Wall time (median of RUNS runs, default 3, alternating; Spark once), records/s, and the
#    speed-up over one process. Every output is compared with one process's, byte for byte.
# 2. notif-group -j2 against -j1 (and notif-parse -j2 against -j1 beside it), RUNS_J runs each
#    (default 5), alternating, medians: the target is notif-group -j2 at least 1.6x -j1.
# 3. Spark's overhead: the Spark example on one line (JVM, Python workers, the stages' shuffles
#    on nothing), once.
#
# The inputs are the benchmarks' (bench/data, git-ignored; see bench/common.sh). Binaries are
# $NOTIF_BIN_DIR/notif-*, else .build/release/notif-* (built when missing). Progress goes to
# stderr, the tables to stdout. The machine is shared and noisy: quote the ratios, measured in
# one run. Needs bash 5, GNU time, GNU parallel, python3 with pyspark, and Java 17.
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
records=${1:-1000000}
bench_check_count "$records" "bench/scale.sh [RECORDS]"
runs=${RUNS:-3}
runs_j=${RUNS_J:-5}
bench_require parallel python3 java
python3 -c 'import pyspark' 2>/dev/null || { echo "bench: pyspark is required" >&2; exit 2; }

parse=$(bench_find_parse)
group=$(bench_find_tool notif-group)
expire=$(bench_find_tool notif-expire)
bin=$(cd "$(dirname "$parse")" && pwd)
export PATH="$bin:$PATH"
spark=examples/spark/notif_spark.py

payloads=$(bench_payloads "$records")
recordsfile=$(bench_records "$records")
week=$(bench_records_week "$parse" "$records")
bench_make_tmp

# Spark writes a folder of part-* files: `$tmp/spark COMMAND INPUT ARGS...` runs the example
# and writes them joined to its standard output, to be timed and checked like the others.
cat >"$tmp/spark" <<EOF
#!/bin/sh
set -e
command=\$1 input=\$2
shift 2
rm -rf "$tmp/spark.dir"
python3 "$PWD/$spark" "\$command" "\$input" "$tmp/spark.dir" --partitions 8 \\
  --master 'local[2]' --bin "$bin" "\$@" 2>"$tmp/spark.err" ||
  { cat "$tmp/spark.err" >&2; exit 1; }
cat "$tmp/spark.dir"/part-*
EOF
chmod +x "$tmp/spark"

# Sets `cmd` to the command line of TOOL on INPUT.
tool_command() {
  local policy=$PWD/bench/policy-caps.json
  case $1 in
    parse-1) cmd=("$parse" -j1 --now "$bench_now" "$2") ;;
    parse-j2) cmd=("$parse" -j2 --now "$bench_now" "$2") ;;
    parse-parallel) cmd=(parallel --pipepart -a "$2" --block 32M -k -j2
      "$parse" -j1 --now "$bench_now") ;;
    parse-spark) cmd=("$tmp/spark" parse "$2" --now "$bench_now") ;;
    group-1) cmd=("$group" -j1 --no-items "$2") ;;
    group-j2) cmd=("$group" -j2 --no-items "$2") ;;
    group-parallel) cmd=(bash -c "parallel --pipepart -a \"\$1\" --block 32M -k -j2 \
      $group -j1 --no-items | $group --merge" - "$2") ;;
    group-spark) cmd=("$tmp/spark" group "$2") ;;
    expire-1) cmd=("$expire" --policy "$policy" --now "$bench_now" "$2") ;;
    expire-parallel) cmd=(examples/parallel/expire-by-app.sh 2 "$2" --policy "$policy"
      --now "$bench_now") ;;
    expire-spark) cmd=("$tmp/spark" expire "$2" --policy "$policy" --now "$bench_now") ;;
  esac
}

bench_once[parse-spark]=1
bench_once[group-spark]=1
bench_once[expire-spark]=1

# Checks that the output of every TOOL in OUT_DIR is the bytes of REFERENCE's.
check_same() {
  local dir=$1 reference=$2 tool
  shift 2
  for tool in "$@"; do
    if cmp -s "$dir/$reference.out" "$dir/$tool.out"; then
      same[$tool]=yes
    else
      same[$tool]="NO: $(cmp "$dir/$reference.out" "$dir/$tool.out" 2>&1 | head -n 1)"
    fi
  done
}
declare -A same=()

# --- 1. Per tool ------------------------------------------------------------------------------
for kind in parse group expire; do
  mkdir -p "$tmp/$kind"
  case $kind in
    parse) input=$payloads ;;
    group) input=$recordsfile ;;
    expire) input=$week ;;
  esac
  tools=("$kind-1" "$kind-parallel" "$kind-spark")
  [[ $kind == expire ]] || tools+=("$kind-j2")
  bench_rounds "$runs" "$input" "$tmp/$kind" "${tools[@]}"
  check_same "$tmp/$kind" "$kind-1" "${tools[@]:1}"
done

bench_input "$payloads"
echo "### Split across processes"
echo
echo "Inputs: $(bench_thousands "$records") payloads ($(bench_megabytes "$bytes") MB)" \
  "for notif-parse;"
bench_input "$recordsfile"
echo "their $(bench_thousands "$records") records ($(bench_megabytes "$bytes") MB) for notif-group;"
bench_input "$week"
echo "$(bench_thousands "$records") records over a week ($(bench_megabytes "$bytes") MB)" \
  "for notif-expire,"
echo "with collapse and \`keep\` caps. Machine: $(bench_machine), shared."
echo "Medians of $runs runs, alternating; Spark one run. Speed-up: one process's wall time over"
echo "the row's."
echo
echo "| tool | how | wall | records/s | speed-up | same bytes |"
echo "|---|---|---:|---:|---:|---|"
row() {
  local tool=$1 name=$2 how=$3 wall base
  wall=$(bench_median_wall "$tool")
  base=$(bench_median_wall "${tool%-*}-1")
  echo "| $name | $how | $(bench_seconds "$wall") s | $(bench_per_second "$records" "$wall")" \
    "| $(bench_ratio "$base" "$wall")× | ${same[$tool]:-reference} |"
}
row parse-1 notif-parse "one process, \`-j1\`"
row parse-j2 notif-parse "one process, \`-j2\` (its own threads)"
row parse-parallel notif-parse "\`parallel --pipepart -j2\`, \`-j1\` each"
row parse-spark notif-parse "Spark local[2], 8 partitions"
row group-1 "notif-group --no-items" "one process, \`-j1\`"
row group-j2 "notif-group --no-items" "one process, \`-j2\` (its own threads)"
row group-parallel "notif-group --no-items" "\`parallel --pipepart -j2\`, then \`--merge\`"
row group-spark "notif-group --no-items" "Spark local[2], 8 partitions, merge tree"
row expire-1 notif-expire "one process (two worker threads of its own)"
row expire-parallel notif-expire "\`expire-by-app.sh 2\` (by app, GNU parallel)"
row expire-spark notif-expire "Spark local[2], 8 partitions by app"
echo

# --- 2. notif-group -j2 against -j1 ---------------------------------------------------------
bench_walls=()
bench_rsss=()
bench_cpus=()
bench_rounds "$runs_j" "$recordsfile" "" group-1 group-j2
bench_rounds "$runs_j" "$payloads" "" parse-1 parse-j2
g1=$(bench_median_wall group-1)
g2=$(bench_median_wall group-j2)
echo "### Threads in one process"
echo
echo "Medians of $runs_j runs each, alternating."
echo
echo "| command | -j1 | -j2 | speed-up | peak RSS -j1 / -j2 |"
echo "|---|---:|---:|---:|---:|"
bench_jobs_row "notif-group --no-items" group-1 group-j2
bench_jobs_row notif-parse parse-1 parse-j2
echo
target=$(awk -v a="$g1" -v b="$g2" 'BEGIN { print (a / b >= 1.6) ? "met" : "NOT met" }')
echo "notif-group -j2: **$(bench_ratio "$g1" "$g2")× -j1** (target 1.6×: $target)."
echo

# --- 3. Spark's overhead ----------------------------------------------------------------------
head -n 1 "$payloads" >"$tmp/one.ndjson"
start=$EPOCHREALTIME
"$tmp/spark" parse "$tmp/one.ndjson" --now "$bench_now" >"$tmp/one.out"
stop=$EPOCHREALTIME
overhead=$((${stop/./} - ${start/./}))
echo "### Spark's overhead"
echo
echo "The Spark example on one payload (8 partitions, 7 of them empty):" \
  "$(bench_seconds "$overhead") s,"
echo "the cost of starting the JVM and Spark's Python workers and of the stage itself, paid"
echo "once per job whatever its size."
