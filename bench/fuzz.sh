#!/usr/bin/env bash
# Fuzz the configuration readers and the board command line with the
# libFuzzer harnesses of fuzz/ (docs/testing.md#fuzzing). Not part of the test
# suite: it installs clang-14 and libFuzzer (Debian packages; needs root or
# password-less sudo when they are missing) and builds its own tree,
# build-fuzz/ (clang, every object with ASan + UBSan and coverage hooks).
#
#   bench/fuzz.sh [MINUTES] [HARNESS...]     (default: 2 minutes, every harness)
#
# HARNESS is a name of build-fuzz/fuzz/fuzzers.txt, with or without the
# fuzz_ prefix (arch, cluster, ccl_config, methods, inputs, sweep_spec,
# board_cli, fault_plan). Each runs MINUTES on one core from its seed corpus
# fuzz/corpus/<name>/ (read only) plus a work corpus bench/out/fuzz/<name>/
# corpus/ that grows across runs. A finding (crash, UB, undocumented
# exception, error that does not name the file, hang over 10 s, more than
# 2 GiB) stops that harness and is kept as bench/out/fuzz/<name>/finding-*;
# reproduce with build-fuzz/fuzz/fuzz_<name> FILE. Prints executions and
# findings per harness; exits 1 if there was any finding.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MINUTES=${1:-2}
shift || true
BUILD=$ROOT/build-fuzz
OUT=$ROOT/bench/out/fuzz

say() { echo "fuzz: $*"; }
die() { echo "fuzz: error: $*" >&2; exit 2; }
[[ $MINUTES =~ ^[0-9]+([.][0-9]+)?$ ]] || die "MINUTES must be a number, got '$MINUTES' (usage: bench/fuzz.sh [MINUTES] [HARNESS...])"

# --- packages -------------------------------------------------------------------
need=()
for p in clang-14 libfuzzer-14-dev; do
    [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || need+=("$p")
done
if ((${#need[@]})); then
    SUDO=
    ((EUID == 0)) || SUDO="sudo -n"
    say "installing ${need[*]} (apt-get) ..."
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
        { $SUDO apt-get update -q >/dev/null 2>&1 &&
          $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null 2>&1; } ||
        die "cannot install ${need[*]}: run as root or install them"
fi

# --- build ----------------------------------------------------------------------
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug \
      -DCCLSIM_FUZZ=ON -DCCLSIM_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
mapfile -t all < "$BUILD/fuzz/fuzzers.txt"
harnesses=()
if (($#)); then
    for h in "$@"; do
        h=fuzz_${h#fuzz_}
        printf '%s\n' "${all[@]}" | grep -qx "$h" || die "no harness '$h' (harnesses: ${all[*]})"
        harnesses+=("$h")
    done
else
    harnesses=("${all[@]}")
fi
say "building ${harnesses[*]} in $BUILD ..."
nice ninja -C "$BUILD" "${harnesses[@]}" >"$BUILD/fuzz/build.log" 2>&1 || { tail -30 "$BUILD/fuzz/build.log"; die "build failed ($BUILD/fuzz/build.log)"; }

# --- run ------------------------------------------------------------------------
seconds=$(awk -v m="$MINUTES" 'BEGIN { s = int(m * 60); print (s < 1 ? 1 : s) }')
export CCLSIM_CONFIG_DIR=$ROOT/platforms
total_findings=0
summary=()
for h in "${harnesses[@]}"; do
    name=${h#fuzz_}
    work=$OUT/$name
    mkdir -p "$work/corpus"
    seeds=$ROOT/fuzz/corpus/$name
    [[ -d $seeds ]] || die "no seed corpus $seeds"
    log=$work/fuzz.log
    before=$(find "$work" -maxdepth 1 -name 'finding-*' | wc -l)
    say "$name: ${seconds} s (log $log) ..."
    set +e
    "$BUILD/fuzz/$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/finding-" "$work/corpus" "$seeds" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log" | tail -1)
    if [[ -z $execs ]]; then  # a finding ends the run before the final stats
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    fi
    after=$(find "$work" -maxdepth 1 -name 'finding-*' | wc -l)
    new=$((after - before))
    ((rc == 0)) || ((new > 0)) || new=1  # stopped without an artifact (e.g. a crash of libFuzzer itself)
    total_findings=$((total_findings + new))
    corp=$(find "$work/corpus" -type f | wc -l)
    line=$(printf '%-12s %6ss %12s execs %6s corpus %3s findings' "$name" "$seconds" "${execs:-?}" "$corp" "$new")
    summary+=("$line")
    if ((new > 0)); then
        grep -E 'fuzz finding|ERROR: |SUMMARY: |runtime error' "$log" | head -5 | sed 's/^/    /'
        summary+=("    see $log; reproduce: $BUILD/fuzz/$h $(ls -t "$work"/finding-* 2>/dev/null | head -1)")
    fi
done
echo
say "summary (harness, time, executions, work corpus size, findings):"
printf '  %s\n' "${summary[@]}"
((total_findings == 0)) || exit 1
