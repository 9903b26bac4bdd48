#!/bin/sh
# SPDX-License-Identifier: MIT
# `check` reads the constant expressions kernel headers write, and the verdict and exit code follow:
# (4 * 1024), SZ_4K and a KB macro of the same file are 4096; #ifdef/#else branches are alternatives, each
# judged; a constant it cannot evaluate is refused (exit 2), never passed.
# Usage: check_grammar_test.sh FPUTUNE SOURCE_DIR
set -u
bin=$1
src=$2
from=$src/data/reference/elliott-2022-4k-cycles.csv
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0

# expect NAME EXIT PATTERN... : `check` on $dir/NAME.h exits EXIT and prints each PATTERN (grep -E) on a line.
expect() {
    name=$1 code=$2
    shift 2
    "$bin" check "$dir/$name.h" --from "$from" --budget 30us >"$dir/$name.out" 2>&1
    got=$?
    if [ "$got" != "$code" ]; then
        echo "FAIL $name: exit $got, expected $code"; cat "$dir/$name.out"; fails=$((fails + 1)); return
    fi
    for pattern in "$@"; do
        if ! grep -Eq "$pattern" "$dir/$name.out"; then
            echo "FAIL $name: no line matches '$pattern'"; cat "$dir/$name.out"; fails=$((fails + 1)); return
        fi
    done
    echo "ok   $name"
}

printf '#define FPUTUNE_SHA256_FPU_BYTES (4 * 1024)\n#define FPUTUNE_CRC32C_FPU_BYTES 4096\n' >"$dir/product.h"
expect product 0 '^FPUTUNE_SHA256_FPU_BYTES +4096 .*PASS' 'all 2 constants within the budget'

printf '#define FPUTUNE_SHA256_FPU_BYTES SZ_4K\n' >"$dir/sizes.h"
expect sizes 0 '^FPUTUNE_SHA256_FPU_BYTES +4096 .*PASS'

printf '#define KB 1024UL\n#define FPUTUNE_SHA256_FPU_BYTES (4U * KB)\n' >"$dir/kb.h"
expect kb 0 '^FPUTUNE_SHA256_FPU_BYTES +4096 .*PASS'

printf '#ifdef CONFIG_SMALL\n#define FPUTUNE_SHA256_FPU_BYTES 4096\n#else\n#define FPUTUNE_SHA256_FPU_BYTES SZ_1M\n#endif\n' \
    >"$dir/ifdef.h"
expect ifdef 1 '^FPUTUNE_SHA256_FPU_BYTES +4096 .*PASS' '^FPUTUNE_SHA256_FPU_BYTES +1048576 .*OVER'

printf '#ifndef CONFIG_BIG\n#define FPUTUNE_SHA256_FPU_BYTES 4096\n#elif CONFIG_BIG > 1\n#define FPUTUNE_SHA256_FPU_BYTES 2048\n#else\n#define FPUTUNE_SHA256_FPU_BYTES 1024\n#endif\n' \
    >"$dir/alternatives.h"
expect alternatives 0 '^FPUTUNE_SHA256_FPU_BYTES +4096 .*PASS' '^FPUTUNE_SHA256_FPU_BYTES +2048 .*PASS' \
    '^FPUTUNE_SHA256_FPU_BYTES +1024 .*PASS' 'all 3 constants within the budget'

printf '#define FPUTUNE_SHA256_FPU_BYTES (4 * PAGE_SIZE)\n#define FPUTUNE_CRC32C_FPU_BYTES 4096\n' >"$dir/unknown.h"
expect unknown 2 'unknown.h:1: FPUTUNE_SHA256_FPU_BYTES .*cannot evaluate.*PAGE_SIZE'

# In one configuration a name is still defined once: two values outside alternatives are refused.
printf '#ifdef CONFIG_A\n#define FPUTUNE_SHA256_FPU_BYTES 4096\n#endif\n#define FPUTUNE_SHA256_FPU_BYTES 8192\n' >"$dir/twice.h"
expect twice 2 'twice.h:4: FPUTUNE_SHA256_FPU_BYTES is defined twice'

[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
