#!/bin/sh
# SPDX-License-Identifier: MIT
# The man page, made at build time from the program's own --help (help2man), one subsection per
# command with that command's --help, so the page cannot drift from the program.
# Usage: make-man.sh path/to/fputune OUTPUT.1
set -eu
fputune=$1
out=$2
include=$(mktemp)
trap 'rm -f "$include"' EXIT
commands=$("$fputune" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
{
    echo "[NAME]"
    echo "fputune \\- measure SIMD crypto kernels inside emulated kernel_fpu_begin()/end() sections and recommend chunk limits"
    echo "[COMMANDS]"
    for cmd in $commands; do
        echo ".SS \"fputune $cmd\""
        echo ".nf"
        # roff: a backslash is \e, a line starting with a dot or a quote is escaped with \&
        # (the exit status paragraph every --help ends with is said once, above)
        "$fputune" "$cmd" --help | sed -e '/^exit status:/,$d' -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
        echo ".fi"
    done
    echo "[ENVIRONMENT]"
    echo ".TP"
    echo ".B FPUTUNE_DISABLE"
    echo "CPU features to mask, as --disable (e.g. avx512f,sha)."
    echo ".TP"
    echo ".B FPUTUNE_LOCK_DIR"
    echo "where measuring runs take their per-CPU lock files (default /run/lock, else /tmp)."
    echo "[FILES]"
    echo ".TP"
    echo ".I share/fputune/reference/"
    echo "published measurements and upstream Linux limits (reference CSVs for --from)."
    echo ".TP"
    echo ".I share/fputune/schemas/"
    echo "JSON Schemas of fputune.sweep/1, fputune.model, fputune.recommendation/1, fputune.bench/1 and fputune.simulation/1."
}  >"$include"
help2man --no-info --no-discard-stderr --section=1 --source="fputune" \
    --name="measure SIMD crypto kernels inside emulated kernel_fpu_begin()/end() sections and recommend chunk limits" \
    --include="$include" --output="$out" "$fputune"
