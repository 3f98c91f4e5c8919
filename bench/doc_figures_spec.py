"""The generated regions of the docs, read by bench/doc_figures.py.

Each region is a dict:

  name    the NAME of the file's markers <!-- figures: NAME ... --> ... <!-- /figures -->
  file    the Markdown file, relative to the source tree
  runs    variable -> command (or a list of commands): "<board> <workload> <options>",
          run as BUILD/<board> ... --json FILE; {tmp} is the run's scratch
          directory (where `files` are written), {config} the build's config/
  files   (optional) file name -> text, written into {tmp} before the runs
  slow    (optional) True: runs of many seconds; generated and checked only with --all
  header, rows  a Markdown table: every cell a template (below)
  text    or a block of lines: one template

A template is a Python f-string over the runs: {ping.one_way_ns:.1f} is
results.one_way_ns of the run `ping` (r.key looks in results, then in the
report's top level), a list run gives a list of them. Helpers: sig(x, n=3)
(n significant digits, as the PTO tables print), mean, pair(a, b, nd) ("a / b",
or "a" when both print the same), out(r, first, last) (lines of the run's
report on stdout), framing(payload, header, line_rate) (the payload rate of a
link for such packets, GB/s), and min, max, abs, len, sum, round, sorted, zip, range. Literal
braces are doubled. Keep the published columns and commands as the docs print
them: only the model's cells carry fields.
"""

import itertools

# --- shared runs -------------------------------------------------------------------------------

PING = "n300 eth_ping --samples 100"
RP8 = "t3000 ring_ping --hops 8"
BW4K = "n300 eth_bandwidth --packet 4096 --channels 0"
DRAM = "t3000 dram_bandwidth"
FPING = "t3000 fabric_ping"
DISP = "n300 dispatch"
AG_EDM1 = "t3000 all_gather --size 16M --impl edm --edm-buffers 1"
IPCQ = "n300 ipcq_latency"


# The 12-hop ring's per-hop figure over every link choice (--links), as
# tests/coverif/test_calibration_t3000.cpp (RingPing12HopsAboveOnAverageOverLinkChoices)
# enumerates them: per hop an index below the chip pair's user-link count (T3000:
# 1 inside an N300, chips c and c + 4; 2 between N300s), a revisited pair never
# taking the same link twice.
def link_assignments(order):
    hops = len(order)
    pairs = [(order[i], order[(i + 1) % hops]) for i in range(hops)]
    out = []
    for pick in itertools.product(*[range(1 if abs(a - b) == 4 else 2) for a, b in pairs]):
        used = {(frozenset(p), k) for p, k in zip(pairs, pick)}
        if len(used) == hops:
            out.append(",".join(map(str, pick)))
    return out


LINKS8 = [f"t3000 ring_ping --hops 8 --links {s}" for s in link_assignments([0, 4, 5, 1, 2, 6, 7, 3])]
LINKS12 = [f"t3000 ring_ping --hops 12 --links {s}" for s in link_assignments([0, 4, 5, 1, 2, 3, 0, 1, 2, 6, 7, 3])]
assert (len(LINKS8), len(LINKS12)) == (16, 64), "the calibration test's 16 and 64 link assignments"

REGIONS = []

# --- README.md: Figures ------------------------------------------------------------------------

