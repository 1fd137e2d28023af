#!/usr/bin/env bash
# The whole test suite: every Rust test of the workspace, the server's load script once (small,
# on the debug build), the Python package's tests (in a virtual environment
# scripts/python-tests.sh makes itself), then the browser tests of the web interface in headless
# Chromium (scripts/e2e.sh installs Chromium and the Playwright driver when they are missing).
# This is the command of README.md that CI runs through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
# The server's load benchmark script, once and small, on the debug build the tests made.
bash scripts/server-load.sh --bin "${CARGO_TARGET_DIR:-target}/debug/examples/load" --runs 1 \
  --stored-games 20 --port 0 \
  -- --games 4 --busy
bash scripts/python-tests.sh
bash scripts/e2e.sh
