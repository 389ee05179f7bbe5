#!/usr/bin/env bash
# Lint, then run the whole test suite against a throwaway PostgreSQL (or DATABASE_URL).
# Extra arguments go to pytest, e.g. ./test.sh tests/rules_tests -x
set -euo pipefail
cd "$(dirname "$0")"
source config/bootstrap.sh
echo "==> ruff check"
.venv/bin/ruff check .
echo "==> ruff format --check"
.venv/bin/ruff format --check .
echo "==> mypy (strict over rules/)"
.venv/bin/mypy
export DEBUG="${DEBUG:-1}"
# A fresh embedded cluster in a temporary directory, deleted when pytest exits.
export EMBEDDED_PG_TEMP=1
# The browser tests drive Debian's Chromium (never a downloaded browser build).
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "==> installing chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
fi
echo "==> pytest"
exec .venv/bin/python -m pytest "$@"