REGIONS.append({
    "name": "readme-figures",
    "file": "README.md",
    "runs": {"ping": PING, "rp8": RP8, "bw": BW4K, "dram": DRAM, "fp": FPING, "disp": DISP, "ag": AG_EDM1,
             "ipcq": IPCQ},
    "header": ["figure", "published", "model", "command"],
    "rows": [
        ["single-link one-way latency", "530-620 ns", "{ping.one_way_ns:.1f} ns",
         "`build/n300 eth_ping --samples 100`"],
        ["ring ping per hop, merged sync, 8 hops", "~650 ns; 5.2 us round trip",
         "{rp8.per_hop_ns:.1f} ns; {rp8.round_trip_ns / 1000:.2f} us", "`build/t3000 ring_ping --hops 8`"],
        ["Ethernet bandwidth, 4 KB packets, both directions", ">= 90% of 12.5 GB/s x P/(P+50 ceil(P/1500))",
         "{bw.payload_GBps_per_direction:.2f} GB/s = {bw.framing_limit_pct:.1f}%",
         "`build/n300 eth_bandwidth --packet 4096 --channels 0`"],
        ["DRAM read, interleaved, 64 readers", "~190 GB/s", "{dram.GBps:.1f} GB/s", "`build/t3000 dram_bandwidth`"],
        ["fabric, single-flit packet, per hop (T3000 line)", "~760 ns", "{fp.per_hop_ns:.1f} ns",
         "`build/t3000 fabric_ping`"],
        ["program dispatch, one-processor empty kernel", "2.7 us", "{disp.dispatch_us:.3f} us",
         "`build/n300 dispatch`"],
        ["all_gather, 8-chip ring, 16 MiB, the CCL guide's EDM (one 16 KB buffer per channel)",
         "link-bound (the guide's aim, no measured figure)",
         "busbw {ag.busbw_GBps:.1f} GB/s = {100 * ag.busbw_GBps / (2 * ag.framing_limit_GBps):.0f}% of 2 x "
         "{ag.framing_limit_GBps:.2f} GB/s", "`build/t3000 all_gather --size 16M --impl edm --edm-buffers 1`"],
        ["IPCQ send/recv of a 2 KB tile vs the raw write, adjacent cores", "raw + < 100 ns",
         "{ipcq.ipcq_ns:.1f} vs {ipcq.raw_write_ns:.1f} ns one-way", "`build/n300 ipcq_latency`"],
    ],
})

# --- docs/calibration.md: Figures the model reproduces --------------------------------------------

