#!/usr/bin/env bash
# Builds notif's fuzzer (fuzz/*.swift compiled, with libFuzzer and AddressSanitizer, into one
# module with the sources of every library module and tool, their main.swift files left out)
# and runs each target for SECONDS (default 300): every target listed in fuzz/Fuzz.swift, or
# the ones named.
#
# usage: fuzz/run.sh [SECONDS] [TARGET...] [-- LIBFUZZER-OPTION...]
#        fuzz/run.sh --list
#
# Each target's corpus grows in fuzz/corpus-run/TARGET/ (git-ignored), seeded from
# fuzz/seeds/TARGET/, the inputs that once failed (fuzz/regressions/TARGET/, tried first every
# run) and, for the targets that read JSON, the shared real-world payloads (../shared/corpus,
# or NOTIF_SHARED_CORPUS) and the JSON fixtures under Tests/. A crash, a failed property
# (fatalError), a leak or a timeout is saved as fuzz/TARGET-crash-* (-leak-*, -timeout-*,
# -oom-*) and makes the script exit 1, after the other targets have run. Replay one with:
#   NOTIF_FUZZ_TARGET=TARGET .build/fuzz/notif-fuzz fuzz/TARGET-crash-...
# and keep it, once fixed, in fuzz/regressions/TARGET/ and as a unit test.
#
# Environment: SWIFTC (default: swiftc on PATH, else /opt/swift/usr/bin/swiftc),
# NOTIF_SHARED_CORPUS (default: ../shared/corpus next to the repository).
set -euo pipefail

