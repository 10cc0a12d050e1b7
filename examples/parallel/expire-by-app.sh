#!/bin/sh
# notif-expire on several cores, with the bytes of one process: the records of each app go to
# one notif-expire (its collapse by app and collapse_id and its `keep` caps by app and thread
# need every record of the app, in input order), and the kept lines come back in input order.
#
#   expire-by-app.sh JOBS INBOX NOTIF-EXPIRE-OPTIONS... > kept.ndjson
#
# is `notif-expire NOTIF-EXPIRE-OPTIONS... INBOX` on JOBS cores (GNU parallel), for a store
# written by notif-parse; give --now, so that every part expires at the same instant. The parts
# go to a folder of mktemp -d, removed at the end. Exits 0 when every part's notif-expire did,
# else with GNU parallel's count of the parts that did not (their diagnostics are on stderr).
set -eu
jobs=$1 inbox=$2
shift 2
here=$(dirname "$0")
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT
awk -v parts="$jobs" -v prefix="$parts/part-" -f "$here/partition-by-app.awk" "$inbox"
[ -e "$parts/part-0" ] || exit 0 # an empty store keeps nothing
status=0
# One notif-expire per part, at most JOBS at once: `sh -c` gets the part's file as $0 and the
# options as "$@", each quoted by -q. The parts are listed before any job starts: a listing
# that ran beside the jobs (find) could take a part-N.kept being written for a part, and its
# lines would come out twice.
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
printf '%s\n' "$parts"/part-* |
  parallel -q -j "$jobs" sh -c 'exec notif-expire "$@" "$0" > "$0.kept"' {} "$@" || status=$?
# Each part's lines are in input order: merge them by number, then take the numbers out.
LC_ALL=C sort -m "$parts"/*.kept | sed 's/^{"\\u0000line":"[0-9]*",/{/'
exit "$status"
