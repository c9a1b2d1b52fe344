#!/bin/sh
# Two trees of extmem side by side on one machine: builds each (Release), runs their
# extmem-bench interleaved RUNS times (default 3) and their extmem-kernel-bench (both tiers,
# beside C kernels) twice each, interleaved, and prints each row's median for A and B and B/A.
# For a change that must not cost speed (a refactor): A is the tree before it, B after.
# Usage: OUT=/some/dir bench/ab-trees.sh TREE_A TREE_B
set -eu
: "${OUT:?set OUT to the directory for the results}"
a=$(cd "$1" && pwd)
b=$(cd "$2" && pwd)
runs=${RUNS:-3}
mkdir -p "$OUT"
generator=""
command -v ninja >/dev/null 2>&1 && generator="-G Ninja"
for t in a b; do
    eval "src=\$$t"
    # shellcheck disable=SC2086,SC2154 # generator is one option or none; src is set by the eval
    cmake -S "$src" -B "/tmp/extmem-ab-$t" $generator -DCMAKE_BUILD_TYPE=Release -DEXTMEM_TESTS=OFF \
        -DEXTMEM_VULKAN=OFF -DEXTMEM_SAMPLES=OFF -DEXTMEM_TOOLS=OFF >/dev/null
    cmake --build "/tmp/extmem-ab-$t" --target extmem-bench extmem-kernel-bench -j "$(nproc)" >/dev/null
done
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" >"$OUT/machine.txt"
i=1
while [ "$i" -le "$runs" ]; do
    for t in a b; do "/tmp/extmem-ab-$t/bench/extmem-bench" --json >"$OUT/$t-$i.json"; done
    i=$((i + 1))
done
for i in 1 2; do
    for t in a b; do
        eval "src=\$$t"
        (cd "$src" && EXTMEM_CACHE_DIR="/tmp/extmem-ab-$t/kernel-cache" "/tmp/extmem-ab-$t/bench/extmem-kernel-bench" \
            >"$OUT/kernels-$t-$i.txt" 2>&1)
    done
done
python3 - "$OUT" "$runs" <<'PY' | tee "$OUT/ab.txt"
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
def load(t):
    rows, order = {}, []
    for i in range(1, runs + 1):
        for r in json.load(open(f"{out}/{t}-{i}.json"))["rows"]:
            if r.get("skipped") or r.get("median_us") is None:
                continue
            if r["key"] not in rows:
                order.append(r["key"])
            rows.setdefault(r["key"], {"seq": r["sequence"], "m": []})["m"].append(r["median_us"])
    return rows, order
A, order = load("a")
B, _ = load("b")
print(open(f"{out}/machine.txt").read().rstrip())
print(f"{runs} interleaved runs of each tree's extmem-bench; each cell the median of the runs' medians (us)")
print(f"{'row':<62} {'A':>10} {'B':>10} {'B/A':>7}")
for k in order:
    if k not in B:
        continue
    x, y = statistics.median(A[k]["m"]), statistics.median(B[k]["m"])
    print(f"{(A[k]['seq'] or k)[:62]:<62} {x:>10.2f} {y:>10.2f} {y / x if x else 0:>6.2f}x")
PY
for i in 1 2; do for t in a b; do echo "== kernels, tree $t, run $i"; cat "$OUT/kernels-$t-$i.txt"; done; done
