# Shared by the bench/*.sh scripts (sourced, not run): where the binary and the data are.
# shellcheck shell=bash

# Fixed clock for every run, so that records come out the same whatever the day.
# shellcheck disable=SC2034 # used by the scripts that source this file
bench_now=2026-11-22T09:00:00Z
bench_data=bench/data

# Prints the path of notif-parse: $NOTIF_BIN_DIR/notif-parse, else .build/release/notif-parse,
# building the latter (static, release) when it is missing.
bench_find_parse() {
  local dir=${NOTIF_BIN_DIR:-.build/release}
  if [[ ! -x $dir/notif-parse ]]; then
    if [[ -n ${NOTIF_BIN_DIR:-} ]]; then
      echo "bench: no executable notif-parse in NOTIF_BIN_DIR ($dir)" >&2
      return 2
    fi
    echo "bench: building notif-parse (swift build -c release --static-swift-stdlib)" >&2
    swift build -c release --static-swift-stdlib --product notif-parse >&2
  fi
  printf '%s\n' "$dir/notif-parse"
}

# Prints the path of a file of COUNT generated payloads, making it when missing. The generator
# is deterministic and prefix-stable, so a smaller file is cut from a bigger one when there is
# one, which is much faster than generating it.
bench_payloads() {
  local count=$1 file bigger
  file=$bench_data/payloads-$count.ndjson
  if [[ ! -s $file ]]; then
    mkdir -p "$bench_data"
    bigger=$(find "$bench_data" -maxdepth 1 -name 'payloads-*.ndjson' -size +0 2>/dev/null |
      sed -n 's/.*payloads-\([0-9]*\)\.ndjson$/\1 &/p' | sort -n |
      awk -v n="$count" '$1 > n { print $2; exit }')
    if [[ -n $bigger ]]; then
      echo "bench: cutting $file from $bigger" >&2
      head -n "$count" "$bigger" >"$file.tmp"
    else
      echo "bench: generating $file (bench/gen-payloads.py $count)" >&2
      python3 bench/gen-payloads.py "$count" >"$file.tmp"
    fi
    mv "$file.tmp" "$file"
  fi
  printf '%s\n' "$file"
}

# Formats an integer with thousands separators: 1234567 -> 1,234,567.
bench_thousands() {
  printf '%s\n' "$1" | sed -e ':a' -e 's/^\([-]*[0-9]\{1,\}\)\([0-9]\{3\}\)/\1,\2/' -e 'ta'
}
