#!/usr/bin/env bash
# nccl-tests-style sweeps of every collective on the T3000 (not part of the
# test run): for each op and N in {2 line, 4 line, 8 ring}, sizes 4 KiB to
# 256 MiB (x2), on the EDM (--impl edm, 2 buffers per channel), 6144 B EDM
# packets (all_reduce: 4096 B, the most its 16 channels of 2 buffers per
# Ethernet core fit with 2 KB pages), 2048 B pages, timing mode (identical
# timing to data mode). Tables on stdout, one CSV per sweep in OUT-DIR.
#
#   bench/collective_sweeps.sh [build-dir] [out-dir] [max-size]   (or: ninja -C build bench-sweeps)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
outdir=${2:-$root/bench/out}
max=${3:-256M}
mkdir -p "$outdir"
for op in all_gather reduce_scatter all_reduce all_to_all broadcast; do
    for cfg in "2 line" "4 line" "8 ring"; do
        set -- $cfg
        n=$1 topo=$2
        packet=6144
        [ "$op" = all_reduce ] && packet=4096
        echo
        "$build/t3000" "$op" --impl edm --chips "$n" --topology "$topo" --packet "$packet" --page-bytes 2048 --no-data \
            --sweep -b 4K -e "$max" -f 2 --csv "$outdir/${op}_${topo}${n}.csv"
    done
done
