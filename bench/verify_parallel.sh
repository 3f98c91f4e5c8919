#!/usr/bin/env bash
# Verify the sweep tool's GNU parallel path: the job list of a sweep spec is
# run by GNU parallel through --sshloginfile (here a login file naming only
# this machine, ':'; on a cluster list your hosts, e.g. '8/user@node1', with
# the build and the sweep directory at the same paths on every host), merged,
# and compared with the same spec run by the sweep tool itself with -j.
# Not part of the test suite (it installs Debian's parallel if missing).
#
#   bench/verify_parallel.sh [SPEC.yaml]      (default: bench/specs/n300_small.yaml)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SPEC=$(realpath "${1:-$ROOT/bench/specs/n300_small.yaml}")
BUILD=$ROOT/build
WORK=${CCLSIM_PARALLEL_WORK:-/tmp/cclsim-parallel}
CPUS=$(nproc)

say() { echo "verify_parallel: $*"; }
die() { echo "verify_parallel: error: $*" >&2; exit 1; }

if ! command -v parallel >/dev/null; then
    as=(); ((EUID == 0)) || as=(sudo -n)
    say "installing parallel (apt-get) ..."
    "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends parallel >/dev/null ||
        die "cannot install Debian's parallel"
fi
[[ -x $BUILD/sweep ]] || "$ROOT/cclsim" build

rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK"
echo "$CPUS/:" >hosts   # ':' is this machine, $CPUS jobs at once
say "$BUILD/sweep $SPEC --emit-parallel $WORK/sweep"
"$BUILD/sweep" "$SPEC" --emit-parallel "$WORK/sweep"
say "parallel --sshloginfile hosts --joblog joblog.txt < sweep/jobs.txt"
parallel --will-cite --sshloginfile hosts --joblog joblog.txt <sweep/jobs.txt
say "$(($(wc -l <joblog.txt) - 1)) jobs in the joblog, exit values: $(awk 'NR > 1 { print $7 }' joblog.txt | sort | uniq -c | xargs)"
say "$BUILD/sweep --merge sweep --no-wall --csv parallel.csv --json parallel.json"
"$BUILD/sweep" --merge sweep --no-wall --csv parallel.csv --json parallel.json
"$BUILD/sweep" "$SPEC" -j "$CPUS" -q --no-wall --csv local.csv --json local.json
cmp parallel.csv local.csv || die "the GNU parallel CSV differs from the local one"
cmp parallel.json local.json || die "the GNU parallel JSON differs from the local one"
say "OK: $(($(wc -l <parallel.csv) - 1)) points through GNU parallel; merged CSV and JSON equal the local -j run"
