#!/usr/bin/env python3
"""Seeded fault campaign (issue 12; a benchmark, not a test).

    bench/fault_campaign.py [--build build] [--runs 200] [--seed 1] [--jobs 2] [--out DIR]

Part 1, the campaign: `--runs` runs on the T3000 and the Galaxy, each a
collective (all_gather, reduce_scatter, all_reduce; fabric or EDM) or the
PE_IPCQ ring all-reduce, with a random fault plan of one to three faults
(ber on every link or one link, retrain, down, drop; random cabled links,
times and sizes). Every run must end byte-exact (exit 0, data check pass) or
with a diagnosis (exit 6 and fault_diagnosis); never hang (a wall-clock
limit per run) and never report pass with wrong bytes. Counted: runs, faults
injected, completed exact, diagnosed, hung, silent corruption, and anything
else (other exit codes, listed with their command).

Part 2, the slowdown: a T3000 1 MiB all-gather (fabric) against the bit
error rate on every link and against the duration of one retrain; a table
on stdout and, with gnuplot, DIR/slowdown.png.

Everything is seeded: the same --seed gives the same plans and the same
results. Writes DIR/campaign.json with every run.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(build, board, args, plan, out, wall):
    """Run one board command with a fault plan; returns (exit code or None if hung, report, seconds)."""
    js = os.path.join(out, f"r{random.getrandbits(48):x}.json")
    cmd = [os.path.join(build, board)]
    if plan is not None:
        cmd += ["--faults", plan]
    cmd += args.split() + ["--quiet", "--json", js]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=wall)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = None
    secs = time.time() - t0
    rep = {}
    if os.path.exists(js):
        with open(js) as f:
            text = f.read()
        rep = json.loads(text) if text.strip() else {}
        os.remove(js)
    return rc, rep, secs, " ".join(cmd[:-2])


def write_plan(path, seed, faults):
    with open(path, "w") as f:
        f.write(f"seed: {seed}\nfaults:\n")
        for x in faults:
            f.write("  - {" + ", ".join(f"{k}: {v}" for k, v in x.items()) + "}\n")


def cabled_links(build, board, out):
    """Every cabled (chip, channel) of the board: a plan with a zero-error ber on all links lists them."""
    plan = os.path.join(out, f"{board}_links.yaml")
    write_plan(plan, 1, [{"kind": "ber", "link": "all", "rate": "1.0e-30"}])
    rc, rep, _, _ = run(build, board, "eth_ping --samples 1", plan, out, 300)
    rows = rep.get("link_health", [])
    if not rows:
        sys.exit(f"fault_campaign: could not list the links of {board} (exit {rc})")
    return sorted({(r["chip"], r["channel"]) for r in rows})


WORKLOADS = [
    "all_gather --size {size} --impl fabric",
    "all_gather --size {size} --impl edm",
    "reduce_scatter --size {size} --impl fabric",
    "reduce_scatter --size {size} --impl edm",
    "all_reduce --size {size} --impl fabric",
    "ipcq_allreduce --size {size}",
]


def random_fault(rng, links):
    kind = rng.choice(["ber", "ber", "retrain", "retrain", "down", "drop"])
    chip, ch = rng.choice(links)
    link = "{chip: %d, channel: %d}" % (chip, ch)
    if kind == "ber":
        rate = 10 ** rng.uniform(-9, -3.5)
        return {"kind": "ber", "link": "all" if rng.random() < 0.5 else link, "rate": f"{rate:.3e}"}
    at = round(rng.uniform(0, 60), 3)
    if kind == "retrain":
        return {"kind": "retrain", "link": link, "at_us": at, "duration_us": round(10 ** rng.uniform(0.5, 2.7), 3)}
    if kind == "down":
        return {"kind": "down", "link": link, "at_us": at}
    return {"kind": "drop", "link": link, "at_us": at, "packets": rng.randint(1, 4)}


def campaign(a, out):
    rng = random.Random(a.seed)
    links = {b: cabled_links(a.build, b, out) for b in ("t3000", "galaxy")}
    counts = dict(runs=0, faults=0, exact=0, diagnosed=0, hung=0, silent_corruption=0, other=0)
    by_kind = {}
    runs = []
    jobs = []
    for i in range(a.runs):
        board = "galaxy" if rng.random() < 0.3 else "t3000"
        wl = rng.choice(WORKLOADS).format(size=rng.choice(["64K", "256K"]))
        faults = [random_fault(rng, links[board]) for _ in range(rng.randint(1, 3))]
        plan = os.path.join(out, f"plan{i}.yaml")
        write_plan(plan, rng.randrange(1 << 31), faults)
        jobs.append((i, board, wl, faults, plan))

    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda j: (j, run(a.build, j[1], j[2], j[4], out, a.wall)), jobs))
    for (i, board, wl, faults, plan), (rc, rep, secs, cmd) in results:
        counts["runs"] += 1
        counts["faults"] += len(faults)
        exact = rc == 0 and rep.get("data_check") in ("pass",)
        diagnosed = rc == 6 and "fault_diagnosis" in rep
        if rc is None:
            outcome = "hung"
        elif exact:
            outcome = "exact"
        elif diagnosed:
            outcome = "diagnosed"
        elif rc == 0:
            outcome = "silent_corruption"  # exit 0 without a passing data check
        else:
            outcome = "other"
        counts[outcome] += 1
        for f in faults:
            k = by_kind.setdefault(f["kind"], dict(exact=0, diagnosed=0, hung=0, silent_corruption=0, other=0))
            k[outcome] += 1
        runs.append(dict(run=i, board=board, workload=wl, faults=faults, exit=rc, outcome=outcome,
                         wall_s=round(secs, 2), sim_time_ns=rep.get("sim_time_ns"), command=cmd,
                         plan_text=open(plan).read(), error=(rep.get("error") or "")[:400]))
    return counts, by_kind, runs


def slowdown(a, out):
    base = "all_gather --size 1M --impl fabric"
    rows = []
    rc, clean, _, _ = run(a.build, "t3000", base, None, out, a.wall)
    t0 = clean["sim_time_ns"]
    links = cabled_links(a.build, "t3000", out)
    for rate in [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 3e-4]:
        plan = os.path.join(out, "ber.yaml")
        write_plan(plan, a.seed, [{"kind": "ber", "link": "all", "rate": f"{rate:.1e}"}])
        rc, rep, _, _ = run(a.build, "t3000", base, plan, out, a.wall)
        crc = sum(r["crc_errors"] for r in rep.get("link_health", []))
        rows.append(("ber", rate, rc, rep.get("data_check"), rep.get("sim_time_ns"), crc))
    # A user link the ring uses: chip 0's first cabled channel that is not dispatch.
    for dur in [10, 50, 100, 500, 1000, 5000]:
        plan = os.path.join(out, "retrain.yaml")
        chip, ch = links[0]
        write_plan(plan, a.seed, [{"kind": "retrain", "link": "{chip: %d, channel: %d}" % (chip, ch),
                                   "at_us": 20, "duration_us": dur}])
        rc, rep, _, _ = run(a.build, "t3000", base, plan, out, a.wall)
        rows.append(("retrain_us", dur, rc, rep.get("data_check"), rep.get("sim_time_ns"), 0))
    return t0, rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--wall", type=float, default=600, help="seconds before a run counts as hung")
    p.add_argument("--out", default=None, help="directory for campaign.json and slowdown.png")
    p.add_argument("--no-slowdown", action="store_true")
    a = p.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="cclsim_campaign_")
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="cclsim_campaign_work_")
    t = time.time()
    counts, by_kind, runs = campaign(a, work)
    print(f"fault campaign, seed {a.seed}: {a.runs} runs on t3000 and galaxy ({time.time() - t:.0f} s wall, "
          f"{a.jobs} jobs)")
    print("  " + "  ".join(f"{k} {v}" for k, v in counts.items()))
    print("  per fault kind (runs that had it):")
    for k, v in sorted(by_kind.items()):
        print(f"    {k:8} " + "  ".join(f"{o} {n}" for o, n in v.items()))
    for r in runs:
        if r["outcome"] not in ("exact", "diagnosed"):
            print(f"  {r['outcome']}: {r['command']} (exit {r['exit']})\n    plan: {r['plan_text']!r}\n"
                  f"    {r['error'][:200]!r}")
    result = dict(seed=a.seed, counts=counts, by_kind=by_kind, runs=runs)
    if not a.no_slowdown:
        t0, rows = slowdown(a, work)
        print(f"\nslowdown: t3000 all_gather --size 1M --impl fabric, {t0 / 1000:.3f} us without faults")
        print(f"  {'fault':<11} {'value':>9}  exit  data  {'sim us':>10}  slowdown  crc_errors")
        for kind, v, rc, check, ns, crc in rows:
            sd = f"{ns / t0:8.3f}x" if ns else "       -"
            us = f"{ns / 1000:10.3f}" if ns else "         -"
            print(f"  {kind:<11} {v:>9g}  {rc!s:>4}  {check!s:>4}  {us}  {sd}  {crc}")
        result["slowdown"] = dict(clean_ns=t0, rows=rows)
        if shutil.which("gnuplot"):
            for kind in ("ber", "retrain_us"):
                with open(os.path.join(work, f"{kind}.dat"), "w") as f:
                    for k, v, rc, check, ns, crc in rows:
                        if k == kind and ns:
                            f.write(f"{v} {ns / t0}\n")
            png = os.path.join(out, "slowdown.png")
            gp = f"""set terminal pngcairo size 1000,420
set output '{png}'
set multiplot layout 1,2 title 'T3000 all-gather 1 MiB (fabric): slowdown under link faults'
set logscale x; set grid; set ylabel 'time / time without faults'
set format x '%.0e'; set xtics rotate by -30
set xlabel 'bit error rate (every link)'; plot '{work}/ber.dat' w lp pt 7 notitle
set format x '%g'; set xtics norotate; set yrange [0:*]
set xlabel 'retrain duration, us (one link, at 20 us)'; plot '{work}/retrain_us.dat' w lp pt 7 notitle
unset multiplot
"""
            subprocess.run(["gnuplot"], input=gp.encode(), check=False)
            print(f"  plot: {png}")
    with open(os.path.join(out, "campaign.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(f"  runs: {os.path.join(out, 'campaign.json')}")
    shutil.rmtree(work, ignore_errors=True)
    bad = counts["hung"] + counts["silent_corruption"] + counts["other"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
