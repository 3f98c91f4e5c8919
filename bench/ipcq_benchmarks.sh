#!/usr/bin/env bash
# PE_IPCQ benchmarks of docs/design/pe-ipcq.md (not part of the test run).
#
#   bench/ipcq_benchmarks.sh [build-dir] [ring|vc|all] [size-per-rank]   (or: ninja -C build bench-ipcq)
#
# ring: the bidirectional ring all-reduce on the T3000 (8 chips x 8 cores = 64
#       ranks) and the Galaxy (32 x 8 = 256 ranks), every buffer_kind (tcm,
#       hbm, sram) x backpressure (poll, sleep) x n_slots (2, 4, 8), 4 KB
#       slots, bf16, 1 MiB per rank (default): simulated time, algbw, busbw,
#       wall seconds, data check. Each point is its own ccl.yaml (generated).
# vc:   one IPCQ send/recv between adjacent cores with and without a
#       concurrent vc_compute stream (8 KB writes to DRAM from the sender's
#       core), PE_DMA weights vc_compute:vc_comm 50:50, 80:20 and 20:80, on
#       one chip and across one Ethernet hop.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
what=${2:-all}
size=${3:-1M}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ring_point() {  # board kind backpressure slots
    local board=$1 kind=$2 bp=$3 slots=$4 name="$1_$2_$3_$4"
    cat > "$out/$name.yaml" <<YAML
defaults:
  algorithm: ring
  buffer_kind: $kind
  backpressure: $bp
  n_slots: $slots
  slot_size: 4096
algorithms:
  ring: {kernel: ring_allreduce, topology: ring_1d}
YAML
    "$build/$board" ipcq_allreduce --ccl "$out/$name.yaml" --size "$size" --quiet --json "$out/$name.json" || true
    python3 - "$out/$name.json" "$board" "$kind" "$bp" "$slots" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); r = j["results"]
if not r:
    print(f"{sys.argv[2]:<7} {sys.argv[3]:<5} {sys.argv[4]:<6} {sys.argv[5]:>5}  error: {j.get('error', '?')[:60]}")
    sys.exit(0)
print(f"{sys.argv[2]:<7} {sys.argv[3]:<5} {sys.argv[4]:<6} {sys.argv[5]:>5} {r['world_size']:>6} {r['size_bytes']:>9} "
      f"{r['sim_time_us']:10.2f} {r['algbw_GBps']:8.3f} {r['busbw_GBps']:8.3f} {j['wall_seconds']:8.2f} {j['peak_rss_mib']:8.0f} "
      f"{j['data_check']:>5}")
PY
}

vc_point() {  # peer stream weights
    local peer=$1 stream=$2 weights=$3 name="vc_$1_$2_${3/:/_}"
    local args=(ipcq_latency --peer "$peer" --samples 200 --compute-stream "$stream")
    [[ -n $weights ]] && args+=(--vc-weights "$weights")
    "$build/n300" "${args[@]}" --quiet --json "$out/$name.json"
    python3 - "$out/$name.json" "$peer" "$stream" "${weights:-50:50}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(f"{sys.argv[2]:<10} {('none' if sys.argv[3] == '0' else sys.argv[3] + ' B'):>8} {sys.argv[4]:>8} "
      f"{r['raw_write_ns']:9.1f} {r['ipcq_ns']:9.1f} {r['ipcq_overhead_ns']:+9.1f} {r['ipcq_copy_ns']:9.1f}")
PY
}

if [[ $what == ring || $what == all ]]; then
    printf '%-7s %-5s %-6s %5s %6s %9s %10s %8s %8s %8s %8s %5s\n' board kind bp slots ranks "B/rank" "sim us" \
        "algbw" "busbw" "wall s" "RSS MiB" data
    for board in t3000 galaxy; do
        for kind in tcm hbm sram; do
            for bp in poll sleep; do
                for slots in 2 4 8; do ring_point "$board" "$kind" "$bp" "$slots"; done
            done
        done
    done
fi
if [[ $what == vc || $what == all ]]; then
    echo
    printf '%-10s %8s %8s %9s %9s %9s %9s\n' peer compute "weights" "raw ns" "ipcq ns" overhead "copy ns"
    for peer in same_chip eth_hop; do
        vc_point "$peer" 0 ""
        for w in 50:50 80:20 20:80; do vc_point "$peer" 8192 "$w"; done
    done
fi
