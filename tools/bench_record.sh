#!/bin/bash
# SPDX-License-Identifier: MIT
# The bench runs behind a bench file of record (tools/bench_table.py): REPEATS times, one `fputune bench
# --json` of every variant and peer, then one masked run per line of `tools/bench_table.py --plan`
# (OpenSSL_ia32cap set), each pinned to CPU 1, into OUTDIR as main.N.json and maskedM.N.json.
# Run it while nothing else measures on the machine (e.g. under one flock shared by every measuring run); then
#   tools/bench_table.py --assemble data/machines/bench/NAME.bench.json OUTDIR/main.1.json OUTDIR/masked*.1.json
#   tools/bench_table.py --runs OUTDIR      (ours / peer at 16 KiB, median over the repeats)
# Usage: tools/bench_record.sh OUTDIR FPUTUNE SIZES REPEATS
set -eu
[ $# -eq 4 ] || { echo "usage: $0 OUTDIR FPUTUNE SIZES REPEATS" >&2; exit 2; }
out=$1 fputune=$2 sizes=$3 reps=$4
mkdir -p "$out"
plan=$(python3 "$(dirname "$0")/bench_table.py" --plan)
for i in $(seq 1 "$reps"); do
    env -u OPENSSL_ia32cap "$fputune" bench --cpu 1 --sizes "$sizes" --json >"$out/main.$i.json"
    n=0
    while IFS=$'\t' read -r mask args; do
        n=$((n + 1))
        # shellcheck disable=SC2086 # args is a list of -k options
        OPENSSL_ia32cap="$mask" "$fputune" bench --cpu 1 --sizes "$sizes" --json $args >"$out/masked$n.$i.json"
    done <<<"$plan"
done
