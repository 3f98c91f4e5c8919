#!/usr/bin/env bash
# Timing guard for simulation-speed work (not part of the test run).
#
#   bench/timing_guard.sh record  BUILD OUT.csv          run the guard workloads, store their figures
#   bench/timing_guard.sh compare BUILD BASE.csv [NEW.csv] run them again (or read NEW.csv) and compare
#
# A speed change must not move the model's timing. The guard runs every row of
# the calibration table (platforms/calibration/wormhole_public.csv) and a set of
# collectives and microbenchmarks (T3000 all_gather / reduce_scatter /
# all_reduce / all_to_all at 1 MiB and 16 MiB with --impl edm and fabric, the
# fabric reduce_scatter / all_reduce at 64 KiB (the direct reduce-scatter), the
# all_gather / all_reduce at 16 MiB on 2- and 4-chip lines, the
# Galaxy all_gather at 4 MiB, n300 eth_ping / eth_bandwidth / edm_stream,
# ring_ping, dispatch, dram_bandwidth, ipcq_allreduce / ipcq_latency, PTO put /
# get / gather), each with
# --json, and stores one row per case and figure: sim_time_ns and every numeric
# leaf of "results" (to the full precision of the JSON) except wall-clock,
# memory and simulator-cost figures (copies_per_hop). compare prints the largest relative change of any figure and
# of sim_time_ns, lists every figure that moved more than 1e-9, and exits 1 if
# anything moved more than 0.1 % (the limit of issue 10) or a case is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}; build=${2:-}; file=${3:-}
if [[ $mode != record && $mode != compare ]] || [[ -z $build || -z $file ]]; then
    echo "usage: $0 record BUILD OUT.csv | $0 compare BUILD BASE.csv [NEW.csv]" >&2; exit 2
fi
newfile=${4:-}
jobs=${GUARD_JOBS:-2}

cases() {  # name|board|args  (one per line)
    python3 - "$root/platforms/calibration/wormhole_public.csv" <<'PY'
import csv, sys
seen = set()
for row in csv.reader(l for l in open(sys.argv[1]) if not l.startswith('#')):
    if row[0] == 'name' or len(row) < 5: continue
    board, wl, opts = row[1], row[2], row[3]
    key = (board, wl, opts)
    if key in seen: continue
    seen.add(key)
    name = f"calib:{board}:{wl}:{opts}".replace(' ', '_')
    print(f"{name}|{board}|{wl} {opts}")
PY
    for impl in edm fabric; do
        for op in all_gather reduce_scatter all_reduce all_to_all; do
            for size in 1M 16M; do
                echo "t3000:$op:$size:$impl|t3000|$op --size $size --impl $impl"
            done
        done
    done
    echo "t3000:all_gather:256K:edm:data|t3000|all_gather --size 256K --impl edm"
    # The direct (one-shot) reduce-scatter, alone and as all_reduce's first op.
    for op in reduce_scatter all_reduce; do
        echo "t3000:$op:64K:fabric|t3000|$op --size 64K --impl fabric"
    done
    # Lines: the multicast all-gather (one worker per link) and the all-reduce around it.
    for chips in 2 4; do
        for op in all_gather all_reduce; do
            echo "t3000:$op:16M:line$chips|t3000|$op --size 16M --chips $chips --topology line --no-data"
        done
    done
    echo "galaxy:all_gather:4M|galaxy|all_gather --size 4M --no-data"
    echo "n300:eth_ping|n300|eth_ping --samples 20"
    echo "n300:eth_bandwidth:64M|n300|eth_bandwidth --packet 4096 --channels 8 --bytes 67108864 --no-data"
    echo "n300:edm_stream|n300|edm_stream --packet 4096 --channels 8 --bidir --packets 256"
    echo "t3000:ring_ping|t3000|ring_ping --hops 8"
    echo "n300:dispatch|n300|dispatch --processors all"
    echo "t3000:dram_bandwidth|t3000|dram_bandwidth"
    echo "t3000:ipcq_allreduce|t3000|ipcq_allreduce --size 1M"
    echo "t3000:ipcq_latency|t3000|ipcq_latency --samples 20"
    # PTO on the fabric's UDM mode: puts through the mux, gets through the read relays.
    for op in put get gather; do
        echo "t3000:pto:$op|t3000|pto --op $op --shape 16x1024 --tile 4x1024 --ping-pong --repeat 4"
    done
}

