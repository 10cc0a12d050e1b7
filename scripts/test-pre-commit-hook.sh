#!/usr/bin/env bash
# The gate as a project adopts it, on the payload examples copied into a scratch project's
# fixtures/push/: the hook of .pre-commit-hooks.yaml through `pre-commit try-repo`, the four
# lines README.md shows, through `pre-commit run`, and the build and gate steps of the GitHub
# workflow it shows (examples/github-workflow.yml, the same text). Each passes on the good
# payloads and fails on examples/broken.apns with its error, and reports sns-bad-badge.json's
# warning (iOS ignores a string badge and still shows the alert, so it does not fail the
# commit). The hook's first run says, once, that it is building notif-parse. The commit the
# README's lines and the workflow pin is one of this repository's, and the workflow's Swift
# image is the version of the toolchain this runs with. Part of `make check`.
#
# usage: scripts/test-pre-commit-hook.sh
#
# The hooks come from a snapshot of the working tree, committed in a scratch clone (new files
# too, ignored ones not). The hook (scripts/pre-commit-hook.sh) builds notif-parse in
# pre-commit's checkout the first time, twice here: try-repo checks out into a store of its own
# that it throws away, so it runs once, on every example, the broken one included; `pre-commit
# run` checks out once into PRE_COMMIT_HOME (a scratch folder here) for its runs. The workflow's
# steps build the commit it pins, a third build: the whole takes several minutes. pre-commit runs
# without a terminal (setsid), so that the hook's word that it is building goes to its output.
# Needs pre-commit (`make check-deps`), git and setsid (util-linux).
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
  (cd "$project" && setsid -w pre-commit "$@" </dev/null) >"$scratch/out" 2>&1 || got=$?
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
say "pre-commit try-repo REPO notif-parse-check (the hook builds notif-parse: a few minutes)"
cp examples/broken.apns "$project/fixtures/push/"
git_quiet -C "$project" add .
expect 1 "$broken_apns" "try-repo, broken.apns among the examples" \
  try-repo "$notif" notif-parse-check --ref "$rev" --all-files
others=$(grep -E ': (error|warning): ' "$scratch/out" | grep -vE -- "$broken_apns" || true)
[[ -z $others ]] || fail "try-repo: diagnostics for the good examples: $others"
building='^notif-parse-check: building notif-parse for this revision of notif, once '
grep -qE "$building" "$scratch/out" || fail "try-repo: the hook's first run does not say it builds"
apns=$(find "$project" -name '*.apns' | wc -l)
grep -qE "in $apns files: $((apns - 1)) accepted, 1 rejected" "$scratch/out" \
  || fail "try-repo: the hook did not check the $apns .apns files in one run"

# 2. README.md's four lines, under `repos:`, with the snapshot for their URL and revision; the
# files they name include the JSON payloads.
awk '/^<!-- pre-commit-config -->$/ { found = 1; next }
  found && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }' README.md >"$scratch/lines"
[[ $(wc -l <"$scratch/lines") == 4 ]] || fail "README.md's pre-commit lines are not four: $(cat "$scratch/lines")"
pinned_rev=$(sed -n 's/^ *rev: *//p' "$scratch/lines")
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
! grep -qE "$building" "$scratch/out" || fail "README's lines: the hook builds again on its second run"

# 3. The GitHub workflow, as README.md shows it: its image is the Swift this runs with, the
# commit it pins is one of this repository's (and so is the README's lines'), and its steps,
# run here with that commit of notif in .notif/, build notif-parse and annotate the broken
# payload. (The steps run on this machine's toolchain, not in the image: no container here.)
workflow=examples/github-workflow.yml
awk '/^<!-- file github-workflow.yml -->$/ { found = 1; next }
  found && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }' README.md >"$scratch/workflow"
cmp -s "$scratch/workflow" "$workflow" || fail "README.md does not show $workflow as it is"
image=$(sed -n 's/^ *container: *//p' "$workflow")
image_swift=$(sed -n 's/^swift:\([0-9][0-9.]*\)-.*/\1/p' <<<"$image")
swift=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
if [[ -z $image_swift || ($swift != "$image_swift" && $swift != "$image_swift".*) ]]; then
  fail "$workflow names the image '$image', but the toolchain here is Swift $swift"
fi
ref=$(sed -n 's/.*repository: OWNER\/notif, ref: \([^,}]*\),.*/\1/p' "$workflow")
for commit in "$ref" "$pinned_rev"; do
  git -C "$repo" cat-file -e "$commit^{commit}" 2>/dev/null \
    || fail "'$commit', which the README pins, is no commit of this repository"
done
mapfile -t steps < <(sed -n 's/^ *- run: //p' "$workflow")
if [[ ${#steps[@]} != 3 || ${steps[1]} != *"notif-parse --check --format=sarif"* \
  || ${steps[2]} != *"notif-parse --check --format=github"* ]]; then
  fail "$workflow does not have three run steps: the build, notif-parse --check --format=sarif," \
    "then notif-parse --check --format=github"
elif git -C "$repo" cat-file -e "$ref^{commit}" 2>/dev/null; then
  git_quiet clone -q "$repo" "$project/.notif"
  git_quiet -C "$project/.notif" checkout -q --detach "$ref"
  say "the workflow's build step, at ${ref:0:12} (a few minutes): ${steps[0]}"
  if ! (cd "$project" && bash -e -c "${steps[0]}") >"$scratch/build" 2>&1; then
    fail "the workflow's build step fails:"
    tail -n 30 "$scratch/build" >&2
  fi
  cp examples/broken.apns "$project/fixtures/push/"
  # The SARIF step: the log is kept though a payload is rejected, and it validates and reads
  # back (scripts/check-sarif.py) with the broken payload's result in it.
  status=0
  (cd "$project" && bash -e -c "${steps[1]}") >"$scratch/out" 2>"$scratch/err" || status=$?
  if [[ $status != 0 ]]; then
    fail "the workflow's SARIF step exits $status and writes:"
    cat "$scratch/out" "$scratch/err" >&2
  elif ! scripts/check-sarif.py "$project/notif.sarif" >"$scratch/sarif" 2>&1 \
    || ! grep -q '"line": 6, .*"rule": "json-syntax", "tool": "notif-parse", "uri": "fixtures/push/broken.apns"' \
      "$scratch/sarif"; then
    fail "the workflow's SARIF log does not validate or lacks broken.apns's result:"
    cat "$scratch/sarif" >&2
  else
    say "the workflow's SARIF step: a valid log, with broken.apns's result"
  fi
  status=0
  (cd "$project" && bash -e -c "${steps[2]}") >"$scratch/out" 2>"$scratch/err" || status=$?
  annotation='^::error file=fixtures/push/broken\.apns,line=6,col=29,title=InvalidJSON::.'
  if [[ $status != 1 ]] || ! grep -qE "$annotation" "$scratch/out"; then
    fail "the workflow's check step exits $status and writes:"
    cat "$scratch/out" "$scratch/err" >&2
  else
    say "the workflow's steps: notif-parse built, then exit 1 and the annotation, as it should"
  fi
fi

if ((failures)); then
  say "$failures failed"
  exit 1
fi
say "the pre-commit hook and the workflow: ok"
