#!/usr/bin/env bash
# Benchmarks notif-responses against a jq classifier of the same rules, and prints a Markdown
# table for the README.
#
# usage: bench/responses.sh [ANSWERS]        (default 1000000)
#
# The answers are bench/data/responses-ANSWERS.ndjson (git-ignored), written by
# bench/gen-responses.py: APNs, FCM HTTP v1, Web Push, Expo tickets and SNS delivery status
# lines, most delivered. The jq program reads the same shapes and looks each answer up in the
# same table, rules/responses.tsv (made into a jq object here), status first as notif-responses
# does: by status and reason, by a reason without a status, by status, then by status class; it writes the same keys (retry_at without the seeded jitter, which jq has no
# reproducible way to draw) and the answer's other members. RUNS runs each (default 2),
# alternating, median wall time and peak RSS; the outputs' rules are compared line by line. A
# line "Bytes:" gives the mean size of an answer in and of the record written for it out.
# Binaries are $NOTIF_BIN_DIR/notif-*, else .build/release/notif-* (built when missing). Needs
# bash 5, GNU time at /usr/bin/time, jq and python3.
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/common.sh
. bench/common.sh

bench_require_bash5
answers=${1:-1000000}
bench_check_count "$answers" "bench/responses.sh [ANSWERS]"
runs=${RUNS:-2}
bench_require jq python3

responses=$(bench_find_tool notif-responses)
file=$(bench_generated responses bench/gen-responses.py "$answers")
bench_input "$file"
bench_make_tmp

# The table as a jq object: by service, the row of each status and reason, of each reason the
# vendor gives no status, of each exact status and of each status class.
python3 - rules/responses.tsv >"$tmp/table.json" <<'PY'
import json, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])][1:]
table = {}
for id, service, status, reason, action, vendor, source, case in rows:
    if id in ("apns-unregistered-reregistered", "apns-unregistered-unreadable-timestamp",
              "fcm-invalid-registration-token"):
        continue
    t = table.setdefault(service, {"pair": {}, "reason": {}, "status": {}, "class": {}, "none": {}})
    row = {"rule": id, "action": action, "why": vendor}
    named = reason not in ("-", "*")
    if status.endswith("xx"):
        t["class"][status[0]] = row
    elif status == "-" and named:
        t["reason"].setdefault(reason, row)
    elif status == "-":
        t["none"][reason] = row
    elif named:
        t["pair"].setdefault(status + " " + reason, row)
    else:
        t["status"][status] = row
print(json.dumps(table))
PY
cat >"$tmp/responses.jq" <<'JQ'
def header($n): (.headers // {}) | to_entries | map(select(.key | ascii_downcase == $n))
  | .[0].value;
def backoff($base; $attempt): [3600, $base * pow(2; $attempt - 1)] | min;
($now | fromdateiso8601) as $n
| . as $r
| (if .notification and .delivery then "sns"
   elif .["apns-id"] then "apns"
   elif .data or (.status | type) == "string" then "expo"
   elif .endpoint then "webpush"
   elif .error or .body.error or .body.name then "fcm"
   else "apns" end) as $source
| (if $source == "sns" then .delivery.statusCode
   elif $source == "expo" then null else .status end) as $status
| (if $source == "apns" then (.body.reason // .reason)
   elif $source == "fcm" then ((.body.error // .error)
     | (((.details // []) | map(.errorCode // empty) | .[0]) // .status))
   elif $source == "expo" then (if .status == "error" then .details.error else null end)
   elif $source == "sns" then
     (if .status == "SUCCESS" then null
      else (.delivery.providerResponse | try fromjson catch {}) | .reason end)
   else null end) as $reason
| (if $source == "sns" and $reason != null then "apns" else $source end) as $vendor
| $table[$vendor] as $t
| (if $status == null then
     ($reason | if . == null then null else $t.reason[.] end)
     // $t.none[if $reason == null then "-" else "*" end]
   else
     ($reason | if . == null then null else $t.pair[($status | tostring) + " " + .] end)
     // (if $status >= 400 and $reason != null then $t.reason[$reason] else null end)
     // $t.status[$status | tostring] // $t.class[($status / 100 | floor | tostring)]
     // $table.any.class[($status / 100 | floor | tostring)]
   end
   // $t.class["4"]) as $row
| (.attempt // 1) as $attempt
| {source: $source,
   token: (if $source == "webpush" then .endpoint
           elif $source == "expo" then .details.expoPushToken
           elif $source == "sns" then .delivery.token else .token end),
   request_id: (.request_id // .["apns-id"] // .notification.messageId),
   status: (if $source == "sns" then .delivery.statusCode
            elif $source == "expo" then null else .status end),
   reason: $reason, action: $row.action, why: $row.why,
   retry_at: (if $row.action == "retry" or $row.action == "slow_down" then
       ((header("retry-after") | tonumber? // null)
        // backoff(if $row.action == "slow_down" then 60 else 5 end; $attempt))
       + $n | todateiso8601
     else null end),
   attempt: $attempt, rule: $row.rule}
  + ($r | del(.source, .token, .request_id, .status, .reason, .action, .why, .retry_at,
              .attempt, .rule))
JQ

tool_command() {
  # shellcheck disable=SC2016 # $now and $table are jq's, not the shell's
  case $1 in
    notif-responses) cmd=("$responses" --now "$bench_now" "$2") ;;
    jq) cmd=(jq -c --arg now "$bench_now" --slurpfile t "$tmp/table.json"
      '$t[0] as $table | '"$(cat "$tmp/responses.jq")" "$2") ;;
  esac
}

echo "bench: checking outputs on $file" >&2
bench_measure notif-responses "$file" "$tmp/notif.out"
bench_measure jq "$file" "$tmp/jq.out"
rules() { grep -o '"rule":"[^"]*"' "$1"; }
differing=$(diff <(rules "$tmp/notif.out") <(rules "$tmp/jq.out") | grep -c '^<' || true)
read -r count count_bytes < <(wc -lc <"$tmp/notif.out")

tools=(notif-responses jq)
bench_rounds "$runs" "$file" "" "${tools[@]}"

echo "## notif-responses benchmark"
echo
echo "Input: \`$file\`, $(bench_thousands "$lines") answers, $(bench_megabytes "$bytes") MB" \
  "(\`bench/gen-responses.py\`: APNs, FCM, Web Push, Expo and SNS). Machine: $(bench_machine)," \
  "shared. $runs runs per tool, alternating; medians."
echo
bench_wall_table answers \
  "notif-responses=notif-responses --now $bench_now FILE" \
  "jq=jq -c --arg now $bench_now --slurpfile t table.json -f responses.jq FILE"
echo
echo "notif-responses: **$(bench_ratio "${median_wall[jq]}" "${median_wall[notif-responses]}")×" \
  "jq** (jq wall / notif-responses wall, same run)."
echo
echo "Output check: $(bench_thousands "$count") records; rules that differ from jq's:" \
  "$(bench_thousands "$differing")."
echo "Bytes: $(bench_bytes_each "$bytes" "$lines") in an answer," \
  "$(bench_bytes_each "$count_bytes" "$count") out a record (its action, rule and the answer's" \
  "members)."
