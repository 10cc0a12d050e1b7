#!/usr/bin/env bash
# The gate as a project adopts it, on the payload examples copied into a scratch project's
# fixtures/push/: the hook of .pre-commit-hooks.yaml through `pre-commit try-repo`, the four
# lines README.md shows, through `pre-commit run`, and the gate step of the GitHub workflow it
# shows (examples/github-workflow.yml, the same text). Each passes on the good payloads and
# fails on examples/broken.apns with its error, and reports sns-bad-badge.json's warning (iOS
# ignores a string badge and still shows the alert, so it does not fail the commit). Part of
# `make check`.
#
# usage: scripts/test-pre-commit-hook.sh
#
# The hooks come from a snapshot of the working tree, committed in a scratch clone (new files
# too, ignored ones not). pre-commit builds it with `swift build -c release`, a minute or two,
# twice: try-repo builds in a store of its own that it throws away, so it runs once, on every
# example, the broken one included; `pre-commit run` builds once in PRE_COMMIT_HOME (a scratch
# folder here) for its runs. The workflow's step runs .build/release/notif-parse (`make
# hook-test` builds it). Needs pre-commit (`make check-deps`) and git.
set -euo pipefail
export LC_ALL=C TZ=UTC

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

say() { printf 'test-hook: %s\n' "$*" >&2; }
failures=0
fail() {
  say "FAIL: $*"
  failures=$((failures + 1))
}
command -v pre-commit >/dev/null || { say "pre-commit is required: run make check-deps"; exit 2; }
[[ -x .build/release/notif-parse ]] || { say ".build/release/notif-parse is missing: run make release"; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export PRE_COMMIT_HOME=$scratch/cache
project=$scratch/project
git_quiet() {
  git -c init.defaultBranch=main -c user.name=test -c user.email=test@example.com "$@" >/dev/null
}

# The snapshot: HEAD, the changes to it, and the new files.
notif=$scratch/notif
git_quiet clone -q "$repo" "$notif"
git_quiet -C "$notif" checkout -q --detach "$(git rev-parse HEAD)"
if ! git diff --quiet HEAD; then git diff --binary HEAD | git -C "$notif" apply; fi
git ls-files -z --others --exclude-standard | xargs -0 -r cp --parents -t "$notif"
git_quiet -C "$notif" add -A
git_quiet -C "$notif" commit -q --allow-empty -m "notif's working tree"
rev=$(git -C "$notif" rev-parse HEAD)

# The payload examples, and the two that are broken on purpose, with their diagnostics: where
# and which (the golden cases check the wording).
good=(examples/chat.apns examples/new.apns examples/fixtures/* examples/envelope.json
  examples/fcm-message.json examples/sns-message.json examples/payloads.ndjson
  examples/pushes.ndjson)
broken_apns='fixtures/push/broken\.apns:6:29: error: .* \[InvalidJSON\]$'
warned_sns='fixtures/push/sns-bad-badge\.json:3:90: warning: .* \[BadBadge\]$'
mkdir -p "$project/fixtures/push"
cp "${good[@]}" "$project/fixtures/push/"
git_quiet -C "$project" init
git_quiet -C "$project" add .

# Runs pre-commit in the project: $1 is the status it must exit with, $2 a line its output must
# have (an extended regular expression), $3 what this is; the rest is pre-commit's arguments.
expect() {
  local status=$1 wanted=$2 what=$3 got=0
  shift 3
  (cd "$project" && pre-commit "$@") >"$scratch/out" 2>&1 || got=$?
  if [[ $got != "$status" ]]; then
    fail "$what: pre-commit exits $got, not $status"
    cat "$scratch/out" >&2
  elif ! grep -qE -- "$wanted" "$scratch/out"; then
    fail "$what: pre-commit does not print: $wanted"
    cat "$scratch/out" >&2
  else
    say "$what: exit $got, as it should:"
    sed 's/^/  | /' "$scratch/out" >&2
  fi
}

# 1. The hook as .pre-commit-hooks.yaml defines it, on the files named .apns by default: it
# fails, with the diagnostic of broken.apns and nothing about the others.
say "pre-commit try-repo REPO notif-parse-check (pre-commit builds the package: a minute or two)"
cp examples/broken.apns "$project/fixtures/push/"
git_quiet -C "$project" add .
expect 1 "$broken_apns" "try-repo, broken.apns among the examples" \
  try-repo "$notif" notif-parse-check --ref "$rev" --all-files
others=$(grep -E ': (error|warning): ' "$scratch/out" | grep -vE -- "$broken_apns" || true)
[[ -z $others ]] || fail "try-repo: diagnostics for the good examples: $others"
apns=$(find "$project" -name '*.apns' | wc -l)
grep -qE "in $apns files: $((apns - 1)) accepted, 1 rejected" "$scratch/out" \
  || fail "try-repo: the hook did not check the $apns .apns files in one run"

# 2. README.md's four lines, under `repos:`, with the snapshot for their URL and revision; the
# files they name include the JSON payloads.
awk '/^<!-- pre-commit-config -->$/ { found = 1; next }
  found && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }' README.md >"$scratch/lines"
[[ $(wc -l <"$scratch/lines") == 4 ]] || fail "README.md's pre-commit lines are not four: $(cat "$scratch/lines")"
{
  echo "repos:"
  sed -e "s|repo: .*|repo: $notif|" -e "s|rev: .*|rev: $rev|" "$scratch/lines"
} >"$project/.pre-commit-config.yaml"
rm "$project/fixtures/push/broken.apns"
git_quiet -C "$project" add -A .
expect 0 "notif-parse --check" "README's lines, good payloads" run --all-files
cp examples/broken.apns examples/sns-bad-badge.json "$project/fixtures/push/"
git_quiet -C "$project" add .
expect 1 "$broken_apns" "README's lines, with broken payloads" run --all-files
grep -qE -- "$warned_sns" "$scratch/out" || fail "README's lines: no warning for sns-bad-badge.json"

# 3. The gate step of the GitHub workflow, as README.md shows it, with notif built in .notif/.
workflow=examples/github-workflow.yml
awk '/^<!-- file github-workflow.yml -->$/ { found = 1; next }
  found && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }' README.md >"$scratch/workflow"
cmp -s "$scratch/workflow" "$workflow" || fail "README.md does not show $workflow as it is"
step=$(sed -n 's/^ *- run: \(.*notif-parse --check.*\)$/\1/p' "$workflow")
[[ $step == *"--format=github"* ]] || fail "$workflow has no notif-parse --check --format=github step"
ln -s "$repo" "$project/.notif"
cp examples/broken.apns "$project/fixtures/push/"
status=0
(cd "$project" && bash -c "$step") >"$scratch/out" 2>"$scratch/err" || status=$?
annotation='^::error file=fixtures/push/broken\.apns,line=6,col=29,title=InvalidJSON::.'
if [[ $status != 1 ]] || ! grep -qE "$annotation" "$scratch/out"; then
  fail "the workflow's step exits $status and writes:"
  cat "$scratch/out" "$scratch/err" >&2
else
  say "the workflow's step: exit 1 and the annotation, as it should"
fi

if ((failures)); then
  say "$failures failed"
  exit 1
fi
say "the pre-commit hook and the workflow: ok"
