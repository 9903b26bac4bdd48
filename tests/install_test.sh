#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The install test: `cmake --install` into a temporary prefix, then the man page (man -l), the installed
# binary's --help, the reference data and schemas, and the completion word list for `fputune sw<TAB>`.
# Usage: tests/install_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmake --install "$build" --prefix "$prefix" >/dev/null
bin=$prefix/bin/fputune
[[ -x $bin ]] || fail "no $bin"
"$bin" --help | grep -q '^  sweep ' || fail "the installed fputune --help lists no sweep"
rec=$("$bin" recommend --from "$prefix/share/fputune/reference/elliott-2022-4k-cycles.csv" --budget 30us)
grep -q 'sha256-avx2' <<<"$rec" || fail "recommend on the installed reference data"
for s in sweep model recommendation bench simulation compare verify doctor; do
    [[ -f $prefix/share/fputune/schemas/$s.schema.json ]] || fail "no schema $s"
done
page=$prefix/share/man/man1/fputune.1
[[ -f $page ]] || fail "no man page $page (is help2man installed?)"
text=$(MANWIDTH=100 man -l "$page" 2>/dev/null | col -bx | tr -s " ")  # justified: one space between words
for want in 'fputune sweep' 'fputune recommend' 'exit status' 'FPUTUNE_DISABLE' '--budget' 'DESCRIPTION' 'EXAMPLES' \
    'fputune sweep --resume sweep.json'; do
    grep -qF -- "$want" <<<"$text" || fail "the man page lacks '$want'"
done
completion=$prefix/share/bash-completion/completions/fputune
[[ -f $completion ]] || fail "no bash completion"
words=$(PATH=$prefix/bin:$PATH bash -c '
    source "$1"
    complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _fputune; echo "${COMPREPLY[*]}"; }
    echo "sw: $(complete_words fputune sw)"
    echo "kernel: $(complete_words fputune sweep -k sha256-)"
    echo "round: $(complete_words fputune recommend --round "")"
    echo "option: $(complete_words fputune recommend --min)"
    echo "resume: $(complete_words fputune recommend --res)"
    echo "sweep-resume: $(complete_words fputune sweep --res)"
    echo "algorithm: $(complete_words fputune list -k sha25)"
    echo "kind: $(complete_words fputune recommend -k ha)"' _ "$completion")
echo "$words"
grep -qx 'sw: sweep' <<<"$words" || fail "fputune sw<TAB> does not give 'sweep'"
grep -q '^kernel: .*sha256-generic' <<<"$words" || fail "no kernel names after -k"
grep -qx 'round: block kib pow2' <<<"$words" || fail "no values for --round"
grep -qx 'option: --min-freq' <<<"$words" || fail "no option names"
grep -qx 'resume: ' <<<"$words" || fail "recommend is offered --resume, which only sweep takes"
grep -qx 'sweep-resume: --resume' <<<"$words" || fail "sweep is not offered --resume"
grep -q '^algorithm: .*sha256 ' <<<"$words" || fail "no algorithm names after -k"
grep -qx 'kind: hash' <<<"$words" || fail "no kinds after -k"
echo "install test: ok ($prefix)"
