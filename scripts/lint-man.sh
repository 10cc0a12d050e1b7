#!/usr/bin/env bash
# Lints the manual pages: `mandoc -T lint -W warning man/*` must exit 0 and
# print nothing, and man/notif-rules.7 must be what scripts/gen-rules.py makes of
# rules/rules.tsv. Run from anywhere; exits 1 on any finding.
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
printf 'lint-man: %d page(s) ok\n' "${#pages[@]}"
