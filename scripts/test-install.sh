#!/usr/bin/env bash
# `make install` as a user without root, into that user's ~/.local, the way the README says:
# every file lands under PREFIX (fish's completions too), the binaries are stripped and run, the
# man pages render, the crontab lines of README.md and the man pages run under cron's PATH, and
# `make uninstall` removes every file it installed. Part of `make check`.
#
# usage: scripts/test-install.sh
#
# Installs the release binaries already built (`make release`; `make install-test` builds them
# first): the user runs `make -o release install`, which does not build, so .build needs no
# write access. As root it makes a user for the test (notif-install-test, removed after) and
# runs as that user with runuser(1); as anyone else it runs as that user, with HOME in a scratch
# folder. Needs man(1) (man-db), readelf (binutils), fish, and useradd as root: `make check-deps`.
set -euo pipefail
export LC_ALL=C

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

say() { printf 'test-install: %s\n' "$*" >&2; }
failures=0
fail() {
  say "FAIL: $*"
  failures=$((failures + 1))
}
for tool in man readelf fish; do
  command -v "$tool" >/dev/null || { say "$tool is required: run make check-deps"; exit 2; }
done

mapfile -t tools < <(cd Sources && ls -d notif-*)
for tool in "${tools[@]}"; do
  [[ -x .build/release/$tool ]] || { say ".build/release/$tool is missing: run make release"; exit 2; }
done

