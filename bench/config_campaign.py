#!/usr/bin/env python3
"""Seeded randomized configuration campaign (issue 23; a benchmark, not a test).

    bench/config_campaign.py [--build build] [--runs 1000] [--seed 1] [--jobs 2]
                             [--wall 180] [--boards n300,t3000,galaxy] [--out DIR]

Draws `--runs` configurations over every board x every workload x its
options (sizes including odd and tiny ones, ranks, peers, roots, groups,
methods, implementations, data types, L1 or DRAM tensors, timing mode,
fast-forward, concurrency, PTO misuse, bit errors on every link, another
Ethernet tx command queue (registers per queue, the MAC's tx FIFO), the boards
as tt-metal's cluster descriptors describe them) and runs each through the board
executable. About one draw in six is made invalid on purpose (an unknown
option, a malformed number, an unknown choice, a value out of range).

What every run must end with:
  - a valid configuration: exit 0 and, where the workload checks data,
    data_check "pass";
  - an invalid one (drawn so, or a combination the model refuses): exit 2 or
    3 and an error naming one of the options given (for a drawn mutation,
    that option);
  - a `--misuse` draw of the pto workload: exit 4 (the firmware reports it)
    or exit 3;
  - a run with bit errors (`--faults`): as without, or exit 6 with a
    diagnosis;
  - never: exit 1 (wrong data), 4 (but misuse), 5 (deadlock or time limit),
    6 (lost to a fault without faults), a crash (a signal), or a hang (the
    `--wall` limit per run).

The counts go to stdout; every run (command, exit code, seconds, verdict,
error) to DIR/campaign.json. Failures are listed with their command so each
can be rerun as is. Same --seed, same draws and (the model being
deterministic) the same results.
"""
import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHIPS = {"n300": 2, "t3000": 8, "galaxy": 32}
# Worker cores per chip (the Wormhole arch's worker list, 8 x 10): what `concurrent --op "... --cores A-B"` indexes.
WORKER_CORES = 80
DTYPES = ["bf16", "fp16", "fp32", "int32", "uint32", "int64", "uint64", "bool"]
REDOPS = ["add", "mean", "mul", "min", "max", "square_add", "logical_and", "logical_or"]
METHODS = ["clockwise_ring", "anticlockwise_ring", "bidirectional_ring_pair", "meet_in_middle_ring", "broadcast",
           "auto"]
# Sizes in bytes: tiny, odd, page-aligned and a few MiB (kept small so a run takes seconds).
SIZES = ["2", "3", "64", "100", "1000", "2K", "6000", "32K", "100K", "250000", "1M", "3M", "4194311"]
# Workloads that check their output against a golden reference (data mode).
CHECKED = {"all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast", "concurrent", "edm_stream",
           "fabric_traffic", "ipcq_allreduce", "pto"}


def maybe(rng, p, opts):
    return opts if rng.random() < p else []


