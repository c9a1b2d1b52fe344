#!/usr/bin/env python3
"""The list of every entry point (DESIGN.md §16), made from NVIDIA's export lists and the driver's
own cuGetProcAddress answers (docs/probes/surface: entry.out, libcuda.exports, libcudart13.exports),
and the files made from it.

    tools/entry_points.py update    rewrite src/entry/driver_api.h and src/runtime/runtime_api.h from
                                    the probe files, keeping each symbol's status as the lists say it
    tools/entry_points.py docs      write docs/coverage.md from the two lists
    tools/entry_points.py check     exit 1 if docs/coverage.md is not what `docs` would write
    tools/entry_points.py check-exports LIBRARY LIST [NODE]
                                    exit 1 unless LIBRARY exports every function of LIST (a file of
                                    docs/probes/surface), with the symbol version NODE if given
    tools/entry_points.py mark-implemented OBJDIR
                                    move to working each refused symbol that an object of OBJDIR
                                    (a build's CMakeFiles/extmem.dir) now defines
    tools/entry_points.py refused-driver | refused-runtime
                                    print the refused symbols (for the tests)

The lists are X-macro headers, one row per exported symbol:
    DRV(symbol, base, version, ptds_version)              the driver's, working
    DRV_REFUSED(symbol, base, version, ptds_version, why) the driver's, refused for reason `why`
    RT(symbol) / RT_REFUSED(symbol, why)                  the runtime's
`version` is the first CUDA version at which cuGetProcAddress(base) answers with this symbol;
`ptds_version` the same with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM; 0 when never (the
symbol is exported but not handed out by name). A status is changed by editing the row: moving a
symbol from DRV_REFUSED to DRV when its work is implemented.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.path.join(ROOT, "docs", "probes", "surface")
DRIVER_LIST = os.path.join(ROOT, "src", "entry", "driver_api.h")
RUNTIME_LIST = os.path.join(ROOT, "src", "runtime", "runtime_api.h")
REASONS = os.path.join(ROOT, "src", "entry", "refusals.h")
COVERAGE = os.path.join(ROOT, "docs", "coverage.md")

ROW = re.compile(r"^(DRV|DRV_REFUSED|RT|RT_REFUSED)\(([^)]*)\)")


def read_rows(path):
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            m = ROW.match(line.strip())
            if m:
                rows.append((m.group(1), [a.strip() for a in m.group(2).split(",")]))
    return rows


def reasons():
    """REFUSAL(id, code, "text") rows of src/entry/refusals.h."""
    out = {}
    with open(REASONS) as f:
        for line in f:
            m = re.match(r'^REFUSAL\((\w+),\s*(\w+),\s*"(.*)"\)', line.strip())
            if m:
                out[m.group(1)] = (m.group(2), m.group(3))
    return out


def base_of(sym):
    while True:
        m = re.match(r"^(.*)_(ptds|ptsz)$", sym) or re.match(r"^(.*)_v[0-9]+$", sym)
        if not m:
            return sym
        sym = m.group(1)


def classify_driver(sym, base, v1_32bit):
    b = base
    if b.startswith("cudbg"):
        return "DEBUGGER"
    if "EGL" in b or b == "cuGraphicsResourceGetMappedEglFrame":
        return "EGL"
    if b.startswith("cuGL") or b.startswith("cuGraphicsGL") or b.startswith("cuWGL"):
        return "OPENGL"
    if "VDPAU" in b:
        return "VDPAU"
    if b.startswith("cuGraphics"):
        return "GRAPHICS"
    if b.startswith("cuTensorMap"):
        return "TENSOR_MAPS"
    if b.startswith("cuMulticast"):
        return "MULTICAST"
    if "GreenCtx" in b or "DevResource" in b or "DevSmResource" in b:
        return "GREEN_CONTEXTS"
    if b.startswith("cuCheckpoint"):
        return "CHECKPOINT"
    if b.startswith("cuCoredump"):
        return "COREDUMP"
    if "NvSci" in b:
        return "NVSCI"
    if b == "cuMemBatchDecompressAsync":
        return "DECOMPRESSION"
    if "AsyncNotification" in b:
        return "NOTIFICATIONS"
    if sym in v1_32bit:
        return "V1_32BIT"
    return "NOT_YET"


def classify_runtime(sym):
    b = base_of(sym)
    if "EGL" in b:
        return "EGL"
    if b.startswith("cudaGL") or b.startswith("cudaGraphicsGL") or b.startswith("cudaWGL"):
        return "OPENGL"
    if "VDPAU" in b:
        return "VDPAU"
    if b.startswith("cudaGraphics"):
        return "GRAPHICS"
    if "NvSci" in b:
        return "NVSCI"
    if "AsyncNotification" in b:
        return "NOTIFICATIONS"
    return "NOT_YET"


def read_lines(name):
    with open(os.path.join(PROBE, name)) as f:
        return [l.strip() for l in f if l.strip()]


def update(ours_cu=None, ours_rt=None):
    """Rewrites both lists from the probe files. A symbol keeps the status its row has; a new one
    is working if `ours_*` (an nm list of a build) exports it, else refused by family."""
    exports = sorted(set(read_lines("libcuda.exports")))
    rt_exports = sorted(set(l.split("@")[0] for l in read_lines("libcudart13.exports")))
    old = {}
    for kind, args in read_rows(DRIVER_LIST) + read_rows(RUNTIME_LIST):
        old[args[0]] = (kind, args[-1] if kind.endswith("REFUSED") else None)
    have_cu = set(open(ours_cu).read().split()) if ours_cu else set()
    have_rt = set(open(ours_rt).read().split()) if ours_rt else set()

    # cuGetProcAddress's answers: E <base> <version> <default|ptds> [code] <symbol> st=N, a line
    # each time the answer changes from one version to the next.
    first = {}  # (symbol, form) -> first version answering it
    bases = {}
    for line in read_lines("entry.out"):
        if not line.startswith("E "):
            continue
        parts = line.split()
        base, version, form = parts[1], int(parts[2]), parts[3]
        sym = parts[-2]
        if version > 13000 or sym == "NULL":
            continue
        bases.setdefault(sym, base)
        key = (sym, form)
        if key not in first or version < first[key]:
            first[key] = version
    v2_at_3020 = {s for (s, f), v in first.items() if f == "default" and v == 3020 and s.endswith("_v2")}
    v1_32bit = {base_of(s) for s in v2_at_3020 if not base_of(s).startswith("cuCtx")}

    why = reasons()
    lines = []
    for sym in exports:
        base = bases.get(sym, base_of(sym))
        v = first.get((sym, "default"), 0)
        pv = first.get((sym, "ptds"), 0)
        kind, reason = old.get(sym, (None, None))
        if kind is None:
            kind = "DRV" if sym in have_cu else "DRV_REFUSED"
            reason = None if kind == "DRV" else classify_driver(sym, base, v1_32bit if sym == base else set())
        if kind == "DRV":
            lines.append("DRV(%s, %s, %d, %d)" % (sym, base, v, pv))
        else:
            assert reason in why, (sym, reason)
            lines.append("DRV_REFUSED(%s, %s, %d, %d, %s)" % (sym, base, v, pv, reason))
    write_list(DRIVER_LIST, "EXTMEM_DRIVER_API", "driver", lines)

    lines = []
    for sym in rt_exports:
        kind, reason = old.get(sym, (None, None))
        if kind is None:
            kind = "RT" if sym in have_rt else "RT_REFUSED"
            reason = None if kind == "RT" else classify_runtime(sym)
        if kind == "RT":
            lines.append("RT(%s)" % sym)
        else:
            assert reason in why, (sym, reason)
            lines.append("RT_REFUSED(%s, %s)" % (sym, reason))
    write_list(RUNTIME_LIST, "EXTMEM_RUNTIME_API", "runtime", lines)


HEADER = """/*
 * %(path)s: every function NVIDIA's %(lib)s exports (CUDA 13.0), one row each, and its
 * status in extmem. Made by tools/entry_points.py from docs/probes/surface; a row changes from
 * %(refused)s to %(works)s when its function is implemented (DESIGN.md §16). No include guard: an
 * X-macro list, included with the macros defined.
 *
%(rows)s
 */