REGIONS.append({
    "name": "calibration-figures",
    "file": "docs/calibration.md",
    "runs": {
        "ping": PING,
        "rp8": RP8, "rp8s": "t3000 ring_ping --hops 8 --separate-sync",
        "rp12": "t3000 ring_ping --hops 12", "rp12s": "t3000 ring_ping --hops 12 --separate-sync",
        "links8": LINKS8, "links12": LINKS12,
        "rp1k": "t3000 ring_ping --hops 8 --packet 1024",
        "n2": "n300 ring_ping", "n2s": "n300 ring_ping --separate-sync",
        "bw4k": BW4K, "bw8k": "n300 eth_bandwidth --packet 8192 --channels 0",
        "bw16k": "n300 eth_bandwidth --packet 16384 --channels 0",
        "bw64": "n300 eth_bandwidth --packet 64 --channels 1",
        "dram": DRAM, "dsh": "t3000 dram_bandwidth --sharded --batch 64",
        "dsh900": "t3000 dram_bandwidth --sharded --batch 64 --aiclk-mhz 900",
        "d32": "t3000 dram_bandwidth --page 32 --bytes 1048576 --batch 64",
        # The same without the endpoints' read-request limit: an arch overlay.
        "d32free": "t3000 --arch {tmp}/no_request_limit.yaml dram_bandwidth --page 32 --bytes 1048576 --batch 64",
        "dw": "t3000 dram_bandwidth --write",
        "ag1": AG_EDM1, "ag2": "t3000 all_gather --size 16M --impl edm", "agf": "t3000 all_gather --size 16M",
        "ag1l": "t3000 all_gather --size 16M --impl edm --edm-buffers 1 --topology line",
        "agfl": "t3000 all_gather --size 16M --topology line",
        "fp": FPING, "fp4k": "t3000 fabric_ping --packet 4096", "fpfu": "t3000 fabric_ping --mode fused",
        "fpr": "t3000 fabric_ping --fabric ring", "fpm": "t3000 fabric_ping --fabric mesh",
        "fbw": "t3000 fabric_bandwidth", "gbw": "galaxy fabric_bandwidth --fabric mesh",
        "disp": DISP, "dispall": "n300 dispatch --processors all",
        "disp12k": "n300 dispatch --processors all --kernel-bytes 12288",
        "ipcq": IPCQ, "ipcqs": "n300 ipcq_latency --backpressure sleep",
        "ipcqe": "n300 ipcq_latency --peer eth_hop", "ipcqes": "n300 ipcq_latency --peer eth_hop --backpressure sleep",
    },
    "files": {"no_request_limit.yaml": "base: {config}/arch/wormhole_b0.yaml\ndram: {request_interval_cycles: 0}\n"},
    "header": ["figure", "published", "model", "command"],
    "rows": [
        ["single-link one-way latency", "530-620 ns", "{ping.one_way_ns:.1f} ns",
         "`build/n300 eth_ping --samples 100`"],
        ["single-link round trip", "~1100 ns", "{ping.round_trip_ns:.1f} ns", "same"],
        ["send issue (incl. timer)", "~80 ns", "{ping.send_issue_ns:.1f} ns", "same"],
        ["ring ping per hop, merged sync, 8 hops", "~650 ns; 5.2 us round trip",
         "{rp8.per_hop_ns:.1f} ns; {rp8.round_trip_ns / 1000:.2f} us", "`build/t3000 ring_ping --hops 8`"],
        ["ring ping per hop, separate sync, 8 hops", "~690 ns", "{rp8s.per_hop_ns:.1f} ns",
         "`build/t3000 ring_ping --hops 8 --separate-sync`"],
        ["ring ping per hop, 12 hops", "\"similar, though slightly higher\" than 8",
         "{rp12.per_hop_ns:.1f} ns merged, {rp12s.per_hop_ns:.1f} ns separate "
         "({rp12.per_hop_ns - rp8.per_hop_ns:+.1f} ns over 8 hops); on average over every link choice higher by "
         "~{mean(r.per_hop_ns for r in links12) - mean(r.per_hop_ns for r in links8):.0f} ns ({100 * ("
         "mean(r.per_hop_ns for r in links12) / mean(r.per_hop_ns for r in links8) - 1):+.1f}%), see below",
         "`build/t3000 ring_ping --hops 12 [--separate-sync]`; `... --links 0,1,...`"],
        ["ring ping per hop, 1 KB packets", "~1 us", "{rp1k.per_hop_ns:.1f} ns",
         "`build/t3000 ring_ping --hops 8 --packet 1024`"],
        ["N300 2-hop ring (one link, both ways)", "~650 / ~690 ns (+-10%)",
         "{n2.per_hop_ns:.1f} / {n2s.per_hop_ns:.1f} ns", "`build/n300 ring_ping [--separate-sync]`"],
        ["bandwidth, 4 KB packets, both directions", ">= 90% of 12.5 GB/s x P/(P+50 ceil(P/1500))",
         "{bw4k.payload_GBps_per_direction:.2f} GB/s = {bw4k.framing_limit_pct:.1f}%",
         "`build/n300 eth_bandwidth --packet 4096 --channels 0`"],
        ["bandwidth, 8 KB", "same", "{bw8k.payload_GBps_per_direction:.2f} GB/s = {bw8k.framing_limit_pct:.1f}%",
         "`... --packet 8192 --channels 0`"],
        ["bandwidth, 16 KB", "same", "{bw16k.payload_GBps_per_direction:.2f} GB/s = {bw16k.framing_limit_pct:.1f}%",
         "`... --packet 16384 --channels 0`"],
        ["small packets, one channel", "latency-bound",
         "64 B: {bw64.payload_GBps_per_direction:.3f} GB/s ({bw64.line_rate_pct:.1f}% of line)",
         "`... --packet 64 --channels 1`"],
        # Measured by a test's kernel, not by a board executable: not generated.
        ["NoC transfer rate, one core, by size (tt-npe Wormhole table)",
         "128 B: 5.5, 256 B: 10.1, 512 B: 18.0, 1 KB: 27.4, >= 2 KB: 30 B/cycle (tt-npe caps it at the 28.1 injection)",
         "4.9, 9.8, 19.7, 27.2, 27.7 (8 KB: 28.0) B/cycle",
         "`tests/coverif/test_noc_rates.cpp` (kernel streaming 200 writes of one size)"],
        ["NoC injection / absorption (tt-npe)", "worker 28.1 / 28.1, DRAM 23.2 / 24, Ethernet 28.1 / 24 B/cycle",
         "same (arch YAML `noc.inject_bytes_per_cycle`, `absorb_bytes_per_cycle`)", "-"],
        ["DRAM read, interleaved, 64 readers", "~190 GB/s", "{dram.GBps:.1f} GB/s", "`build/t3000 dram_bandwidth`"],
        ["DRAM read, sharded, 12 readers (one per bank)", "~240 GB/s", "{dsh.GBps:.1f} GB/s",
         "`build/t3000 dram_bandwidth --sharded --batch 64`"],
        ["the same at 900 MHz", "211-238 GB/s", "{dsh900.GBps:.1f} GB/s", "`... --aiclk-mhz 900`"],
        # A parameter of the arch YAML (dram.refresh_ns), not a run.
        ["DRAM ideal streaming (\"Saturating DRAM bandwidth\" u-benchmark)", "267 GB/s = 92.7% of 288",
         "refresh leaves 92.7% of each bank", "(`dram.refresh_ns`)"],
        ["DRAM read, 32 B pages (request-rate bound, 6.8 cycles per request per endpoint and NoC)",
         "<= 12 x 32 B / 6.8 = 56 GB/s", "{d32.GBps:.1f} GB/s ({d32free.GBps:.1f} without the request limit)",
         "`build/t3000 dram_bandwidth --page 32 --bytes 1048576 --batch 64`"],
        ["DRAM write, 64 writers", "(no figure)", "{dw.GBps:.1f} GB/s", "`build/t3000 dram_bandwidth --write`"],
        ["all_gather, 8-chip ring, bidirectional, 16 MiB, the CCL guide's EDM (one 16 KB buffer per channel)",
         "link-bound (the guide's aim, no measured figure)",
         "busbw {ag1.busbw_GBps:.1f} GB/s = {100 * ag1.busbw_GBps / (2 * ag1.framing_limit_GBps):.0f}% of 2 x "
         "{ag1.framing_limit_GBps:.2f} GB/s; linkbw {ag1.linkbw_GBps:.1f} GB/s",
         "`build/t3000 all_gather --size 16M --impl edm --edm-buffers 1`"],
        ["the same, tt-metal's legacy EDM defaults (2 buffers of 8 KB per channel)", "link-bound (aim)",
         "busbw {ag2.busbw_GBps:.1f} GB/s = {100 * ag2.busbw_GBps / (2 * ag2.framing_limit_GBps):.0f}% of 2 x "
         "{ag2.framing_limit_GBps:.2f} GB/s; linkbw {ag2.linkbw_GBps:.1f} GB/s",
         "`build/t3000 all_gather --size 16M --impl edm`"],
        ["the same, the fabric implementation (one-hop unicasts of two 2 KB pages)", "(no public figure)",
         # Two 2048 B pages and a 48 B header per packet.
         "busbw {agf.busbw_GBps:.1f} GB/s; linkbw {agf.linkbw_GBps:.1f} GB/s = "
         "{100 * agf.linkbw_GBps / framing(4096, 48, agf.line_rate_GBps):.0f}% of the "
         "{framing(4096, 48, agf.line_rate_GBps):.2f} GB/s framing limit of a 4144 B packet",
         "`build/t3000 all_gather --size 16M`"],
        ["line vs bidirectional ring (CCL guide: a line reaches half)", "1/2",
         "EDM {ag1l.busbw_GBps:.1f} vs {ag1.busbw_GBps:.1f} GB/s busbw; fabric {agfl.busbw_GBps:.1f} vs "
         "{agf.busbw_GBps:.1f}", "`... --topology line`"],
        ["fabric, single-flit packet, per hop (T3000 line)", "~760 ns", "{fp.per_hop_ns:.1f} ns",
         "`build/t3000 fabric_ping`"],
        ["fabric, 4 KB payload, per hop", "~1.3 us",
         "{fp4k.per_hop_ns:.1f} ns ({100 * (fp4k.per_hop_ns / 1300 - 1):+.0f}%: each hop's NoC forward into an "
         "Ethernet core absorbing 24 B/cycle, see [Known limits](known-limits.md))",
         "`build/t3000 fabric_ping --packet 4096`"],
        ["fabric, fused payload + semaphore increment, per hop", "~770 ns", "{fpfu.per_hop_ns:.1f} ns",
         "`build/t3000 fabric_ping --mode fused`"],
        ["fabric, per hop around a ring", "780-800 ns", "{fpr.per_hop_ns:.1f} ns",
         "`build/t3000 fabric_ping --fabric ring`"],
        ["fabric, 2D mesh per hop", "(tt-metal mesh goldens ~900 ns)", "{fpm.per_hop_ns:.1f} ns",
         "`build/t3000 fabric_ping --fabric mesh`"],
        ["fabric bandwidth, one worker, 4352 B packets, 1 hop (line)", "tt-metal golden ~11.7 GB/s",
         "{fbw.payload_GBps:.2f} GB/s = {fbw.framing_limit_pct:.1f}% of the {fbw.framing_limit_GBps:.2f} GB/s "
         "framing limit",
         "`build/t3000 fabric_bandwidth`"],
        ["fabric bandwidth, one worker, Galaxy 2D mesh", "golden ~6.5 GB/s", "{gbw.payload_GBps:.2f} GB/s",
         "`build/galaxy fabric_bandwidth --fabric mesh`"],
        ["program dispatch, one-processor empty kernel (tt-metal test_pgm_dispatch, traced; 256 cores)", "2.7 us",
         "{disp.dispatch_us:.3f} us ({disp.cores} cores)", "`build/n300 dispatch`"],
        ["program dispatch, all five processors", "3.1 us", "{dispall.dispatch_us:.3f} us",
         "`build/n300 dispatch --processors all`"],
        ["program dispatch, all processors, 12 KB binaries", "6.2 us", "{disp12k.dispatch_us:.3f} us",
         "`build/n300 dispatch --processors all --kernel-bytes 12288`"],
        ["IPCQ send/recv of a 2 KB tile vs the raw write, adjacent cores",
         "raw + < 100 ns ([ADR T5](design/pe-ipcq.md#t5))",
         "{ipcq.ipcq_ns:.1f} vs {ipcq.raw_write_ns:.1f} ns one-way: +{ipcq.ipcq_overhead_ns:.0f} ns (poll), "
         "+{ipcqs.ipcq_overhead_ns:.0f} ns (sleep)", "`build/n300 ipcq_latency [--backpressure sleep]`"],
        ["IPCQ send/recv, one Ethernet hop", "raw + < 100 ns",
         "{ipcqe.ipcq_ns:.1f} vs {ipcqe.raw_write_ns:.1f} ns: +{ipcqe.ipcq_overhead_ns:.0f} ns (poll), "
         "+{ipcqes.ipcq_overhead_ns:.0f} ns (sleep)", "`build/n300 ipcq_latency --peer eth_hop`"],
    ],
})