def collective(rng, board, op):
    n = CHIPS[board]
    a = [op, "--size", rng.choice(SIZES if board != "galaxy" else SIZES[:11])]
    a += maybe(rng, 0.5, ["--impl", rng.choice(["fabric", "edm"])])
    a += maybe(rng, 0.4, ["--dtype", rng.choice(DTYPES)])
    a += maybe(rng, 0.3, ["--topology", rng.choice(["ring", "line"])])
    if n > 2 and rng.random() < 0.25:
        a += ["--chips", str(rng.randint(2, n))]
    elif n > 2 and rng.random() < 0.15:
        k = rng.choice([2, 4] if n == 8 else [2, 4, 8])
        a += ["--group", f"{rng.choice(['consecutive', 'orthogonal'])}:{k}"]
    elif n > 2 and rng.random() < 0.1:
        a += ["--axis", rng.choice(["row", "col"])]
    a += maybe(rng, 0.2, ["--links", str(rng.randint(1, 4))])
    a += maybe(rng, 0.2, ["--workers", str(rng.randint(1, 8))])
    a += maybe(rng, 0.2, ["--page-bytes", str(rng.choice([512, 1000, 1024, 2048, 4096, 8192]))])
    a += maybe(rng, 0.15, ["--packet", str(rng.choice([0, 1024, 2048, 4096, 6144]))])
    a += maybe(rng, 0.15, ["--method", rng.choice(METHODS)])
    a += maybe(rng, 0.1, ["--bidir", rng.choice(["off", "halves", "full"])])
    a += maybe(rng, 0.1, ["--edm-buffers", str(rng.randint(1, 4))])
    a += maybe(rng, 0.1, ["--edm-credit-txq", str(rng.randint(0, 1))])
    if rng.random() < 0.15:
        # Sharded tensors: a layout, sometimes a grid and a shard shape (in pages).
        a += ["--layout", rng.choice(["height_sharded", "width_sharded", "block_sharded", "dram_sharded"])]
        a += maybe(rng, 0.4, ["--shard-grid", f"{rng.randint(1, 8)}x{rng.randint(1, 8)}"])
        a += maybe(rng, 0.3, ["--shard-spec", f"{rng.randint(1, 64)}x{rng.randint(1, 4)}"])
    else:
        a += maybe(rng, 0.1, ["--l1"])
    # Buffers allocated before the op: no start barrier (refused, exit 3, where
    # the op has none: the EDM, all_to_all, broadcast).
    a += maybe(rng, 0.15, ["--persistent-buffers"])
    if op in ("reduce_scatter", "all_reduce"):
        a += maybe(rng, 0.4, ["--op", rng.choice(REDOPS)])
        # The direct (one-shot) reduce-scatter: forced (refused, exit 3, off a
        # fabric ring of three or more neighbours) or forced off.
        a += maybe(rng, 0.25, ["--rs-algorithm", rng.choice(["auto", "ring", "direct"])])
    if op == "all_gather":
        a += maybe(rng, 0.1, ["--dim", "1"])
    if op == "broadcast":
        a += maybe(rng, 0.4, ["--root", str(rng.randrange(n))])
    a += maybe(rng, 0.3, ["--seed", str(rng.randrange(1000))])
    return a


def concurrent(rng, board):
    # Two or three ops on the same chips, each with options of its own (data
    # type, reduction, workers, a sharded layout); sometimes every op its own
    # run of worker cores (--cores). The EDM also runs all_to_all and
    # broadcast beside the others, the fabric one IPCQ all-reduce (the
    # fabric's all_to_all and broadcast are refused: they run a packet fabric
    # of their own).
    impl = rng.choice(["fabric", "edm"]) if rng.random() < 0.3 else None
    kinds = ["all_gather", "reduce_scatter", "all_reduce"]
    if impl == "edm":
        kinds += ["all_to_all", "broadcast"]
    elif board != "n300":
        kinds += ["ipcq_allreduce"]
    n = rng.randint(2, 3)
    names = []
    for _ in range(n):
        names.append(rng.choice(kinds))
        if names[-1] == "ipcq_allreduce":
            kinds.remove("ipcq_allreduce")  # one per run: its ranks take the cores ccl.yaml names
    # A run of cores each (ccl.yaml places an IPCQ all-reduce's ranks itself,
    # on cores a split of the whole list would hand to a collective).
    cuts = None
    if "ipcq_allreduce" not in names and rng.random() < 0.2:
        cuts = sorted(rng.sample(range(1, WORKER_CORES), n - 1))
    ops = []
    for i, op in enumerate(names):
        if op == "ipcq_allreduce":
            o = [op] + maybe(rng, 0.5, ["--size", rng.choice(["64K", "256K", "1M"])])
        else:
            o = [op, "--size", rng.choice(["2K", "32K", "64K", "100K", "256K", "1M"])]
            o += maybe(rng, 0.3, ["--dtype", rng.choice(DTYPES)])
            if op in ("reduce_scatter", "all_reduce"):
                o += maybe(rng, 0.3, ["--op", rng.choice(REDOPS)])
            o += maybe(rng, 0.2, ["--workers", str(rng.randint(1, 4))])
            o += maybe(rng, 0.15, ["--layout", rng.choice(["height_sharded", "width_sharded", "block_sharded"])])
            if cuts is not None:
                bounds = [0] + cuts + [WORKER_CORES]
                o += ["--cores", f"{bounds[i]}-{bounds[i + 1] - 1}"]
        ops += ["--op", " ".join(o)]
    a = ["concurrent"] + ops
    if impl:
        a += ["--impl", impl]
    a += maybe(rng, 0.2, ["--topology", rng.choice(["ring", "line"])])
    return a


