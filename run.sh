#!/usr/bin/env bash
# Run the site and API on http://127.0.0.1:8000 with demo data.
# No DATABASE_URL: an embedded PostgreSQL in var/pgdata, stopped with the server.
set -euo pipefail
cd "$(dirname "$0")"
source config/bootstrap.sh
export DEBUG="${DEBUG:-1}"
exec .venv/bin/python manage.py serve "$@"
