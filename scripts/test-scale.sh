#!/usr/bin/env bash
# The filters split across processes give the bytes of one process: the GNU parallel recipes
# and the Spark example (examples/spark/notif_spark.py, Spark local mode) of the README's
# "Running at scale", each run on at least 100,000 records and compared byte for byte with one
# process doing the same. Part of `make check`.
#
# usage: scripts/test-scale.sh [parallel|spark]...     (default: both)
#
# Binaries: $NOTIF_BIN_DIR, else .build/release (built when missing). The records are the
# benchmarks' (bench/data, made by bench/gen-payloads.py and notif-parse when missing), and
# for notif-expire a few hundred more that collapse into earlier ones, some at the same instant,
# so that collapse, `keep` caps and their ties by input order all cross the cuts; notif-digest
# digests the same records by app, thread and hour, late ones among them, and is compared with
# one process's digests put through `notif-digest --merge`. Needs GNU parallel, and for Spark
# python3 with pyspark and Java 17 (`make check-deps` installs them): a missing one is an
# error, not a skip. Takes about 2 minutes on 2 shared cores, most of it Spark's (Spark
# local[2] starts a JVM for each of its 5 runs).
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

suites=("$@")
((${#suites[@]})) || suites=(parallel spark)
records=100000
now=2026-11-22T09:00:00Z
failures=0

say() { printf 'test-scale: %s\n' "$*" >&2; }
fail() {
  say "FAIL: $*"
  failures=$((failures + 1))
}
need() {
  command -v "$1" >/dev/null || { say "$1 is required ($2): run make check-deps"; exit 2; }
}

# Passes when files $1 and $2 hold the same bytes; $3 says what was compared.
same() {
  if cmp -s "$1" "$2"; then
    say "ok: $3 ($(wc -l <"$2") lines)"
  else
    fail "$3: $(cmp "$1" "$2" 2>&1 | head -n 1)"
  fi
}

bin=${NOTIF_BIN_DIR:-.build/release}
for tool in notif-parse notif-group notif-summarize notif-expire notif-digest; do
  bench_find_tool "$tool" >/dev/null
done
bin=$(cd "$bin" && pwd)
export PATH="$bin:$PATH"

bench_make_tmp
payloads=$(bench_payloads "$records")
week=$(bench_records_week "$bin/notif-parse" "$records")

# The records for notif-expire: the week's, then copies of some with a collapse_id, made later
# (the earlier ones collapse into them) or at the same instant in pairs (the later line wins).
inbox=$tmp/inbox.ndjson
cp "$week" "$inbox"
grep -m 400 '"collapse_id":"' "$week" | awk '
  {
    line = $0
    sub(/^\{"id":"[^"]*"/, "{\"id\":\"again-" NR "\"", line)
    if (NR % 2) sub(/"created_at":"[^"]*"/, "\"created_at\":\"2026-11-22T08:59:59Z\"", line)
    print line
    if (NR % 4 == 0) { sub(/"id":"again-/, "\"id\":\"twin-", line); print line }
  }' >>"$inbox"
# The policy of bench/scale.sh: per-category time to live, read_ttl, and `keep` caps.
policy=$PWD/bench/policy-caps.json
categories=$PWD/bench/categories.json

# What one process writes.
notif-parse --now "$now" "$payloads" >"$tmp/records.ndjson"
notif-group --no-items "$tmp/records.ndjson" >"$tmp/groups.ndjson"
notif-summarize --categories "$categories" "$tmp/groups.ndjson" >"$tmp/summaries.ndjson"
notif-group --sort relevance --item-limit 3 --order chat "$tmp/records.ndjson" >"$tmp/limited.ndjson"
notif-expire --policy "$policy" --now "$now" "$inbox" >"$tmp/kept.ndjson"
notif-expire -n -p "$policy" --now "$now" "$inbox" >"$tmp/removed.ndjson"
# notif-digest's digests by app, thread and hour, put in window order by --merge.
digest_options=(--window 1h --item-limit 3 --now "$now")
notif-digest "${digest_options[@]}" "$inbox" | notif-digest --merge >"$tmp/digests.ndjson"
if ! grep -q '"count":1,' "$tmp/digests.ndjson" || ! grep -q '"count":[2-9]' "$tmp/digests.ndjson"; then
  fail "the digests are all of one size: the digest checks would prove little"
fi
if ! grep -q '"removed_reason":"collapsed"' "$tmp/removed.ndjson"; then
  fail "the inbox has nothing that collapses: the expire checks would prove little"
fi

run_parallel() {
  need parallel "GNU parallel"
  local out=$tmp/parallel
  mkdir -p "$out"
  # Parse: blocks cut at line ends, outputs in the order of the blocks (-k).
  parallel --pipepart -a "$payloads" --block 4M -k notif-parse --now "$now" >"$out/records"
  same "$out/records" "$tmp/records.ndjson" "parallel: notif-parse in blocks"
  # Group and merge: partial groups of each block, merged in block order.
  parallel --pipepart -a "$tmp/records.ndjson" --block 10M -k notif-group --no-items |
    notif-group --merge >"$out/groups"
  same "$out/groups" "$tmp/groups.ndjson" "parallel: notif-group --no-items, then --merge"
  notif-summarize --categories "$categories" "$out/groups" >"$out/summaries"
  same "$out/summaries" "$tmp/summaries.ndjson" "parallel: ... | notif-summarize"
  parallel --pipepart -a "$tmp/records.ndjson" --block 10M -k \
    notif-group --sort relevance --item-limit 3 --order chat | notif-group --merge >"$out/limited"
  same "$out/limited" "$tmp/limited.ndjson" "parallel: notif-group --item-limit 3, merged"
  # Expire: the records of each app to one process, then back in input order.
  examples/parallel/expire-by-app.sh 2 "$inbox" --policy "$policy" --now "$now" >"$out/kept"
  same "$out/kept" "$tmp/kept.ndjson" "parallel: notif-expire partitioned by app"
  # The control: cut anywhere, caps and collapse see only their block, and the bytes differ.
  parallel --pipepart -a "$inbox" --block 10M -k notif-expire -p "$policy" --now "$now" \
    >"$out/naive"
  if cmp -s "$out/naive" "$tmp/kept.ndjson"; then
    fail "notif-expire in blocks cut anywhere gives the same bytes: the input tests nothing"
  else
    say "ok: notif-expire in blocks cut anywhere differs, as it must"
  fi
  # Without collapse ids and caps, any cut works.
  grep -v '"collapse_id":"' "$inbox" >"$tmp/no-collapse.ndjson"
  printf '%s\n' '{"default": {"ttl": "3d"}, "categories": {"PROMO": {"ttl": "1d"}}}' \
    >"$tmp/no-caps.json"
  notif-expire -p "$tmp/no-caps.json" --now "$now" "$tmp/no-collapse.ndjson" >"$tmp/kept-plain"
  parallel --pipepart -a "$tmp/no-collapse.ndjson" --block 10M -k \
    notif-expire -p "$tmp/no-caps.json" --now "$now" >"$out/kept-plain"
  same "$out/kept-plain" "$tmp/kept-plain" "parallel: notif-expire in blocks, no collapse or caps"
  # Digest: the records of each app to one process, the digests back through --merge.
  examples/parallel/digest-by-app.sh 2 "$inbox" "${digest_options[@]}" >"$out/digests"
  same "$out/digests" "$tmp/digests.ndjson" "parallel: notif-digest partitioned by app, merged"
}

# Runs the Spark example: `spark_run NAME ARGS...` writes OUT/NAME (the part-* files joined) and
# OUT/NAME.err; returns the example's exit status, printing its stderr when it failed.
spark_run() {
  local name=$1 status=0
  shift
  python3 examples/spark/notif_spark.py "$@" --bin "$bin" 2>"$out/$name.err" || status=$?
  if ((status == 0)); then
    cat "$out/$name.dir"/part-* >"$out/$name"
  fi
  return "$status"
}

run_spark() {
  need python3 "Python 3"
  need java "Java 17"
  if ! python3 -c 'import pyspark' 2>/dev/null; then
    say "pyspark is required: run make check-deps"
    exit 2
  fi
  local out=$tmp/spark
  mkdir -p "$out"
  if spark_run summaries summarize "$payloads" "$out/summaries.dir" --now "$now" \
    --partitions 8 --fan-in 3 --categories "$categories"; then
    grep -q ': 8 partitions$' "$out/summaries.err" || fail "spark summarize: not 8 partitions"
    same "$out/summaries" "$tmp/summaries.ndjson" \
      "spark: parse | group --no-items | merge tree | summarize, 8 partitions"
  else
    cat "$out/summaries.err" >&2
    fail "spark summarize failed"
  fi
  if spark_run kept expire "$inbox" "$out/kept.dir" --policy "$policy" --now "$now" \
    --partitions 8; then
    grep -q ': 8 partitions$' "$out/kept.err" || fail "spark expire: not 8 partitions"
    same "$out/kept" "$tmp/kept.ndjson" "spark: notif-expire partitioned by app, 8 partitions"
  else
    cat "$out/kept.err" >&2
    fail "spark expire failed"
  fi
  if spark_run digests digest "$inbox" "$out/digests.dir" --now "$now" --partitions 8 \
    --digest-option=--window=1h --digest-option=--item-limit=3; then
    grep -q ': 8 partitions$' "$out/digests.err" || fail "spark digest: not 8 partitions"
    same "$out/digests" "$tmp/digests.ndjson" \
      "spark: notif-digest partitioned by app, 8 partitions, merged"
  else
    cat "$out/digests.err" >&2
    fail "spark digest failed"
  fi
  # A few records in 8 partitions: most are empty, and each runs its command on nothing. The
  # inbox has a blank line (kept, without the tag) and a record without created_at.
  local small=$tmp/small.ndjson
  {
    head -n 5 "$inbox"
    echo
    echo '{"id":"no-created-at"}'
    tail -n 4 "$inbox"
  } >"$small"
  head -n 3 "$payloads" >"$tmp/small-payloads.ndjson"
  notif-parse --now "$now" "$tmp/small-payloads.ndjson" | notif-group --no-items |
    notif-summarize >"$tmp/small-summaries"
  if spark_run small-summaries summarize "$tmp/small-payloads.ndjson" \
    "$out/small-summaries.dir" --now "$now" --partitions 8; then
    same "$out/small-summaries" "$tmp/small-summaries" "spark: 3 payloads in 8 partitions"
  else
    cat "$out/small-summaries.err" >&2
    fail "spark summarize of 3 payloads failed"
  fi
  # notif-expire keeps the record without created_at but exits 1: checkCode fails the job.
  if spark_run small-kept expire "$small" "$out/small-kept.dir" --policy "$policy" \
    --now "$now" --partitions 8; then
    fail "spark expire: a rejected line (exit status 1) did not fail the job"
  else
    say "ok: spark expire: a rejected line fails the job (checkCode)"
  fi
  grep -v 'no-created-at' "$small" >"$tmp/small-clean.ndjson"
  notif-expire -p "$policy" --now "$now" "$tmp/small-clean.ndjson" >"$tmp/small-clean-kept"
  if spark_run small-clean expire "$tmp/small-clean.ndjson" "$out/small-clean.dir" \
    --policy "$policy" --now "$now" --partitions 8; then
    same "$out/small-clean" "$tmp/small-clean-kept" \
      "spark: 9 records and a blank line in 8 partitions"
  else
    cat "$out/small-clean.err" >&2
    fail "spark expire of 9 records failed"
  fi
}

for suite in "${suites[@]}"; do
  case $suite in
    parallel) run_parallel ;;
    spark) run_spark ;;
    *) say "unknown suite '$suite': parallel or spark"; exit 2 ;;
  esac
done
if ((failures)); then
  say "$failures check(s) failed"
  exit 1
fi
say "all checks passed"