def pto(rng, board):
    n = CHIPS[board]
    op = rng.choice(["put", "get", "put_async", "get_async", "notify", "broadcast", "scatter", "gather", "reduce"])
    ranks = rng.randint(2, min(n, 8))
    a = ["pto", "--op", op, "--ranks", str(ranks), "--shape", f"{rng.randint(1, 24)}x{rng.choice([16, 32, 40, 64])}",
         "--tile", f"{rng.choice([1, 4, 8])}x{rng.choice([16, 32, 64])}"]
    a += maybe(rng, 0.5, ["--fabric", rng.choice(["ring", "line"])])
    if op in ("broadcast", "scatter", "gather", "reduce"):
        a += maybe(rng, 0.5, ["--root", str(rng.randrange(ranks))])
    else:
        a += maybe(rng, 0.6, ["--peer", str(rng.randrange(1 if op == "notify" else 0, ranks))])
    a += maybe(rng, 0.3, ["--ping-pong"])
    a += maybe(rng, 0.2, ["--valid-row", "dynamic"])
    a += maybe(rng, 0.3, ["--dtype", rng.choice(["bf16", "fp32", "int32"])])
    if op == "reduce":
        a += maybe(rng, 0.4, ["--reduce", rng.choice(["sum", "max", "min"])])
    a += maybe(rng, 0.2, ["--repeat", str(rng.randint(1, 3))])
    return a


