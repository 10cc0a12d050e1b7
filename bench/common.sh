# Shared by the bench/*.sh scripts (sourced, not run, from the repository's root): where the
# binaries and the data are, the tool checks, the timing (bench_time, bench_measure,
# bench_rounds), medians, the number formats of the tables and the start-up table.
#
# The scripts keep what is their own: the jq program they compare with, their output checks,
# their tables' headings and extra tables.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the globals below are used by the scripts that source this file

# Fixed clock for every run, so that records come out the same whatever the day.
bench_now=2026-11-22T09:00:00Z
bench_data=bench/data

# Filled by bench_rounds: per tool, its wall times (microseconds), peak RSS (KiB) and processor
# times (microseconds), each a space-separated list, one entry per run.
declare -A bench_walls=() bench_rsss=() bench_cpus=()
# Set by the scripts before bench_measure / bench_rounds:
#   bench_ok_status[TOOL]=N  an exit status N other than 0 that is not a failure of TOOL
#                            (notif-parse's 1: some records rejected; its output check says so)
#   bench_may_fail[TOOL]=1   a failure of TOOL does not stop the benchmark: bench_measure puts
#                            "status N: first line of stderr" in bench_failed[TOOL] and returns
#                            1, and bench_rounds runs TOOL no more
#   bench_once[TOOL]=1       bench_rounds runs TOOL in the first round only (jq, when slow)
declare -A bench_ok_status=() bench_may_fail=() bench_failed=() bench_once=()

# --- Checks ---------------------------------------------------------------------------------------

# Stops with status 2 unless bash is 5 or later (the timing reads EPOCHREALTIME).
bench_require_bash5() {
  if ((BASH_VERSINFO[0] < 5)); then
    echo "bench: needs bash 5 or later (EPOCHREALTIME)" >&2
    exit 2
  fi
}

# Stops with status 2 unless every TOOL is on PATH and GNU time is at /usr/bin/time.
bench_require() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
  done
  if [[ ! -x /usr/bin/time ]]; then
    echo "bench: GNU time (/usr/bin/time) is required" >&2
    exit 2
  fi
}