run_all() {  # out.csv
    local out=$1 tmp; tmp=$(mktemp -d)
    cases > "$tmp/cases"
    # One process per case, $jobs at a time.
    local i=0
    while IFS='|' read -r name board args; do
        i=$((i + 1))
        echo "$i|$name|$board|$args"
    done < "$tmp/cases" > "$tmp/list"
    xargs -P "$jobs" -I{} -d '\n' bash -c '
        IFS="|" read -r i name board args <<< "$1"
        # shellcheck disable=SC2086
        if ! "'"$build"'/$board" $args --quiet --json "'"$tmp"'/$i.json" > "'"$tmp"'/$i.log" 2>&1; then
            echo "timing_guard: $name failed:" >&2; tail -5 "'"$tmp"'/$i.log" >&2; rm -f "'"$tmp"'/$i.json"
        fi' _ {} < "$tmp/list"
    python3 - "$tmp" "$out" <<'PY'
import csv, json, os, sys
tmp, out = sys.argv[1], sys.argv[2]
skip = ('wall', 'rss', 'per_second', 'copies_per_hop')
rows = []
def leaves(prefix, v):
    if isinstance(v, bool): return
    if isinstance(v, (int, float)):
        yield prefix, v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from leaves(f"{prefix}.{k}", x)
    elif isinstance(v, list):
        for k, x in enumerate(v):
            yield from leaves(f"{prefix}[{k}]", x)
for line in open(os.path.join(tmp, 'list')):
    i, name, board, args = line.rstrip('\n').split('|', 3)
    path = os.path.join(tmp, f"{i}.json")
    if not os.path.exists(path):
        rows.append((name, 'FAILED', '')); continue
    j = json.load(open(path))
    rows.append((name, 'sim_time_ns', repr(j['sim_time_ns'])))
    for k, v in leaves('results', j.get('results', {})):
        if any(s in k for s in skip): continue
        rows.append((name, k, repr(v)))
with open(out, 'w', newline='') as f:
    w = csv.writer(f); w.writerow(('case', 'figure', 'value')); w.writerows(rows)
print(f"timing_guard: {len(set(r[0] for r in rows))} cases, {len(rows)} figures -> {out}")
PY
    rm -rf "$tmp"
}

if [[ $mode == record ]]; then
    run_all "$file"
    exit 0
fi
if [[ -z $newfile ]]; then
    newfile=$(mktemp --suffix=.csv)
    run_all "$newfile"
fi
python3 - "$file" "$newfile" <<'PY'
import csv, sys
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        d[(r['case'], r['figure'])] = r['value']
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
worst, worst_sim, moved, bad = 0.0, 0.0, [], False
for k, va in a.items():
    if k not in b or b[k] == '' or k[1] == 'FAILED':
        print(f"MISSING {k[0]} {k[1]}"); bad = True; continue
    x, y = float(va), float(b[k])
    rel = abs(y - x) / abs(x) if x != 0 else (0.0 if y == 0 else float('inf'))
    worst = max(worst, rel)
    if k[1] == 'sim_time_ns': worst_sim = max(worst_sim, rel)
    if rel > 1e-9: moved.append((rel, k, x, y))
for rel, k, x, y in sorted(moved, reverse=True)[:40]:
    print(f"moved {rel*100:10.6f} %  {k[0]}  {k[1]}: {x!r} -> {y!r}")
cases = len(set(k[0] for k in a))
print(f"timing_guard: {cases} cases, {len(a)} figures; max relative change {worst*100:.6f} % "
      f"(sim_time_ns: {worst_sim*100:.6f} %); {len(moved)} figure(s) moved")
sys.exit(1 if bad or worst > 1e-3 else 0)
PY