def micro(rng, board, w):
    n = CHIPS[board]
    if w == "eth_ping":
        return [w, "--samples", str(rng.randint(1, 8))] + maybe(rng, 0.5, ["--packet", str(rng.choice([16, 64, 4096]))])
    if w == "ring_ping":
        hops = rng.randint(2, min(n, 8)) if n > 2 else 2
        return [w, "--hops", str(hops), "--samples", str(rng.randint(1, 4))] + maybe(
            rng, 0.3, ["--packet", str(rng.choice([16, 1024]))]) + maybe(rng, 0.2, ["--separate-sync"])
    if w == "eth_bandwidth":
        return [w, "--packet", str(rng.choice([16, 256, 1000, 4096, 8192])), "--bytes",
                str(rng.choice([4096, 65536, 1 << 20]))] + maybe(rng, 0.3, ["--channels", str(rng.randint(1, 8))]) + \
            maybe(rng, 0.2, ["--unidir"]) + maybe(rng, 0.3, ["--credit-txq", str(rng.randint(0, 1))])
    if w == "edm_stream":
        # Now and then a stream long enough for --fast-forward to skip (its EDMs pass the count on).
        packets = rng.randint(2000, 4000) if rng.random() < 0.15 else rng.randint(1, 200)
        return [w, "--packets", str(packets), "--packet", str(rng.choice([16, 100, 1024, 4096]))] + \
            maybe(rng, 0.3, ["--channels", str(rng.randint(1, 4))]) + maybe(rng, 0.3, ["--bidir"]) + \
            maybe(rng, 0.3, ["--termination", rng.choice(["message_count", "worker_initiated"])]) + \
            maybe(rng, 0.3, ["--buffers", str(rng.randint(1, 8))]) + \
            maybe(rng, 0.2, ["--credit-txq", str(rng.randint(0, 1))])
    if w == "dram_bandwidth":
        return [w, "--bytes", str(rng.choice([4096, 100000, 1 << 20])), "--page", str(rng.choice([32, 64, 2048,
                                                                                                   8192]))] + \
            maybe(rng, 0.4, ["--workers", str(rng.randint(1, 64))]) + maybe(rng, 0.3, ["--write"]) + \
            maybe(rng, 0.2, ["--sharded"]) + maybe(rng, 0.2, ["--noc", str(rng.randint(0, 2))]) + \
            maybe(rng, 0.2, ["--batch", str(rng.randint(1, 16))])
    if w == "data_movement":
        # Cores and peers anywhere on (and sometimes off) the worker grid, banks past the last one.
        return [w, "--test", rng.choice(["dram_read", "dram_write", "one_from_one", "one_to_one"]),
                "--bytes", str(rng.choice([32, 64, 100, 2048, 8192, 65536])),
                "--transactions", str(rng.choice([1, 4, 16, 64, 256]))] + \
            maybe(rng, 0.3, ["--core", f"{rng.randint(0, 8)},{rng.randint(0, 10)}"]) + \
            maybe(rng, 0.3, ["--peer", f"{rng.randint(0, 8)},{rng.randint(0, 10)}"]) + \
            maybe(rng, 0.2, ["--bank", str(rng.randint(0, 12))]) + maybe(rng, 0.3, ["--noc", str(rng.randint(0, 1))])
    if w == "fabric_ping":
        return [w, "--samples", str(rng.randint(1, 4))] + maybe(rng, 0.4, ["--mode", rng.choice(
            ["write", "fused", "atomic"])]) + maybe(rng, 0.3, ["--packet", str(rng.choice([0, 16, 4096]))]) + \
            maybe(rng, 0.3, ["--hops", str(rng.randint(1, n - 1))]) + \
            maybe(rng, 0.3, ["--fabric", rng.choice(["line", "ring", "mesh"])])
    if w == "fabric_bandwidth":
        return [w, "--bytes", rng.choice(["16K", "64K", "200000"])] + \
            maybe(rng, 0.3, ["--hops", str(rng.randint(1, n - 1))]) + \
            maybe(rng, 0.3, ["--packet", str(rng.choice([0, 64, 1000, 4096]))]) + \
            maybe(rng, 0.3, ["--workers", str(rng.randint(1, 4))]) + \
            maybe(rng, 0.2, ["--fabric", rng.choice(["line", "ring", "mesh"])])
    if w == "fabric_ubench":
        pats = ["unidirectional_linear", "all_to_all", "one_to_all"] + (["full_ring", "half_ring"] if n > 2 else [])
        packet = rng.choice([16, 1024, 4096, 4096])
        return [w, "--pattern", rng.choice(pats), "--packet", str(packet), "--bytes",
                rng.choice(["1K", "4K"] if packet == 16 else ["16K", "64K", "200000"])] + \
            maybe(rng, 0.3, ["--ftype", rng.choice(["mcast", "unicast"])]) + \
            maybe(rng, 0.3, ["--ntype", rng.choice(["unicast_write", "fused_atomic_inc", "scatter_write"])])
    if w == "fabric_traffic":
        return [w, "--messages", str(rng.randint(1, 16)), "--max-bytes", str(rng.choice([32, 100, 4096])),
                "--seed", str(rng.randrange(100))] + maybe(rng, 0.3, ["--reads", str(rng.randint(0, 3))])
    if w == "ipcq_allreduce":
        return [w] + maybe(rng, 0.5, ["--size", rng.choice(["4K", "16K", "64K", "100000"])]) + \
            maybe(rng, 0.3, ["--dtype", rng.choice(["bf16", "fp32"])]) + \
            maybe(rng, 0.3, ["--algorithm", rng.choice(["ring_allreduce", "ring_allreduce_unidir",
                                                        "ring_allreduce_hbm", "mesh_allreduce"])])
    if w == "ipcq_latency":
        return [w, "--samples", str(rng.randint(1, 4))] + maybe(rng, 0.5, ["--peer", rng.choice(
            ["same_chip", "eth_hop"])]) + maybe(rng, 0.4, ["--bytes", str(rng.choice([16, 100, 4096]))]) + \
            maybe(rng, 0.3, ["--credit-return-mode", rng.choice(["fast_path", "fabric"])]) + \
            maybe(rng, 0.2, ["--compute-stream", str(rng.choice([0, 1024, 8192]))]) + \
            maybe(rng, 0.2, ["--vc-weights", rng.choice(["50:50", "80:20"])])
    if w == "dispatch":
        return [w, "--cores", str(rng.randint(1, 64))] + maybe(rng, 0.4, ["--processors", rng.choice(
            ["brisc", "dm", "all"])])
    if w == "noc_trace":
        return [w, "--trace", os.path.join(ROOT, "tests", "data", "noc_trace_small.json")] + \
            maybe(rng, 0.3, ["--gaps", rng.choice(["recorded", "none"])])
    raise ValueError(w)


