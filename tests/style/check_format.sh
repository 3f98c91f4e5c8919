#!/usr/bin/env bash
# The tree stays formatted: every tracked C++ source and header must be as
# clang-format 14 writes it with the repository's .clang-format. Fails naming
# each file that is not, with the command that fixes it. Run by
# ./cclsim test (ctest: Style.ClangFormat); alone: tests/style/check_format.sh
#
# Which files: `git ls-files` in a git checkout, else every *.h/*.cpp under
# the source folders. The *.in templates are not C++ until CMake fills them.
# clang-format's output differs between major versions, so only 14 (Debian
# 12's, installed by ./cclsim) is accepted.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

cf=""
for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null; then cf=$c; break; fi
done
[[ -n $cf ]] || { echo "check_format: no clang-format; install Debian's clang-format (./cclsim does)" >&2; exit 1; }
version=$("$cf" --version | sed -nE 's/.*version ([0-9]+)\..*/\1/p')
[[ $version == 14 ]] || { echo "check_format: $cf is version ${version:-?}; the tree is formatted with clang-format 14" >&2; exit 1; }

if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- '*.h' '*.cpp')
else
    mapfile -t files < <(find models platforms firmware runtime host cli sc_main golden tools tests fuzz \
                             -type f \( -name '*.h' -o -name '*.cpp' \) | sort)
fi
((${#files[@]})) || { echo "check_format: no sources found under $root" >&2; exit 1; }

# One clang-format process for all files (a process per file costs minutes on
# a busy machine); its diagnostics name each file it would change.
present=()
for f in "${files[@]}"; do [[ -f $f ]] && present+=("$f"); done  # deleted but not yet committed: skip
mapfile -t bad < <("$cf" --dry-run --Werror "${present[@]}" 2>&1 |
                     sed -nE 's/^([^:]+):[0-9]+:[0-9]+: (error|warning): .*/\1/p' | sort -u)
if ((${#bad[@]})); then
    echo "check_format: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says:" >&2
    printf '  %s\n' "${bad[@]}" >&2
    echo "fix with: $cf -i ${bad[*]}" >&2
    exit 1
fi
echo "check_format: ${#files[@]} files formatted ($cf $version)"
