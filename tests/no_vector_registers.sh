#!/bin/sh
# SPDX-License-Identifier: MIT
# The no-FPU kernels (every *_generic and *_scalar file, and crc32c-sse42's and -sse42-3stream's crc32 instruction) are built
# with -mgeneral-regs-only, as Linux builds its no-FPU code: fails when an xmm, ymm or zmm register
# appears in one of their objects (auto-vectorised code would make a threshold compare SIMD with SIMD).
# Usage: tests/no_vector_registers.sh OBJECT... (every kernel object; lists separated by ';' are split)
set -eu
objs=$(printf '%s\n' "$@" | tr ';' '\n' | grep -E '(_generic|_scalar|/crc32c_sse42(_3stream)?)\.cpp\.o$' | sort)
n=$(printf '%s\n' "$objs" | grep -c . || true)
# sha1 sha2 sm3 crc crc32c-sse42 crc32c-sse42-3stream poly1305 gf128 nh blake2s aes chacha20 raid: a rename must not pass unseen.
if [ "$n" -lt 13 ]; then
    echo "expected at least 13 no-FPU objects among the kernels' objects, found $n:"
    printf '%s\n' "$objs"
    exit 1
fi
bad=0
for o in $objs; do
    c=$(objdump -d --no-show-raw-insn "$o" | grep -cE '%[xyz]mm[0-9]' || true)
    if [ "$c" -ne 0 ]; then
        echo "$o: $c instructions use vector registers, e.g.:"
        objdump -d --no-show-raw-insn "$o" | grep -E '%[xyz]mm[0-9]' | head -3
        bad=1
    fi
done
[ "$bad" -eq 0 ] && echo "$n no-FPU objects, none uses a vector register"
exit "$bad"
