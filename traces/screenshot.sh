#!/usr/bin/env bash
# Headless GTKWave screenshot of a cclsim trace.
#
#   traces/screenshot.sh TRACE.gtkw|TRACE.vcd OUT.png [--full | --window FROM_NS TO_NS] [--size WxH]
# (--size: the virtual screen, default 1700x1000; cclsim save files open a 1600x900 window)
#
# A .gtkw opens with its own view (its signals, groups, translate filters and
# zoom: cclsim's save files show the whole run); a .vcd uses the .gtkw beside
# it when there is one, else shows every signal. --full zooms to the whole
# run, --window FROM_NS TO_NS to that time window (in ns).
# Needs gtkwave and xvfb (Debian: apt-get install gtkwave xvfb xauth).
#
# The README's waveform figure:
#   ./cclsim run && traces/screenshot.sh traces/out/t3000_default.gtkw docs/img/t3000_default_waveform.png
set -euo pipefail

die() { echo "screenshot.sh: $*" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

(($# >= 2)) || die "usage: traces/screenshot.sh TRACE.gtkw|TRACE.vcd OUT.png [--full | --window FROM_NS TO_NS] [--size WxH]"
trace=$1 out=$2
shift 2
from="" to="" full=0 size=1700x1000
while (($#)); do
    case $1 in
        --full) full=1; shift ;;
        --window)
            (($# >= 3)) || die "--window needs FROM_NS TO_NS"
            [[ $2 =~ ^[0-9]+([.][0-9]+)?$ && $3 =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--window: '$2 $3' are not times in ns"
            # The VCD's time unit is 1 ps.
            from=$(awk -v t="$2" 'BEGIN { printf "%.0f", t * 1000 }')
            to=$(awk -v t="$3" 'BEGIN { printf "%.0f", t * 1000 }')
            awk -v a="$from" -v b="$to" 'BEGIN { exit !(b > a) }' || die "--window: TO_NS must be after FROM_NS"
            shift 3 ;;
        --size)
            (($# >= 2)) && [[ $2 =~ ^[0-9]+x[0-9]+$ ]] || die "--size needs WxH, e.g. 1700x1000"
            size=$2; shift 2 ;;
        *) die "unknown option '$1'" ;;
    esac
done

[[ -f $trace ]] || die "no such trace '$trace'"
command -v gtkwave > /dev/null || die "gtkwave is not installed (Debian: apt-get install gtkwave)"
command -v xvfb-run > /dev/null || die "xvfb-run is not installed (Debian: apt-get install xvfb xauth)"

all=0
case $trace in
    *.gtkw) args=("$trace") ;;
    *.vcd)
        if [[ -f ${trace%.vcd}.gtkw ]]; then
            args=("${trace%.vcd}.gtkw")
        else
            args=("$trace"); all=1
            [[ -n $from ]] || full=1  # no save file, no zoom of its own
        fi ;;
    *) die "'$trace' is neither a .gtkw nor a .vcd" ;;
esac

out_dir=$(dirname -- "$out")
[[ -d $out_dir ]] || die "no directory '$out_dir' for '$out'"
out_abs=$(cd "$out_dir" && pwd)/$(basename -- "$out")
rm -f -- "$out_abs"

CCLSIM_SHOT_PNG=$out_abs CCLSIM_SHOT_FROM=$from CCLSIM_SHOT_TO=$to CCLSIM_SHOT_FULL=$full CCLSIM_SHOT_ALL=$all \
    timeout 120 xvfb-run -a -s "-screen 0 ${size}x24" \
    gtkwave --rcvar "splash_disable on" -S "$here/gtkwave/screenshot.tcl" "${args[@]}" > /dev/null 2>&1 || true
[[ -s $out_abs ]] || die "gtkwave wrote no image (run it by hand: xvfb-run -a gtkwave -S $here/gtkwave/screenshot.tcl ${args[*]})"
echo "wrote $out"
