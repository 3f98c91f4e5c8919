#!/usr/bin/env bash
# Simulation-speed benchmark of issue 10 section 1 (not part of the test run).
#
#   bench/sim_speed.sh [BUILD] [PART...]         (or: ninja -C build bench-speed, which runs "goals")
#
# Parts (any number, in order; default: quick):
#   quick    a minute: T3000 all_gather 32 MiB (EDM, 6144 B), raw Ethernet 128 MiB,
#            EDM stream, Galaxy all_gather 4 MiB, callgrind of a T3000 all_gather 1 MiB
#   t3000    T3000 8-chip ring all_gather 256 MiB: --impl edm --packet 6144 timing and data
#            mode, and the default --impl fabric in timing mode
#   eth      raw Ethernet (n300 eth_bandwidth, 1 GiB per direction, 8 channels) and the full
#            worker -> EDM -> Ethernet -> EDM -> worker path (n300 edm_stream), timing and data
#   galaxy   Galaxy 32-chip ring all_gather 16 MiB and 64 MiB, timing mode
#   galaxy1g Galaxy 32-chip ring all_gather 1 GiB, timing mode (the goal; many minutes today)
#   chips    scaling with chips: Galaxy all_gather on a line of the first 2..32 chips, 1 MiB per chip
#            (a ring needs a wraparound link, which only 2 and 32 chips of the ring order have)
#   sizes    scaling with size: T3000 all_gather (EDM, 6144 B) 1 MiB .. 1 GiB, timing mode
#   instr    instruction counts (callgrind) of small runs: T3000 all_gather 1 and 4 MiB, fabric
#            and EDM (6144 B), with a "per-MiB" line each (4 MiB - 1 MiB, / 3: issue 21's
#            measure), eth_bandwidth 16 MiB, Galaxy all_gather 1 MiB
#   data     data mode against timing mode: T3000 all_gather 32 MiB (fabric, and EDM 6144 B),
#            each with --no-data and with data; a "data/timing" line per pair, and the
#            copies_per_hop column (payload bytes copied per byte landed)
#   ff       --fast-forward against exact simulation (timing mode): T3000 all_gather 256 MiB
#            (fabric) and Galaxy all_gather 16 MiB, each exact and fast-forwarded, a "ff/exact"
#            line per pair (wall, simulated time), then the Galaxy 1 GiB fast-forwarded, then
#            the streams: raw Ethernet 1 GiB with data, the EDM path (edm_stream, 1 GiB per
#            direction, 8 channels both ways) in timing mode, fabric_bandwidth 256 MiB with data
#            (3 hops, 2 workers)
#            (bench/fast_forward_accuracy.py gives the accuracy table)
#   goals    t3000 eth galaxy (what `ninja bench-speed` runs)
#   all      everything above but quick
#
# Before and after: with SPEED_BASELINE=DIR (the build directory of an older tree, or any
# directory holding its board executables and their config/), every case runs on DIR's
# executables and then on BUILD's, in turn, and a "ratio" line gives new/old wall and user
# seconds (and instructions). Rows of the baseline carry "@base" after the case name, and
# SPEED_BASELINE_COMMIT (default "baseline") in the commit column.
#
# Per case it records wall seconds, user CPU seconds, peak RSS, simulated time, Ethernet
# packets on the wire (<= 1500 B payload each) per wall second, calendar events and, when
# `perf stat -e instructions` works on this machine, instructions (else empty: use the instr
# part, callgrind, which is ~50x slower). Wall time on a shared machine is noisy: compare
# user seconds and instructions. Rows are appended to bench/out/sim_speed.csv (or $SPEED_CSV)
# with the commit and date, and printed as a table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[[ $# -gt 0 ]] && shift
parts=("$@")
[[ ${#parts[@]} -eq 0 ]] && parts=(quick)
csv=${SPEED_CSV:-$root/bench/out/sim_speed.csv}
mkdir -p "$(dirname "$csv")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if ! git -C "$root" diff --quiet HEAD 2>/dev/null; then commit="$commit+dirty"; fi
stamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
MiB=1048576
GiB=1073741824

have_perf=0
if perf stat -x, -e instructions true 2> "$tmp/perfprobe" >/dev/null && grep -q '^[0-9]' "$tmp/perfprobe"; then
    have_perf=1
fi
header=commit,date,part,case,board,args,wall_s,user_s,sys_s,peak_rss_mib,sim_time_ns,eth_packets,eth_packets_per_wall_s,events,instructions,data_check,copies_per_hop
# A CSV from an older version of this script (other columns) is kept aside.
if [[ -s $csv && "$(head -1 "$csv")" != "$header" ]]; then mv "$csv" "$csv.old"; fi
[[ -s $csv ]] || echo "$header" > "$csv"
printf '%-9s %-34s %8s %8s %7s %8s %12s %10s %10s %12s %6s %6s\n' part case "wall s" "user s" "sys s" "RSS MiB" "sim us" "eth pkts" "pkt/s" "instr" data copies

# One case, on BUILD's executables or (SPEED_BASELINE) on the old ones and then the new.
measure() {  # how (run1 | callgrind1), part, case, board, args...
    local how=$1 part=$2 name=$3 board=$4; shift 4
    if [[ -n ${SPEED_BASELINE:-} ]]; then
        row_commit=${SPEED_BASELINE_COMMIT:-baseline} "$how" "$SPEED_BASELINE" "$part" "$name@base" "$board" "$@"
        "$how" "$build" "$part" "$name" "$board" "$@"
        ratio "$name"
    else
        "$how" "$build" "$part" "$name" "$board" "$@"
    fi
}
run() { measure run1 "$@"; }              # part, case, board, args...: wall, user, RSS (and perf instructions)
callgrind() { measure callgrind1 "$@"; }  # part, case, board, args...: instruction count under callgrind

run1() {  # build dir, part, case, board, args...
    local dir=$1 part=$2 name=$3 board=$4; shift 4
    local json=$tmp/$name.json instr=""
    local wrap=(/usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time")
    if [[ $have_perf == 1 ]]; then
        wrap=(perf stat -x, -e instructions -o "$tmp/$name.perf" "${wrap[@]}")
    fi
    if ! "${wrap[@]}" "$dir/$board" "$@" --quiet --json "$json" > "$tmp/$name.log" 2>&1; then
        echo "sim_speed: $name failed:" >&2; tail -5 "$tmp/$name.log" >&2; return 0
    fi
    [[ $have_perf == 1 ]] && instr=$(awk -F, '/instructions/ {print $1}' "$tmp/$name.perf")
    [[ -n $instr ]] && echo "$instr" > "$tmp/$name.instr"
    emit "$part" "$name" "$board" "$*" "$json" "$tmp/$name.time" "$instr"
}

ratio() {  # case: new/old of the case and its "@base" twin
    local name=$1
    [[ -s $tmp/$name.time && -s "$tmp/$name@base.time" ]] || return 0
    python3 - "$tmp/$name@base.time" "$tmp/$name.time" "$tmp/$name@base.instr" "$tmp/$name.instr" "$name" <<'PY'
import os, sys
old, new = (open(p).read().split()[-4:] for p in sys.argv[1:3])
ins = [open(p).read().strip() if os.path.exists(p) else "" for p in sys.argv[3:5]]
r = lambda a, b: f"{float(b) / float(a):.3f}" if float(a) > 0 else "-"
extra = f", instructions {r(ins[0], ins[1])}" if all(ins) else ""
print(f"ratio     {sys.argv[5]:<34} new/old: wall {r(old[0], new[0])}, user {r(old[1], new[1])}, RSS {r(old[3], new[3])}{extra}")
PY
}

# Data mode against timing mode: new/new of two cases run on BUILD.
data_vs_timing() {  # data case, timing case
    [[ -s $tmp/$1.time && -s $tmp/$2.time ]] || return 0
    python3 - "$tmp/$2.time" "$tmp/$1.time" "$1" <<'PY'
import sys
t, d = (open(p).read().split()[-4:] for p in sys.argv[1:3])
print(f"data/timing {sys.argv[3]:<32} wall {float(d[0]) / float(t[0]):.2f}x, user {float(d[1]) / float(t[1]):.2f}x, "
      f"RSS {float(d[3]) / 1024:.0f} MiB vs {float(t[3]) / 1024:.0f} MiB")
PY
}

# Fast-forward against exact: new/new of two cases run on BUILD.
ff_vs_exact() {  # ff case, exact case
    [[ -s $tmp/$1.time && -s $tmp/$2.time && -s $tmp/$1.json && -s $tmp/$2.json ]] || return 0
    python3 - "$tmp/$2" "$tmp/$1" "$1" <<'PY'
import json, sys
e, f = ([float(x) for x in open(p + ".time").read().split()[-4:]] for p in sys.argv[1:3])
se, sf = (json.load(open(p + ".json"))["sim_time_ns"] for p in sys.argv[1:3])
print(f"ff/exact  {sys.argv[3]:<34} wall {f[0] / e[0]:.3f}x ({f[0]:.2f} vs {e[0]:.2f} s), "
      f"simulated time {100 * (sf / se - 1):+.3f} %")
PY
}

# Marginal instructions per MiB of output: (4 MiB run - 1 MiB run) / 3, set-up cancelled
# (issue 21's measure), for BUILD's runs and, with SPEED_BASELINE, the baseline's.
per_mib() {  # 4 MiB case, 1 MiB case, label
    local suffix
    for suffix in @base ""; do
        [[ -s $tmp/$1$suffix.instr && -s $tmp/$2$suffix.instr ]] || continue
        echo "per-MiB   all_gather --impl $3${suffix:+ (baseline)}: $(( ($(cat "$tmp/$1$suffix.instr") - $(cat "$tmp/$2$suffix.instr")) / 3 / 1000000 )) M instructions per MiB of output (4 MiB run - 1 MiB run, / 3)"
    done
}

callgrind1() {  # build dir, part, case, board, args...
    local dir=$1 part=$2 name=$3 board=$4; shift 4
    local json=$tmp/$name.json
    if ! /usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time" valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.cg" \
            "$dir/$board" "$@" --quiet --json "$json" > "$tmp/$name.log" 2>&1; then
        echo "sim_speed: $name failed under callgrind:" >&2; tail -5 "$tmp/$name.log" >&2; return 0
    fi
    local instr
    instr=$(awk '/^summary:/ {print $2}' "$tmp/$name.cg")
    echo "$instr" > "$tmp/$name.instr"
    emit "$part" "$name" "$board" "$* (callgrind)" "$json" "$tmp/$name.time" "$instr"
}

emit() {  # part, case, board, args, json, timefile, instructions
    python3 - "$@" "${row_commit:-$commit}" "$stamp" "$csv" <<'PY'
import csv, json, sys
part, name, board, args, jpath, tpath, instr, commit, stamp, out = sys.argv[1:11]
j = json.load(open(jpath)); s = j.get("stats", {})
wall, user, sys_s, rss_kb = open(tpath).read().split()[-4:]
wall, user, sys_s, rss = float(wall), float(user), float(sys_s), float(rss_kb) / 1024
pk = s.get("eth_packets", 0)
cph = j.get("results", {}).get("copies_per_hop", "")
row = [commit, stamp, part, name, board, args, f"{wall:.2f}", f"{user:.2f}", f"{sys_s:.2f}", f"{rss:.1f}", j.get("sim_time_ns", ""),
       pk, f"{pk / wall:.0f}" if wall > 0 else "", s.get("events", ""), instr, j.get("data_check", ""),
       f"{cph:.3f}" if cph != "" else ""]
with open(out, "a", newline="") as f: csv.writer(f).writerow(row)
print(f"{part:<9} {name:<34} {wall:8.2f} {user:8.2f} {sys_s:7.2f} {rss:8.1f} {float(j.get('sim_time_ns', 0))/1e3:12.1f} "
      f"{pk:10d} {pk / wall if wall > 0 else 0:10.0f} {instr or '-':>12} {j.get('data_check', ''):>6} "
      f"{f'{cph:.3f}' if cph != '' else '-':>6}")
PY
}

expand=()
for p in "${parts[@]}"; do
    case $p in
        goals) expand+=(t3000 eth galaxy) ;;
        all) expand+=(t3000 eth galaxy chips sizes instr data ff galaxy1g) ;;
        quick|t3000|eth|galaxy|galaxy1g|chips|sizes|instr|data|ff) expand+=("$p") ;;
        *) echo "sim_speed: unknown part '$p' (quick t3000 eth galaxy galaxy1g chips sizes instr data ff goals all)" >&2; exit 2 ;;
    esac