# --- docs/calibration.md: Collectives on the T3000 at large sizes (slow) ------------------------

OPS = ["all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast"]
SHAPES = [("2 chips, line", "--chips 2 --topology line"), ("4 chips, line", "--chips 4 --topology line"),
          ("8 chips, ring", "--topology ring")]


def collective_cmd(op, shape, extra):
    return f"t3000 {op} {shape} --size 256M {extra} --page-bytes 2048 --no-data"


EDM_ROWS = [("all_gather", "all_gather", "--impl edm --packet 6144"),
            ("reduce_scatter", "reduce_scatter", "--impl edm --packet 6144"),
            ("all_reduce (4096 B packets)", "all_reduce", "--impl edm --packet 4096"),
            ("all_reduce (6144 B, `--edm-buffers 1`)", "all_reduce", "--impl edm --packet 6144 --edm-buffers 1"),
            ("all_to_all", "all_to_all", "--impl edm --packet 6144"),
            ("broadcast", "broadcast", "--impl edm --packet 6144")]
REGIONS.append({
    "name": "calibration-collectives-edm",
    "file": "docs/calibration.md",
    "slow": True,
    "runs": {f"e{i}_{j}": collective_cmd(op, shape, extra)
             for i, (_, op, extra) in enumerate(EDM_ROWS) for j, (_, shape) in enumerate(SHAPES)},
    "header": ["op"] + [s for s, _ in SHAPES],
    # As printed before: the first cell names the two figures.
    "rows": [[label] + [("busbw {e%d_%d.busbw_GBps:.2f}, linkbw {e%d_%d.linkbw_GBps:.2f}" if i == 0 and j == 0 else
                         "{e%d_%d.busbw_GBps:.2f}, {e%d_%d.linkbw_GBps:.2f}") % (i, j, i, j)
                        for j in range(len(SHAPES))]
             for i, (label, _, _) in enumerate(EDM_ROWS)],
})
REGIONS.append({
    "name": "calibration-collectives-fabric",
    "file": "docs/calibration.md",
    "slow": True,
    "runs": {f"f{i}_{j}": collective_cmd(op, shape, "--packet 6144")
             for i, op in enumerate(OPS) for j, (_, shape) in enumerate(SHAPES)},
    "header": ["op"] + [s for s, _ in SHAPES],
    "rows": [[op] + ["{f%d_%d.busbw_GBps:.2f}, {f%d_%d.linkbw_GBps:.2f} (W={f%d_%d.workers})" % ((i, j) * 3)
                     for j in range(len(SHAPES))] for i, op in enumerate(OPS)],
})

