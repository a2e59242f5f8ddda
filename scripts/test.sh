#!/usr/bin/env bash
# The whole suite against real PostgreSQL and Redis (started here when needed).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}

bash scripts/services.sh
# The browser test (tests/arena/api/test_browser.py) drives Debian's Chromium.
if ! [ -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing chromium"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "warning: /usr/bin/chromium is missing; the browser test will fail" >&2
    fi
fi
# The accessibility checks (tests/arena/web/axe.py) inject axe-core from npm, kept in var/node/.
bash scripts/axe.sh
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
# Long fault scenarios and the long fuzzing run (@pytest.mark.long) only with `make test-all`
# / `make test-faults`.
"$VENV/bin/pytest" -n "$workers" -q -m "${PYTEST_MARKERS-not long}" "$@"