WORKLOADS = ["all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast", "concurrent", "pto", "eth_ping",
             "ring_ping", "eth_bandwidth", "edm_stream", "dram_bandwidth", "data_movement", "fabric_ping",
             "fabric_bandwidth", "fabric_ubench", "fabric_traffic", "ipcq_allreduce", "ipcq_latency", "dispatch",
             "noc_trace"]


# Workloads whose Ethernet traffic the tx command queue shapes, run on the
# plain Wormhole arch (an overlay of it replaces the board's).
TXQ_WORKLOADS = ["all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast", "eth_ping", "ring_ping",
                 "eth_bandwidth", "edm_stream", "fabric_ping", "fabric_bandwidth", "fabric_ubench", "fabric_traffic"]


def mutate(rng, args):
    """Make a drawn configuration invalid in one place; returns (args, the option named)."""
    kind = rng.choice(["unknown", "number", "choice", "range"])
    if kind == "unknown":
        return args + ["--bogus-option", "3"], "--bogus-option"
    valued = [i for i in range(1, len(args) - 1) if args[i].startswith("--") and not args[i + 1].startswith("--")]
    if not valued:
        return args + ["--bogus-option", "3"], "--bogus-option"
    i = rng.choice(valued)
    out = list(args)
    out[i + 1] = {"number": "12Q", "choice": "no_such_value", "range": "-5"}[kind]
    return out, args[i]


