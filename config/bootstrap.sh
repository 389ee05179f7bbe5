# Sourced by run.sh and test.sh: create .venv and install the pinned project into it.
# Re-installs only when pyproject.toml changed since the last install (a stamp file).
#
# BOOTSTRAP_EXTRAS: "dev" (test.sh, the default: the tests' tools too) or "" (run.sh:
# what the site needs, a third of the download and half the install time).
# A wheelhouse/ folder next to this project (README, "At the venue without
# internet") is installed from with no index at all.
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

# What pip says when it cannot reach the package index (no network, no DNS, a
# proxy or index that does not answer) or finds nothing to install offline.
_BOOTSTRAP_OFFLINE='NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution|Name or service not known|Network is unreachable|Max retries exceeded|ConnectTimeoutError|ReadTimeoutError|Connection refused|ProxyError|No matching distribution found|from versions: none'

# pip install "$@" quietly, its output kept in .venv/pip-install.log. When it fails
# for want of the network: one sentence saying what to do, not pip's traceback.
_bootstrap_pip() {
  local log=.venv/pip-install.log
  if .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@" >"$log" 2>&1; then
    return 0
  fi
  if grep -Eq "$_BOOTSTRAP_OFFLINE" "$log"; then
    echo "error: cannot install the project's packages: the package index is out of reach (no internet?). Run ./run.sh once where there is internet, or prepare a wheelhouse/ folder as the README says under \"At the venue without internet\" (pip's own words are in $log)." >&2
  else
    cat "$log" >&2
    echo "error: installing the project's packages failed (pip's output above, also in $log)" >&2
  fi
  exit 1
}

_bootstrap_extras="${BOOTSTRAP_EXTRAS-dev}"
_bootstrap_hash=$(sha256sum pyproject.toml | cut -c1-16)
# .installed-<hash> means everything (dev included); .installed-<hash>-run the site only.
_bootstrap_full=.venv/.installed-$_bootstrap_hash
if [ -n "$_bootstrap_extras" ]; then
  _bootstrap_stamp=$_bootstrap_full
  _bootstrap_target=".[$_bootstrap_extras]"
else
  _bootstrap_stamp=$_bootstrap_full-run
  _bootstrap_target="."
fi
if [ ! -f "$_bootstrap_full" ] && [ ! -f "$_bootstrap_stamp" ]; then
  echo "==> installing the project and its pinned dependencies into .venv"
  _bootstrap_source=()
  if [ -d wheelhouse ]; then
    _bootstrap_source=(--no-index --find-links wheelhouse)
  fi
  # (the empty-array form that bash 3.2, macOS's, accepts under set -u)
  _bootstrap_pip ${_bootstrap_source[@]+"${_bootstrap_source[@]}"} -e "$_bootstrap_target"
  rm -f .venv/.installed-*
  touch "$_bootstrap_stamp"
fi

# The compiled rules core (README, "The compiled rules core"), opt-in for now:
# RULES_COMPILE=1 builds it in place with mypyc when a rules source changed since
# the last build (a no-op in milliseconds when current), where a C compiler and
# mypyc are present (otherwise it says so and the Python sources run).
if [ "${RULES_COMPILE:-0}" != 0 ]; then
  .venv/bin/python config/build_rules.py
fi
