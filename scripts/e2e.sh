#!/usr/bin/env bash
# End-to-end tests of the browser interface (tests/e2e/): installs what is missing (Debian's
# Chromium, the test's npm packages), type-checks web/*.js, builds realms, starts a server on a
# free port with a throw-away database, runs the tests with Node's test runner and stops the
# server.
# Screenshots and the server's log go to target/e2e-artifacts/. Extra arguments go to
# `node --test` (e.g. --test-name-pattern=hot).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
E2E=$ROOT/tests/e2e
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
ARTIFACTS=$ROOT/target/e2e-artifacts
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ ! -x "$CHROMIUM" ]; then
  echo "e2e: installing Debian's chromium" >&2
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 chromium
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "e2e: Node.js 20 or later is needed (found $(node --version))" >&2
  exit 1
fi

for package in playwright-core typescript; do
  wanted=$(node -p "require('$E2E/package.json').devDependencies['$package']")
  installed=$(node -p "try { require('$E2E/node_modules/$package/package.json').version } catch { '' }")
  if [ "$wanted" != "$installed" ]; then
    echo "e2e: npm ci in tests/e2e" >&2
    (cd "$E2E" && npm ci --no-audit --no-fund)
    break
  fi
done

# The browser's code is plain JavaScript with JSDoc types: TypeScript checks it (docs/web.md).
echo "e2e: type check of web/*.js (tests/e2e/tsconfig.json)" >&2
if ! (cd "$E2E" && npx --no -- tsc -p tsconfig.json); then
  echo "e2e: the type check of web/*.js failed (above); run it with: cd tests/e2e && npx tsc -p tsconfig.json" >&2
  exit 1
fi

cargo build --bin realms
BIN=$TARGET/debug/realms

rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  [ -f "$WORK/server.log" ] && cp "$WORK/server.log" "$ARTIFACTS/server.log"
  rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" --lang en serve --addr 127.0.0.1:0 --db "$WORK/e2e.sqlite" --bot-delay-ms 50 --seats-per-address 100 --bot-games-per-address 100 >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
URL=
for _ in $(seq 1 300); do
  URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.log" | head -n 1 || true)
  [ -n "$URL" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "e2e: the server did not start" >&2; exit 1; }
  sleep 0.1
done
[ -n "$URL" ] || { cat "$WORK/server.log" >&2; echo "e2e: the server printed no address" >&2; exit 1; }
echo "e2e: server at $URL" >&2

cd "$E2E"
start=$(date +%s)
status=0
REALMS_URL=$URL REALMS_BIN=$BIN E2E_ARTIFACTS=$ARTIFACTS CHROMIUM=$CHROMIUM \
  node --test --test-concurrency=1 "$@" ./*.test.mjs || status=$?
echo "e2e: $(( $(date +%s) - start )) s; screenshots in $ARTIFACTS" >&2
exit "$status"
