#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Real outputs of every file format validate against share/fputune/schemas/ (python3-jsonschema):
# the committed sweeps, fresh sweep/fit/recommend/bench/simulate/compare/doctor/verify outputs, and the fuzz seeds.
# Usage: schemas_test.py path/to/fputune SOURCE_DIR [--fresh-only]
# --fresh-only (the sanitizer build): not the committed sweeps of data/machines/, the same for every
# build and most of this test's time; the default build's run validates them.
import glob
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

fputune, source = os.path.realpath(sys.argv[1]), sys.argv[2]
fresh_only = "--fresh-only" in sys.argv[3:]
schemas_dir = os.path.join(source, "share", "fputune", "schemas")
validators = {}
for path in glob.glob(os.path.join(schemas_dir, "*.schema.json")):
    schema = json.load(open(path))
    jsonschema.Draft202012Validator.check_schema(schema)
    kinds = schema["properties"]["schema"]
    for kind in kinds.get("enum", [kinds.get("const")]):
        validators[kind] = jsonschema.Draft202012Validator(schema)

checked, failed = {}, 0


def validate(doc, what):
    global failed
    kind = doc.get("schema")
    if kind not in validators:
        print(f"FAIL {what}: no schema for {kind!r} in {schemas_dir}")
        failed += 1
        return
    errors = list(validators[kind].iter_errors(doc))
    for e in errors[:5]:
        print(f"FAIL {what}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    failed += bool(errors)
    checked[kind] = checked.get(kind, 0) + 1


def resolve(schema, root):
    while "$ref" in schema:
        node = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = {**node, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def described(doc, schema, root, at, out):
    """Fields of doc that the schema does not name, where it names the fields of an object: a real output must not
    carry a field its schema leaves undescribed (free-form objects, with no "properties", are not looked into)."""
    schema = resolve(schema, root)
    parts = [resolve(s, root) for s in schema.get("allOf", [])] + [schema]
    if isinstance(doc, dict):
        props = {}
        for s in parts:
            props.update(s.get("properties", {}))
        if not props:
            return
        for key, value in doc.items():
            if key not in props:
                out.add(f"{at}/{key}")
            else:
                described(value, props[key], root, f"{at}/{key}", out)
    elif isinstance(doc, list):
        for s in parts:
            if "items" in s:
                for i, value in enumerate(doc):
                    described(value, s["items"], root, f"{at}[]", out)


def fully_described(doc, what):
    """The fields of a real output of this build, each described by its schema."""
    global failed
    schema = validators[doc["schema"]].schema
    out = set()
    described(doc, schema, schema, "", out)
    for path in sorted(out)[:10]:
        print(f"FAIL {what}: {path} is not described in its schema")
    failed += bool(out)


def run(*args):
    return subprocess.run([fputune, *args], check=True, capture_output=True, text=True).stdout


with tempfile.TemporaryDirectory() as tmp:
    os.environ["FPUTUNE_LOCK_DIR"] = tmp
    zen5 = os.path.join(source, "data/machines/zen5-turin-vm-2026-11-30.json")
    elliott = os.path.join(source, "data/reference/elliott-2022-4k-cycles.csv")
    files = ([] if fresh_only else glob.glob(os.path.join(source, "data/machines/*.json"))) + glob.glob(os.path.join(source, "tests/fuzz/sweep/seeds/*.json")) \
        + glob.glob(os.path.join(source, "tests/fuzz/model/seeds/*.json"))
    for f in files:
        validate(json.load(open(f)), os.path.relpath(f, source))
    sweep = os.path.join(tmp, "sweep.json")
    run("sweep", "-k", "crc32c-pclmul", "-k", "crc32c-generic", "--sizes", "64,256,1KiB", "--time-budget", "2", "-o", sweep)
    validate(json.load(open(sweep)), "a fresh sweep")
    fully_described(json.load(open(sweep)), "a fresh sweep")
    model = os.path.join(tmp, "model.json")
    run("fit", zen5, "-o", model)
    validate(json.load(open(model)), "fit of the Zen 5 sweep")
    # A fresh sweep has rounds: its model carries the bound statistics per round, its limits an interval.
    fresh_model = os.path.join(tmp, "fresh-model.json")
    run("fit", sweep, "-o", fresh_model)
    fresh = json.load(open(fresh_model))
    validate(fresh, "fit of a fresh sweep")
    fully_described(fresh, "fit of a fresh sweep")
    if not all("rounds" in m and "bound_p99" in m for m in fresh["models"]):
        print("FAIL fit of a fresh sweep: a model without rounds or bound_p99")
        failed += 1
    rec = json.loads(run("recommend", "--from", sweep, "--budget", "30us", "--min-freq", "1GHz", "--json"))
    validate(rec, "recommend --json (a fresh sweep)")
    fully_described(rec, "recommend --json (a fresh sweep)")
    if rec["inputs"].get("emit") != "conservative" or not all(v["interval"]["rounds"] > 0 for v in rec["variants"]):
        print("FAIL recommend --json (a fresh sweep): no emit, or an interval without rounds")
        failed += 1
    validate(json.loads(run("recommend", "--from", zen5, "--budget", "30us", "--json")), "recommend --json (Zen 5)")
    validate(json.loads(run("recommend", "--from", elliott, model, "--budget", "20us", "--min-freq", "800MHz", "--round", "pow2",
                            "--quantile", "p90", "--json")), "recommend --json (merged)")
    validate(json.loads(run("recommend", "--from", elliott, "--budget", "100ns", "--json")), "recommend --json (nothing fits)")
    bench = json.loads(run("bench", "-k", "crc32c-*", "--sizes", "64,4KiB", "--time", "0.02", "--json"))
    validate(bench, "bench --json")
    fully_described(bench, "bench --json")
    # The bench of record (tools/bench_table.py, validated above): a bench document with its masked OpenSSL runs.
    for f in ([] if fresh_only else glob.glob(os.path.join(source, "data/machines/*.bench.json"))):
        fully_described(json.load(open(f)), os.path.relpath(f, source))
    validate(json.loads(run("simulate", "--workload", "bigbuf", "--from", zen5, "--budget", "30us", "--json")), "simulate --json")
    # compare: two sweeps (with --fail-on-regression, its regressions list) and two bench files.
    emr = os.path.join(source, "data/machines/emerald-rapids-vm-2026-11-30.json")
    pair = (sweep, fresh_model) if fresh_only else (zen5, emr)  # under the sanitizers, the small fresh files
    cmp = json.loads(run("compare", *pair, "--json", "--fail-on-regression", "1000"))
    validate(cmp, "compare --json (two sweeps)")
    fully_described(cmp, "compare --json (two sweeps)")
    bench_a, bench_b = os.path.join(tmp, "a.bench.json"), os.path.join(tmp, "b.bench.json")
    for path in (bench_a, bench_b):
        open(path, "w").write(run("bench", "-k", "crc32c-pclmul", "--sizes", "1KiB", "--time", "0.02", "--json"))
    cmp = json.loads(run("compare", bench_a, bench_b, "--json"))
    validate(cmp, "compare --json (two bench files)")
    fully_described(cmp, "compare --json (two bench files)")
    # doctor and verify measure this machine: short runs, whatever their verdict (exit 1 = unfit or OVER).
    doctor = subprocess.run([fputune, "doctor", "--json", "--seconds", "0.3"], capture_output=True, text=True)
    if doctor.returncode not in (0, 1):
        print(f"FAIL doctor --json exited {doctor.returncode}: {doctor.stderr.strip()[:300]}")
        failed += 1
    else:
        validate(json.loads(doctor.stdout), "doctor --json")
    header = os.path.join(tmp, "limits.h")
    run("recommend", "--from", sweep, "--budget", "30us", "--header", header)
    verify = subprocess.run([fputune, "verify", header, "--budget", "30us", "--cache", "hot", "--time-budget", "1", "--json"],
                            capture_output=True, text=True)
    if verify.returncode not in (0, 1):
        print(f"FAIL verify --json exited {verify.returncode}: {verify.stderr.strip()[:300]}")
        failed += 1
    else:
        validate(json.loads(verify.stdout), "verify --json")

print(f"{sum(checked.values())} documents validated: " + ", ".join(f"{k} x{v}" for k, v in sorted(checked.items())))
missing = {k for k in validators if k.rsplit("/", 1)[0] not in {c.rsplit("/", 1)[0] for c in checked}}  # one version of each
if missing:
    print(f"FAIL no real output checked for {sorted(missing)}")
sys.exit(1 if failed or missing else 0)
