#!/usr/bin/env bash
# nccl-tests-style sweeps of every collective on the T3000 for both
# implementations (not part of the test run): for each op, --impl edm and
# --impl fabric, N in {2 line, 4 line, 8 ring}, sizes MIN to MAX (x2, default
# 1 MiB to 256 MiB), bf16, 2048 B pages, 6144 B EDM packets (edm all_reduce
# with one buffer per channel; the fabric uses its own packets of two pages),
# default links, workers and EDM buffers, timing mode (identical
# timing to data mode). Tables on stdout; every row in one CSV,
# OUT-DIR/t3000_collectives.csv, to set beside your own measurements.
#
#   bench/collective_sweeps.sh [build-dir] [out-dir] [max-size] [min-size]   (or: ninja -C build bench-sweeps)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
outdir=${2:-$root/bench/out}
max=${3:-256M}
min=${4:-1M}
mkdir -p "$outdir"
all="$outdir/t3000_collectives.csv"
rm -f "$all"
for impl in edm fabric; do
    for op in all_gather reduce_scatter all_reduce all_to_all broadcast; do
        for cfg in "2 line" "4 line" "8 ring"; do
            set -- $cfg
            n=$1 topo=$2
            part="$outdir/${impl}_${op}_${topo}${n}.csv"
            # all_reduce keeps both phases' EDM channels on the same Ethernet
            # cores: 6144 B packets fit one buffer per channel, not two.
            extra=()
            [[ $impl == edm && $op == all_reduce ]] && extra=(--edm-buffers 1)
            echo
            "$build/t3000" "$op" --impl "$impl" --chips "$n" --topology "$topo" --packet 6144 --page-bytes 2048 \
                --dtype bf16 --no-data --sweep -b "$min" -e "$max" -f 2 --csv "$part" "${extra[@]}"
            if [[ ! -f $all ]]; then cat "$part" >"$all"; else tail -n +2 "$part" >>"$all"; fi
        done
    done
done
echo
echo "all rows: $all"
