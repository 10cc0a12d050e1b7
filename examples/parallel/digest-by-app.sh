#!/bin/sh
# notif-digest on several cores, with the bytes of one process put through --merge: the records
# of each app go to one notif-digest, in input order (the digests of a key need all its
# records, in order; the key must hold the app, as the default app,thread_id does), and the
# parts' digests come back through `notif-digest --merge`, which writes them in window order.
#
#   digest-by-app.sh JOBS RECORDS NOTIF-DIGEST-OPTIONS... > digests.ndjson
#
# is `notif-digest NOTIF-DIGEST-OPTIONS... RECORDS | notif-digest --merge` on JOBS cores (GNU
# parallel), for records written by notif-parse; give --now, so that every part closes the same
# windows. The parts go to a folder of mktemp -d, removed at the end. Exits 0 when every part's
# notif-digest did, else with GNU parallel's count of the parts that did not (their diagnostics
# are on stderr), or the merge's status.
set -eu
jobs=$1 records=$2
shift 2
here=$(dirname "$0")
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT
awk -v parts="$jobs" -v prefix="$parts/part-" -v number=0 -f "$here/partition-by-app.awk" \
  "$records"
[ -e "$parts/part-0" ] || exit 0 # no record, no digest
status=0
# One notif-digest per part, at most JOBS at once: `sh -c` gets the part's file as $0 and the
# options as "$@", each quoted by -q. The parts are listed before any job starts, so that no
# part-N.digests being written is taken for a part.
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
printf '%s\n' "$parts"/part-* |
  parallel -q -j "$jobs" sh -c 'exec notif-digest "$@" "$0" > "$0.digests"' {} "$@" || status=$?
# The parts hold different keys: the merge joins none, and puts them in window order.
notif-digest --merge "$parts"/*.digests || status=$?
exit "$status"