# Stops with status 2, printing "usage: USAGE", unless COUNT (a script's argument) is a positive
# integer.
bench_check_count() {
  local count=$1 usage=$2
  if [[ ! $count =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $usage" >&2
    exit 2
  fi
}

# --- Binaries and data ----------------------------------------------------------------------------

# Prints the path of the notif tool NAME: $NOTIF_BIN_DIR/NAME, else .build/release/NAME,
# building the latter (a static executable, release, as `make release` builds it) when it is
# missing.
bench_find_tool() {
  local name=$1 dir=${NOTIF_BIN_DIR:-.build/release}
  if [[ ! -x $dir/$name ]]; then
    if [[ -n ${NOTIF_BIN_DIR:-} ]]; then
      echo "bench: no executable $name in NOTIF_BIN_DIR ($dir)" >&2
      return 2
    fi
    local flags=(-c release --static-swift-stdlib)
    [[ $(uname -s) == Linux ]] && flags+=(-Xswiftc -static-executable)
    echo "bench: building $name (swift build ${flags[*]})" >&2
    swift build "${flags[@]}" --product "$name" >&2
  fi
  printf '%s\n' "$dir/$name"
}

# Prints the path of notif-parse (see bench_find_tool).
bench_find_parse() {
  bench_find_tool notif-parse
}

# Prints the path of bench/data/KIND-COUNT.ndjson, a file of COUNT lines written by
# `python3 GENERATOR COUNT`, making it when missing. The generators are deterministic and
# prefix-stable, so a smaller file is cut from a bigger one of the same kind when there is one,
# which is much faster than generating it.
bench_generated() {
  local kind=$1 generator=$2 count=$3 file bigger
  file=$bench_data/$kind-$count.ndjson
  if [[ ! -s $file ]]; then
    mkdir -p "$bench_data"
    bigger=$(find "$bench_data" -maxdepth 1 -name "$kind-*.ndjson" -size +0 2>/dev/null |
      sed -n "s/.*$kind-\\([0-9]*\\)\\.ndjson\$/\\1 &/p" | sort -n |
      awk -v n="$count" '$1 > n { print $2; exit }')
    if [[ -n $bigger ]]; then
      echo "bench: cutting $file from $bigger" >&2
      head -n "$count" "$bigger" >"$file.tmp"
    else
      echo "bench: generating $file ($generator $count)" >&2
      python3 "$generator" "$count" >"$file.tmp"
    fi
    mv "$file.tmp" "$file"
  fi
  printf '%s\n' "$file"
}

# Prints the path of a file of COUNT generated APNs payloads (bench/gen-payloads.py).
bench_payloads() {
  bench_generated payloads bench/gen-payloads.py "$1"
}

# Prints the path of bench/data/records-COUNT.ndjson, COUNT records made from COUNT payloads by
# notif-parse --now $bench_now, making it when missing.
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

# Prints the path of bench/data/records-week-COUNT.ndjson, COUNT records with created_at spread
# over a week, making it when missing: the payloads of bench/gen-payloads.py turned into
# records by PARSE (a notif-parse binary) in 14 chunks whose --now steps by 12 hours.
bench_records_week() {
  local parse=$1 count=$2 file payloads chunk k now
  file=$bench_data/records-week-$count.ndjson
  if [[ ! -s $file ]]; then
    payloads=$(bench_payloads "$count")
    echo "bench: making $file (notif-parse in 14 chunks, --now 12 hours apart)" >&2
    rm -f "$file.chunk."*
    split -n l/14 -d "$payloads" "$file.chunk."
    : >"$file.tmp"
    k=13
    for chunk in "$file.chunk."*; do
      now=$(date -u -d "@$((1795338000 - k * 43200))" +%Y-%m-%dT%H:%M:%SZ)
      "$parse" --now "$now" "$chunk" >>"$file.tmp"
      rm -f "$chunk"
      k=$((k - 1))
    done
    mv "$file.tmp" "$file"
  fi
  printf '%s\n' "$file"
}

# Sets `bytes` and `lines` to the size of FILE.
bench_input() {
  bytes=$(wc -c <"$1")
  lines=$(wc -l <"$1")
}

# Makes the temporary directory `tmp`, removed when the script exits.
bench_make_tmp() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# --- Timing ---------------------------------------------------------------------------------------

# Runs COMMAND... once under GNU time, stdout to OUT and stderr to $tmp/stderr, and sets
# `wall_us` (bash's clock around it, in microseconds), `rss_kb` (peak RSS, GNU time's %M),
# `cpu_us` (its processor time, user and system, in microseconds; GNU time's %U and %S, to
# 10 ms) and `status` (its exit status; never stops the script).
bench_time() {
  local out=$1 start stop
  shift
  status=0
  start=$EPOCHREALTIME
  /usr/bin/time -f '%M %U %S' -o "$tmp/rss" "$@" >"$out" 2>"$tmp/stderr" || status=$?
  stop=$EPOCHREALTIME
  wall_us=$((${stop/./} - ${start/./}))
  bench_read_time "$tmp/rss"
}

# Like bench_time, for COMMAND... reading COPIES copies of FILE through a pipe (so no bigger
# file is written). The wall time includes cat's; `cpu_us` is the command's processor time,
# and `feed_cpu_us` that of the cats. A failure stops the script.
bench_time_copies() {
  local copies=$1 file=$2 out=$3 start stop copy
  shift 3
  : >"$tmp/feed"
  start=$EPOCHREALTIME
  for ((copy = 0; copy < copies; copy++)); do
    /usr/bin/time -f '%U %S' -a -o "$tmp/feed" cat "$file"
  done |
    /usr/bin/time -f '%M %U %S' -o "$tmp/rss" "$@" >"$out"
  stop=$EPOCHREALTIME
  wall_us=$((${stop/./} - ${start/./}))
  bench_read_time "$tmp/rss"
  feed_cpu_us=$(awk '{ s += $1 + $2 } END { printf "%.0f", s * 1e6 }' "$tmp/feed")
}

# Sets `rss_kb` and `cpu_us` from the last line of FILE, GNU time's '%M %U %S' (after "Command
# exited with non-zero status N", if any).
bench_read_time() {
  read -r rss_kb cpu_us < <(tail -n 1 "$1" | awk '{ printf "%s %.0f\n", $1, ($2 + $3) * 1e6 }')
}

# Measures one run of TOOL on INPUT, output to OUT (default /dev/null): the script's
# `tool_command TOOL INPUT` sets `cmd` to the command line, which bench_time runs. A failure
# (see bench_ok_status and bench_may_fail) prints the first lines of its stderr and stops the
# benchmark with status 1.
bench_measure() {
  local tool=$1 input=$2 out=${3:-/dev/null} cmd
  tool_command "$tool" "$input"
  bench_time "$out" "${cmd[@]}"
  if ((status != 0 && status != ${bench_ok_status[$tool]:-0})); then
    echo "bench: $tool failed on $input (status $status):" >&2
    head -n 5 "$tmp/stderr" >&2
    if [[ -n ${bench_may_fail[$tool]:-} ]]; then
      bench_failed[$tool]="status $status: $(head -n 1 "$tmp/stderr")"
      return 1
    fi
    exit 1
  fi
}

# Runs RUNS rounds of bench_measure over TOOLS... on INPUT, rotating their order each round so
# that no tool always goes first after another's cache traffic, and appends each run's wall
# time, peak RSS and processor time to bench_walls[TOOL], bench_rsss[TOOL] and bench_cpus[TOOL].
# Output goes to OUT_DIR/TOOL.out, or to /dev/null when OUT_DIR is empty. Skips the runs that
# bench_once and bench_failed rule out.
bench_rounds() {
  local runs=$1 input=$2 out_dir=$3 tools run k tool
  shift 3
  tools=("$@")
  for ((run = 0; run < runs; run++)); do
    for ((k = 0; k < ${#tools[@]}; k++)); do
      tool=${tools[$(((k + run) % ${#tools[@]}))]}
      if [[ -n ${bench_once[$tool]:-} ]] && ((run > 0)); then continue; fi
      if [[ -n ${bench_failed[$tool]:-} ]]; then continue; fi
      echo "bench: run $((run + 1))/$runs: $tool" >&2
      bench_measure "$tool" "$input" "${out_dir:+$out_dir/$tool.out}" || continue
      bench_walls[$tool]+="$wall_us "
      bench_rsss[$tool]+="$rss_kb "
      bench_cpus[$tool]+="$cpu_us "
    done
  done
}

# Prints the shortest time a tool could take through `cat FILE |` on this machine, from its
# processor time on the file (TOOL_CPU_US), cat's in the pipe (FEED_CPU_US) and its wall time on
# the file (FILE_US), all in microseconds. It is the two processor times spread over every core,
# as if reading a pipe cost the tool no more than reading the file and no core were ever idle:
# a pipe within 10% of the file needs this under 1.1.
bench_pipe_floor() {
  local tool_cpu=$1 feed_cpu=$2 file_us=$3 cores floor
  cores=$(nproc)
  floor=$(((tool_cpu + feed_cpu) / cores))
  echo "Processor time bounds the pipe: ($(bench_seconds "$tool_cpu") s of the tool on the file" \
    "+ $(bench_seconds "$feed_cpu") s of \`cat\`) / $cores cores = $(bench_seconds "$floor") s," \
    "at least **$(awk -v a="$floor" -v b="$file_us" 'BEGIN { printf "%.2f", a / b }')×" \
    "the file**, however fast the tool reads a pipe."
}

# Prints the median of the numbers given, as arguments or as space-separated lists (the upper
# one of the middle two when there is an even number of them).
bench_median() {
  printf '%s\n' "$@" | tr -s ' ' '\n' | sort -n |
    awk 'NF { v[++n] = $1 } END { print v[int((n + 1) / 2)] }'
}

# Print the median wall time (microseconds) and the median peak RSS (KiB) of TOOL's runs.
bench_median_wall() { bench_median "${bench_walls[$1]}"; }
bench_median_rss() { bench_median "${bench_rsss[$1]}"; }

# --- Formats --------------------------------------------------------------------------------------

# Formats an integer with thousands separators: 1234567 -> 1,234,567.
bench_thousands() {
  printf '%s\n' "$1" | sed -e ':a' -e 's/^\([-]*[0-9]\{1,\}\)\([0-9]\{3\}\)/\1,\2/' -e 'ta'
}

# Microseconds as seconds with DIGITS decimals (default 2): 1234567 -> 1.23.
bench_seconds() { awk -v us="$1" -v d="${2:-2}" 'BEGIN { printf "%.*f", d, us / 1e6 }'; }
# Bytes as megabytes (10^6) with one decimal.
bench_megabytes() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
# KiB (GNU time's %M) as MB (MiB, as the tables have always said) with one decimal.
bench_memory() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }
# BYTES read in US microseconds as MB/s, rounded, with thousands separators.
bench_mbps() { bench_thousands "$(awk -v b="$1" -v us="$2" 'BEGIN { printf "%.0f", b / us }')"; }
# COUNT items in US microseconds as items per second, rounded, with thousands separators.
bench_per_second() {
  bench_thousands "$(awk -v n="$1" -v us="$2" 'BEGIN { printf "%.0f", n / (us / 1e6) }')"
}
# BYTES over COUNT items, in whole bytes (integer division), 0 when COUNT is 0: the bytes of a
# record in, or of what a tool writes for one, for the "Bytes:" lines.
bench_bytes_each() {
  if (($2 > 0)); then echo $(($1 / $2)); else echo 0; fi
}
# A / B with one decimal (a speed-up: jq's wall over ours).
bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

# Prints the first line of `PROGRAM --version` (nothing when it has no such option).
bench_version() { "$1" --version 2>/dev/null | head -n 1 || true; }

# Prints "N cores" and the CPU's model name, for the tables' "Machine:" line.
bench_machine() {
  local cpu
  cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
  printf '%s\n' "$(nproc) cores${cpu:+, $cpu}"
}

# --- Tables ---------------------------------------------------------------------------------------

# Prints the throughput row "| NAME | `COMMAND` | wall | MB/s | items/s | peak RSS |" of TOOL
# from the medians of its runs, for an input of `bytes` bytes and `lines` items.
bench_throughput_row() {
  local tool=$1 name=$2 command=$3 wall rss
  wall=$(bench_median_wall "$tool")
  rss=$(bench_median_rss "$tool")
  echo "| $name | \`$command\` | $(bench_seconds "$wall") s | $(bench_mbps "$bytes" "$wall")" \
    "| $(bench_per_second "$lines" "$wall") | $(bench_memory "$rss") MB |"
}

# Each tool's median wall time (microseconds), as bench_wall_table leaves it.
declare -A median_wall

# Prints the table "| tool | command | wall | UNIT/s | peak RSS |" from the medians of the tools'
# runs, one row per TOOL=COMMAND argument, for an input of `lines` items, and keeps each tool's
# median wall time in median_wall.
bench_wall_table() {
  local unit=$1 entry tool command rss
  shift
  echo "| tool | command | wall | $unit/s | peak RSS |"
  echo "|---|---|---:|---:|---:|"
  for entry in "$@"; do
    tool=${entry%%=*}
    command=${entry#*=}
    median_wall[$tool]=$(bench_median_wall "$tool")
    rss=$(bench_median_rss "$tool")
    echo "| $tool | \`$command\` | $(bench_seconds "${median_wall[$tool]}") s" \
      "| $(bench_per_second "$lines" "${median_wall[$tool]}") | $(bench_memory "$rss") MB |"
  done
}

# Prints the row "| `COMMAND` | -j1 | -j2 | speed-up | peak RSS -j1 / -j2 |" of the threads
# table from the medians of the runs of TOOL1 (-j1) and TOOL2 (-j2).
bench_jobs_row() {
  local command=$1 one=$2 two=$3 w1 w2
  w1=$(bench_median_wall "$one")
  w2=$(bench_median_wall "$two")
  echo "| \`$command\` | $(bench_seconds "$w1") s | $(bench_seconds "$w2") s" \
    "| $(bench_ratio "$w1" "$w2")× | $(bench_memory "$(bench_median_rss "$one")") MB /" \
    "$(bench_memory "$(bench_median_rss "$two")") MB |"
}

# Times the start-up of commands with hyperfine (20 warm-up runs, 200 runs, no shell) and prints
# the table "| tool | median | mean | σ |", one row per command. On a shared machine a few slow
# runs move the mean; the median says what a run usually takes. Arguments: NAME COMMAND pairs, COMMAND
# a string that hyperfine splits. The results stay in $tmp/startup.json; when hyperfine fails
# nothing is printed, its message is in $tmp/hyperfine.err and the status is 1.
bench_startup() {
  local names=() commands=()
  while (($# >= 2)); do
    names+=("$1")
    commands+=("$2")
    shift 2
  done
  hyperfine --warmup 20 --runs 200 -N --style none --export-json "$tmp/startup.json" \
    "${commands[@]}" >/dev/null 2>"$tmp/hyperfine.err" || return 1
  echo "| tool | median | mean | σ |"
  echo "|---|---:|---:|---:|"
  jq -r --argjson names "$(printf '%s\n' "${names[@]}" | jq -R . | jq -s .)" '
    .results | to_entries[] |
    "| \($names[.key]) | \(.value.median * 1000 * 100 | round / 100) ms " +
    "| \(.value.mean * 1000 * 100 | round / 100) ms " +
    "| \(.value.stddev * 1000 * 100 | round / 100) ms |"' "$tmp/startup.json"
}
