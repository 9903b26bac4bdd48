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
# A command's --help as roff that the formatter fills to the reader's width: the usage line and prose as
# paragraphs, each option a tagged paragraph (.TP) with its name in bold and its help (the continuation lines
# joined). Every text line starts with \& so that a leading dot or quote is text.
help_to_roff() {
    awk '
        function text(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); if (s != "") print "\\&" s }
        /^$/ { in_opt = 0; in_text = 0; next }
        /^usage: / { gsub(/-/, "\\-"); print ".PP"; text($0); in_opt = 0; in_text = 1; next }
        /^[a-z][a-z -]*options:$/ { print ".PP"; print "\\fB" $0 "\\fR"; in_opt = 0; in_text = 0; next }
        /^  -/ {
            line = substr($0, 3)
            i = index(line, "  ")
            name = i ? substr(line, 1, i - 1) : line
            gsub(/-/, "\\-", name)
            print ".TP"
            print "\\fB" name "\\fR"
            if (i) text(substr(line, i))
            in_opt = 1; in_text = 0; next
        }
        in_opt && /^   / { text($0); next }
        { if (!in_text) print ".PP"; in_opt = 0; in_text = 1; text($0) }
    '
}
commands=$("$fputune" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
{
    echo "[NAME]"
    echo "fputune \\- measure SIMD crypto kernels inside emulated kernel_fpu_begin()/end() sections and recommend chunk limits"
    cat <<'EOF'
[DESCRIPTION]
.PP
Linux runs SIMD crypto in the kernel between kernel_fpu_begin() and kernel_fpu_end(), with preemption off.
fputune measures, on this CPU, how many bytes one such section may process before it exceeds a time budget
at a minimum CPU frequency (the chunk limit, *_FPU_BYTES), and from what input length the SIMD path pays at
all (the SIMD threshold). It runs every x86 variant of the kernel's hashes, MACs, CRCs, ciphers and RAID6/xor
code inside an emulation of the kernel's glue loop, fits a cost line per variant, and recommends constants as a
table, JSON and a C header.
.PP
The main job is three commands: \fBfputune sweep\fR measures this machine into a sweep file,
\fBfputune recommend\fR turns one or more sweep files into limits for a budget, and \fBfputune verify\fR
measures the constants of a header again. \fB\-k\fR means the same in every command: a glob over kernel
names, an algorithm (all its variants) or a kind (hash, cipher, raid, all).
[EXAMPLES]
.TP
.B fputune sweep -o sweep.json
measure every kernel this CPU runs (about 2 minutes); \fB\-\-quick\fR takes about 15 seconds.
.TP
.B fputune recommend --from sweep.json --budget 30us --min-freq 1GHz --header limits.h
the limits for a 30 us budget at 1 GHz: per algorithm first (the constants to paste), then per variant;
limits.h holds them as #defines.
.TP
.B fputune recommend --from a.json --from b.json --budget 30us --per-algorithm selected
merge the sweeps of two machines; each algorithm's constant is bound by the variant the kernel runs on them.
.TP
.B fputune check limits.h --budget 30us --min-freq 1GHz --upstream
does each constant of a header, and each of Linux's own sections, meet the budget? Exit 1 if not.
.TP
.B fputune verify limits.h --budget 30us --min-freq 1GHz
measure each constant of the header on this machine: PASS, MARGINAL (over the budget by the estimate
alone), OVER (beyond the samples\(aq noise; exit 1) or CONTENDED (over, but only on rounds a neighbour
shared).
.TP
.B fputune compare before.json after.json --fail-on-regression 5
did a patch change a variant's speed or limit? Exit 1 on a significant regression over 5 %.
.TP
.B fputune sweep --resume sweep.json -o sweep.json
continue an interrupted sweep with the options its file records.
.TP
.B fputune list -k sha256
the sha256 variants, which of them this CPU runs and why not.
EOF
    echo "[COMMANDS]"
    echo ".nh"
    for cmd in $commands; do
        echo ".SS \"fputune $cmd\""
        # roff: a backslash is \e (the exit status paragraph every --help ends with is said once, above)
        "$fputune" "$cmd" --help | sed -e '/^exit status:/,$d' -e 's/\\/\\e/g' | help_to_roff
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
    echo "JSON Schemas of every file and JSON output: fputune.sweep/1, fputune.model, fputune.recommendation/1, fputune.bench/1, fputune.simulation/1, fputune.compare/1, fputune.verify/1, fputune.doctor/1."
}  >"$include"
help2man --no-info --no-discard-stderr --section=1 --source="fputune" \
    --name="measure SIMD crypto kernels inside emulated kernel_fpu_begin()/end() sections and recommend chunk limits" \
    --include="$include" --output="$out" "$fputune"
