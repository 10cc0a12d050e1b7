#!/usr/bin/env bash
# Runs two builds of the tools on the same large inputs and checks that they write the same
# bytes: standard output, standard error, exit status, and the store and archive files of the
# in-place sweeps. For changes that must not change behaviour (a refactor, a speed-up).
#
# usage: bench/compare-builds.sh OLD-BIN-DIR NEW-BIN-DIR [RECORDS]
#
# The inputs are those of the benchmarks (bench/data/, git-ignored, generated when missing):
# RECORDS payloads (default 1000000) from bench/gen-payloads.py, the records notif-parse makes
# of them over a week (bench/expire.sh's file), and bench/gen-groups.py's group objects. Each
# job prints "same" or "DIFFERENT" with both hashes; the script exits 1 if any job differs.
set -euo pipefail
export LC_ALL=C TZ=UTC

[[ $# -ge 2 && $# -le 3 ]] || {
  echo "usage: bench/compare-builds.sh OLD-BIN-DIR NEW-BIN-DIR [RECORDS]" >&2
  exit 2
}
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
records=${3:-1000000}
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
source bench/common.sh

payloads=$(bench_payloads "$records")
groups=$(bench_generated groups bench/gen-groups.py "$records")
# The week of records that bench/expire.sh uses, made with the old build's notif-parse.
week=$(bench_records_week "$old/notif-parse" "$records")
bench_make_tmp
cat >"$tmp/policy.json" <<'EOF'
{"default": {"ttl": "3d"},
 "categories": {
   "MESSAGE": {"ttl": "30d", "read_ttl": "1d", "keep": 40}, "MESSAGE_REPLY": {"ttl": "30d"},
   "NEW_MAIL": {"ttl": "14d"}, "PROMO": {"ttl": "1d"}, "BREAKING": {"ttl": "12h"}}}
EOF
split -n l/4 -d "$week" "$tmp/part."
now=(--now "$bench_now")

# The jobs: a name, " :: ", then a shell command line in which $BIN is the build's folder and
# $OUT a folder for the files the job writes besides standard output (stores, archives).
jobs=(
  "parse -j1 :: \$BIN/notif-parse ${now[*]} -j 1 $payloads"
  "parse -j2 :: \$BIN/notif-parse ${now[*]} -j 2 $payloads"
  "parse --lint :: \$BIN/notif-parse ${now[*]} --lint --app-name News $payloads"
  "group --no-items :: \$BIN/notif-group --no-items $week"
  "group --limit 3 chat relevance :: \$BIN/notif-group --item-limit 3 --order chat --sort relevance $week"
  "group --by app --last-seen :: \$BIN/notif-group --by app --no-items --last-seen 2026-11-20T00:00:00Z $week"
  "group parts --merge :: for p in $tmp/part.*; do \$BIN/notif-group --no-items \$p; done | \$BIN/notif-group --merge"
  "group | summarize :: \$BIN/notif-group --no-items $week | \$BIN/notif-summarize --categories bench/categories.json"
  "summarize groups :: \$BIN/notif-summarize --categories bench/categories.json $groups"
  "summarize --hidden-previews ru :: \$BIN/notif-summarize --hidden-previews --locale ru --categories bench/categories.json $groups"
  "expire stream :: \$BIN/notif-expire --policy $tmp/policy.json ${now[*]} $week"
  "expire --dry-run :: \$BIN/notif-expire -n --policy $tmp/policy.json ${now[*]} $week"
  "expire --store :: cp $week \$OUT/store && \$BIN/notif-expire --policy $tmp/policy.json ${now[*]} --store \$OUT/store --archive \$OUT/archive && cat \$OUT/store \$OUT/archive"
  "mark --read --all :: \$BIN/notif-mark --read --all ${now[*]} $week"
  "mark --delete --store :: cp $week \$OUT/store && \$BIN/notif-mark --delete --category PROMO ${now[*]} --store \$OUT/store --archive \$OUT/archive && cat \$OUT/store \$OUT/archive"
)

differ=0
for job in "${jobs[@]}"; do
  name=${job%% :: *}
  line=${job#* :: }
  for build in old new; do
    bin=$old
    [[ $build == new ]] && bin=$new
    mkdir -p "$tmp/$build"
    rm -f "$tmp/$build"/*
    status=0
    BIN=$bin OUT=$tmp/$build bash -c "$line" >"$tmp/$build.out" 2>"$tmp/$build.err" || status=$?
    hash=$(cat "$tmp/$build.out" "$tmp/$build.err" <(echo "$status") | sha256sum | cut -c1-16)
    printf -v "hash_$build" '%s' "$hash"
    printf -v "lines_$build" '%s' "$(wc -l <"$tmp/$build.out")"
  done
  # shellcheck disable=SC2154 # hash_old, hash_new and lines_* are set by printf -v above
  if [[ $hash_old == "$hash_new" ]]; then
    printf '%-34s same       %s  (%s lines)\n' "$name" "$hash_new" "$lines_new"
  else
    printf '%-34s DIFFERENT  old %s  new %s\n' "$name" "$hash_old" "$hash_new"
    differ=1
  fi
done
exit "$differ"
