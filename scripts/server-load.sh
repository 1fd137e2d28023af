#!/usr/bin/env bash
# The server's load benchmark of docs/benchmarks.md ("Server load"), run again and again: each run a new
# server alone on one core over 5,000 stored games, its clients on another core, then a line of figures
# (actions/s, the server's CPU an action read from /proc, p99 and slowest acknowledgement, errors), and a
# summary over the runs. Run from the repository root; builds the release example first.
#
#   bash scripts/server-load.sh                 # the target's row, 10 runs
#   bash scripts/server-load.sh --runs 3 -- --games 50 --busy
#
# Options: --runs N (10), --stored-games N (5000), --server-core C (0), --client-core C (1), --port P
# (9000; 0: any free one), --bin PATH (a `load` example already built, say a debug one: no build); what follows `--`
# replaces the clients' options (default: the target's row, --games 500 --lobby-pollers 4 --busy
# --views changes).
set -euo pipefail

runs=10 stored=5000 server_core=0 client_core=1 port=9000 bin=
clients=(--games 500 --lobby-pollers 4 --busy --views changes)
usage() {
  echo "usage: bash scripts/server-load.sh [--runs N] [--stored-games N] [--server-core C] [--client-core C] [--port P] [--bin PATH] [-- CLIENT OPTIONS]" >&2
  exit 2
}
number() { [[ "$2" =~ ^[0-9]+$ ]] || { echo "$1 needs a whole number, not \`$2\`" >&2; exit 2; }; }
while (($#)); do
  case "$1" in
    --runs | --stored-games | --server-core | --client-core | --port)
      (($# >= 2)) || usage
      number "$1" "$2"
      case "$1" in
        --runs) runs=$2 ;;
        --stored-games) stored=$2 ;;
        --server-core) server_core=$2 ;;
        --client-core) client_core=$2 ;;
        --port) port=$2 ;;
      esac
      shift 2 ;;
    --bin)
      (($# >= 2)) || usage
      [[ -x "$2" ]] || { echo "--bin: \`$2\` is not a program" >&2; exit 2; }
      bin=$2
      shift 2 ;;
    --) shift; clients=("$@"); break ;;
    *) usage ;;
  esac
done
((runs >= 1)) || { echo "--runs must be at least 1" >&2; exit 2; }

# Pinned to their cores when the machine has them; otherwise sharing them, and said so.
pin_server=() pin_clients=()
if command -v taskset > /dev/null && (($(nproc) > server_core && $(nproc) > client_core)); then
  pin_server=(taskset -c "$server_core") pin_clients=(taskset -c "$client_core")
else
  echo "note: server and clients not pinned to cores of their own (taskset missing or too few cores)" >&2
fi

if [[ -z "$bin" ]]; then
  cargo build --release -q -p server --example load
  bin=target/release/examples/load
fi
addr=127.0.0.1:$port
work=$(mktemp -d)
server=
stop() {
  if [[ -n "$server" ]]; then kill "$server" 2> /dev/null || true; wait "$server" 2> /dev/null || true; fi
  server=
}
trap 'stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# CPU time (user + system, in clock ticks) of process $1 so far, all its threads included.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

echo "clients: ${clients[*]}; server: --stored-games $stored; $runs runs"
for run in $(seq "$runs"); do
  ${pin_server[@]+"${pin_server[@]}"} "$bin" --serve "$addr" --stored-games "$stored" 2> "$work/server.log" &
  server=$!
  until grep -q "^serving on" "$work/server.log"; do
    if ! kill -0 "$server" 2> /dev/null; then
      echo "the server stopped before it served:" >&2
      cat "$work/server.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  # The address it serves on (a port 0 asked for is the one the system gave).
  served=$(sed -n 's/^serving on \([^,]*\),.*/\1/p' "$work/server.log")
  before=$(ticks "$server")
  if ! ${pin_clients[@]+"${pin_clients[@]}"} "$bin" --addr "$served" "${clients[@]}" --json \
    > "$work/run.json" 2> "$work/clients.log"; then
    echo "the clients failed:" >&2
    cat "$work/clients.log" >&2
    exit 1
  fi
  after=$(ticks "$server")
  stop
  python3 - "$work/run.json" "$before" "$after" "$(getconf CLK_TCK)" "$run" >> "$work/runs.tsv" << 'EOF'
import json, sys
report, before, after, hz, run = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
r = json.load(open(report))
cpu_us = (after - before) / hz * 1e6 / max(r["actions"], 1)
lat = r["latency_ms"]
print(f"{run}\t{r['actions_per_s']:.0f}\t{cpu_us:.1f}\t{lat['p50']:.1f}\t{lat['p99']:.1f}\t{lat['max']:.1f}\t{r['errors']}")
EOF
  IFS=$'\t' read -r n aps cpu p50 p99 max errors < <(tail -n 1 "$work/runs.tsv")
  printf 'run %s: %s actions/s, %s µs of the server'"'"'s core an action, p50 %s ms, p99 %s ms, slowest %s ms, %s errors\n' \
    "$n" "$aps" "$cpu" "$p50" "$p99" "$max" "$errors"
done

python3 - "$work/runs.tsv" << 'EOF'
import statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]).read().split("\n") if line]
col = lambda i: [float(r[i]) for r in rows]
aps, cpu, p99, errors = col(1), col(2), col(4), col(6)
span = lambda v, f, unit: f"{f % min(v)}–{f % max(v)} {unit} (median {f % statistics.median(v)})"
print(f"{len(rows)} runs: {span(aps, '%.0f', 'actions/s')}; {span(cpu, '%.1f', 'µs an action')}; "
      f"p99 {span(p99, '%.1f', 'ms')}, ≤ 20 ms in {sum(p <= 20 for p in p99)} of {len(rows)}; "
      f"{sum(errors):.0f} errors")
EOF