def draw(rng, boards):
    board = rng.choices(boards, weights=[{"n300": 3, "t3000": 5, "galaxy": 2}[b] for b in boards])[0]
    w = rng.choice(WORKLOADS)
    if w in ("all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast"):
        args = collective(rng, board, w)
    elif w == "concurrent":
        args = concurrent(rng, board)
    elif w == "pto":
        args = pto(rng, board)
    else:
        args = micro(rng, board, w)
    globals_ = []
    if rng.random() < 0.25:
        globals_.append("--no-data")
        if rng.random() < 0.3:
            globals_.append("--fast-forward")
    if rng.random() < 0.05:
        globals_ += ["--skew-ns", str(rng.choice([10, 500]))]
    if rng.random() < 0.08:
        # The same board as tt-metal's driver describes it (tests/data/tt_cluster/).
        globals_ += ["--cluster", os.path.join(ROOT, "tests", "data", "tt_cluster", board + ".yaml")]
    if "--cluster" not in globals_ and rng.random() < 0.08:
        # Another fabric packet payload: the routers' slot counts follow it,
        # and a page larger than it is refused.
        globals_ += ["--fabric-payload", str(rng.choice([2048, 4352, 6144, 8192]))]
    txq = None
    if w in TXQ_WORKLOADS and "--cluster" not in globals_ and rng.random() < 0.1:
        # Another Ethernet tx command queue (arch overlay): registers per
        # queue and the MAC's tx FIFO behind the command on the wire.
        txq = {"depth": rng.choice([1, 1, 2]), "fifo": rng.choice([0, 66, 1550, 4146, 16584]),
               "ahead": rng.choice([0, 3, 32])}
    faults = None
    if rng.random() < 0.06 and "--fast-forward" not in globals_:
        # Bit errors on every link: the link layer retransmits, the run must still end exact.
        faults = {"seed": rng.randrange(1 << 20), "rate": f"{10 ** rng.uniform(-9, -6):.3e}"}
    misuse = False
    if w == "pto" and rng.random() < 0.1:
        args += ["--misuse", rng.choice(["nonroot", "group", "overlap", "small-dst", "no-dst", "remote-wait"])]
        misuse = True
    named = None
    if not misuse and rng.random() < 0.16:
        args, named = mutate(rng, args)
    return {"board": board, "workload": w, "args": globals_ + args, "invalid_option": named, "misuse": misuse,
            "faults": faults, "txq": txq}


def execute(build, d, out, wall, idx):
    js = os.path.join(out, f"run{idx}.json")
    if d["faults"]:
        plan = os.path.join(out, f"faults{idx}.yaml")
        with open(plan, "w") as f:
            f.write(f"seed: {d['faults']['seed']}\nfaults:\n  - {{kind: ber, link: all, rate: {d['faults']['rate']}}}\n")
        d["args"] = ["--faults", plan] + d["args"]
    if d.get("txq"):
        arch = os.path.join(out, f"arch{idx}.yaml")
        with open(arch, "w") as f:
            f.write(f"base: {os.path.join(ROOT, 'platforms', 'arch', 'wormhole_b0.yaml')}\nname: campaign_txq\n"
                    f"eth:\n  tx_cmd_q: {{depth: {d['txq']['depth']}, mac_fifo_bytes: {d['txq']['fifo']}}}\n"
                    f"fabric:\n  txq_accept_ahead: {d['txq'].get('ahead', 32)}\n")
        d["args"] = ["--arch", arch] + d["args"]
    cmd = [os.path.join(build, d["board"])] + d["args"] + ["--quiet", "--json", js]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=wall)
        rc, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        rc, err = None, ""
    except OSError as e:  # the executable is being rebuilt, or gone
        rc, err = -1000, f"could not start {cmd[0]}: {e}"
    secs = time.time() - t0
    rep = {}
    if os.path.exists(js):
        try:
            with open(js) as f:
                rep = json.load(f)
        except ValueError:
            rep = {"unreadable_report": True}
        os.remove(js)
    return rc, rep, err, secs, shlex.join([os.path.join("build", d["board"])] + d["args"])


