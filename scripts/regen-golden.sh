#!/usr/bin/env bash
# Regenerates the golden playthrough after an intended rules change; review `git diff` after.
set -euo pipefail
cd "$(dirname "$0")/.."
UPDATE_GOLDEN=1 cargo test -q -p starrealms --test golden
git --no-pager diff --stat -- crates/starrealms/tests/golden/