scratch=$(mktemp -d)
chmod 755 "$scratch"
user=
cleanup() {
  if [[ -n $user ]]; then userdel "$user" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT

home=$scratch/home
mkdir "$home"
if [[ $(id -u) == 0 ]]; then
  user=notif-install-test
  if ! id "$user" >/dev/null 2>&1; then
    useradd --no-create-home --home-dir "$home" --shell /bin/sh "$user"
  fi
  chown "$user" "$home"
  as_user() { runuser -u "$user" -- env -i PATH="$PATH" HOME="$home" LC_ALL=C "$@"; }
  as_user test -r Makefile -a -x .build/release/notif-parse \
    || { say "user $user cannot read $repo: clone it where others can read"; exit 2; }
else
  as_user() { env -i PATH="$PATH" HOME="$home" LC_ALL=C "$@"; }
fi
# The README's command, as the user: PREFIX is that user's ~/.local.
prefix=$home/.local
say "make install PREFIX=$prefix, as $(as_user id -un)"
if ! as_user make -s -C "$repo" -o release install PREFIX="$prefix" >"$scratch/install.log" 2>&1; then
  cat "$scratch/install.log" >&2
  fail "make install failed"
  exit 1
fi

# What must be installed, and nothing else.
expected=$scratch/expected
{
  for tool in "${tools[@]}"; do
    echo "bin/$tool"
    echo "share/man/man1/$tool.1"
    echo "share/bash-completion/completions/$tool"
    echo "share/zsh/site-functions/_$tool"
    echo "share/fish/vendor_completions.d/$tool.fish"
  done
  for page in man/*.5; do echo "share/man/man5/${page#man/}"; done
  for page in man/*.7; do echo "share/man/man7/${page#man/}"; done
} | sort >"$expected"
(cd "$prefix" && find . -type f -o -type l) | sed 's|^\./||' | sort >"$scratch/installed"
if ! diff -u "$expected" "$scratch/installed" >"$scratch/diff"; then
  fail "the files under PREFIX are not the expected ones (- expected, + installed):"
  cat "$scratch/diff" >&2
fi
# Every place `make install` writes to is under PREFIX: the absolute paths install(1) is given
# (what it copies is named relative to the repository).
outside=$(make -s -n -o release install PREFIX="$prefix" | tr ';' '\n' \
  | awk '$1 == "install" { for (i = 2; i <= NF; i++) if ($i ~ /^\//) print $i }' \
  | grep -v "^$prefix/" || true)
[[ -z $outside ]] || fail "make install writes outside PREFIX: $outside"
say "$(wc -l <"$scratch/installed") files under PREFIX, all expected"

for tool in "${tools[@]}"; do
  binary=$prefix/bin/$tool
  [[ -f $binary ]] || continue
  if readelf -S "$binary" | grep -qE '\.(symtab|debug_info)\b'; then
    fail "$tool is not stripped"
  fi
  version=$(as_user "$binary" --version 2>&1) || fail "$tool --version exits $?: $version"
  [[ $version == "$tool "* ]] || fail "$tool --version prints '$version'"
done
size() { du -ch "$@" | tail -1 | cut -f1; }
say "binaries stripped and running: $(size "${tools[@]/#/$prefix/bin/}") for ${#tools[@]}," \
  "$(size "${tools[@]/#/.build/release/}") as built"

# The pages render, from the file and as the user's man finds them under PREFIX.
for page in "$prefix"/share/man/man*/*; do
  name=$(basename "$page")
  rendered=$(as_user env MANWIDTH=80 man -l "$page" 2>&1) || fail "man -l $name exits $?"
  grep -q '^NAME' <<<"$rendered" || fail "man -l $name has no NAME section"
done
# man-db looks for pages beside each bin folder on PATH.
found=$(as_user env PATH="$prefix/bin:$PATH" man -w notif-parse 2>&1) || true
[[ $found == "$prefix/share/man/man1/notif-parse.1" ]] \
  || fail "man -w notif-parse, PREFIX/bin on PATH, finds '$found'"
say "man pages render, and man finds them with PREFIX/bin on PATH"

# fish finds the completions under PREFIX by itself (its user data folder, ~/.local/share/fish).
offered=$(as_user env PATH="$prefix/bin:$PATH" fish -c 'complete -C"notif-parse --vers"' 2>&1) \
  || true
[[ $offered == "--version"* ]] || fail "fish does not complete notif-parse --vers: '$offered'"
say "fish completes from PREFIX"

# The crontab lines of README.md and the man pages, as cron(8) runs them for this user: by
# /bin/sh, with cron's PATH (/usr/bin:/bin), in the data folder they name, a copy of examples/
# (the clock at the examples' "now", 2026-11-22T09:00:00Z).
as_user mkdir -p "$home/.local/share"
as_user cp -R "$repo/examples" "$home/.local/share/notif"
mapfile -t jobs < <(
  {
    awk '/^```crontab$/ { inside = 1; next } /^```/ { inside = 0 } inside' README.md
    grep -h '^[0-9*][0-9*/,-]* [0-9*/,-]* [0-9*/,-]* [0-9*/,-]* [0-9*/,-]* ' man/*.1 | sed 's/\\-/-/g'
  } | sed 's/^[^ ]* [^ ]* [^ ]* [^ ]* [^ ]* //')
((${#jobs[@]} >= 4)) || fail "found ${#jobs[@]} crontab lines in README.md and man/, not 4 or more"
for job in "${jobs[@]}"; do
  status=0
  out=$(as_user env PATH=/usr/bin:/bin SHELL=/bin/sh SOURCE_DATE_EPOCH=1795338000 \
    /bin/sh -c "$job" 2>&1) || status=$?
  if ((status)); then
    fail "the crontab line exits $status under cron's PATH: $job"
    printf '%s\n' "$out" >&2
  fi
done
say "${#jobs[@]} crontab lines run under cron's PATH"
as_user rm -rf "$home/.local/share/notif" # under PREFIX, where make uninstall must leave nothing

if ! as_user make -s -C "$repo" -o release uninstall PREFIX="$prefix" >"$scratch/uninstall.log" 2>&1; then
  cat "$scratch/uninstall.log" >&2
  fail "make uninstall failed"
fi
left=$(cd "$prefix" && find . -type f -o -type l)
[[ -z $left ]] || fail "make uninstall left: $left"

if ((failures)); then
  say "$failures failed"
  exit 1
fi
say "make install and uninstall as a user: ok"
