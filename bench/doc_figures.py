#!/usr/bin/env python3
"""The measured figures of the docs, regenerated from runs of the board executables.

    bench/doc_figures.py --check  [--build DIR] [--jobs N] [--all] [--only NAME,...]
    bench/doc_figures.py --update [--build DIR] [--jobs N] [--all] [--only NAME,...]
    bench/doc_figures.py --list

Every generated table (or block of text) of a Markdown file sits between two
markers,

    <!-- figures: NAME (bench/doc_figures.py) -->
    | ... the table ... |
    <!-- /figures -->

and bench/doc_figures_spec.py says for NAME which board commands to run, and
the table's header and rows: each cell is a template whose {...} fields are
Python expressions over the runs' JSON reports (an f-string), so a cell such
as "{ping.one_way_ns:.1f} ns" prints results.one_way_ns of the run named ping.
Cells without a field (published figures, commands) are text of the spec.

--update rewrites every selected region with what the runs give. --check runs
the same and compares: it lists every cell that differs (file, table, row,
column, printed vs model) and exits 1, or exits 0 when every figure matches.
Regions marked slow in the spec (runs of many seconds each) are skipped
unless --all or --only names them. Exit codes: 0 match (or updated), 1 a
figure differs, 2 usage error, a spec or marker error or a run that failed.

Every run is `BUILD/<board> <args> --quiet --json FILE` in its own process
(SystemC elaborates once per process), --jobs at a time (default: the number
of CPUs); the same command in several regions runs once. The runs are
deterministic: the same command gives the same figures to the last digit.
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no bench/__pycache__ in the source tree (the test runs this)
import doc_figures_spec  # noqa: E402  (beside this script)

BEGIN = re.compile(r"^<!-- figures: ([A-Za-z0-9_.-]+)\b.*-->\s*$")
END = re.compile(r"^<!-- /figures -->\s*$")


class SpecError(Exception):
    pass


# --- formatting helpers, usable in the templates ------------------------------------------------


def sig(x, n=3):
    """x to n significant digits, never in exponent form and never rounding the
    integer part (2251.4 -> "2251", 37.21 -> "37.2", 7.424 -> "7.42")."""
    x = float(x)
    if x == 0:
        return "0"
    decimals = max(0, n - 1 - int(math.floor(math.log10(abs(x)))))
    s = f"{x:.{decimals}f}"
    # Rounding may carry into a new digit (9.996 -> "10.00"): one decimal fewer.
    if decimals > 0 and len(s.lstrip("-").replace(".", "").lstrip("0")) > n:
        s = f"{x:.{decimals - 1}f}"
    return s


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs)


def pair(a, b, decimals):
    """"a / b" to `decimals` decimals, or "a" when both print the same."""
    a, b = f"{a:.{decimals}f}", f"{b:.{decimals}f}"
    return a if a == b else f"{a} / {b}"


def out(result, first, last):
    """Lines first..last-1 of a run's report on stdout."""
    return "\n".join(result._stdout.rstrip("\n").split("\n")[first:last])


def framing(payload, header, line_rate_GBps):
    """The payload rate of an Ethernet link for packets of payload + header
    bytes: every 1500 B of a frame carry 50 B of framing."""
    wire = payload + header
    return line_rate_GBps * payload / (wire + 50 * math.ceil(wire / 1500))


# --- run results ---------------------------------------------------------------------------------


class Result:
    """A run's JSON report. r.key is results.key, else the report's top-level
    key (sim_time_us, data_check, params, ...); r["key"] the same."""

    def __init__(self, cmd, data, path="", stdout=""):
        self._cmd, self._data, self._path, self._stdout = cmd, data, path, stdout

    def _get(self, key):
        d = self._data
        if isinstance(d, dict):
            if self._path == "" and isinstance(d.get("results"), dict) and key in d["results"]:
                return d["results"][key]
            if key in d:
                return d[key]
        raise SpecError(f"the report of `{self._cmd}` has no key {self._path + key!r}")

    def _wrap(self, key, v):
        return Result(self._cmd, v, self._path + key + ".", self._stdout) if isinstance(v, dict) else v

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        return self._wrap(key, self._get(key))

    def __getitem__(self, key):
        return self._wrap(key, self._get(key))


# --- the spec --------------------------------------------------------------------------------------


def load_regions():
    regions = {}
    for r in doc_figures_spec.REGIONS:
        name = r["name"]
        if name in regions:
            raise SpecError(f"region {name} is defined twice in the spec")
        if ("text" in r) == ("rows" in r):
            raise SpecError(f"region {name}: give either rows (with header) or text")
        if "rows" in r:
            for row in r["rows"]:
                if len(row) != len(r["header"]):
                    raise SpecError(f"region {name}: row {row[0]!r} has {len(row)} cells, "
                                    f"the header {len(r['header'])}")
        regions[name] = r
    return regions


def region_commands(region):
    """name -> command or list of commands."""
    return region.get("runs", {})


def all_commands(region):
    out = []
    for v in region_commands(region).values():
        out.extend(v if isinstance(v, list) else [v])
    return out


