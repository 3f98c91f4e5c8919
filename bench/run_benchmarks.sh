#!/usr/bin/env bash
# Simulation-speed benchmarks (not part of the test run).
#
#   bench/run_benchmarks.sh [build-dir] [eth|ccl|all]      (or: ninja -C build bench)
#
# eth: wall seconds, simulated Ethernet packets per wall second and peak
#      memory for 1 GiB per direction through the raw link (eth_bandwidth) and
#      the full worker -> EDM -> EDM -> worker path (edm_stream), data on/off.
#      "Ethernet packets" are packets on the wire (<= 1500 B payload each);
#      the table also lists eth_send_packet commands and EDM messages.
# ccl: a T3000 8-chip ring all_gather of 256 MiB (timing and data mode) and a
#      Galaxy 32-chip ring all_gather of 1 GiB (timing mode): wall seconds,
#      simulated time, EDM messages per wall second and peak memory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
what=${2:-all}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
GiB=1073741824

eth_run() {  # name, n300 args...
    local name=$1; shift
    "$build/n300" "$@" --quiet --json "$out/$name.json"
    python3 - "$out/$name.json" "$name" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); s = j["stats"]; r = j["results"]
msgs = r.get("messages", 0)
print(f"{sys.argv[2]:<28} {j['wall_seconds']:8.2f} {s['eth_packets']/1e6:9.2f}M {s['eth_packets_per_wall_second']/1e6:8.2f}M "
      f"{s['eth_commands_per_wall_second']/1e3:8.0f}k {msgs/j['wall_seconds']/1e3 if msgs else 0:8.0f}k "
      f"{j['peak_rss_mib']:8.1f} {r['payload_GBps_per_direction']:7.2f} {j['data_check']:>5}")
PY
}

ccl_run() {  # name, board, args...
    local name=$1 board=$2; shift 2
    local t0=$(date +%s.%N)
    "$build/$board" "$@" --quiet --json "$out/$name.json"
    local t1=$(date +%s.%N)
    python3 - "$out/$name.json" "$name" "$t0" "$t1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); s = j["stats"]; r = j["results"]
total = float(sys.argv[4]) - float(sys.argv[3])
print(f"{sys.argv[2]:<34} {j['wall_seconds']:8.2f} {total:8.2f} {j['sim_time_us']:10.1f} {s['eth_commands']/1e6:8.2f}M "
      f"{s['eth_commands']/j['wall_seconds']/1e3:8.0f}k {j['peak_rss_mib']:8.0f} {j['busbw_GBps']:7.2f} {j['data_check']:>5}")
PY
}

if [[ $what == eth || $what == all ]]; then
    printf '%-28s %8s %10s %9s %9s %9s %8s %7s %5s\n' "benchmark (1 GiB/direction)" "wall s" "packets" "pkt/s" "cmd/s" "msg/s" "RSS MiB" "GB/s" "data"
    eth_run eth_bandwidth_data    eth_bandwidth --packet 4096 --channels 8 --bytes $GiB
    eth_run eth_bandwidth_nodata  eth_bandwidth --packet 4096 --channels 8 --bytes $GiB --no-data
    eth_run edm_stream_data       edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8))
    eth_run edm_stream_nodata     edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8)) --no-data
fi
if [[ $what == ccl || $what == all ]]; then
    echo
    printf '%-34s %8s %8s %10s %9s %9s %8s %7s %5s\n' "collective" "sim s" "total s" "sim us" "eth cmds" "cmd/s" "RSS MiB" "busbw" "data"
    ccl_run t3000_ag_256M_timing  t3000 all_gather --size 256M --no-data
    ccl_run t3000_ag_256M_data    t3000 all_gather --size 256M
    ccl_run galaxy_ag_1G_timing   galaxy all_gather --size 1G --no-data
fi
