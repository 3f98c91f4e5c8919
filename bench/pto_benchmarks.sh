#!/usr/bin/env bash
# PTO communication-op figures on the T3000 (not part of the test run):
#   1. put / get latency and bandwidth vs size (1 hop; 1 row of 16 B .. 256 rows
#      of 4 KiB; tile 4 rows x the row), single tile vs ping-pong
#   2. vs hop distance: notify one-way latency, 64 KiB put time, peers 1..4 hops
#   3. sync vs async: the time until the call returns and until completion
#   4. collectives over 8 ranks (broadcast, scatter, gather, reduce), 64 KiB per rank
# fp32, --repeat 4 (the per-op time excludes the one-time group check). Tables on stdout.
#
#   bench/pto_benchmarks.sh [build-dir]        (or: ninja -C build bench-pto)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # args... -> prints op_time_us bandwidth_GBps [issue_us] [one_way_us]
    "$build/t3000" pto "$@" --quiet --json "$tmp/r.json" >/dev/null
    python3 -c "
import json,sys; r=json.load(open('$tmp/r.json'))['results']
assert r['data_check']=='pass', r
print('%.3f %.3f %s %s' % (r['op_time_us'], r['bandwidth_GBps'], r.get('issue_us','-'), r.get('one_way_us','-')))"
}
echo "# 1. size sweep, 1 hop (peer 1), fp32; time per op (us) and GB/s"
printf "%10s %12s %18s %18s %18s %18s\n" bytes shape "put single" "put ping-pong" "get single" "get ping-pong"
for shape in 1x4 4x64 16x256 64x1024 256x1024; do
    rows=${shape%x*} cols=${shape#*x}
    tile="$((rows < 4 ? rows : 4))x$cols"
    line=$(printf "%10d %12s" $((rows * cols * 4)) "$shape")
    for op in put get; do
        for pp in "" "--ping-pong"; do
            set -- $(run --op $op --shape "$shape" --tile "$tile" --repeat 4 $pp)
            line+=$(printf " %9s us %5s" "$1" "$2")
        done
    done
    echo "$line"
done
echo
echo "# 2. hop distance (peers 1..4 around the ring of 8)"
printf "%5s %16s %20s %20s\n" hops "notify one-way" "put 64 KiB (us)" "get 64 KiB (us)"
for peer in 1 2 3 4; do
    set -- $(run --op notify --peer $peer --repeat 4); n=$4
    set -- $(run --op put --peer $peer --shape 16x1024 --tile 4x1024 --repeat 4 --ping-pong); p=$1
    set -- $(run --op get --peer $peer --shape 16x1024 --tile 4x1024 --repeat 4 --ping-pong); g=$1
    printf "%5d %13s us %17s us %17s us\n" $peer "$n" "$p" "$g"
done
echo
echo "# 3. sync vs async (64 KiB, ping-pong): call returned / complete (us)"
for op in put put_async get get_async; do
    set -- $(run --op $op --shape 16x1024 --tile 4x1024 --ping-pong)
    printf "%10s  returned %8s  complete %8s\n" $op "$([ "$3" = - ] && echo "$1" || echo "$3")" "$1"
done
echo
echo "# 4. collectives over 8 ranks, 64 KiB per rank, ping-pong"
for op in broadcast scatter gather reduce; do
    set -- $(run --op $op --shape 16x1024 --tile 4x1024 --ping-pong)
    printf "%10s  %9s us  %6s GB/s\n" $op "$1" "$2"
done
