#!/bin/sh
# The software device beside the real driver, on the GPU machine, in one session: builds extmem
# (Release) and bench-nv (the same bench/bench.c against NVIDIA's cuda.h and libcuda), runs the
# two interleaved, three times each, and prints one table: each row's median over the three
# runs for the H100 and for extmem on the same host's cores, and extmem's time as a multiple of
# the driver's (below 1: extmem is faster). The raw JSON of every run is kept in $OUT.
#
# The graph rows (graphs of 1 to 1000 empty kernels beside the same launches on a stream) have a
# table of their own below the first, with each run's time and its time per launch or per node.
# ONLY=graphs runs those rows alone (bench --graphs, no kernel bench): a shorter session.
# ONLY=kernels runs the kernel bench alone (bench/kernel_bench.c on the GPU and on extmem, each
# once) and prints its rows side by side: the GPU's time beside extmem's tiers, its C-kernel path
# and plain C threaded over the host's cores (issue 27).
#
# Usage (in the repository root, on the GPU machine): OUT=/some/dir bench/gpu-side-by-side.sh
# (through the device tool: run with command "OUT=$OUT bench/gpu-side-by-side.sh"; its copy of the
# tree may carry an older .git, so pass EXTMEM_COMMIT=<the commit> to name it in the output).
set -eu
: "${OUT:?set OUT to the directory for the results}"
root=$(cd "$(dirname "$0")/.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
build=${BUILD:-${TMPDIR:-/tmp}/extmem-side-by-side}
runs=${RUNS:-3}
only=${ONLY:-}
case "$only" in
"") bench_args="" ;;
graphs) bench_args="--graphs" ;;
kernels) bench_args="" ;;
*) echo "ONLY=$only: only ONLY=graphs and ONLY=kernels are known" >&2; exit 2 ;;
esac
mkdir -p "$OUT"

generator=""
command -v ninja >/dev/null 2>&1 && generator="-G Ninja"
# shellcheck disable=SC2086 # generator is one option or none
cmake -S "$root" -B "$build" $generator -DCMAKE_BUILD_TYPE=Release -DEXTMEM_TESTS=OFF -DEXTMEM_VULKAN=OFF \
    -DEXTMEM_SAMPLES=OFF -DEXTMEM_TOOLS=OFF >/dev/null
targets="extmem-bench extmem-kernel-bench"
[ "$only" = kernels ] && targets=extmem-kernel-bench
# shellcheck disable=SC2086 # targets is a list
cmake --build "$build" --target $targets -j "$(nproc)" >/dev/null

libdir=""
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 "$cuda/lib64" "$cuda/lib64/stubs"; do
    if [ -e "$d/libcuda.so" ] || [ -e "$d/libcuda.so.1" ]; then libdir=$d; break; fi
done
gcc -std=c11 -O2 "$root/bench/bench.c" -I"$cuda/include" ${libdir:+-L"$libdir"} -l:libcuda.so.1 -lpthread \
    -o "$build/bench-nv"
gcc -std=c11 -O2 -I"$root/bench" "$root/bench/kernel_bench.c" -I"$cuda/include" ${libdir:+-L"$libdir"} \
    -l:libcuda.so.1 -lm -o "$build/kernel-bench-nv"

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "commit: ${EXTMEM_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/gpu, driver: /'
    echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
} >"$OUT/machine.txt"

i=1
[ "$only" = kernels ] && i=$((runs + 1))
while [ "$i" -le "$runs" ]; do
    # shellcheck disable=SC2086 # bench_args is one option or none
    "$build/bench-nv" --json $bench_args >"$OUT/nvidia-$i.json"
    # shellcheck disable=SC2086
    "$build/bench/extmem-bench" --json $bench_args >"$OUT/extmem-$i.json"
    i=$((i + 1))
done

# The kernels: the same PTX on the H100 and on extmem (both tiers, beside C kernels), once each
# after the call-sequence runs (run in the repository root: the PTX file is found there).
if [ -z "$only" ] || [ "$only" = kernels ]; then
    (cd "$root" && "$build/kernel-bench-nv" >"$OUT/kernels-nvidia.txt" 2>&1 &&
        EXTMEM_CACHE_DIR="$build/kernel-cache" "$build/bench/extmem-kernel-bench" >"$OUT/kernels-extmem.txt" 2>&1) ||
        echo "kernel bench failed: see $OUT/kernels-*.txt"
fi

if [ "$only" = kernels ]; then
    python3 - "$OUT" <<'EOF' | tee "$OUT/side-by-side.txt"
import sys
out = sys.argv[1]
print(open(f"{out}/machine.txt").read().rstrip())
def rows(path):
    table, on = {}, False
    for line in open(path):
        if line.startswith("kernel (median us)"):
            on = True
            continue
        if on:
            cells = line[34:].split()
            if len(line) <= 34 or not cells or not line[:34].strip() or not (cells[0] == "-" or cells[0].replace(".", "", 1).isdigit()):
                on = False
                continue
            table[line[:34].strip()] = cells
    return table
nv, em = rows(f"{out}/kernels-nvidia.txt"), rows(f"{out}/kernels-extmem.txt")
def num(v):
    try:
        return float(v)
    except ValueError:
        return None
def cell(v, w=11):
    return f"{v:>{w}.1f}" if v is not None else f"{'-':>{w}}"
