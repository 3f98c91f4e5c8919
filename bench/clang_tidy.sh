#!/usr/bin/env bash
# clang-tidy over the project's own sources with the checks in .clang-tidy
# (a lint pass, not part of the test run: ~10 s of CPU per file, some
# 12 minutes for the tree on two cores). Installs clang-tidy-14 when missing.
#
#   bench/clang_tidy.sh [BUILD] [PATH-REGEX]
#
# BUILD (default build) must be configured (it has compile_commands.json,
# which CMakeLists.txt always writes). PATH-REGEX limits the run to sources
# whose path matches (e.g. 'host/ccl/' or 'CclOp'); default: every source
# under models platforms firmware runtime host cli sc_main golden tools
# (tests and fuzz harnesses are not linted). Headers are checked through the
# sources that include them (HeaderFilterRegex in .clang-tidy).
#
# Prints every finding once (a header seen from many sources reports once),
# then a count per check; writes the full log to BUILD/clang-tidy.log. Exits
# 1 when there is any finding, so it can gate a change: run it on the paths
# you touched before you commit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
filter=${2:-}
[[ $build = /* ]] || build=$root/$build
db=$build/compile_commands.json
[[ -f $db ]] || { echo "clang_tidy: $db not found; configure the build first (./cclsim does)" >&2; exit 2; }
# clang-tidy 14 (Debian 12's) is installed here when missing, as bench/fuzz.sh
# installs clang: it pulls clang itself, too much for every user of ./cclsim.
if ! command -v clang-tidy-14 >/dev/null; then
    SUDO=
    ((EUID == 0)) || SUDO="sudo -n"
    echo "clang_tidy: installing clang-tidy-14 (apt-get) ..." >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends clang-tidy-14 >/dev/null 2>&1 ||
        { $SUDO apt-get update -q >/dev/null 2>&1 &&
          $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends clang-tidy-14 >/dev/null 2>&1; } ||
        { echo "clang_tidy: cannot install clang-tidy-14: run as root or install it" >&2; exit 2; }
fi
tidy=$(command -v clang-tidy-14)

# The sources of the compile database that are ours and match the filter.
mapfile -t files < <(python3 - "$db" "$root" "$filter" <<'EOF'
import json, re, sys, os
db, root, flt = sys.argv[1], sys.argv[2], sys.argv[3]
dirs = ("models/", "platforms/", "firmware/", "runtime/", "host/", "cli/", "sc_main/", "golden/", "tools/")
seen = set()
for e in json.load(open(db)):
    f = os.path.normpath(os.path.join(e["directory"], e["file"]))
    rel = os.path.relpath(f, root)
    if rel.startswith(dirs) and (not flt or re.search(flt, rel)) and rel not in seen:
        seen.add(rel)
        print(f)
EOF
)
((${#files[@]})) || { echo "clang_tidy: no source matches '${filter}'" >&2; exit 2; }
jobs=$(nproc)
log=$build/clang-tidy.log
echo "clang_tidy: ${#files[@]} sources, $jobs at a time ($tidy)" >&2
printf '%s\n' "${files[@]}" |
    xargs -P "$jobs" -n 1 "$tidy" -p "$build" --quiet 2>/dev/null >"$log" || true

# One line per finding, paths relative to the tree (headers reach it through
# build/include/<layer>/ symlinks), each finding once.
findings=$(sed -nE 's#^(/[^:]+):([0-9]+):([0-9]+): warning: (.*)$#\1:\2:\3: \4#p' "$log" |
    sed -E "s#^$build/include/[a-z_]+/##; s#^$root/##" | sort -u)
if [[ -z $findings ]]; then
    echo "clang_tidy: no findings in ${#files[@]} sources"
    exit 0
fi
echo "$findings"
echo
echo "clang_tidy: $(wc -l <<<"$findings") finding(s) in ${#files[@]} sources, by check:"
sed -nE 's/.*\[([a-z0-9.,-]+)\]$/\1/p' <<<"$findings" | sort | uniq -c | sort -rn
exit 1
