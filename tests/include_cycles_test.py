#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# No include cycle inside a room: in models/ between files (a .cpp and its .hpp are one unit: header.cpp and
# stripes.cpp each including the other's header is a cycle), in kernels/ between its subfolders (a family's
# folder, peers/) and the files at its top. Reads every #include "..." and exits 1 naming each cycle.
# Usage: include_cycles_test.py SOURCE_DIR
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def units(room, per_folder):
    """The room's files by unit: (unit of a file, {unit: [paths]})."""
    by_unit = {}
    for folder, _, files in os.walk(room):
        for f in files:
            if not f.endswith(('.cpp', '.hpp', '.h', '.inc', '.in')):
                continue
            path = os.path.join(folder, f)
            rel = os.path.relpath(path, room)
            sub = rel.split(os.sep)[0] if os.sep in rel else ''
            unit = sub + '/' if per_folder and sub else os.path.splitext(rel)[0]
            by_unit.setdefault(unit, []).append(path)
    return by_unit


def resolve(name, including, room):
    for base in (os.path.dirname(including), room):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None  # outside the room (formats/, lib/, a system header)


def graph(room, per_folder):
    by_unit = units(room, per_folder)
    unit_of = {p: u for u, paths in by_unit.items() for p in paths}
    edges = {u: set() for u in by_unit}
    for u, paths in by_unit.items():
        for p in paths:
            with open(p, encoding='utf-8', errors='replace') as f:
                for name in INCLUDE.findall(f.read()):
                    target = resolve(name, p, room)
                    if target in unit_of and unit_of[target] != u:
                        edges[u].add(unit_of[target])
    return edges


def cycles(edges):
    """Strongly connected components with more than one unit (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    scc = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        scc.append(w)
                        if w == v:
                            break
                    if len(scc) > 1:
                        out.append(sorted(scc))
    return out


def main():
    src = sys.argv[1]
    found = 0
    for room, per_folder in (('models', False), ('kernels', True)):
        for scc in cycles(graph(os.path.join(src, room), per_folder)):
            print(f'{room}/: include cycle between {", ".join(scc)}')
            found += 1
    if found:
        print('make the dependency one way: move what both need into a file of its own')
        return 1
    print('no include cycle inside models/ or kernels/')
    return 0


if __name__ == '__main__':
    sys.exit(main())
