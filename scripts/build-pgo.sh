#!/usr/bin/env bash
# Builds `realms` and the server's load example with profile-guided optimization, for a server
# that carries many games: an instrumented build first, then a training run of it (the load
# example's server under 300 games at once with the lobby polled, bot games of both games, a
# few searches), then the build that uses what the training measured. The binaries go to
# target/pgo/use/release/ (`realms`, and `examples/load`); the ordinary `cargo build --release`
# is left alone. Needs rustup's `llvm-tools` component for `llvm-profdata` (added if missing).
# What it saved here differed from one build to the next, from nothing to a tenth of the server's
# CPU an action (docs/benchmarks.md, "A build guided by a profile"); PGO_GAMES=N changes the
# training's number of server games.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/pgo
profiles=$out/profiles

host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata
if [ ! -x "$profdata" ]; then
    echo "Adding rustup's llvm-tools component (for llvm-profdata)"
    rustup component add llvm-tools-preview
fi

build() { # build TARGET-DIR RUSTFLAGS
    RUSTFLAGS="$2" cargo build --release --target-dir "$1" -p realms
    RUSTFLAGS="$2" cargo build --release --target-dir "$1" -p server --example load
}

echo "1/3 Building the instrumented binaries (target/pgo/gen)"
rm -rf "$profiles"
mkdir -p "$profiles"
build "$out/gen" "-Cprofile-generate=$profiles"
gen=$out/gen/release

echo "2/3 Training"
work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# A free port on the loopback: one nothing answers on.
port=$((20000 + RANDOM % 20000))
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    port=$((20000 + RANDOM % 20000))
done
(cd "$work" && exec "$gen/examples/load" --serve "127.0.0.1:$port" --stored-games 2000 \
    > "$work/server.log" 2>&1) &
server=$!
for _ in $(seq 1 600); do
    grep -q "^serving on" "$work/server.log" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; exit 1; }
    sleep 0.1
done
grep -q "^serving on" "$work/server.log" || { echo "the training server did not start"; exit 1; }
"$gen/examples/load" --addr "127.0.0.1:$port" --games "${PGO_GAMES:-300}" --lobby-pollers 4 \
    --busy | tail -n 3
# The server writes its profile as it stops.
kill -INT "$server"
wait "$server"
server=
"$gen/realms" simulate --games 2000 --players heuristic,random --seed 1 > /dev/null
"$gen/realms" simulate --games 300 --players heuristic,heuristic,heuristic,heuristic \
    --format free_for_all --seed 1 > /dev/null
"$gen/realms" --sets rise_of_empire simulate --games 1000 --players random,random --seed 1 \
    > /dev/null
"$gen/realms" --game cosmique simulate --games 2000 \
    --players heuristic,heuristic,heuristic,heuristic --seed 1 > /dev/null
"$gen/realms" simulate --games 20 --players ismcts:300,heuristic --seed 1 > /dev/null
"$profdata" merge -o "$out/realms.profdata" "$profiles"

echo "3/3 Building with the profile (target/pgo/use)"
build "$out/use" "-Cprofile-use=$out/realms.profdata"
echo "Built $out/use/release/realms and $out/use/release/examples/load"
