#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job end to end, short: sweep --quick | fit | recommend --header | check, in a scratch folder.
# Usage: tests/pipeline.sh path/to/fputune   (ctest runs it; under the sanitizers in `make sanitize`).
set -euo pipefail
fputune=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export FPUTUNE_LOCK_DIR=$dir  # its own CPU lock: a developer's measurement elsewhere is not disturbed by ours
"$fputune" sweep --quick -k 'sha256-*' -k 'crc32c-*' -k 'poly1305-*' --time-budget 8 -o sweep.json --csv sweep.csv
"$fputune" fit sweep.json -o model.json >/dev/null
"$fputune" recommend --from sweep.json model.json --budget 30us --min-freq 1GHz --header limits.h --json >recommendation.json
"$fputune" check limits.h --from sweep.json --budget 30us --min-freq 1GHz
python3 -c 'import json, sys; [json.load(open(f)) for f in sys.argv[1:]]' sweep.json model.json recommendation.json
grep -q '#define FPUTUNE_SHA256_FPU_BYTES' limits.h
