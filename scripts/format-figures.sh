#!/usr/bin/env bash
# Prints the per-format table of docs/benchmarks.md: 10,000 heuristic-bot games per format, seat
# count and edition. Run from the repository root; builds the release binary first.
set -euo pipefail
cargo build --release -q -p realms
ROW='
import json, sys
v = json.load(sys.stdin)
rates = " ".join("%.1f" % (100 * r) for r in v["win_rate"])
print("| %s | %d | %s | %s | %d | %.1f | %.0f |" % (v["format"], len(v["players"]), v["edition"],
      rates, v["draws"], v["mean_turns"], v["games_per_second"]))
'
for cfg in "standard 2" "free_for_all 3" "free_for_all 4" "free_for_all 6" "hunter 3" "hunter 4" \
           "hunter 6" "hunter_first_blood 4" "hydra 4" "hydra 6" "emperor 6" "raid 3" "raid 4" "raid 6"; do
  set -- $cfg
  players=$(printf 'heuristic%.0s,' $(seq "$2")); players=${players%,}
  for edition in rise_of_empire classic; do
    ./target/release/realms simulate -n 10000 --format "$1" --edition "$edition" \
      --players "$players" --seed 1 --json | python3 -c "$ROW"
  done
done
