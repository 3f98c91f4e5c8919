#!/usr/bin/env bash
# The sweep behind `--method auto`'s rule table (platforms/collective_methods.yaml):
# every collective method of reduce_scatter, all_reduce and all_gather on T3000
# rings of 4 and 8 chips (bf16, timing mode, default pages and packets), sizes
# 256 B .. 64 MiB (x4). One CSV per (op, ranks, method) in OUT-DIR and a summary
# table on stdout: per size, the fastest method and its time.
#
#   bench/method_sweeps.sh [build-dir] [out-dir] [max-size]   (or: ninja -C build bench-methods)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
outdir=${2:-$root/bench/out/methods}
max=${3:-64M}
mkdir -p "$outdir"
methods_for() {
    case $1 in
        all_gather) echo "clockwise_ring anticlockwise_ring bidirectional_ring_pair meet_in_middle_ring" ;;
        *) echo "clockwise_ring bidirectional_ring_pair meet_in_middle_ring broadcast" ;;
    esac
}
for op in reduce_scatter all_reduce all_gather; do
    for n in 4 8; do
        for m in $(methods_for $op); do
            "$build/t3000" "$op" --chips "$n" --method "$m" --no-data --sweep -b 256 -e "$max" -f 4 \
                --csv "$outdir/${op}_${n}_${m}.csv" >/dev/null
        done
        echo "# $op on a ring of $n T3000 chips: fastest method per size (time in us)"
        python3 - "$outdir" "$op" "$n" $(methods_for $op) <<'PY'
import csv, sys
out, op, n, methods = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
t = {}
for m in methods:
    for row in csv.DictReader(open(f"{out}/{op}_{n}_{m}.csv")):
        if row.get("time_us"):
            t.setdefault(int(row["size_bytes"]), {})[m] = float(row["time_us"])
print(f"{'size':>10}  " + "  ".join(f"{m[:22]:>22}" for m in methods) + "  fastest")
for s in sorted(t):
    best = min(t[s], key=t[s].get)
    print(f"{s:>10}  " + "  ".join(f"{t[s].get(m, float('nan')):>22.2f}" for m in methods) + f"  {best}")
PY
    done
done