usage() {
  echo "usage: fuzz/run.sh [SECONDS] [TARGET...] [-- LIBFUZZER-OPTION...]" >&2
  echo "       fuzz/run.sh --list" >&2
  exit 2
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# The targets, from the registry in fuzz/Fuzz.swift.
mapfile -t all_targets < <(sed -n 's/^  ("\([a-z-]*\)", fuzz[A-Za-z]*),$/\1/p' fuzz/Fuzz.swift)
if [[ ${1:-} == --list ]]; then
  printf '%s\n' "${all_targets[@]}"
  exit 0
fi

seconds=300
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
targets=()
while [[ $# -gt 0 && $1 != "--" ]]; do
  [[ " ${all_targets[*]} " == *" $1 "* ]] || {
    echo "fuzz: no target '$1'; there are: ${all_targets[*]}" >&2
    exit 2
  }
  targets+=("$1")
  shift
done
if [[ $# -gt 0 ]]; then
  [[ $1 == "--" ]] || usage
  shift
fi
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
binary=.build/fuzz/notif-fuzz
shared=${NOTIF_SHARED_CORPUS:-$root/../shared/corpus}

echo "fuzz: building $binary" >&2
mkdir -p .build/fuzz
log=$(mktemp)
sources=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$sources"' EXIT
# One module: the files are copied without their imports of each other's modules. The folders
# are listed by the shell, so a file added to one is fuzzed too. The C targets (CNotifSIMD)
# are compiled apart with the toolchain's clang, instrumented alike, and imported through their
# module maps.
clang=${CLANG:-$(dirname "$swiftc")/clang}
c_flags=()
c_objects=()
for folder in Sources/*/; do
  module=$(basename "$folder")
  [[ -d $folder/include ]] || continue
  c_flags+=(-I "${folder}include")
  for file in "$folder"*.c; do
    [[ -f $file ]] || continue
    if ! "$clang" -fsanitize=fuzzer-no-link,address -O2 -I "${folder}include" -c "$file" \
      -o "$sources/$module-$(basename "$file" .c).o" >"$log" 2>&1; then
      cat "$log" >&2
      echo "fuzz: build of $file failed" >&2
      exit 2
    fi
    c_objects+=("$sources/$module-$(basename "$file" .c).o")
  done
done
for folder in Sources/*/; do
  module=$(basename "$folder")
  for file in "$folder"*.swift; do
    [[ -f $file && $(basename "$file") != main.swift ]] || continue
    sed -E '/^import Notif[A-Za-z]+$/d' "$file" >"$sources/$module-$(basename "$file")"
  done
done
if ! "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -module-name NotifFuzz \
  "${c_flags[@]}" "$sources"/*.swift fuzz/*.swift "${c_objects[@]}" -o "$binary" >"$log" 2>&1
then
  cat "$log" >&2
  echo "fuzz: build failed" >&2
  exit 2
fi
# gold warns about every ASan assembly helper it cannot export: noise, not news.
grep -v "Cannot export local symbol '__asan" "$log" >&2 || true

# Copies FILE into the corpus of the target being seeded as NAME (again each run, so edited
# seeds take effect; libFuzzer names what it finds by content hash, so these never clash).
seed() {
  cp "$1" "$corpus/$2"
  seeded=$((seeded + 1))
}

# Seeds the corpus of TARGET.
seed_target() {
  local target=$1 file
  seeded=0
  shopt -s globstar nullglob
  for file in fuzz/seeds/"$target"/*; do seed "$file" "seed-$(basename "$file")"; done
  for file in fuzz/regressions/"$target"/*; do seed "$file" "regression-$(basename "$file")"; done
  case $target in
    json-reader | json-vector | apns | pipe-chunks | fix)
      if [[ -d $shared ]]; then
        for file in "$shared"/**/*.json; do seed "$file" "shared-$(basename "$file")"; done
      else
        echo "fuzz: warning: no shared corpus at $shared" >&2
      fi
      # Test fixtures: names repeat across golden case folders (stdin.ndjson), so use the path.
      for file in Tests/**/*.json Tests/**/*.ndjson Tests/**/*.apns; do
        if [[ -f $file && $(wc -c <"$file") -le 65536 ]]; then
          seed "$file" "tests-${file//\//_}"
        fi
      done
      ;;
    strings)
      for file in Tests/**/*.strings Tests/**/*.stringsdict; do
        [[ -f $file ]] && seed "$file" "tests-${file//\//_}"
      done
      ;;
    config)
      # Every policy, registry and string catalog the tests read, broken ones included.
      for file in Tests/**/*policy*.json Tests/**/categories*.json Tests/**/*.xcstrings \
        Tests/EndToEndTests/Fixtures/notif-summarize/bad/*.json; do
        [[ -f $file ]] && seed "$file" "tests-${file//\//_}"
      done
      ;;
    group-objects)
      # The group objects the golden cases of --merge and notif-summarize read.
      for file in Tests/EndToEndTests/cases/notif-group/*merge*/*.ndjson \
        Tests/EndToEndTests/cases/notif-summarize/**/*.ndjson \
        Tests/EndToEndTests/Fixtures/notif-summarize/*.ndjson; do
        if [[ -f $file && $(wc -c <"$file") -le 65536 ]]; then
          seed "$file" "tests-${file//\//_}"
        fi
      done
      ;;
    show)
      # The records and group objects notif-show's golden cases read, hostile text included.
      for file in Tests/EndToEndTests/Fixtures/notif-show/*.ndjson \
        Tests/EndToEndTests/cases/notif-show/*/stdin.ndjson; do
        if [[ -f $file && $(wc -c <"$file") -le 65536 ]]; then
          seed "$file" "tests-${file//\//_}"
        fi
      done
      ;;
    group-chunks)
      # The records the golden cases of notif-group read: bad lines and pretty-printed ones.
      for file in Tests/EndToEndTests/cases/notif-group/**/*.ndjson \
        Tests/EndToEndTests/Fixtures/notif-group/*.ndjson; do
        if [[ -f $file && $(wc -c <"$file") -le 65536 ]]; then
          seed "$file" "tests-${file//\//_}"
        fi
      done
      ;;
    digest-objects)
      # The digest objects the golden cases of notif-digest write, and the records they read.
      for file in Tests/EndToEndTests/cases/notif-digest/*/stdout.ndjson; do
        if [[ -f $file && $(wc -c <"$file") -le 65536 ]] && grep -q '"digest_id"' "$file"; then
          seed "$file" "tests-${file//\//_}"
        fi
      done
      ;;
    digest-records)
      for file in Tests/EndToEndTests/cases/notif-digest/*/stdin.ndjson \
        Tests/EndToEndTests/Fixtures/notif-digest/*.ndjson; do
        if [[ -f $file && $(wc -c <"$file") -le 65536 ]]; then
          seed "$file" "tests-${file//\//_}"
        fi
      done
      ;;
    store-recovery)
      # The stores the sweeping tools' tests read, as a store alone (no journal, no leftovers).
      for file in Tests/EndToEndTests/Fixtures/notif-expire/*.ndjson \
        Tests/EndToEndTests/Fixtures/notif-mark/*.ndjson; do
        [[ -f $file ]] && seed "$file" "tests-${file//\//_}"
      done
      ;;
  esac
  shopt -u globstar nullglob
}

failed=()
for target in "${targets[@]}"; do
  corpus=fuzz/corpus-run/$target
  mkdir -p "$corpus"
  seed_target "$target"
  echo "fuzz: $target: $seeded seed files; corpus has $(find "$corpus" -type f | wc -l) files" >&2
  dict=()
  case $target in json-reader | json-vector | apns | group-objects | digest-*) dict=(-dict=fuzz/json.dict) ;; esac
  # SWIFT_BACKTRACE=enable=no: Swift's own crash handler would race libFuzzer's and ASan's.
  # -max_len above the 4096-byte record limit the targets use, so the too-large paths run too.
  status=0
  NOTIF_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no "$binary" \
    "${dict[@]}" \
    -max_total_time="$seconds" \
    -rss_limit_mb=2048 \
    -timeout=10 \
    -max_len=8192 \
    -print_final_stats=1 \
    -artifact_prefix="fuzz/$target-" \
    "$@" \
    "$corpus" 2>"$log.run" || status=$?
  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' \
    "$log.run" | sed "s/^/fuzz: $target: /" >&2 || true
  if [[ $status -ne 0 ]]; then
    tail -n 40 "$log.run" >&2
    echo "fuzz: $target: FAILED (status $status); inputs saved:" >&2
    find fuzz -maxdepth 1 -type f -name "$target-*" -newer "$log" -print >&2
    failed+=("$target")
  else
    echo "fuzz: $target: no crash in $seconds s" >&2
  fi
  rm -f "$log.run"
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
