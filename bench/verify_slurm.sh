#!/usr/bin/env bash
# Verify the sweep tool's Slurm path against a real Slurm: a single-node
# cluster (slurmctld + slurmd on this host, munge for authentication) runs a
# sweep spec as a job array; the merged report must equal the same spec run
# locally with -j. Not part of the test suite: it installs Debian packages
# (slurm-wlm, munge) and starts daemons, so it needs root (or password-less
# sudo for the install; the daemons then still need root).
#
#   bench/verify_slurm.sh [SPEC.yaml]      (default: bench/specs/n300_small.yaml)
#
# The cluster's files live in a private directory ($WORK, below): its own
# slurm.conf (SLURM_CONF points there), state and logs; /etc/slurm is not
# touched. Daemons started here are stopped on exit. If a Slurm is already
# running on this host, stop it first (the ports 6817/6818 are Slurm's defaults).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SPEC=$(realpath "${1:-$ROOT/bench/specs/n300_small.yaml}")
BUILD=$ROOT/build
WORK=${CCLSIM_SLURM_WORK:-/tmp/cclsim-slurm}
HOST=$(hostname -s)
CPUS=$(nproc)

say() { echo "verify_slurm: $*"; }
die() { echo "verify_slurm: error: $*" >&2; exit 1; }

((EUID == 0)) || die "run as root: slurmd must run as root to start jobs as their user"

# --- packages -------------------------------------------------------------------
need=()
for p in slurm-wlm munge; do
    [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || need+=("$p")
done
if ((${#need[@]})); then
    say "installing ${need[*]} (apt-get) ..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null ||
        { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null; }
fi

# --- build ----------------------------------------------------------------------
[[ -x $BUILD/sweep ]] || "$ROOT/cclsim" build
[[ -x $BUILD/sweep ]] || die "no $BUILD/sweep after building"

# --- munge ----------------------------------------------------------------------
rm -rf "$WORK"
mkdir -p "$WORK"/{state,spool,log,munge}
started=()
cleanup() {
    # Stop the daemons this script started (newest first) and wait until they are gone.
    local i pid
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do
        [[ -f ${started[i]} ]] || continue
        pid=$(cat "${started[i]}")
        kill "$pid" 2>/dev/null || continue
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    done
}
trap cleanup EXIT

MUNGE_SOCKET=/run/munge/munge.socket.2
if ! munge -n >/dev/null 2>&1; then
    [[ -f /etc/munge/munge.key ]] || { say "creating a munge key"; mungekey --create --keyfile=/etc/munge/munge.key; }
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge /var/log/munge /var/lib/munge && chown munge:munge /run/munge /var/log/munge /var/lib/munge
    say "starting munged"
    runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid || die "munged did not start (see /var/log/munge/munged.log)"
    started+=(/run/munge/munged.pid)
fi
munge -n | unmunge >/dev/null || die "munge does not work (socket $MUNGE_SOCKET)"
say "munge works"

# --- slurm ----------------------------------------------------------------------
export SLURM_CONF=$WORK/slurm.conf
cat >"$SLURM_CONF" <<EOF
# Single-node Slurm for bench/verify_slurm.sh (cclsim): controller and compute node on $HOST.
ClusterName=cclsim
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
# No cgroups (a container may not delegate them): processes tracked by parent pid.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MaxArraySize=10001
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF

say "starting slurmctld and slurmd ($HOST, $CPUS CPUs; config $SLURM_CONF)"
slurmctld -f "$SLURM_CONF" -i || die "slurmctld did not start: $(tail -5 "$WORK/log/slurmctld.log" 2>/dev/null)"
started+=("$WORK/slurmctld.pid")
slurmd -f "$SLURM_CONF" || die "slurmd did not start: $(tail -5 "$WORK/log/slurmd.log" 2>/dev/null)"
started+=("$WORK/slurmd.pid")
for _ in $(seq 60); do
    state=$(sinfo -h -N -n "$HOST" -o '%t' 2>/dev/null || true)
    [[ $state == idle* ]] && break
    sleep 1
done
[[ $state == idle* ]] || die "node $HOST is not idle after 60 s (state '${state:-?}'): $(tail -5 "$WORK/log/slurmd.log")"
sinfo

# --- the sweep as a job array ---------------------------------------------------
SWEEP=$WORK/sweep
cd "$WORK"
say "$BUILD/sweep $SPEC --emit-slurm $SWEEP --submit"
out=$("$BUILD/sweep" "$SPEC" --emit-slurm "$SWEEP" --submit)
echo "$out"
job=$(sed -n 's/.*submitted: job \([0-9]*\).*/\1/p' <<<"$out")
[[ -n $job ]] || die "no job id from sbatch"
for _ in $(seq 600); do
    [[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && break
    sleep 1
done
[[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && say "job array $job finished" || die "job array $job still queued after 600 s"
sacct -j "$job" >/dev/null 2>&1 || true   # no accounting storage configured: nothing to show

say "$BUILD/sweep --merge $SWEEP --no-wall --csv slurm.csv --json slurm.json"
"$BUILD/sweep" --merge "$SWEEP" --no-wall --csv slurm.csv --json slurm.json
say "$BUILD/sweep $SPEC -j $CPUS --no-wall --csv local.csv --json local.json (the same spec on this machine)"
"$BUILD/sweep" "$SPEC" -j "$CPUS" -q --no-wall --csv local.csv --json local.json
cmp slurm.csv local.csv || die "the Slurm CSV differs from the local one ($WORK/slurm.csv vs $WORK/local.csv)"
cmp slurm.json local.json || die "the Slurm JSON differs from the local one ($WORK/slurm.json vs $WORK/local.json)"
say "OK: $(($(wc -l <slurm.csv) - 1)) points through Slurm job array $job; merged CSV and JSON equal the local -j run"
