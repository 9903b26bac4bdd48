#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian package, as `make deb` makes it (cpack -G DEB), built into a scratch folder: its file name and
# version (the project's), the commit in its description (the binary's), dependencies from dpkg-shlibdeps,
# its contents; unpacked into a fresh root (dpkg -x) where `fputune --version` runs; lintian finds no error.
# Usage: tests/deb_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
for need in cpack:cmake dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev lintian:lintian; do
    command -v "${need%%:*}" >/dev/null || fail "${need%%:*} is missing: install Debian's ${need#*:} (.ci/install-deps does)"
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; fail "cpack -G DEB"; }
stamp=$build/formats/version.cpp
version=$(sed -n 's/.*tool_version() noexcept { return "\([^"]*\)".*/\1/p' "$stamp")
commit=$(sed -n 's/.*tool_commit() noexcept { return "\([^"]*\)".*/\1/p' "$stamp")
[[ -n $version && -n $commit ]] || fail "no version or commit in $stamp"
deb=$out/fputune_${version}_amd64.deb
[[ -f $deb ]] || fail "no $deb; cpack wrote: $(ls "$out")"
[[ $(dpkg-deb -f "$deb" Package) == fputune ]] || fail "Package is not fputune"
[[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "Version $(dpkg-deb -f "$deb" Version), not $version"
dpkg-deb -f "$deb" Description | grep -qF "Built from commit $commit." || fail "the description does not name commit $commit"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libc6 libstdc++6 libboost-program-options libfmt libspdlog libssl3 libisal libsodium; do
    grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib (dpkg-shlibdeps)"
done
listing=$(dpkg-deb -c "$deb")
for want in ./usr/bin/fputune ./usr/share/man/man1/fputune.1.gz ./usr/share/bash-completion/completions/fputune \
            ./usr/share/fputune/reference/elliott-2022-4k-cycles.csv ./usr/share/fputune/schemas/sweep.schema.json \
            ./usr/share/fputune/fleet/fleet.yml ./usr/share/fputune/fleet/inventory.example \
            ./usr/share/doc/fputune/copyright ./usr/share/doc/fputune/changelog.gz; do
    grep -q " $want\$" <<<"$listing" || fail "the package lacks $want"
done
# A fresh root: only what the package holds (its libraries come from this system).
root=$out/root
dpkg -x "$deb" "$root"
got=$("$root/usr/bin/fputune" --version)
[[ $got == "fputune $version ($commit)" ]] || fail "the unpacked fputune --version says '$got'"
"$root/usr/bin/fputune" fleet --help | grep -q 'INVENTORY' || fail "the unpacked fputune has no fleet command"
# lintian: exit 1 on an error tag, 2 when it could not run; warnings are shown, not failed
rc=0
lintian --no-tag-display-limit "$deb" >"$out/lintian.log" 2>&1 || rc=$?
cat "$out/lintian.log"
((rc == 0)) || fail "lintian exited with $rc (errors above)"
echo "deb test: ok ($got, $(du -k "$deb" | cut -f1) KiB)"