# --- Markdown regions ----------------------------------------------------------------------------


def find_regions(path):
    """The marked regions of a Markdown file: name -> (first line, end line) of
    the content (0-based, end exclusive: the index of the closing marker)."""
    lines = read_lines(path)
    found, open_name, start = {}, None, 0
    for i, line in enumerate(lines):
        m = BEGIN.match(line)
        if m:
            if open_name:
                raise SpecError(f"{rel(path)}:{i + 1}: figures {m.group(1)} opens inside figures {open_name}")
            open_name, start = m.group(1), i + 1
            if open_name in found:
                raise SpecError(f"{rel(path)}:{i + 1}: figures {open_name} is marked twice")
        elif END.match(line):
            if not open_name:
                raise SpecError(f"{rel(path)}:{i + 1}: <!-- /figures --> without an opening marker")
            found[open_name] = (start, i)
            open_name = None
    if open_name:
        raise SpecError(f"{rel(path)}: figures {open_name} is not closed by <!-- /figures -->")
    return found


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def rel(path):
    return os.path.relpath(path, ROOT)


def split_cells(line):
    """| a | b \\| c | -> ["a", "b \\| c"]."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", s)]


def table_lines(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


# --- rendering -----------------------------------------------------------------------------------


def render_template(template, env, where):
    if "{" not in template:
        return template
    try:
        return eval("f" + repr(template), env)  # noqa: S307 (our own spec)
    except SpecError:
        raise
    except Exception as e:  # a typo in the spec: name it
        raise SpecError(f"{where}: {template!r}: {type(e).__name__}: {e}")


def render(region, results):
    """The region's lines, and for a table the rendered rows (cells)."""
    env = dict(HELPERS, __builtins__={})
    for key, cmd in region_commands(region).items():
        env[key] = [results[c] for c in cmd] if isinstance(cmd, list) else results[cmd]
    name = region["name"]
    if "text" in region:
        text = render_template(region["text"], env, name)
        return text.split("\n"), None
    header = [render_template(h, env, f"{name}: header") for h in region["header"]]
    rows = [[render_template(c, env, f"{name}: row {row[0]!r}") for c in row] for row in region["rows"]]
    return table_lines(header, rows), [header] + rows


HELPERS = {
    "sig": sig,
    "mean": mean,
    "pair": pair,
    "out": out,
    "framing": framing,
    "min": min,
    "max": max,
    "abs": abs,
    "len": len,
    "sum": sum,
    "round": round,
    "sorted": sorted,
    "zip": zip,
    "range": range,
}


def compare(path, region, lines, cells, old):
    """Differences between the rendered region and the printed one, as lines."""
    name = region["name"]
    where = f"{rel(path)}: {name}"
    if cells is None:
        out = []
        for i in range(max(len(lines), len(old))):
            a = old[i] if i < len(old) else "(missing)"
            b = lines[i] if i < len(lines) else "(missing)"
            if a != b:
                out.append(f"{where}, line {i + 1} of the block:\n    printed: {a}\n    model:   {b}")
        return out
    printed = [split_cells(line) for line in old if line.strip().startswith("|")]
    if len(printed) >= 2:
        del printed[1]  # the |---| line
    header = cells[0]
    out = []
    if len(printed) != len(cells):
        out.append(f"{where}: {len(printed) - 1} row(s) printed, {len(cells) - 1} in the spec")
    for r, row in enumerate(cells):
        prow = printed[r] if r < len(printed) else []
        label = "header" if r == 0 else f"row {row[0]!r}"
        for c, cell in enumerate(row):
            p = prow[c] if c < len(prow) else "(missing)"
            if p != cell:
                generated = "{" in (region["header"] if r == 0 else region["rows"][r - 1])[c]
                what = "model" if generated else "spec text"
                out.append(f"{where}, {label}, column {header[c]!r}:\n    printed:   {p}\n    {what + ':':<10} {cell}")
    return out


# --- running -------------------------------------------------------------------------------------


def run_one(build, tmp, cmd, index):
    args = shlex.split(cmd.replace("{tmp}", tmp).replace("{config}", os.path.join(build, "config")))
    exe = os.path.join(build, args[0])
    out = os.path.join(tmp, f"run{index}.json")
    full = [exe] + args[1:] + ["--json", out]
    t0 = time.monotonic()
    p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    secs = time.monotonic() - t0
    data = None
    if os.path.exists(out):
        with open(out) as f:
            data = json.load(f)
    if p.returncode != 0 or data is None:
        err = (data or {}).get("error") or ((p.stderr.strip() or p.stdout.strip()).split("\n") or [""])[0]
        raise RuntimeError(f"`{cmd}` exited {p.returncode}: {err}")
    if data.get("data_check") == "fail" or data.get("results", {}).get("data_check") == "fail":
        raise RuntimeError(f"`{cmd}`: data check failed")
    return data, p.stdout, secs