# --- docs/calibration.md: PTO ops on the T3000 (bench/pto_benchmarks.sh) -------------------------

PTO_SIZES = [("16 (1x4)", "1x4"), ("1 KiB (4x64)", "4x64"), ("16 KiB (16x256)", "16x256"),
             ("256 KiB (64x1024)", "64x1024"), ("1 MiB (256x1024)", "256x1024")]
PTO_COLS = [("put", "put", ""), ("put ping-pong", "put", " --ping-pong"), ("get", "get", ""),
            ("get ping-pong", "get", " --ping-pong")]


def pto_tile(shape):
    rows, cols = shape.split("x")
    return f"{min(int(rows), 4)}x{cols}"


def pto_cell(i, j):
    # As printed before: the time alone where the bandwidth says little (16 B; 1 KiB but its put).
    t = "{sig(s%d_%d.op_time_us)} us" % (i, j)
    return t if i == 0 or (i == 1 and j > 0) else t + ", {s%d_%d.bandwidth_GBps:.2f} GB/s" % (i, j)


REGIONS.append({
    "name": "calibration-pto-sizes",
    "file": "docs/calibration.md",
    "runs": {f"s{i}_{j}": f"t3000 pto --op {op} --shape {shape} --tile {pto_tile(shape)} --repeat 4{pp}"
             for i, (_, shape) in enumerate(PTO_SIZES) for j, (_, op, pp) in enumerate(PTO_COLS)},
    "header": ["bytes (shape)"] + [c for c, _, _ in PTO_COLS],
    "rows": [[label] + [pto_cell(i, j) for j in range(len(PTO_COLS))] for i, (label, _) in enumerate(PTO_SIZES)],
})
PTO_64K = "--shape 16x1024 --tile 4x1024"
REGIONS.append({
    "name": "calibration-pto-hops",
    "file": "docs/calibration.md",
    "runs": {**{f"n{h}": f"t3000 pto --op notify --peer {h} --repeat 4" for h in range(1, 5)},
             **{f"p{h}": f"t3000 pto --op put --peer {h} {PTO_64K} --repeat 4 --ping-pong" for h in range(1, 5)},
             **{f"g{h}": f"t3000 pto --op get --peer {h} {PTO_64K} --repeat 4 --ping-pong" for h in range(1, 5)}},
    "header": ["hops", "notify one way", "put 64 KiB", "get 64 KiB"],
    "rows": [[str(h), "{sig(n%d.one_way_us)} us" % h, "{sig(p%d.op_time_us)} us" % h, "{sig(g%d.op_time_us)} us" % h]
             for h in range(1, 5)],
})
# Get vs put by row length: a get is one read request per tensor row, which the relay serves alone.
PTO_ROWS = [("256 KiB, rows of 4 KiB (`--shape 64x1024 --tile 4x1024`)", "64x1024", "4x1024"),
            ("256 KiB, rows of 16 KiB (`--shape 16x4096 --tile 4x4096`)", "16x4096", "4x4096"),
            ("256 KiB, rows of 32 KiB (`--shape 8x8192 --tile 2x8192`)", "8x8192", "2x8192")]
