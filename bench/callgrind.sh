#!/usr/bin/env bash
# Counts the instructions notif-parse executes on 10,000 generated payloads (or, with --tool
# notif-responses, notif-responses on 10,000 generated answers), with callgrind: a repeatable
# measure of speed (two runs of one binary differ by about 0.0002%) on a machine whose timings
# are noise.
#
# usage: bench/callgrind.sh [--tool notif-parse|notif-responses]
#                           [--check-baseline | --update-baseline] [--annotate]
#
#   (none)              print the total instruction count (Ir)
#   --check-baseline    also compare it with the tool's baseline, bench/baseline-instructions.txt
#                       (notif-parse) or bench/baseline-instructions-notif-responses.txt; exit 1
#                       if it grew by more than 3%
#   --update-baseline   write the count to the tool's baseline
#   --annotate          also print the 25 functions with the most instructions of their own
#                       (look for swift_retain, swift_beginAccess and malloc in the hot loop)
#
# The input is bench/data/payloads-10000.ndjson (git-ignored), made by bench/gen-payloads.py
# when missing (notif-responses: bench/data/responses-10000.ndjson, by bench/gen-responses.py); callgrind's output is kept in bench/data/callgrind.out for callgrind_annotate.
# notif-parse is $NOTIF_BIN_DIR/notif-parse, else .build/release/notif-parse (built when
# missing). A baseline only means something for the same toolchain and build flags: update it
# in the commit that changes those, and when a change makes notif-parse faster.
#
# notif-parse runs with --jobs 1: the count is the work per record. (With threads callgrind
# counts every thread, and it counts each byte a `rep movsb` copies as an instruction, so the
# chunks' copies would look far costlier than they are; bench/parse.sh times the threads.)
set -euo pipefail
export LC_ALL=C TZ=UTC

usage() {
  echo "usage: bench/callgrind.sh [--tool notif-parse|notif-responses]" \
    "[--check-baseline | --update-baseline] [--annotate]" >&2
  exit 2
}

mode=print
annotate=false
tool=notif-parse
while [[ $# -gt 0 ]]; do
  case $1 in
    --check-baseline) [[ $mode == print ]] || usage; mode=check ;;
    --update-baseline) [[ $mode == print ]] || usage; mode=update ;;
    --annotate) annotate=true ;;
    --tool)
      [[ ${2:-} == notif-parse || ${2:-} == notif-responses ]] || usage
      tool=$2
      shift
      ;;
    *) usage ;;
  esac
  shift
done

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

records=10000
limit_percent=3
command -v valgrind >/dev/null || { echo "bench: valgrind is required" >&2; exit 2; }
binary=$(bench_find_tool "$tool")
if [[ $tool == notif-parse ]]; then
  baseline=bench/baseline-instructions.txt
  out=$bench_data/callgrind.out
  file=$(bench_payloads "$records")
  command=("$binary" --jobs 1 --now "$bench_now" "$file")
else
  baseline=bench/baseline-instructions-$tool.txt
  out=$bench_data/callgrind-$tool.out
  file=$(bench_generated responses bench/gen-responses.py "$records")
  command=("$binary" --now "$bench_now" "$file")
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "bench: callgrind: ${command[*]}" >&2
status=0
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
  "${command[@]}" >/dev/null 2>"$log" || status=$?
# A tool exits 1 when it rejects records; that still counts the work. Anything else (or
# valgrind failing) leaves no number worth comparing.
if [[ $status -gt 1 ]]; then
  echo "bench: $tool under valgrind exited with status $status:" >&2
  grep -v '^==[0-9]*==' "$log" | head -n 5 >&2 || true
  grep '^==[0-9]*==' "$log" | tail -n 5 >&2 || true
  exit 2
fi
if [[ $status -eq 1 ]]; then
  echo "bench: warning: $tool rejected records (status 1):" >&2
  grep -v '^==[0-9]*==' "$log" | head -n 3 >&2 || true
fi

total=$(awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$out")
if [[ ! $total =~ ^[0-9]+$ ]]; then
  echo "bench: no instruction total in $out" >&2
  exit 2
fi
per_record=$(((total + records / 2) / records))
echo "$tool: $(bench_thousands "$total") instructions (Ir) for $(bench_thousands "$records")" \
  "records, $(bench_thousands "$per_record") per record"

if $annotate; then
  # Skip callgrind_annotate's preamble, drop the object paths, demangle Swift names.
  demangle=(cat)
  if command -v swift-demangle >/dev/null; then demangle=(swift-demangle --simplified); fi
  echo
  callgrind_annotate --threshold=100 "$out" 2>/dev/null |
    awk '/^-+$/ { rule++; next } rule >= 4 && NF' | sed -e 's/ \[[^]]*\]$//' |
    "${demangle[@]}" | head -n 27 || true
fi

case $mode in
  update)
    echo "$total" >"$baseline"
    echo "bench: wrote $baseline" >&2
    ;;
  check)
    if [[ ! -f $baseline ]]; then
      echo "bench: no $baseline: create it with bench/callgrind.sh --tool $tool" \
        "--update-baseline" >&2
      exit 2
    fi
    base=$(tr -d '[:space:]' <"$baseline")
    if [[ ! $base =~ ^[1-9][0-9]*$ ]]; then
      echo "bench: $baseline does not hold an instruction count" >&2
      exit 2
    fi
    change=$(awk -v now="$total" -v base="$base" 'BEGIN { printf "%+.2f", (now - base) * 100 / base }')
    echo "baseline: $(bench_thousands "$base") instructions; change: $change%"
    if ((total * 100 > base * (100 + limit_percent))); then
      echo "bench: FAIL: instructions grew by $change%, more than $limit_percent%" >&2
      exit 1
    fi
    echo "bench: within $limit_percent% of the baseline" >&2
    ;;
esac
