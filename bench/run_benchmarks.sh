#!/usr/bin/env bash
# Simulation-speed benchmarks (not part of the test run): wall seconds,
# simulated Ethernet packets per wall second and peak memory for 1 GiB per
# direction through the raw link (eth_bandwidth) and through the full
# worker -> EDM -> EDM -> worker path (edm_stream), with data on and off.
#
#   bench/run_benchmarks.sh [build-dir]     (or: ninja -C build bench)
#
# "Ethernet packets" are packets on the wire (<= 1500 B payload each); the
# table also lists eth_send_packet commands and, for edm_stream, EDM messages.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
GiB=1073741824

run() {  # name, board args...
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

printf '%-28s %8s %10s %9s %9s %9s %8s %7s %5s\n' "benchmark (1 GiB/direction)" "wall s" "packets" "pkt/s" "cmd/s" "msg/s" "RSS MiB" "GB/s" "data"
run eth_bandwidth_data    eth_bandwidth --packet 4096 --channels 8 --bytes $GiB
run eth_bandwidth_nodata  eth_bandwidth --packet 4096 --channels 8 --bytes $GiB --no-data
run edm_stream_data       edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8))
run edm_stream_nodata     edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8)) --no-data
