#!/usr/bin/env bash
# The layer rule of cmake/CclsimLayers.cmake holds: builds the probe project
# (probe/) three ways and checks that
#   - a firmware library that includes a models header builds,
#   - a firmware source that includes "runtime/ConfigDir.h" fails to compile
#     (the firmware include root has no runtime/),
#   - a firmware library that links the runtime stops the configuration with
#     the layering message naming both targets.
# Usage: check_layers.sh SOURCE_ROOT WORK_DIR [CMAKE [CMAKE-ARG...]]
# The test passes the generator, its build program and the compiler of the
# build that runs it: a fresh machine has Ninja but not necessarily make,
# which is CMake's default generator.
set -euo pipefail
root=$1 work=$2 cmake=${3:-cmake}
shift $(($# < 3 ? $# : 3))
cmake_args=("$@")
rm -rf "$work"
mkdir -p "$work"
fail() { echo "check_layers: $*" >&2; exit 1; }

probe() {  # probe NAME: configure (and build) into $work/NAME; output in $work/NAME.log
    local name=$1 dir=$work/$1
    if "$cmake" -S "$root/tests/packaging/layers/probe" -B "$dir" "${cmake_args[@]}" -DCCLSIM_ROOT="$root" \
        -DPROBE="$name" >"$dir.log" 2>&1; then
        "$cmake" --build "$dir" >>"$dir.log" 2>&1
    else
        return 1
    fi
}

probe ok || { cat "$work/ok.log" >&2; fail "the allowed case (firmware includes models) does not build"; }
echo "check_layers: firmware including models/ builds"

if probe include; then fail "a firmware source including runtime/ConfigDir.h compiled"; fi
grep -q 'runtime/ConfigDir.h: No such file' "$work/include.log" ||
    { cat "$work/include.log" >&2; fail "the include probe failed, but not for the missing runtime/ header"; }
echo "check_layers: firmware including runtime/ does not compile: $(grep -m1 'No such file' "$work/include.log")"

if probe link; then fail "a firmware library linking the runtime configured"; fi
# CMake wraps long messages: compare with the lines joined.
tr -s ' \n' ' ' <"$work/link.log" | grep -q 'layering: cclsim_fw_probe (layer firmware) links cclsim_runtime (layer runtime)' ||
    { cat "$work/link.log" >&2; fail "the link probe failed, but not with the layering message"; }
echo "check_layers: firmware linking the runtime stops the configuration:"
grep -A3 'layering:' "$work/link.log" | sed 's/^/  /'
