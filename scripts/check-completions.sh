#!/usr/bin/env bash
# Checks the shell completions of every tool that has one (completions/bash/*):
# syntax (bash -n, shellcheck, zsh -n, fish --no-execute), then that bash and
# fish offer every long option listed in the tool's man page, and that the zsh
# file names each of them. Run from anywhere; exits 1 on any failure.
set -euo pipefail

cd "$(dirname "$0")/.."

failures=0
fail() {
  printf 'check-completions: %s\n' "$*" >&2
  failures=$((failures + 1))
}

for tool in zsh fish shellcheck; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    printf 'check-completions: %s is not installed\n' "$tool" >&2
    exit 2
  fi
done

# The long options of a tool: every `Fl -name` on an `.It` line of the
# DESCRIPTION section of its man page, printed as `--name`, one a line.
long_options() {
  awk '
    /^\.Sh / { in_description = ($2 == "DESCRIPTION"); next }
    in_description && /^\.It / {
      for (i = 2; i < NF; i++)
        if ($i == "Fl" && $(i + 1) ~ /^-[[:alnum:]]/) print "-" $(i + 1)
    }
  ' "$1" | sort -u
}

# Completions that bash offers for `TOOL --`, one a line.
bash_offers() {
  bash --norc --noprofile -c '
    file=$1 tool=$2
    source "$file" || exit 1
    spec=$(complete -p "$tool") || { echo "no complete spec for $tool" >&2; exit 1; }
    case $spec in
      *" -F "*) fn=${spec#* -F }; fn=${fn%% *} ;;
      *) echo "complete spec for $tool has no -F function: $spec" >&2; exit 1 ;;
    esac
    COMP_WORDS=("$tool" --) COMP_CWORD=1
    COMP_LINE="$tool --" COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    "$fn" "$tool" -- "$tool" || exit 1
    if ((${#COMPREPLY[@]})); then printf "%s\n" "${COMPREPLY[@]}"; fi
  ' check-completions "$1" "$2"
}

# Completions that fish offers for `TOOL --`, one a line, without descriptions.
fish_offers() {
  # The single quotes are for fish, which expands $argv itself.
  # shellcheck disable=SC2016
  fish --no-config -c 'source $argv[1]; or exit 1; complete -C"$argv[2] --"' "$1" "$2" |
    cut -f 1
}

shopt -s nullglob
bash_files=(completions/bash/*)
if ((${#bash_files[@]} == 0)); then
  fail "no completion files in completions/bash"
fi

checked=0
for bash_file in "${bash_files[@]}"; do
  tool=${bash_file##*/}
  zsh_file=completions/zsh/_$tool
  fish_file=completions/fish/$tool.fish
  man_page=man/$tool.1

  bash -n "$bash_file" || fail "$bash_file: bash -n failed"
  shellcheck -s bash "$bash_file" || fail "$bash_file: shellcheck failed"
  if [[ -f $zsh_file ]]; then
    zsh -n "$zsh_file" || fail "$zsh_file: zsh -n failed"
  else
    fail "$zsh_file: missing (every tool needs bash, zsh and fish completions)"
  fi
  if [[ -f $fish_file ]]; then
    fish --no-execute "$fish_file" || fail "$fish_file: fish --no-execute failed"
  else
    fail "$fish_file: missing (every tool needs bash, zsh and fish completions)"
  fi
  if [[ ! -f $man_page ]]; then
    fail "$man_page: missing, so the options of $tool are unknown"
    continue
  fi

  options=$(long_options "$man_page")
  if [[ -z $options ]]; then
    fail "$man_page: no long options found (.It lines with Fl -name in DESCRIPTION)"
    continue
  fi

  if ! bash_list=$(bash_offers "$bash_file" "$tool"); then
    fail "$bash_file: calling the completion function failed"
    bash_list=
  fi
  fish_list=
  if [[ -f $fish_file ]] && ! fish_list=$(fish_offers "$fish_file" "$tool"); then
    fail "$fish_file: complete -C failed"
    fish_list=
  fi

  while IFS= read -r option; do
    grep -qxF -- "$option" <<<"$bash_list" ||
      fail "$bash_file: '$tool --<TAB>' does not offer '$option' (listed in $man_page)"
    if [[ -f $fish_file ]]; then
      grep -qxF -- "$option" <<<"$fish_list" ||
        fail "$fish_file: '$tool --<TAB>' does not offer '$option' (listed in $man_page)"
    fi
    if [[ -f $zsh_file ]]; then
      grep -qE -- "(^|[^-[:alnum:]])$option([^-[:alnum:]]|\$)" "$zsh_file" ||
        fail "$zsh_file: does not mention '$option' (listed in $man_page)"
    fi
  done <<<"$options"

  checked=$((checked + 1))
done

if ((failures > 0)); then
  printf 'check-completions: %d failure(s)\n' "$failures" >&2
  exit 1
fi
printf 'check-completions: %d tool(s) ok\n' "$checked"
