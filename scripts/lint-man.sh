#!/usr/bin/env bash
# Lints the manual pages: `mandoc -T lint -W warning man/*` must exit 0 and
# print nothing, and man/notif-rules.7 must be what scripts/gen-rules.py makes of
# rules/rules.tsv, no line of it wider than 80 columns in `mandoc -T ascii | col -bx`.
# Run from anywhere; exits 1 on any finding.
set -euo pipefail

cd "$(dirname "$0")/.."

if ! command -v mandoc >/dev/null 2>&1; then
  echo 'lint-man: mandoc is not installed' >&2
  exit 2
fi

shopt -s nullglob
pages=(man/*)
if ((${#pages[@]} == 0)); then
  echo 'lint-man: no manual pages in man/' >&2
  exit 1
fi

status=0
output=$(mandoc -T lint -W warning "${pages[@]}" 2>&1) || status=$?
if ((status != 0)) || [[ -n $output ]]; then
  if [[ -n $output ]]; then printf '%s\n' "$output" >&2; fi
  printf 'lint-man: mandoc -T lint -W warning failed (status %d)\n' "$status" >&2
  exit 1
fi
scripts/gen-rules.py --check >/dev/null || exit 1

# The generated page holds long words (addresses, key paths, vendors' words): it must still
# read at 80 columns, as mandoc lays it out.
if ! command -v col >/dev/null 2>&1; then
  echo 'lint-man: col is not installed (bsdextrautils)' >&2
  exit 2
fi
rendered=$(mandoc -T ascii man/notif-rules.7 | col -bx)
wide=$(awk 'length > 80 { print NR ": " $0; exit }' <<<"$rendered")
if [[ -n $wide ]]; then
  printf 'lint-man: man/notif-rules.7 is wider than 80 columns in mandoc -T ascii, line %s\n' \
    "$wide" >&2
  exit 1
fi
printf 'lint-man: %d page(s) ok\n' "${#pages[@]}"
