#!/usr/bin/env bash
# The whole test suite: every Rust test of the workspace, the Python package's tests (in a
# virtual environment scripts/python-tests.sh makes itself), then the browser tests of the web
# interface in headless Chromium (scripts/e2e.sh installs Chromium and the Playwright driver
# when they are missing). This is the command of README.md that CI runs through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash scripts/python-tests.sh
bash scripts/e2e.sh
