#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The project speaks of itself: no tracked file points outside the repository (a path of a development
# machine, a folder beside the clone, a notes file the clone does not have) or speaks of how it was made
# instead of what it is, and every relative link in README.md and docs/*.md resolves (file and #anchor).
# Usage: tests/docs_test.py SOURCE_DIR       check the tree
#        tests/docs_test.py --self-test       the checks catch a planted word, path and dead link
import os
import re
import subprocess
import sys
import tempfile

# Words and paths that refer to something a clone does not have, or to how the code came to be.
FORBIDDEN = [
    (re.compile(r"\.\./shared\b"), "a path outside the repository"),
    (re.compile(r"(?<![\w.~-])/(work|home|root)/[\w.-]"), "an absolute path of a development machine"),
    (re.compile(r"\b(HELPERS|DESIGN|STYLE)\.md\b"), "a notes file the repository does not have (see docs/)"),
    (re.compile(r"\bissues? #?\d+\b", re.I), "an issue number of a tracker the repository does not ship"),
    (re.compile(r"\bthe seed\b|\bseed's\b", re.I), "'the seed': name the source by author and year (Elliott 2022)"),
    (re.compile(r"\b(this|that|an earlier|a later|the first|development|previous) sessions?\b|\bsessions? \d+\b"
                r"|\bsession's\b", re.I), "a development session: name the machine by CPU and date"),
    (re.compile(r"\b(linux|docs|arch|fleet|upstream|contention) (helper|engineer)s?\b|\bhelper (had|found|measured)\b",
                re.I), "a development helper: say what was measured, not who"),
    (re.compile(r"\bdevice machine\b|\blent (to|machine)\b|\bmachine lent\b", re.I), "a machine of the development set-up"),
    (re.compile(r"\b(this|the current) task\b", re.I), "a development task"),
]
# Recorded data and fuzz inputs are kept as they were made; this script holds the patterns themselves.
ALLOWED_PREFIXES = ("data/machines/", "tests/fuzz/", "tests/docs_test.py")
# Documents the README and docs/ may link to before they are written: reported, not failed. None now: every
# link must resolve.
PLANNED = set()


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                             capture_output=True, check=True).stdout.decode()
        return sorted(set(p for p in out.split("\0") if p and os.path.isfile(os.path.join(root, p))))
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return sorted(files)


def check_words(root, files):
    problems = []
    for rel in files:
        if rel.startswith(ALLOWED_PREFIXES):
            continue
        data = open(os.path.join(root, rel), "rb").read()
        if b"\0" in data:
            continue  # binary (an image)
        for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for pattern, why in FORBIDDEN:
                m = pattern.search(line)
                if m:
                    problems.append(f"{rel}:{n}: '{m.group(0)}': {why}")
    return problems


def slug(heading):
    # GitHub's anchors: lower case, punctuation dropped (but - and _), spaces to -.
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            found.add(slug(line.lstrip("#")))
    return found


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def check_links(root):
    problems, notes = [], []
    docs = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    for rel in docs:
        fenced = False
        for n, line in enumerate(open(os.path.join(root, rel), encoding="utf-8"), 1):
            if line.startswith("```"):
                fenced = not fenced
            if fenced or line.startswith("    "):
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # https:, mailto:
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(rel), file_part)) if file_part else rel
                if not os.path.exists(os.path.join(root, dest)):
                    (notes if dest in PLANNED else problems).append(f"{rel}:{n}: link to {target}: {dest} is not in the tree")
                    continue
                if anchor and dest.endswith(".md") and anchor not in anchors(os.path.join(root, dest)):
                    problems.append(f"{rel}:{n}: link to {target}: {dest} has no heading #{anchor}")
    return problems, notes


def check(root):
    problems = check_words(root, tracked_files(root))
    link_problems, notes = check_links(root)
    return problems + link_problems, notes


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "docs"))
        os.makedirs(os.path.join(tmp, "kernels"))
        open(os.path.join(tmp, "README.md"), "w").write("# fputune\n\nSee [a](docs/a.md#b) and [c](docs/c.md).\n")
        open(os.path.join(tmp, "docs", "a.md"), "w").write("# A\n\n## The b part\n")
        open(os.path.join(tmp, "kernels", "k.hpp"), "w").write("// design: /" + "work/notes/x.md, as the seed had it\n")  # split: this file itself stays clean
        problems, _ = check(tmp)
        want = ["/" + "work/n", "the seed", "#b", "docs/c.md"]
        missing = [w for w in want if not any(w in p for p in problems)]
        if missing:
            print("FAIL the checks missed: " + ", ".join(missing))
            return 1
        open(os.path.join(tmp, "README.md"), "w").write("# fputune\n\nSee [a](docs/a.md#the-b-part).\n")
        open(os.path.join(tmp, "kernels", "k.hpp"), "w").write("// design: docs/design.md, Elliott 2022\n")
        problems, _ = check(tmp)
        if problems:
            print("FAIL a clean tree was refused: " + "; ".join(problems))
            return 1
    print("self-test: a planted path, word and dead link are caught; a clean tree passes")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1]
    problems, notes = check(root)
    for note in notes:
        print("note: " + note)
    for p in problems:
        print("FAIL " + p)
    print(f"docs: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