REGIONS.append({
    "name": "calibration-pto-rows",
    "file": "docs/calibration.md",
    "runs": {f"{op}{i}": f"t3000 pto --op {op} --shape {shape} --tile {tile} --repeat 4 --ping-pong"
             for i, (_, shape, tile) in enumerate(PTO_ROWS) for op in ("put", "get")},
    "header": ["1 hop, ping-pong, `--repeat 4`", "put", "get", "get / put"],
    "rows": [[label, "{put%d.bandwidth_GBps:.2f} GB/s" % i, "{get%d.bandwidth_GBps:.2f} GB/s" % i,
              "{get%d.bandwidth_GBps / put%d.bandwidth_GBps:.2f}" % (i, i)] for i, (label, _, _) in enumerate(PTO_ROWS)],
})
PTO_ASYNC = [("`TPUT`", "put"), ("`TPUT_ASYNC`", "put_async"), ("`TGET`", "get"), ("`TGET_ASYNC`", "get_async")]
REGIONS.append({
    "name": "calibration-pto-async",
    "file": "docs/calibration.md",
    "runs": {op: f"t3000 pto --op {op} {PTO_64K} --ping-pong" for _, op in PTO_ASYNC},
    "header": ["64 KiB, ping-pong", "the call returns after", "complete after"],
    # A synchronous op returns complete; an _ASYNC op reports when its call returned (issue_us).
    "rows": [[label, "{sig(%s.issue_us)} us" % op if op.endswith("async") else "{sig(%s.op_time_us)} us" % op,
              "{sig(%s.op_time_us)} us" % op] for label, op in PTO_ASYNC],
})
PTO_COLL = [("`TBROADCAST`", "broadcast", "out of the root"), ("`TSCATTER`", "scatter", "out of the root"),
            ("`TGATHER`", "gather", "into the root"), ("`TREDUCE`", "reduce", "into the root")]
