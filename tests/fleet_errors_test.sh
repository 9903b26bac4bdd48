#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `fputune fleet` on bad input: one line on standard error, nothing on standard output, exit 2, for an
# inventory that does not exist, ansible-playbook missing (naming the Debian package), a host entry without a
# name, a sweep file from another fputune schema (naming its host), a bad --forks or --budget, and a folder
# that cannot be written. No host is reached.
# Usage: tests/fleet_errors_test.sh path/to/fputune
set -euo pipefail
fputune=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v ansible-inventory >/dev/null || fail "ansible-inventory is missing: install Debian's ansible-core (.ci/install-deps does)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export ANSIBLE_LOCAL_TEMP=$dir/ansible-local
# expect WHAT PATTERN COMMAND...: exit 2, one line on stderr matching PATTERN, an empty stdout.
expect() {
    local what=$1 pattern=$2 rc=0
    shift 2
    "$@" >out.txt 2>err.txt || rc=$?
    echo "$what: exit $rc: $(cat err.txt)"
    ((rc == 2)) || fail "$what: exit $rc, expected 2"
    [[ $(wc -l <err.txt) -eq 1 ]] || fail "$what: not one line: $(cat err.txt)"
    [[ ! -s out.txt ]] || fail "$what: printed $(cat out.txt)"
    grep -qE -- "$pattern" err.txt || fail "$what: the line does not match '$pattern'"
}
expect "no inventory" "^fputune fleet: missing\.ini: no such inventory" "$fputune" fleet missing.ini
printf '[fleet]\nalpha ansible_connection=local\n' >one.ini
expect "no ansible" "ansible-playbook is not installed: install Debian's ansible-core" env PATH="$dir/empty" "$fputune" fleet one.ini
printf '[fleet]\nalpha ansible_connection=local\nansible_connection=local fputune_cpu=1\n' >nameless.ini
expect "nameless host" "nameless\.ini: a host entry without a name \('ansible_connection=local'\)" "$fputune" fleet nameless.ini -o out
# A sweep from another fputune (a newer schema), already in the folder: --resume merges without running
# the playbook, and the file is refused naming its host.
mkdir -p out
printf '{"schema": "fputune.sweep/2", "host": "alpha", "tool": {"name": "fputune", "version": "9.0.0"}}\n' >out/alpha.json
expect "other version" "out/alpha\.json \(host alpha\): schema 'fputune\.sweep/2' is newer than this fputune" \
    "$fputune" fleet one.ini -o out --resume
expect "bad forks" "--forks" "$fputune" fleet one.ini --forks 0
expect "bad budget" "--budget" "$fputune" fleet one.ini --budget 30parsecs
expect "unwritable folder" "^fputune fleet: -o /proc/fleet: cannot make or write" "$fputune" fleet one.ini -o /proc/fleet
echo "fleet errors test: ok"
