#!/bin/sh
# SPDX-License-Identifier: MIT
# The man page fits an 80-column terminal: rendered as `man -l` renders it (groff -man, plain ASCII, no
# overstriking), no line is longer than 80 columns. Usage: man_width_test.sh fputune.1
set -eu
page=$1
if ! command -v groff >/dev/null 2>&1; then
    echo "skipped: groff is not installed (Debian: apt-get install groff-base), so the man page cannot be rendered"
    exit 77
fi
[ -f "$page" ] || { echo "FAIL: no man page $page"; exit 1; }
text=$(groff -man -Tascii -P-c -P-b -P-o -P-u "$page" 2>/dev/null)
[ -n "$text" ] || { echo "FAIL: groff rendered nothing from $page"; exit 1; }
long=$(printf '%s\n' "$text" | awk 'length > 80 { printf "line %d, %d columns: %s\n", NR, length, $0 }')
if [ -n "$long" ]; then
    echo "FAIL: $(printf '%s\n' "$long" | wc -l) lines of $page are longer than 80 columns:"
    printf '%s\n' "$long" | head -20
    exit 1
fi
echo "ok: every line of $page fits 80 columns ($(printf '%s\n' "$text" | wc -l) lines)"
