#!/usr/bin/env python3
"""tools/callgraph.py: which file of the library calls which, and which subsystems form circles.

Reads the relocations of the library's object files (objdump -rt, so any build of the extmem
target will do; no rebuild, no compiler flags) and prints:
  1. the file-level strongly connected components (circles of files that call each other);
  2. the subsystem-level graph (call sites per edge), its strongly connected components with
     their shortest cycles and, for every cross-subsystem edge inside one, each called function
     with the functions that call it ("callee <- caller file: caller, ...").
An edge is a call, or a function's address taken (a callback, a table); --data adds references
to another file's global variables. Cross-file calls cannot be inlined without LTO, so every
one shows as a relocation; a static function inlined into its caller is reported as that caller.

Run it (from the repository root, after building the extmem target):
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build build -j1 --target extmem
    python3 tools/callgraph.py                     # objects under build/CMakeFiles/extmem.dir
    python3 tools/callgraph.py path/to/CMakeFiles/extmem.dir [--data] [--files-only]
Exit status 1 when a circle runs through more than one subsystem (issue 29's "done" check).

A file's subsystem is the folder under src/ it is in (src/kernel/x.c -> kernel; FOLDERS merges
some), or for a file directly in src/ its entry in LAYOUT, else "src". Since issue 29 moved the
core into folders by subsystem (docs/layout.md), the folders alone say it.
"""
import collections
import os
import re
import subprocess
import sys

LAYOUT = {  # files directly in src/ (the rest are in their subsystem's folder)
    "fault": "os",  # fault injection into the OS layer (os.h)
}
FOLDERS = {"posix": "os", "win32": "os", "vk": "os", "d3d": "interop"}  # folders that join another

SYM = re.compile(r"^([0-9a-f]+) (.{7}) (\S+)\s+([0-9a-f]+)\s+(?:\.hidden |\.protected |\.internal )?(\S+)$")
REL = re.compile(r"^([0-9a-f]+)\s+(\S+)\s+(\S+?)(?:[+-]0x[0-9a-f]+)?$")


def subsystem(src):
    parts = src.split("/")  # "src/kernel/exec.c"
    if len(parts) == 2:
        return LAYOUT.get(parts[1][:-2], "src")
    return FOLDERS.get(parts[1], parts[1])


def read_object(path):
    """(symbols, relocations) of one object: symbols as (name, section, value, size, flags)."""
    out = subprocess.run(["objdump", "-rt", "--wide", path], capture_output=True, text=True, check=True).stdout
    syms, rels, section = [], [], None
    for line in out.splitlines():
        if line.startswith("RELOCATION RECORDS FOR ["):
            section = line[len("RELOCATION RECORDS FOR ["):-2]
        elif section is None and (m := SYM.match(line)):
            syms.append((m[5], m[3], int(m[1], 16), int(m[4], 16), m[2]))
        elif section and (m := REL.match(line)):
            rels.append((section, int(m[1], 16), m[2], m[3]))
    return syms, rels


def load(objdir):
    objs = {}
    for root, _, names in os.walk(objdir):
        for n in names:
            if n.endswith(".c.o"):
                p = os.path.join(root, n)
                src = os.path.relpath(p, objdir)[:-2].replace(os.sep, "/")
                objs[src if src.startswith("src/") else "src/" + src] = read_object(p)
    defined = {}  # global name -> (file, 'F' function or 'O' object)
    for src, (syms, _) in objs.items():
        for name, sec, _, _, flags in syms:
            if flags[0] in "gu" and sec != "*UND*":
                defined[name] = (src, "F" if flags[6] == "F" else "O")
    edges = collections.defaultdict(set)  # (caller file, callee file) -> {(caller fn, callee fn, kind)}
    for src, (syms, rels) in objs.items():
        owners = collections.defaultdict(list)
        for name, sec, value, size, flags in syms:
            if flags[6] in "FO" and size:
                owners[sec].append((value, size, name.split(".")[0]))
        for sec, off, rtype, target in rels:
            if sec.startswith((".debug", ".eh_frame", ".note", ".comment")) or target not in defined:
                continue
            dst, what = defined[target]
            if dst == src:
                continue
            kind = "data" if what == "O" else "call" if rtype.endswith("PLT32") and sec.startswith(".text") else "ref"
            caller = next((n for v, s, n in owners[sec] if v <= off < v + s), sec)
            edges[(src, dst)].add((caller, target, kind))
    return sorted(objs), edges


