#!/usr/bin/env bash
# Trains the learned purchase network from nothing, by rounds of self-play, and writes it to
# crates/bots/data/buyer-base.safetensors with its last round's curve in docs/ai/ (docs/ai.md, "A
# learned purchase policy"). Deterministic: it rebuilds the shipped file bit for bit. About 20
# minutes on two cores; the samples (about 2 GB a round) go to the folder given, /tmp/buyer by
# default.
#
#   bash scripts/train-buyer.sh [work folder]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${1:-/tmp/buyer}
mkdir -p "$work"

cargo build --release -p bots --example buyer
buyer="$root/target/release/examples/buyer"
(cd tools/value-train && cargo build --release)
train="$root/tools/value-train/target/release/value-train"
if [ -n "${CARGO_TARGET_DIR:-}" ]; then
  train="$CARGO_TARGET_DIR/release/value-train"
fi

# Round 0: the heuristic's own games. Rounds 1 and 2: the heuristic buying with the last network.
"$buyer" data --games 60000 --seed 1 --out "$work/d0.bin"
"$train" --data "$work/d0.bin" --epochs 10 --hidden 64 --seed 1 --out "$work/n0.safetensors"
"$buyer" data --games 60000 --seed 2 --net "$work/n0.safetensors" --out "$work/d1.bin"
"$train" --data "$work/d1.bin" --epochs 10 --hidden 64 --seed 1 --out "$work/n1.safetensors"
"$buyer" data --games 60000 --seed 3 --net "$work/n1.safetensors" --out "$work/d2.bin"
# Round 3: a larger network on the last three rounds, then its own games, then the shipped one.
"$train" --data "$work/d0.bin" "$work/d1.bin" "$work/d2.bin" --epochs 6 --hidden 128 --seed 1 \
  --out "$work/n3.safetensors"
"$buyer" data --games 60000 --seed 4 --net "$work/n3.safetensors" --out "$work/d3.bin"
"$train" --data "$work/d1.bin" "$work/d2.bin" "$work/d3.bin" --epochs 6 --hidden 128 --seed 1 \
  --out crates/bots/data/buyer-base.safetensors --curve docs/ai/buyer-training.svg
