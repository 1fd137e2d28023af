#!/usr/bin/env bash
# The Python package's tests: makes a virtual environment of its own (target/python-venv, or
# $REALMS_VENV), installs the pinned test requirements, builds the package into it with maturin
# and runs pytest on python/tests. Arguments are passed to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${REALMS_VENV:-$root/target/python-venv}
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    echo "Making the virtual environment $venv"
    "$python" -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r python/requirements-test.txt
echo "Building the realms Python package"
(cd python && VIRTUAL_ENV=$venv PATH="$venv/bin:$PATH" "$venv/bin/maturin" develop --quiet ${MATURIN_ARGS:-})
cd python
"$venv/bin/python" -m pytest -q tests "$@"
