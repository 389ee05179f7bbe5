# Sourced by run.sh and test.sh: create .venv and install the pinned project into it.
# Re-installs only when pyproject.toml changed since the last install (a stamp file).
set -euo pipefail

PYTHON_BIN="${PYTHON:-}"
if [ -z "$PYTHON_BIN" ]; then
  for candidate in python3.11 python3.12 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PYTHON_BIN="$candidate"; break; fi
  done
fi
if [ -z "$PYTHON_BIN" ]; then
  echo "error: Python 3.11 or 3.12 is required (none found on PATH)" >&2
  exit 1
fi
if ! "$PYTHON_BIN" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 13) else 1)'; then
  echo "error: $PYTHON_BIN is $("$PYTHON_BIN" -V 2>&1); Python 3.11 or 3.12 is required" >&2
  exit 1
fi

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv with $PYTHON_BIN"
  "$PYTHON_BIN" -m venv .venv
fi

stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  echo "==> installing the project and its pinned dependencies into .venv"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[dev]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi
