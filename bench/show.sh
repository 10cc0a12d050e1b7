#!/usr/bin/env bash
# Benchmarks notif-show --limit 50 against jq doing the same top-50 sort and field selection, on
# one generated file of notification records, and prints Markdown tables for the README.
#
# usage: bench/show.sh [RECORDS]        (default 1000000)
#
# 1. Throughput: `notif-show --limit 50 --width 100 FILE` (the 50 newest notifications with
#    something to show, as lines) and `jq -s` picking the same 50 (newest created_at, then
#    highest relevance, then input order, records without a title, subtitle or body left out)
#    and selecting the fields notif-show shows; notif-show three runs, jq one (it reads the
#    whole file into memory), alternating; median wall time, MB/s, records/s, peak RSS; the
#    ratio to jq. Then a check that both picked the same 50, in the same order (created_at and
#    title, from notif-show --to html). A line "Bytes:" gives the mean size of a record in and
#    the listing's bytes per notification shown (its cards, headings and last line included).
# 2. Memory flatness: notif-show --limit 50's peak RSS on RECORDS records and on ten times as
#    many (the file ten times through a pipe with cat), which a heap of 50 keeps flat.
#
# The input is bench/data/records-RECORDS.ndjson (git-ignored, as bench/group.sh makes it).
# notif-show is $NOTIF_BIN_DIR/notif-show, else .build/release/notif-show (built when missing).
# Progress goes to stderr, the tables to stdout. The machine is shared and noisy: quote the
# ratios, measured in one run. Needs bash 5, GNU time at /usr/bin/time, jq and python3 (Linux).
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
records=${1:-1000000}
bench_check_count "$records" "bench/show.sh [RECORDS]"
runs=3
bench_require jq python3

show=$(bench_find_tool notif-show)
file=$(bench_records "$records")
bench_input "$file"
bench_make_tmp

# notif-show's order: newest created_at, then highest relevance (null as 0), then input order;
# what the device does not list left out (notif(5): a push type Apple defines for something
# else than Notification Center, or nothing to show); the fields it shows.
# shellcheck disable=SC2016 # jq's variables, not the shell's
jq_program='to_entries
  | map(select(([.value.title, .value.subtitle, .value.body, .value.title_loc_key,
      .value.subtitle_loc_key, .value.loc_key] | any(type == "string"))
    and ((.value.push_type // "alert") | IN("background", "location", "voip", "complication",
      "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets", "controls") | not)))
  | sort_by([.value.created_at, (.value.relevance // 0), -.key]) | reverse | .[:50][] | .value
  | {app, created_at, title, title_loc_key, subtitle, body, category, target_content_id,
     unread: (.read_at == null), new: (.seen_at == null)}'

tool_command() {
  case $1 in
    notif-show) cmd=("$show" --now "$bench_now" --limit 50 --width 100 "$2") ;;
    jq) cmd=(jq -s -c "$jq_program" "$2") ;;
  esac
}
bench_once[jq]=1

cat "$file" >/dev/null # warm the page cache

bench_rounds "$runs" "$file" "$tmp" notif-show jq

mb=$(bench_megabytes "$bytes")
echo "## notif-show benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") records, $mb MB; records made by notif-parse" \
  "from \`bench/gen-payloads.py\`."
echo "Machine: $(bench_machine). notif-show $runs runs, jq 1 run, alternating; medians."
echo
echo "### Throughput"
echo
echo "| tool | command | wall | MB/s | records/s | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
bench_throughput_row notif-show "notif-show $("$show" --version | cut -d' ' -f2)" \
  "notif-show --limit 50 --width 100 FILE"
bench_throughput_row jq "$(jq --version)" "jq -s 'to_entries \\| sort_by(…) \\| .[:50][] \\| {…}' FILE"
echo
echo "notif-show --limit 50: **$(bench_ratio "$(bench_median_wall jq)" \
  "$(bench_median_wall notif-show)")× jq** (wall over wall, same run)."

# Both picked the same 50 in the same order?
"$show" --now "$bench_now" --limit 50 --to html "$file" >"$tmp/page.html"
python3 - "$tmp/page.html" >"$tmp/ours" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
for article in page.split("<article")[1:]:
    time = re.search(r'<time datetime="([^"]+)"', article).group(1)
    title = re.search(r'<h[23] class="title"[^>]*>(.*?)</h[23]>', article)
    print(time, html.unescape(title.group(1)) if title else "")
PY
jq -r '"\(.created_at) \(.title // .title_loc_key // "")"' "$tmp/jq.out" >"$tmp/theirs"
shown=$(wc -l <"$tmp/ours")
echo
if [[ $shown -eq 50 ]] && cmp -s "$tmp/ours" "$tmp/theirs"; then
  echo "Check: notif-show and jq picked the same 50 records in the same order (created_at," \
    "title)."
else
  echo "**Check failed: notif-show and jq picked different records** (first differences below)."
  echo
  echo '```'
  diff "$tmp/ours" "$tmp/theirs" | head -n 6 || true
  echo '```'
  echo "bench: WARNING: notif-show and jq disagree" >&2
fi
# The listing of the throughput runs, over the notifications the page of the check shows (the
# same --limit 50 of the same file).
read -r listing_lines listing_bytes < <(wc -lc <"$tmp/notif-show.out")
echo
echo "Bytes: $(bench_bytes_each "$bytes" "$lines") in a record," \
  "$(bench_bytes_each "$listing_bytes" "$shown") out a notification shown (the listing:" \
  "$(bench_thousands "$listing_bytes") bytes on $(bench_thousands "$listing_lines") lines for $shown" \
  "notifications)."

# --- Memory flatness ------------------------------------------------------------------------------
echo "bench: memory flatness, 10 × $lines records through a pipe" >&2
bench_time_copies 10 "$file" "$tmp/ten.out" "$show" --now "$bench_now" --limit 50 --width 100
big_kb=$rss_kb
small_kb=$(bench_median_rss notif-show)
echo
echo "### Memory with --limit 50"
echo
echo "| records | input | notif-show --limit 50 peak RSS |"
echo "|---:|---:|---:|"
echo "| $(bench_thousands "$lines") | $mb MB | $(bench_memory "$small_kb") MB |"
echo "| $(bench_thousands "$((lines * 10))") | $(bench_megabytes "$((bytes * 10))") MB" \
  "| $(bench_memory "$big_kb") MB |"
echo
awk -v a="$small_kb" -v b="$big_kb" -v s="$(bench_seconds "$wall_us" 1)" \
  'BEGIN { printf "10× the records, %.2f× the memory (the 10× run, through cat and a pipe, took %s s).\n", b / a, s }'