def judge(d, rc, rep, err):
    """The verdict of one run: 'pass', 'refused' (exit 2/3, named) or a failure kind."""
    if rc is None:
        return "hang"
    if rc == -1000:
        return "could not start"
    if rc < 0:
        return f"crash (signal {-rc})"
    text = (rep.get("error") or "") + "\n" + err
    given = [a for a in d["args"] if a.startswith("--")] + ["option", "--" + d["workload"], d["workload"]]
    if rc in (2, 3):
        want = d["invalid_option"]
        if want and (want in text or want.lstrip("-") in text):
            return "refused"
        # Naming an option given (with or without its dashes; a drawn mutation may
        # come second to another problem the model checks first), one to use
        # instead, or a YAML key.
        named = any(g in text or g.lstrip("-") in text for g in given) or " --" in text or "key" in text
        return "refused" if named else "refused without naming the option"
    if d["invalid_option"]:
        return f"invalid option accepted (exit {rc})"
    if d["misuse"]:
        return "pass" if rc == 4 else f"misuse not reported (exit {rc})"
    if rc == 0:
        check = rep.get("data_check", "missing")
        if d["workload"] in CHECKED and "--no-data" not in d["args"] and check != "pass":
            return f"data check {check}"
        if check == "fail":
            return "data check fail"
        return "pass"
    if rc == 6 and d["faults"]:
        return "pass"  # a fault the model diagnosed (fault_diagnosis in the report)
    return {1: "wrong data (exit 1)", 4: "simulation error (exit 4)", 5: "deadlock or time limit (exit 5)",
            6: "lost to a fault (exit 6)"}.get(rc, f"exit {rc}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--wall", type=float, default=180, help="seconds before a run counts as hung")
    ap.add_argument("--boards", default="n300,t3000,galaxy")
    ap.add_argument("--out", default=None, help="directory for campaign.json (default: a temporary one)")
    a = ap.parse_args()
    boards = a.boards.split(",")
    for b in boards:
        if b not in CHIPS or not os.path.exists(os.path.join(a.build, b)):
            sys.exit(f"config_campaign: no board executable {os.path.join(a.build, b)} (ninja -C {a.build} {b})")
    out = a.out or tempfile.mkdtemp(prefix="cclsim_config_campaign_")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(a.seed)
    draws = [draw(rng, boards) for _ in range(a.runs)]
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda i: execute(a.build, draws[i], out, a.wall, i), range(len(draws))))
    runs, verdicts, by_workload = [], {}, {}
    for d, (rc, rep, err, secs, cmd) in zip(draws, results):
        v = judge(d, rc, rep, err)
        verdicts[v] = verdicts.get(v, 0) + 1
        w = by_workload.setdefault(d["workload"], {"runs": 0, "pass": 0, "refused": 0, "failed": 0})
        w["runs"] += 1
        w["pass" if v == "pass" else "refused" if v == "refused" else "failed"] += 1
        runs.append({"command": cmd, "exit": rc, "seconds": round(secs, 2), "verdict": v,
                     "drawn_invalid": d["invalid_option"], "misuse": d["misuse"],
                     "error": (rep.get("error") or err.strip())[:400]})
    with open(os.path.join(out, "campaign.json"), "w") as f:
        json.dump({"seed": a.seed, "runs": runs, "verdicts": verdicts, "by_workload": by_workload}, f, indent=1)
    failed = [r for r in runs if r["verdict"] not in ("pass", "refused")]
    print(f"config_campaign: {len(runs)} runs (seed {a.seed}) in {time.time() - t0:.0f} s; "
          f"{sum(1 for d in draws if d['invalid_option'])} drawn invalid, {sum(1 for d in draws if d['misuse'])} misuse")
    print(f"{'workload':18s} {'runs':>5s} {'pass':>5s} {'refused':>8s} {'failed':>7s}")
    for w in WORKLOADS:
        if w in by_workload:
            c = by_workload[w]
            print(f"{w:18s} {c['runs']:5d} {c['pass']:5d} {c['refused']:8d} {c['failed']:7d}")
    print("verdicts: " + ", ".join(f"{k}: {v}" for k, v in sorted(verdicts.items(), key=lambda kv: -kv[1])))
    refused_valid = [r for r in runs if r["verdict"] == "refused" and not r["drawn_invalid"]]
    print(f"refused configurations drawn as valid (the model's limits; check each is one): {len(refused_valid)}")
    for r in refused_valid[:15]:
        print(f"  {r['command']}\n    {r['error'].splitlines()[0] if r['error'] else ''}")
    print(f"failures: {len(failed)}")
    for r in failed:
        print(f"  [{r['verdict']}] {r['command']}\n    {r['error'].splitlines()[0] if r['error'] else ''}")
    print(f"every run: {os.path.join(out, 'campaign.json')}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