def ratio(a, b, w=8):
    return f"{a / b:>{w - 1}.2f}x" if a is not None and b else f"{'-':>{w}}"
print("\n## kernels (median us): the GPU, and extmem on the host's cores")
print(f"{'kernel':<34} {'GPU':>10} {'portable':>11} {'native':>11} {'C kernel':>11} {'C threads':>11} "
      f"{'nat/thr':>8} {'Ck/thr':>8} {'native/GPU':>11}")
for name, e in em.items():
    g = num(nv[name][0]) if name in nv else None
    p, n, c, t = (num(v) for v in e[:4])
    print(f"{name:<34} {cell(g, 10)} {cell(p)} {cell(n)} {cell(c)} {cell(t)} {ratio(n, t)} {ratio(c, t)} {ratio(n, g, 11)}")
for kind in ("nvidia", "extmem"):
    print(f"\n## kernel bench, {kind}")
    print(open(f"{out}/kernels-{kind}.txt").read().rstrip())
EOF
    exit 0
fi

python3 - "$OUT" "$runs" "$only" <<'EOF' | tee "$OUT/side-by-side.txt"
import json, statistics, sys
out, runs, only = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(kind):
    rows = {}
    order = []
    for i in range(1, runs + 1):
        with open(f"{out}/{kind}-{i}.json") as f:
            doc = json.load(f)
        for r in doc["rows"]:
            if r.get("skipped") or r.get("median_us") is None:
                continue
            if r["key"] not in rows:
                order.append(r["key"])
            rows.setdefault(r["key"], {"sequence": r["sequence"], "medians": [], "gbps": [], "per": r.get("per")})
            rows[r["key"]]["medians"].append(r["median_us"])
            if r.get("gbps"):
                rows[r["key"]]["gbps"].append(r["gbps"])
    return rows, order
nv, _ = load("nvidia")
em, order = load("extmem")
print(open(f"{out}/machine.txt").read().rstrip())
print(f"{runs} runs of each program, interleaved; each cell is the median of the runs' medians (us)")
if any(not k.startswith("graph_") for k in order):
    print(f"{'row':<62} {'H100 driver':>12} {'extmem':>12} {'extmem/driver':>14}")
for key in order:
    if key.startswith("graph_"):
        continue
    seq = em[key]["sequence"] or key
    e = statistics.median(em[key]["medians"])
    n = statistics.median(nv[key]["medians"]) if key in nv else None
    ratio = f"{e / n:.2f}x" if n else "-"
    extra = ""
    if em[key]["gbps"]:
        extra = f"  extmem {statistics.median(em[key]['gbps']):.1f} GB/s"
        if key in nv and nv[key]["gbps"]:
            extra += f", driver {statistics.median(nv[key]['gbps']):.1f} GB/s"
    ncell = f"{n:.2f}" if n is not None else "-"
    print(f"{seq[:62]:<62} {ncell:>12} {e:>12.2f} {ratio:>14}{extra}")
# The graph rows: each run's time and the time per launch (stream rows) or per node (graph rows).
graph_keys = [k for k in order if k.startswith("graph_")]
def med(rows, key):
    return statistics.median(rows[key]["medians"]) if key in rows else None
def cell(v):
    return f"{v:.2f}" if v is not None else "-"
if graph_keys:
    print("\n## graphs of N empty kernels beside N launches on a stream (us; per = per launch or per node)")
    print(f"{'row':<62} {'GPU':>10} {'GPU per':>9} {'extmem':>10} {'extmem per':>10} {'extmem/GPU':>11}")
    for key in graph_keys:
        per = em[key]["per"] or 1
        e, n = med(em, key), med(nv, key)
        ratio = f"{e / n:.2f}x" if n else "-"
        print(f"{em[key]['sequence'][:62]:<62} {cell(n):>10} {cell(n / per if n is not None else None):>9} "
              f"{cell(e):>10} {cell(e / per):>10} {ratio:>11}")
    # The goal (issue 24): extmem's time per graph node at most its time per stream launch, and
    # below the GPU's (the H100's, or whichever machine.txt names) time per graph node.
    print("\ngoal: extmem's graph per node <= extmem's stream per launch, and < the GPU driver's graph per node")
    for n_nodes in sorted({em[k]["per"] for k in graph_keys if k.startswith("graph_stream_")}):
        s_e = med(em, f"graph_stream_{n_nodes}")
        for shape in ("chain", "fanout"):
            key = f"graph_{shape}_launch_{n_nodes}"
            if key not in em:
                continue
            g_e, g_n = med(em, key) / n_nodes, med(nv, key)
            g_n = g_n / n_nodes if g_n is not None else None
            ok_stream = g_e <= s_e / n_nodes
            ok_h100 = g_n is not None and g_e < g_n
            print(f"  N={n_nodes:<5} {shape:<7} extmem {g_e:8.2f} per node; its stream {s_e / n_nodes:8.2f} per launch "
                  f"({'met' if ok_stream else 'NOT met'}); GPU {cell(g_n):>8} per node ({'met' if ok_h100 else 'NOT met'})")
if not only:
    for kind in ("nvidia", "extmem"):
        print(f"\n## kernel bench, {kind}")
        print(open(f"{out}/kernels-{kind}.txt").read().rstrip())
EOF
