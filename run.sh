#!/usr/bin/env bash
# Run the site and API on http://127.0.0.1:8000 with demo data.
# No DATABASE_URL: an embedded PostgreSQL in var/pgdata, stopped with the server.
set -euo pipefail
cd "$(dirname "$0")"
# The site's packages only (test.sh installs the tests' tools as well).
BOOTSTRAP_EXTRAS="${BOOTSTRAP_EXTRAS-}"
source config/bootstrap.sh
export DEBUG="${DEBUG:-1}"
# The demo's games are played with web2 (shipped by a dependency): analysis works
# out of the box; set LEXICONS to use your own word lists.
export LEXICONS="${LEXICONS:-WEB2=english-words:web2}"
exec .venv/bin/python manage.py serve "$@"
