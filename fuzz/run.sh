#!/usr/bin/env bash
# Builds the JSON reader fuzzer (fuzz/JSONReaderFuzz.swift compiled, with libFuzzer and
# AddressSanitizer, into one module with the sources of the modules it names on its
# `// fuzz-sources:` line) and runs it for SECONDS (default 300).
#
# usage: fuzz/run.sh [SECONDS] [-- LIBFUZZER-OPTION...]
#
# The corpus grows in fuzz/corpus-run/ (git-ignored), seeded from fuzz/seeds/, the shared
# real-world payloads (../shared/corpus, or NOTIF_SHARED_CORPUS) and the JSON fixtures under
# Tests/. A crash, a failed property (fatalError), a leak or a timeout is saved as
# fuzz/crash-*, fuzz/leak-* or fuzz/timeout-* and makes the script exit non-zero. Replay one
# with: .build/fuzz-json-reader fuzz/crash-...
#
# Environment: SWIFTC (default: swiftc on PATH, else /opt/swift/usr/bin/swiftc),
# NOTIF_SHARED_CORPUS (default: ../shared/corpus next to the repository).
set -euo pipefail

usage() {
  echo "usage: fuzz/run.sh [SECONDS] [-- LIBFUZZER-OPTION...]" >&2
  exit 2
}

seconds=300
if [[ $# -gt 0 && $1 != "--" ]]; then
  [[ $1 =~ ^[0-9]+$ ]] || usage
  seconds=$1
  shift
fi
if [[ $# -gt 0 ]]; then
  [[ $1 == "--" ]] || usage
  shift
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
binary=.build/fuzz-json-reader
corpus=fuzz/corpus-run
shared=${NOTIF_SHARED_CORPUS:-$root/../shared/corpus}

echo "fuzz: building $binary" >&2
mkdir -p .build
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The fuzzer and the modules it reaches compile as one module, so that it can use internal
# API: the modules' files are copied without their imports of each other. The folders are
# listed by the shell, so a file added to one is fuzzed too.
harness=fuzz/JSONReaderFuzz.swift
sources=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$sources"' EXIT
for module in $(sed -n 's|^// fuzz-sources: ||p' "$harness"); do
  for file in Sources/"$module"/*.swift; do
    [[ $(basename "$file") == main.swift ]] && continue
    sed -E '/^import Notif(JSON|Model|Sweep)$/d' "$file" >"$sources/$module-$(basename "$file")"
  done
done
if ! "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -module-name NotifFuzz \
  "$sources"/*.swift "$harness" -o "$binary" >"$log" 2>&1; then
  cat "$log" >&2
  echo "fuzz: build failed" >&2
  exit 2
fi
# gold warns about every ASan assembly helper it cannot export: noise, not news.
grep -v "Cannot export local symbol '__asan" "$log" >&2 || true

mkdir -p "$corpus"
seeded=0
seed() {
  # Copies one seed into the corpus (again each run, so edited seeds take effect); libFuzzer
  # names the inputs it finds by content hash, so these names never clash with them.
  cp "$1" "$corpus/$2"
  seeded=$((seeded + 1))
}
shopt -s globstar nullglob
for file in fuzz/seeds/*; do
  seed "$file" "seed-$(basename "$file")"
done
# Inputs that once crashed the reader: kept so that every run tries them first.
for file in fuzz/regressions/*; do
  seed "$file" "regression-$(basename "$file")"
done
if [[ -d $shared ]]; then
  for file in "$shared"/**/*.json; do
    seed "$file" "shared-$(basename "$file")"
  done
else
  echo "fuzz: warning: no shared corpus at $shared" >&2
fi
# Test fixtures: names repeat across golden case folders (stdin.ndjson), so use the path.
for file in Tests/**/*.json Tests/**/*.ndjson Tests/**/*.apns; do
  if [[ -f $file && $(wc -c <"$file") -le 65536 ]]; then
    seed "$file" "tests-${file//\//_}"
  fi
done
shopt -u globstar nullglob
echo "fuzz: $seeded seed files; corpus has $(find "$corpus" -type f | wc -l) files" >&2

# SWIFT_BACKTRACE=enable=no: Swift's own crash handler would race libFuzzer's and ASan's.
# -max_len above the 4096-byte record limit the harness uses, so the too-large paths run too.
status=0
SWIFT_BACKTRACE=enable=no "$binary" \
  -dict=fuzz/json.dict \
  -max_total_time="$seconds" \
  -rss_limit_mb=2048 \
  -timeout=10 \
  -max_len=8192 \
  -print_final_stats=1 \
  -artifact_prefix=fuzz/ \
  "$@" \
  "$corpus" || status=$?

if [[ $status -ne 0 ]]; then
  echo "fuzz: FAILED (status $status); inputs saved:" >&2
  find fuzz -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) -newer "$log" -print >&2
  exit 1
fi
echo "fuzz: no crash in $seconds s" >&2
