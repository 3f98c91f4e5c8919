#!/usr/bin/env bash
# Replay every tt-metal NoC event trace (*.json) of a directory on one chip and
# tabulate the model's duration against the measured one, with the geometric
# mean of |error| (the geometric mean of |model/measured - 1| over the traces).
# Nothing is downloaded: point it at a directory of traces, e.g. tt-npe's
# tt_npe/workload/noc_trace_json (docs/noc-trace.md).
#
#   bench/noc_trace_replay.sh TRACE-DIR [build-dir] [out.csv] [board]
#   (or: cmake -B build -DCCLSIM_NOC_TRACES=TRACE-DIR && ninja -C build bench-noc-trace)
# Writes out.csv (trace, model_cycles, measured_cycles, error_pct) and prints the table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-}
if [ -z "$dir" ]; then
    echo "usage: noc_trace_replay.sh TRACE-DIR [build-dir] [out.csv] [board]" >&2
    echo "  (for the bench-noc-trace target: cmake -B build -DCCLSIM_NOC_TRACES=TRACE-DIR)" >&2
    exit 2
fi
build=${2:-$root/build}
out=${3:-$build/bench-out/noc_trace_replay.csv}
board=${4:-n300}
[ -d "$dir" ] || { echo "noc_trace_replay.sh: $dir is not a directory" >&2; exit 2; }
[ -x "$build/$board" ] || { echo "noc_trace_replay.sh: $build/$board not built" >&2; exit 2; }
shopt -s nullglob
traces=("$dir"/*.json)
[ ${#traces[@]} -gt 0 ] || { echo "noc_trace_replay.sh: no *.json in $dir" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
printf '%s\n' "${traces[@]}" | xargs -P "$jobs" -I{} sh -c \
    'f="$1"; b=$(basename "$f" .json); "$2" noc_trace --trace "$f" --json "$3/$b.json" >"$3/$b.log" 2>&1 || echo "$f" >>"$3/failed"' \
    _ {} "$build/$board" "$tmp"
if [ -f "$tmp/failed" ]; then
    echo "noc_trace_replay.sh: replay failed for:" >&2
    while read -r f; do echo "  $f: $(tail -n 3 "$tmp/$(basename "$f" .json).log")" >&2; done <"$tmp/failed"
    exit 1
fi
python3 - "$tmp" "$out" <<'PY'
import glob, json, math, os, sys
tmp, out = sys.argv[1], sys.argv[2]
rows = []
for f in sorted(glob.glob(os.path.join(tmp, "*.json"))):
    r = json.load(open(f))["results"]
    name = os.path.basename(f)[:-5]
    rows.append((name, r["model_cycles"], r["measured_cycles"], r["model_cycles"] / r["measured_cycles"] - 1))
with open(out, "w") as o:
    o.write("trace,model_cycles,measured_cycles,error_pct\n")
    for n, m, h, e in rows:
        o.write(f"{n},{m:.0f},{h:.0f},{100 * e:.2f}\n")
print(f"{'trace':34} {'model':>8} {'measured':>9} {'error':>8}")
for n, m, h, e in rows:
    print(f"{n:34} {m:8.0f} {h:9.0f} {100 * e:+7.1f}%")
# |error| of 0 would zero the geometric mean: floor each term at 0.01%.
gm = math.exp(sum(math.log(max(abs(e), 1e-4)) for *_, e in rows) / len(rows))
mean = sum(abs(e) for *_, e in rows) / len(rows)
print(f"{len(rows)} traces: geometric mean |error| {100 * gm:.2f}%, mean |error| {100 * mean:.2f}%, "
      f"max |error| {100 * max(abs(e) for *_, e in rows):.1f}%   ({out})")
PY
