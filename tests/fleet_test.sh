#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fleet run end to end on this machine, no network beyond loopback: the package built (cpack -G DEB),
# an inventory of three hosts: two reached with ansible_connection=local, each installing the package by
# dpkg-deb -x into its own root (alpha the --package, beta the inventory's, a path relative to the folder the
# fleet runs in) and sweeping with its own --cpu and -k, and one on a loopback port where
# nothing listens (unreachable). Expected: two sweep files named after their hosts, the third host listed as
# failed with its reason, a merged header naming the binding host of each constant and listing both inputs,
# a report with both, exit 3 (one host failed); then --resume runs only the failed host again.
# Usage: tests/fleet_test.sh path/to/fputune BUILD_DIR
set -euo pipefail
fputune=$(realpath "$1")
build=$(realpath "$2")
fail() { echo "FAIL: $*" >&2; exit 1; }
for need in ansible-playbook:ansible-core cpack:cmake dpkg-deb:dpkg ssh:openssh-client python3:python3; do
    command -v "${need%%:*}" >/dev/null || fail "${need%%:*} is missing: install Debian's ${need#*:} (.ci/install-deps does)"
done
mapfile -t cpus < <(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0))[:2], sep="\n")')
((${#cpus[@]} >= 1)) || fail "no CPU to sweep on"
cpu_b=${cpus[1]:-${cpus[0]}}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export FPUTUNE_LOCK_DIR=$dir  # its own CPU locks: a measurement elsewhere is not disturbed by ours
export ANSIBLE_LOCAL_TEMP=$dir/ansible-local ANSIBLE_REMOTE_TEMP=$dir/ansible-remote ANSIBLE_NOCOLOR=1
(cd "$build" && cpack -G DEB -B "$dir/pkg" >"$dir/cpack.log" 2>&1) || { cat "$dir/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$dir"/pkg/fputune_*_amd64.deb)
# A loopback port where nothing listens: bound, then closed.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >inventory.ini <<INI
[fleet]
alpha ansible_connection=local fputune_install=extract fputune_workdir=$dir/alpha fputune_cpu=${cpus[0]} fputune_kernels=sha256-avx2
beta  ansible_connection=local fputune_install=extract fputune_workdir=$dir/beta fputune_cpu=$cpu_b fputune_kernels=crc32c-pclmul,sha256-avx2 fputune_package=pkg/${deb##*/}
gone  ansible_host=127.0.0.1 ansible_port=$port ansible_connection=ssh ansible_ssh_common_args='-o ConnectTimeout=5 -o BatchMode=yes'

[fleet:vars]
ansible_python_interpreter=$(command -v python3)
fputune_time_budget=4
fputune_doctor_seconds=0.5
INI
start=$(date +%s)
rc=0
"$fputune" fleet inventory.ini --package "$deb" --budget 30us --min-freq 1GHz -o out -- --quick --cache hot \
    --no-thresholds >stdout.txt 2>stderr.txt || rc=$?
echo "fleet: exit $rc in $(($(date +%s) - start)) s"
cat stdout.txt
((rc == 3)) || { tail -n 40 stderr.txt; fail "fleet exited with $rc, expected 3 (one host failed, the rest merged)"; }
for f in out/alpha.json out/beta.json out/alpha.doctor.json out/beta.doctor.json out/limits.h out/report.html out/gone.failed; do
    [[ -s $f ]] || fail "no $f"
done
[[ ! -e out/gone.json ]] || fail "a sweep for the unreachable host"
grep -q '^  gone  *FAILED  unreachable' stdout.txt || fail "the unreachable host is not listed as FAILED with its reason"
grep -q '^  alpha  *ok ' stdout.txt && grep -q '^  beta  *ok ' stdout.txt || fail "alpha and beta not listed as ok"
# Provenance: host, CPU, kernel, doctor verdict, tool version in each file; each host's own --cpu and -k.
python3 - "${cpus[0]}" "$cpu_b" <<'PY'
import json, sys
for host, cpu, kernels in (("alpha", int(sys.argv[1]), {"sha256-avx2"}), ("beta", int(sys.argv[2]), {"crc32c-pclmul", "sha256-avx2"})):
    s = json.load(open(f"out/{host}.json"))
    assert s["host"] == host, (host, s.get("host"))
    assert s["options"]["cpu"] == cpu, (host, s["options"]["cpu"], cpu)
    assert {k["name"] for k in s["kernels"]} == kernels, (host, [k["name"] for k in s["kernels"]])
    assert s["cpu"]["brand"] and s["cpu"]["kernel_release"] and s["tool"]["version"], host
    assert s["doctor"]["verdict"] in ("calm", "noisy", "unfit"), host
    assert json.load(open(f"out/{host}.doctor.json"))["verdict"] in ("calm", "noisy", "unfit"), host
PY
# The header: every input listed, and the binding host named (crc32c only on beta; sha256 on one of them).
grep -q 'CPU \[1\]: *alpha (' out/limits.h && grep -q 'CPU \[2\]: *beta (' out/limits.h || fail "the header does not list both inputs"
grep -q 'doctor [a-z]*, fputune ' out/limits.h || fail "the header does not give the inputs' doctor verdict and tool version"
grep -q '^#define FPUTUNE_CRC32C_FPU_BYTES .*beta (' out/limits.h || \
    grep -q '^#define FPUTUNE_CRC32C_PCLMUL_FPU_BYTES .*beta (' out/limits.h || fail "crc32c's limit does not name beta"
grep -qE '^#define FPUTUNE_SHA256_FPU_BYTES .*bound by sha256-avx2 on (alpha|beta) \(' out/limits.h ||
    fail "sha256's limit does not name its binding host"
grep -q 'bound by' stdout.txt || fail "recommend's table does not say what binds"
grep -q 'alpha (' out/report.html && grep -q 'beta (' out/report.html || fail "the report does not show both hosts"
grep -q 'fputune compare out/alpha.json out/beta.json' stdout.txt || fail "no compare line"
"$fputune" compare out/alpha.json out/beta.json >/dev/null || fail "compare between the two hosts"
grep '^#define' out/limits.h
# --resume: alpha and beta are kept as they are, only gone is tried again (and fails again).
sum=$(md5sum out/alpha.json out/beta.json)
rc=0
"$fputune" fleet inventory.ini --package "$deb" -o out --resume >stdout2.txt 2>stderr2.txt || rc=$?
((rc == 3)) || { cat stdout2.txt; tail -n 20 stderr2.txt; fail "fleet --resume exited with $rc, expected 3"; }
[[ $(md5sum out/alpha.json out/beta.json) == "$sum" ]] || fail "--resume fetched alpha or beta again"
grep -q 'gone' stderr2.txt && ! grep -q 'alpha' stderr2.txt || fail "--resume did not run gone alone"
echo "fleet test: ok"