done

for p in "${expand[@]}"; do
    case $p in
    quick)
        run quick t3000_ag_32M_edm_timing t3000 all_gather --size 32M --no-data --impl edm --packet 6144
        run quick eth_bandwidth_128M_timing n300 eth_bandwidth --packet 4096 --channels 8 --bytes $((128 * MiB)) --no-data
        run quick edm_stream_128M_timing n300 edm_stream --packet 4096 --channels 8 --bidir --packets $((128 * MiB / 4096 / 8)) --no-data
        run quick galaxy_ag_4M_timing galaxy all_gather --size 4M --no-data
        callgrind quick t3000_ag_1M_edm_callgrind t3000 all_gather --size 1M --no-data --impl edm --packet 6144
        ;;
    t3000)
        run t3000 t3000_ag_256M_edm_timing t3000 all_gather --size 256M --no-data --impl edm --packet 6144
        run t3000 t3000_ag_256M_edm_data t3000 all_gather --size 256M --impl edm --packet 6144
        run t3000 t3000_ag_256M_fabric_timing t3000 all_gather --size 256M --no-data
        ;;
    eth)
        run eth eth_bandwidth_1G_timing n300 eth_bandwidth --packet 4096 --channels 8 --bytes $GiB --no-data
        run eth eth_bandwidth_1G_data n300 eth_bandwidth --packet 4096 --channels 8 --bytes $GiB
        run eth edm_stream_1G_timing n300 edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8)) --no-data
        run eth edm_stream_1G_data n300 edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8))
        ;;
    galaxy)
        run galaxy galaxy_ag_16M_timing galaxy all_gather --size 16M --no-data
        run galaxy galaxy_ag_64M_timing galaxy all_gather --size 64M --no-data
        ;;
    galaxy1g)
        run galaxy1g galaxy_ag_1G_timing galaxy all_gather --size 1G --no-data
        ;;
    chips)
        for n in 2 4 8 16 32; do
            run chips "galaxy_ag_${n}chips_line_1MiB_per_chip" galaxy all_gather --chips "$n" --topology line --size "${n}M" --no-data
        done
        ;;
    sizes)
        for s in 1M 4M 16M 64M 256M 1G; do
            run sizes "t3000_ag_${s}_edm_timing" t3000 all_gather --size "$s" --no-data --impl edm --packet 6144
        done
        ;;
    data)
        run data t3000_ag_32M_fabric_timing t3000 all_gather --size 32M --no-data
        run data t3000_ag_32M_fabric_data t3000 all_gather --size 32M
        data_vs_timing t3000_ag_32M_fabric_data t3000_ag_32M_fabric_timing
        run data t3000_ag_32M_edm_timing t3000 all_gather --size 32M --no-data --impl edm --packet 6144
        run data t3000_ag_32M_edm_data t3000 all_gather --size 32M --impl edm --packet 6144
        data_vs_timing t3000_ag_32M_edm_data t3000_ag_32M_edm_timing
        ;;
    ff)
        run ff t3000_ag_256M_fabric_timing t3000 all_gather --size 256M --no-data
        run ff t3000_ag_256M_fabric_ff t3000 --fast-forward all_gather --size 256M --no-data
        ff_vs_exact t3000_ag_256M_fabric_ff t3000_ag_256M_fabric_timing
        run ff galaxy_ag_16M_timing galaxy all_gather --size 16M --no-data
        run ff galaxy_ag_16M_ff galaxy --fast-forward all_gather --size 16M --no-data
        ff_vs_exact galaxy_ag_16M_ff galaxy_ag_16M_timing
        run ff galaxy_ag_1G_ff galaxy --fast-forward all_gather --size 1G --no-data
        run ff eth_bandwidth_1G_data n300 eth_bandwidth --packet 4096 --channels 8 --bytes $GiB
        run ff eth_bandwidth_1G_data_ff n300 --fast-forward eth_bandwidth --packet 4096 --channels 8 --bytes $GiB
        ff_vs_exact eth_bandwidth_1G_data_ff eth_bandwidth_1G_data
        run ff edm_stream_1G_timing n300 edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8)) --no-data
        run ff edm_stream_1G_timing_ff n300 --fast-forward edm_stream --packet 4096 --channels 8 --bidir --packets $((GiB / 4096 / 8)) --no-data
        ff_vs_exact edm_stream_1G_timing_ff edm_stream_1G_timing
        run ff fabric_bandwidth_256M_data t3000 fabric_bandwidth --hops 3 --workers 2 --bytes 256M
        run ff fabric_bandwidth_256M_data_ff t3000 --fast-forward fabric_bandwidth --hops 3 --workers 2 --bytes 256M
        ff_vs_exact fabric_bandwidth_256M_data_ff fabric_bandwidth_256M_data
        ;;
    instr)
        for impl in fabric edm; do
            args=(--impl "$impl"); [[ $impl == edm ]] && args+=(--packet 6144)
            for size in 1M 4M; do
                callgrind instr "t3000_ag_${size}_${impl}_callgrind" t3000 all_gather --size "$size" --no-data "${args[@]}"
            done
            per_mib "t3000_ag_4M_${impl}_callgrind" "t3000_ag_1M_${impl}_callgrind" "$impl"
        done
        callgrind instr eth_bandwidth_16M_callgrind n300 eth_bandwidth --packet 4096 --channels 8 --bytes $((16 * MiB)) --no-data
        callgrind instr galaxy_ag_1M_callgrind galaxy all_gather --size 1M --no-data
        ;;
    esac
done
echo "sim_speed: rows appended to $csv"