REGIONS.append({
    "name": "calibration-pto-collectives",
    "file": "docs/calibration.md",
    "runs": {op: f"t3000 pto --op {op} {PTO_64K} --ping-pong" for _, op, _ in PTO_COLL},
    "header": ["8 ranks, 64 KiB per rank", "time", "bandwidth"],
    "rows": [[label, "{sig(%s.op_time_us)} us" % op, "{%s.bandwidth_GBps:.2f} GB/s %s" % (op, where)]
             for label, op, where in PTO_COLL],
})

# --- docs/calibration.md: PE_IPCQ (bench/ipcq_benchmarks.sh) -----------------------------------

IPCQ_KINDS = ["tcm", "hbm", "sram"]


def ccl_yaml(kind, bp, slots, topology="ring_1d", credit="fast_path"):
    return (f"defaults:\n  algorithm: ring\n  buffer_kind: {kind}\n  backpressure: {bp}\n  n_slots: {slots}\n"
            f"  slot_size: 4096\n  credit_return_mode: {credit}\n"
            f"algorithms:\n  ring: {{kernel: ring_allreduce, topology: {topology}}}\n")


IPCQ_FILES = {f"ring_{k}_{bp}_{n}.yaml": ccl_yaml(k, bp, n)
              for k in IPCQ_KINDS for bp in ("poll", "sleep") for n in (2, 4, 8)}
IPCQ_ROWS = [("T3000 (64)", "t3000"), ("Galaxy (256)", "galaxy")]


def ipcq_cell(board, kind, n):
    p, s = f"{board}_{kind}_poll_{n}", f"{board}_{kind}_sleep_{n}"
    cell = "{%s.busbw_GBps:.2f} / {%s.busbw_GBps:.2f}" % (p, s)
    # As printed before: the simulated time of the T3000's tcm rings with 2 and 4 slots.
    if board == "t3000" and kind == "tcm" and n in (2, 4):
        cell += " ({pair(%s.sim_time_us, %s.sim_time_us, 0)})" % (p, s)
    return cell


REGIONS.append({
    "name": "calibration-ipcq-ring",
    "file": "docs/calibration.md",
    "slow": True,
    "runs": {f"{b}_{k}_{bp}_{n}": f"{b} ipcq_allreduce --ccl {{tmp}}/ring_{k}_{bp}_{n}.yaml --size 1M"
             for _, b in IPCQ_ROWS for k in IPCQ_KINDS for bp in ("poll", "sleep") for n in (2, 4, 8)},
    "files": IPCQ_FILES,
    "header": ["board (ranks)"] + [f"{k} poll / sleep" for k in IPCQ_KINDS],
    "rows": [[f"{label}, {n} slots"] + [ipcq_cell(b, k, n) for k in IPCQ_KINDS]
             for label, b in IPCQ_ROWS for n in (2, 4, 8)],
})
CREDIT_ROWS = [("bidirectional (`ring_1d`), 1 MiB per rank", "ring_1d", "1M"),
               ("bidirectional, 128 KiB per rank", "ring_1d", "128K"),
               ("unidirectional (`ring_1d_unidir`), 1 MiB per rank", "ring_1d_unidir", "1M")]
