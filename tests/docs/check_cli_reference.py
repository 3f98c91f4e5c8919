#!/usr/bin/env python3
"""Every option of every board workload is in docs/reference/command-line.md.

Runs `BOARD --help` for the workloads and `BOARD WORKLOAD --help` for each,
and fails naming each option (`--name`) that the reference does not list
in that workload's section (or, for options every workload takes, in the
sections of global options).

    check_cli_reference.py BUILD_DIR_OF_BOARDS REFERENCE_MD
"""
import os
import re
import subprocess
import sys

COLLECTIVES = {"all_gather", "reduce_scatter", "all_reduce", "all_to_all", "broadcast"}


def options(text):
    """Long option names of a CLI11 help text's Options section."""
    out = []
    for line in text.splitlines():
        m = re.match(r"\s{2}(?:-\w,)?(--[\w-]+)", line)
        if m and m.group(1) != "--help":
            out.append(m.group(1))
    return out


def subcommands(text):
    out, on = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            on = True
            continue
        m = re.match(r"\s{2}(\w+)\s", line)
        if on and m:
            out.append(m.group(1))
    return out


def sections(md):
    """Heading text -> the text up to the next heading of the same or a higher level."""
    heads = [(m.start(), len(m.group(1)), m.group(2).strip()) for m in re.finditer(r"^(#{2,3}) (.+)$", md, re.M)]
    out = {}
    for i, (pos, level, title) in enumerate(heads):
        end = len(md)
        for p2, l2, _ in heads[i + 1:]:
            if l2 <= level:
                end = p2
                break
        out[title.strip("`")] = md[pos:end]
    return out


def main():
    build, ref = sys.argv[1], sys.argv[2]
    md = open(ref).read()
    sec = sections(md)
    board = os.path.join(build, "t3000")
    top = subprocess.run([board, "--help"], capture_output=True, text=True).stdout
    globals_ = set(options(top))
    global_text = sec.get("The board executables", "") + sec.get("Options every workload takes", "")
    missing = [f"{board}: {o} (an option every workload takes)" for o in sorted(globals_)
               if not re.search(r"`" + re.escape(o) + r"[ `]", global_text)]
    for wl in subcommands(top):
        text = sec.get("Collectives", "") if wl in COLLECTIVES else sec.get(wl, "")
        if not text:
            missing.append(f"{wl}: no section in {ref}")
            continue
        h = subprocess.run([board, wl, "--help"], capture_output=True, text=True).stdout
        for o in options(h):
            if o in globals_:
                continue
            if not re.search(r"`" + re.escape(o) + r"[ `]", text):
                missing.append(f"{wl}: {o}")
    for m in missing:
        print(f"check_cli_reference: not in {ref}: {m}")
    print(f"check_cli_reference: {len(subcommands(top))} workloads, {len(missing)} option(s) missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
