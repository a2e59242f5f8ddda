#!/usr/bin/env bash
# The whole suite against real PostgreSQL and Redis (started here when needed).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}

bash scripts/services.sh
export DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/arena}
export CELERY_BROKER_URL=${TEST_CELERY_BROKER_URL:-redis://127.0.0.1:6379/0}
export SECRET_KEY=${SECRET_KEY:-test-only-secret-key}

echo "== lint"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check . >/dev/null || { "$VENV/bin/ruff" format --check .; exit 1; }
echo "== types (mypy --strict on engine/ and bots/sdk/)"
"$VENV/bin/mypy"

echo "== tests"
workers=${PYTEST_WORKERS:-$(nproc)}
# Long fault scenarios (@pytest.mark.long) only with `make test-all` / `make test-faults`.
"$VENV/bin/pytest" -n "$workers" -q -m "${PYTEST_MARKERS-not long}" "$@"
