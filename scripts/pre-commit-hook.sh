#!/bin/sh
# The notif-parse-check hook of .pre-commit-hooks.yaml: runs this checkout's notif-parse with
# the hook's arguments and the files pre-commit passes.
#
# usage: scripts/pre-commit-hook.sh NOTIF-PARSE-ARGUMENTS... [FILE...]
#
# pre-commit keeps a checkout of notif for each revision a project names, and runs this script
# there with the project as the working folder. The first run builds notif-parse in that
# checkout (swift build -c release --product notif-parse: minutes on a small machine, the only
# tool the hook needs) and says so once, on the terminal where there is one (pre-commit shows a
# hook's own output only when it fails); later runs, and other projects on the same revision,
# use that build.
set -eu

notif=$(cd "$(dirname "$0")/.." && pwd)
bin=$notif/.build/release/notif-parse

if [ ! -x "$bin" ]; then
  message="notif-parse-check: building notif-parse for this revision of notif, once (swift build"
  message="$message -c release --product notif-parse; a few minutes), then checking the files"
  # The terminal, where pre-commit runs from one; else standard error, which it shows on failure.
  if ! { printf '\n%s\n' "$message" >/dev/tty; } 2>/dev/null; then
    printf '%s\n' "$message" >&2
  fi
  log=$notif/.build/notif-parse-build.log
  mkdir -p "$notif/.build"
  if ! swift build -c release --package-path "$notif" --product notif-parse >"$log" 2>&1; then
    cat "$log" >&2
    printf 'notif-parse-check: the build of notif-parse failed (its output is above)\n' >&2
    exit 2
  fi
fi

exec "$bin" "$@"