REGIONS.append({
    "name": "calibration-ipcq-credit",
    "file": "docs/calibration.md",
    "runs": {f"c{i}_{m}": f"t3000 ipcq_allreduce --ccl {{tmp}}/credit_{topo}_{m}.yaml --size {size}"
             for i, (_, topo, size) in enumerate(CREDIT_ROWS) for m in ("fast_path", "fabric")},
    "files": {f"credit_{topo}_{m}.yaml": ccl_yaml("tcm", "sleep", 4, topo, m)
              for topo in ("ring_1d", "ring_1d_unidir") for m in ("fast_path", "fabric")},
    "header": ["T3000 ring all-reduce, 64 ranks, tcm, sleep, 4 slots", "`fast_path`", "`fabric`"],
    "rows": [[label, "{c%d_fast_path.sim_time_us:.0f} us" % i, "{c%d_fabric.sim_time_us:.0f} us" % i]
             for i, (label, _, _) in enumerate(CREDIT_ROWS)],
})
VC_ROWS = [("none", "-", "--compute-stream 0"), ("8 KB writes", "50:50", "--compute-stream 8192 --vc-weights 50:50"),
           ("8 KB writes", "80:20 (compute favoured)", "--compute-stream 8192 --vc-weights 80:20"),
           ("8 KB writes", "20:80", "--compute-stream 8192 --vc-weights 20:80")]
REGIONS.append({
    "name": "calibration-ipcq-vc-split",
    "file": "docs/calibration.md",
    "runs": {f"v{i}": f"n300 ipcq_latency --samples 200 {args}" for i, (_, _, args) in enumerate(VC_ROWS)},
    "header": ["vc_compute stream from the sender's core", "weights vc_compute:vc_comm", "IPCQ send/recv",
               "raw write"],
    "rows": [[stream, weights, "{v%d.ipcq_ns:.0f} ns" % i, "{v%d.raw_write_ns:.0f} ns" % i]
             for i, (stream, weights, _) in enumerate(VC_ROWS)],
})

# --- docs/microbenchmarks.md -------------------------------------------------------------------

REGIONS.append({
    "name": "microbenchmarks-ethernet-examples",
    "file": "docs/microbenchmarks.md",
    "runs": {"e1": "n300 edm_stream --channels 1 --packet 4096 --buffers 1",
             "e2": "n300 edm_stream --channels 1 --packet 4096 --buffers 2"},
    "text": """```sh
build/n300 eth_ping --samples 100
build/t3000 ring_ping --hops 12 --separate-sync
build/n300 eth_bandwidth --sweep                      # 16 B .. 64 KB, 1 channel and the most that fit
build/n300 edm_stream --bidir --channels 8 --packets 4096 --termination worker_initiated --start 1:40000
build/n300 edm_stream --channels 1 --packet 4096 --buffers 2   # 2 slots per channel: {e2.payload_GBps_per_direction:.2f} GB/s (1 slot: {e1.payload_GBps_per_direction:.2f})
build/t3000 dram_bandwidth --write
build/t3000 dram_bandwidth --sharded --batch 64                         # one reader per bank, beside it
build/t3000 dram_bandwidth --sharded --batch 64 --aiclk-mhz 900         # the same chip at 900 MHz
build/t3000 dram_bandwidth --arch platforms/arch/wormhole_b0_hbm.yaml   # the HBM variant
```""",
})
REGIONS.append({
    "name": "microbenchmarks-dispatch-examples",
    "file": "docs/microbenchmarks.md",
    "runs": {"d1": DISP, "dall": "n300 dispatch --processors all",
             "d12k": "n300 dispatch --processors all --kernel-bytes 12288", "dr": "t3000 dispatch --chip 4"},
    "text": """```sh
build/n300 dispatch                                   # one processor: {d1.dispatch_us:.3f} us
build/n300 dispatch --processors all                  # brisc, ncrisc, 3 TRISCs: {dall.dispatch_us:.3f} us
build/n300 dispatch --processors all --kernel-bytes 12288   # {d12k.dispatch_us:.3f} us
build/t3000 dispatch --chip 4                         # a remote chip: + {dr.tunnel_us:.3f} us tunnel
build/t3000 all_gather --size 64K                     # the footer line "with dispatch: ..."
```""",
})
REGIONS.append({
    "name": "microbenchmarks-dispatch-report",
    "file": "docs/microbenchmarks.md",
    "runs": {"d1": DISP},
    # The report's lines but the last (simulated time and wall seconds).
    "text": "```\n{out(d1, 0, 3)}\n```",
})