"""


def write_list(path, guard, which, lines):
    if which == "driver":
        rows = (" *   DRV(symbol, base name, version, ptds version): works; the versions are the first CUDA\n"
                " *     versions at which cuGetProcAddress(base name) answers this symbol, without and with\n"
                " *     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM (0: never, the symbol is exported only).\n"
                " *   DRV_REFUSED(..., reason): exported, returns the reason's code (src/entry/refusals.h).")
        text = HEADER % {"path": "src/entry/driver_api.h", "lib": "libcuda.so", "refused": "DRV_REFUSED",
                         "works": "DRV", "rows": rows}
    else:
        rows = (" *   RT(symbol): works.\n"
                " *   RT_REFUSED(symbol, reason): exported, returns the reason's code as a cudaError_t\n"
                " *     (src/entry/refusals.h), recorded as the thread's last error.")
        text = HEADER % {"path": "src/runtime/runtime_api.h", "lib": "libcudart.so.13", "refused": "RT_REFUSED",
                         "works": "RT", "rows": rows}
    with open(path, "w") as f:
        f.write(text)
        f.write("\n".join(lines) + "\n")


def docs_text():
    why = reasons()
    drv = read_rows(DRIVER_LIST)
    rt = read_rows(RUNTIME_LIST)
    out = []
    out.append("# API coverage\n")
    out.append("Made by `tools/entry_points.py docs` from the entry-point lists (`src/entry/driver_api.h`,\n"
               "`src/runtime/runtime_api.h`; DESIGN.md §16); the test `entry_points.coverage_doc_is_current` fails\n"
               "when it is out of date. Every function NVIDIA's CUDA 13.0 `libcuda.so` and `libcudart.so.13` export\n"
               "is exported by extmem's drop-ins; each one works, or returns the code below with a reason\n"
               "(`extmem_error_detail()`, `EXTMEM_LOG`).\n")
    n_drv = len(drv)
    w_drv = sum(1 for k, _ in drv if k == "DRV")
    n_rt = len(rt)
    w_rt = sum(1 for k, _ in rt if k == "RT")
    out.append("| library | exported | works | refused |\n| --- | --- | --- | --- |")
    out.append("| `libcuda.so.1` | %d | %d | %d |" % (n_drv, w_drv, n_drv - w_drv))
    out.append("| `libcudart.so.13`, `libcudart.so.12` | %d | %d | %d |\n" % (n_rt, w_rt, n_rt - w_rt))
    out.append("## Why a function is refused\n")
    out.append("| reason | code | what it says | driver functions | runtime functions |\n| --- | --- | --- | --- | --- |")
    for rid, (code, text) in why.items():
        d = sum(1 for k, a in drv if k == "DRV_REFUSED" and a[-1] == rid)
        r = sum(1 for k, a in rt if k == "RT_REFUSED" and a[-1] == rid)
        if d or r:
            out.append("| %s | `%s` | %s | %d | %d |" % (rid, code, text, d, r))
    out.append("")
    out.append("## Driver API (`libcuda.so.1`)\n")
    out.append("Versions are the CUDA versions from which `cuGetProcAddress` hands out each symbol (default\n"
               "stream semantics / per-thread default stream), as NVIDIA's driver 580 answers.\n")
    out.append("| function | symbol | from | per-thread from | status |\n| --- | --- | --- | --- | --- |")
    for kind, a in sorted(drv, key=lambda r: (r[1][1], r[1][2], r[1][0])):
        status = "works" if kind == "DRV" else "refused: " + a[-1]
        out.append("| %s | `%s` | %s | %s | %s |" % (a[1], a[0], a[2] if a[2] != "0" else "-",
                                                   a[3] if a[3] != "0" else "-", status))
    out.append("")
    out.append("## Runtime API (`libcudart.so.13`, `libcudart.so.12`)\n")
    out.append("| symbol | status |\n| --- | --- |")
    for kind, a in sorted(rt, key=lambda r: r[1][0]):
        out.append("| `%s` | %s |" % (a[0], "works" if kind == "RT" else "refused: " + a[-1]))
    return "\n".join(out) + "\n"


def check_exports(library, listing, version_node):
    """Every function of NVIDIA's export list (a file of docs/probes/surface) is exported by
    `library` (nm -D), with the symbol version node `version_node` when one is given."""
    import subprocess
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True,
                         text=True).stdout
    have = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "TWi":
            name, _, node = parts[2].partition("@")
            have[name] = node.lstrip("@")
    want = sorted(set(l.split("@")[0] for l in read_lines(listing)))
    missing = [n for n in want if n not in have]
    wrong = [n for n in want if version_node and n in have and have[n] != version_node]
    for n in missing:
        print("%s: %s is not exported" % (library, n), file=sys.stderr)
    for n in wrong:
        print("%s: %s has version node '%s', not %s" % (library, n, have[n], version_node), file=sys.stderr)
    print("%s: %d of NVIDIA's %d functions exported" % (library, len(want) - len(missing), len(want)))
    return 1 if missing or wrong else 0


def mark_implemented(objdir):
    """Moves each refused row whose symbol an object under `objdir` (a build's
    CMakeFiles/<target>.dir) now defines, other than the refusal stubs, to working."""
    import subprocess
    defined = set()
    for root, _, files in os.walk(objdir):
        for f in files:
            if not f.endswith((".o", ".obj")) or f.startswith("refused.c"):
                continue
            out = subprocess.run(["nm", "--defined-only", os.path.join(root, f)], capture_output=True,
                                 text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] in "TW":
                    defined.add(parts[2])
    changed = []
    for path, kind in ((DRIVER_LIST, "DRV"), (RUNTIME_LIST, "RT")):
        with open(path) as f:
            lines = f.read().split("\n")
        for i, line in enumerate(lines):
            m = ROW.match(line.strip())
            if m and m.group(1) == kind + "_REFUSED":
                args = [a.strip() for a in m.group(2).split(",")]
                if args[0] in defined:
                    lines[i] = "%s(%s)" % (kind, ", ".join(args[:-1]))
                    changed.append(args[0])
        with open(path, "w") as f:
            f.write("\n".join(lines))
    for c in changed:
        print("works now:", c)
    return 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "update":
        update(*(sys.argv[2:4] if len(sys.argv) >= 4 else [None, None]))
    elif cmd == "docs":
        with open(COVERAGE, "w") as f:
            f.write(docs_text())
    elif cmd == "check":
        with open(COVERAGE) as f:
            if f.read() != docs_text():
                print("docs/coverage.md is out of date: run tools/entry_points.py docs", file=sys.stderr)
                return 1
    elif cmd == "mark-implemented":
        return mark_implemented(sys.argv[2])
    elif cmd == "check-exports":
        return check_exports(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif cmd in ("refused-driver", "refused-runtime"):
        rows = read_rows(DRIVER_LIST if cmd == "refused-driver" else RUNTIME_LIST)
        for kind, a in rows:
            if kind.endswith("REFUSED"):
                print(a[0])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
