#!/usr/bin/env bash
# Makes the documentation's images (README.md and docs/), one function per
# image, each writing docs/img/<name>.png from a run of the model (the command
# in the function is the one the page names). Run all, or name some:
#
#   bench/make_readme_images.sh                        # every image
#   bench/make_readme_images.sh image_sweep_all_gather # one
#
# Add an image: write a function image_<name> below and list it in IMAGES.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build
IMG=$ROOT/docs/img
TMP=$(mktemp -d /tmp/cclsim-images-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

say() { echo "make_readme_images: $*"; }

# --- image: sweep plot of the T3000's 8-chip ring all-gather (docs/sweeps.md#plots)
image_sweep_all_gather() {
    say "docs/img/sweep_t3000_all_gather.png: sweep bench/specs/t3000_all_gather.yaml --plot ..."
    (cd "$TMP" && "$BUILD/sweep" "$ROOT/bench/specs/t3000_all_gather.yaml" -q --plot sweep_t3000_all_gather.png)
    cp "$TMP/sweep_t3000_all_gather.png" "$IMG/"
}

# --- image: sweep plot of the n300's raw Ethernet bandwidth vs packet size (docs/sweeps.md#plots)
image_sweep_eth_bandwidth() {
    say "docs/img/sweep_n300_eth_bandwidth.png: n300 eth_bandwidth --sweep --plot ..."
    (cd "$TMP" && "$BUILD/n300" eth_bandwidth --sweep --quiet --plot sweep_n300_eth_bandwidth.png)
    cp "$TMP/sweep_n300_eth_bandwidth.png" "$IMG/"
}

# --- image: GTKWave screenshot of the default demo's waveform (README.md, docs/traces.md)
image_default_waveform() {
    say "docs/img/t3000_default_waveform.png: ./cclsim run, then traces/screenshot.sh ..."
    "$ROOT/cclsim" run --quiet
    "$ROOT/traces/screenshot.sh" "$ROOT/traces/out/t3000_default.gtkw" "$IMG/t3000_default_waveform.png"
}

IMAGES=(image_sweep_all_gather image_sweep_eth_bandwidth image_default_waveform)

main() {
    "$ROOT/cclsim" build
    mkdir -p "$IMG"
    local f
    for f in "${@:-${IMAGES[@]}}"; do
        declare -F "$f" >/dev/null || { echo "make_readme_images: no image function '$f' (have: ${IMAGES[*]})" >&2; exit 2; }
        "$f"
    done
}

main "$@"
