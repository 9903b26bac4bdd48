#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The speed table of docs/results.md is what data/machines/bench/ gives (tools/bench_table.py), and the check notices a
# table that differs: a copy of docs/results.md with one cell changed fails it, and rewriting the copy mends it.
# Usage: tests/bench_table_test.py SOURCE_DIR
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

source = sys.argv[1]
tool = os.path.join(source, "tools/bench_table.py")


def check(root):
    return subprocess.run([sys.executable, tool, "--check", "--root", root], capture_output=True, text=True)


failed = 0
r = check(source)
if r.returncode != 0:
    print(r.stdout + r.stderr)
    print("FAIL docs/results.md's speed table differs from data/machines/bench/ (make docs-speed)")
    failed = 1
with tempfile.TemporaryDirectory() as tmp:
    shutil.copytree(os.path.join(source, "data/machines/bench"), os.path.join(tmp, "data/machines/bench"))
    text = open(os.path.join(source, "docs", "results.md")).read()
    begin = text.index("<!-- speed table:")
    cell = re.compile(r"\| (\d+\.\d\d) \|")
    m = cell.search(text, begin)
    if not m:
        print("FAIL no ratio cell in the speed table")
        sys.exit(1)
    changed = text[:m.start(1)] + ("9.99" if m.group(1) != "9.99" else "1.00") + text[m.end(1):]
    os.makedirs(os.path.join(tmp, "docs"))
    open(os.path.join(tmp, "docs", "results.md"), "w").write(changed)
    if check(tmp).returncode != 1:
        print("FAIL a changed cell passed the check")
        failed = 1
    subprocess.run([sys.executable, tool, "--root", tmp], check=True)
    if check(tmp).returncode != 0 or open(os.path.join(tmp, "docs", "results.md")).read() != text:
        print("FAIL rewriting the table did not give the committed one back")
        failed = 1
# A multi-source kernel's row is keyed on bytes per source, as single-stream rows on bytes per call: its 16 KiB cell is
# ours / peer at 16 KiB per source (a call of sources x 16 KiB), never at 16 KiB in all (4 KiB per source).
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(source, "tools"))
import bench_table  # noqa: E402

table = open(os.path.join(source, "docs", "results.md")).read()
col = bench_table.SIZES.index(16384)
for path, doc in bench_table.load(source):
    method = doc["context"].get("method", "")
    for variant, peer in (("raid6-avx2", "raid6-avx2-isal"), ("xor-avx", "xor-avx-isal")):
        calls = {(r["kernel"], r["bytes"]): r for r in doc["results"]}
        ours = [r for r in doc["results"] if r["kernel"] == variant]
        if not ours:
            continue
        n = bench_table.sources_of(ours[0], method)
        want = calls[(variant, n * 16384)]["tsc_cycles_per_byte"] / calls[(peer, n * 16384)]["tsc_cycles_per_byte"]
        # This file's table: from the line naming it to the next file's.
        name = "data/machines/bench/" + os.path.basename(path)
        start = table.index("`" + name + "`", table.index("<!-- speed table:"))
        end = table.find("`data/machines/bench/", start + len(name) + 2)
        section = table[start:end if end >= 0 else len(table)]
        row = re.search(r"^\| " + re.escape(variant) + r" \| " + re.escape(peer) + r" \|(.*)$", section, re.M)
        cells = row.group(1).split("|") if row else []
        if n < 2 or len(cells) <= col or cells[col].strip() != f"{want:.2f}":
            print(f"FAIL {path}: {variant}'s 16 KiB cell is {cells[col].strip() if len(cells) > col else 'missing'}, "
                  f"not ours / peer at 16 KiB per source over {n} sources ({want:.2f})")
            failed = 1
if "keyed on bytes per source" not in table:
    print("FAIL the speed table does not say that multi-source rows are keyed on bytes per source")
    failed = 1
# `--runs` at 16 KiB finds the multi-source kernels, benched at 16 KiB per source (bytes = sources x size).
runs = glob.glob(os.path.join(source, "data/machines/bench/*-16KiB-x*.runs.json"))
for f in runs:
    r = subprocess.run([sys.executable, tool, "--runs", f], capture_output=True, text=True)
    for variant in ("raid6-avx2", "xor-avx"):
        if not re.search(r"\| " + variant + r" \| \S+ \| \d+\.\d\d \|", r.stdout):
            print(f"FAIL --runs {os.path.basename(f)}: no ours / peer for {variant} at 16 KiB\n" + r.stdout + r.stderr)
            failed = 1
if not runs:
    print("FAIL no *-16KiB-x7.runs.json under data/machines/bench")
    failed = 1
print("speed table: " + ("FAILED" if failed else "matches the bench files; a changed cell is caught and mended; "
      "multi-source rows are per source; --runs pairs the multi-source kernels at the size given"))
sys.exit(failed)