def run_all(build, cmds, jobs, files, verbose):
    results, failures, times = {}, [], {}
    with tempfile.TemporaryDirectory(prefix="doc_figures.") as tmp:
        for name, text in files.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text.replace("{config}", os.path.join(build, "config")))
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futs = {pool.submit(run_one, build, tmp, c, i): c for i, c in enumerate(cmds)}
            for fut in concurrent.futures.as_completed(futs):
                c = futs[fut]
                try:
                    data, stdout, secs = fut.result()
                    results[c] = Result(c, data, stdout=stdout)
                    times[c] = secs
                    if verbose:
                        print(f"  {secs:6.2f} s  {c}", file=sys.stderr)
                except RuntimeError as e:
                    failures.append(str(e))
    return results, failures, times


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Regenerate (--update) or check (--check) the docs' tables of figures measured on the model.")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true",
                      help="exit 1 listing every printed figure the model no longer gives")
    mode.add_argument("--update", action="store_true", help="rewrite the tables in place")
    mode.add_argument("--list", action="store_true", help="list the regions: file, name, runs, slow or not")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="directory of the board executables (build/)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="runs at once (the number of CPUs)")
    ap.add_argument("--all", action="store_true", help="the slow regions too")
    ap.add_argument("--only", action="append", default=[], help="only these regions (NAME or NAME,NAME; repeatable)")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every run's wall time")
    a = ap.parse_args(argv)
    try:
        regions = load_regions()
        only = [n for o in a.only for n in o.split(",") if n]
        for n in only:
            if n not in regions:
                raise SpecError(f"--only {n}: no such region (--list lists them)")
        if a.list:
            for r in regions.values():
                n = len(all_commands(r))
                print(f"{r['file']:<24} {r['name']:<32} {n:>3} run(s){'  slow (--all)' if r.get('slow') else ''}")
            return 0
        selected = [r for r in regions.values() if (r["name"] in only if only else a.all or not r.get("slow"))]
        # Every marker has a region of the spec and every selected region its markers.
        marked = {}
        for f in sorted({r["file"] for r in regions.values()}):
            for name, span in find_regions(os.path.join(ROOT, f)).items():
                if name not in regions or regions[name]["file"] != f:
                    raise SpecError(f"{f}: figures {name} is not a region of {f} in bench/doc_figures_spec.py")
                marked[name] = span
        for r in selected:
            if r["name"] not in marked:
                raise SpecError(f"{r['file']}: no <!-- figures: {r['name']} --> ... <!-- /figures --> markers")
    except SpecError as e:
        print(f"doc_figures: {e}", file=sys.stderr)
        return 2
    build = os.path.abspath(a.build)
    for board in sorted({c.split()[0] for r in selected for c in all_commands(r)}):
        if not os.access(os.path.join(build, board), os.X_OK):
            print(f"doc_figures: {os.path.join(build, board)} is not an executable (--build DIR)", file=sys.stderr)
            return 2

    # The slow regions' runs first: the longest runs should not start last.
    cmds = list(dict.fromkeys(c for r in sorted(selected, key=lambda r: not r.get("slow")) for c in all_commands(r)))
    files = {}
    for r in selected:
        files.update(r.get("files", {}))
    t0 = time.monotonic()
    results, failures, _ = run_all(build, cmds, max(1, a.jobs), files, a.verbose)
    if failures:
        for f in sorted(failures):
            print(f"doc_figures: {f}", file=sys.stderr)
        return 2

    diffs, changed = [], set()
    try:
        for f in sorted({r["file"] for r in selected}):
            path = os.path.join(ROOT, f)
            lines = read_lines(path)
            spans = find_regions(path)
            rendered = []
            for r in sorted((r for r in selected if r["file"] == f), key=lambda r: spans[r["name"]][0]):
                start, end = spans[r["name"]]
                new, cells = render(r, results)
                d = compare(path, r, new, cells, lines[start:end])
                diffs.extend(d)
                rendered.append((start, end, new, bool(d)))
            # Last region first, so the earlier spans stay valid.
            for start, end, new, differs in reversed(rendered):
                if differs:
                    changed.add(f)
                    lines[start:end] = new
            if a.update and f in changed:
                with open(path, "w", encoding="utf-8") as out:
                    out.write("\n".join(lines))
    except SpecError as e:
        print(f"doc_figures: {e}", file=sys.stderr)
        return 2
    secs = time.monotonic() - t0
    names = ", ".join(r["name"] for r in selected)
    if a.update:
        print(f"doc_figures: {len(selected)} region(s) from {len(cmds)} run(s) in {secs:.0f} s; "
              f"{'rewrote ' + ', '.join(sorted(changed)) if changed else 'nothing changed'}")
        return 0
    if diffs:
        print("\n".join(diffs))
        print(f"doc_figures: {len(diffs)} printed cell(s) differ from the model "
              f"(bench/doc_figures.py --update rewrites them; the runs: --list)")
        return 1
    print(f"doc_figures: every figure of {len(selected)} region(s) matches the model "
          f"({len(cmds)} run(s), {secs:.0f} s): {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