def sccs(nodes, succ):
    """Tarjan's algorithm, iterative; returns the components with more than one node."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(succ[start])))]
        index[start] = low[start] = counter[0]; counter[0] += 1; stack.append(start); on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop(); on.discard(x); comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = counter[0]; counter[0] += 1; stack.append(w); on.add(w)
                work.append((w, iter(sorted(succ[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def simple_cycles(comp, succ):
    """Elementary cycles of a small graph (the subsystems), each once, shortest first."""
    order, found = sorted(comp), []

    def walk(path, start):
        for w in sorted(succ[path[-1]]):
            if w == start:
                found.append(path + [start])
            elif w in comp and w not in path and order.index(w) > order.index(start):
                walk(path + [w], start)
    for s in order:
        walk([s], s)
    return sorted(found, key=len)


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    objdir = args[0] if args else "build/CMakeFiles/extmem.dir"
    files, edges = load(objdir)
    kinds = {"call", "ref", "data"} if "--data" in argv else {"call", "ref"}
    edges = {k: {e for e in v if e[2] in kinds} for k, v in edges.items()}
    edges = {k: v for k, v in edges.items() if v}
    fsucc = collections.defaultdict(set)
    for a, b in edges:
        fsucc[a].add(b)
    print(f"{len(files)} files, {len(edges)} file-level edges ({'+'.join(sorted(kinds))})")
    for comp in sccs(files, fsucc):
        print(f"\nfile-level circle of {len(comp)}:")
        for f in comp:
            print(f"  {f} [{subsystem(f)}] -> " + ", ".join(sorted(os.path.basename(b) for b in fsucc[f] if b in comp)))
    if "--files-only" in argv:
        return 0
    ssucc, cross = collections.defaultdict(set), collections.defaultdict(list)
    for (a, b), calls in sorted(edges.items()):
        sa, sb = subsystem(a), subsystem(b)
        if sa != sb:
            ssucc[sa].add(sb)
            cross[(sa, sb)] += [(a, b, c) for c in sorted(calls)]
    subs = sorted({subsystem(f) for f in files})
    print("\nsubsystem graph (edges: calling sites):")
    for s in subs:
        print(f"  {s:8} -> " + ", ".join(f"{t}({len(cross[(s, t)])})" for t in sorted(ssucc[s])))
    comps = sccs(subs, ssucc)
    for comp in comps:
        print(f"\nsubsystem circle: {' '.join(comp)}")
        cycles = simple_cycles(set(comp), ssucc)
        for cyc in cycles[:10]:
            print("  cycle: " + " -> ".join(cyc))
        if len(cycles) > 10:
            print(f"  ... and {len(cycles) - 10} longer cycles")
        for (sa, sb), calls in sorted(cross.items()):
            if sa in comp and sb in comp:  # each called function with its callers, by file
                print(f"  {sa} -> {sb}:")
                callers = collections.defaultdict(list)
                for a, b, (fn, callee, kind) in calls:
                    callers[(b, callee, kind, a)].append(fn)
                for (b, callee, kind, a), fns in sorted(callers.items()):
                    note = "" if kind == "call" else f" ({kind})"
                    print(f"    {b}:{callee}{note} <- {a}: {', '.join(sorted(set(fns)))}")
    print(f"\n{len(comps)} circle(s) through more than one subsystem")
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
