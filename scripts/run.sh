#!/usr/bin/env bash
# The service on embedded defaults: SQLite and a filesystem broker, so nothing
# else needs installing. Set DATABASE_URL / CELERY_BROKER_URL to use PostgreSQL
# and Redis instead. Ctrl-C stops the web server and the worker together.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
export DJANGO_SETTINGS_MODULE=arena.settings
# Local development defaults; production sets DEBUG=false and its own SECRET_KEY.
export DEBUG=${DEBUG:-true}
mkdir -p var

"$VENV/bin/python" manage.py migrate --noinput
# With DEBUG off, static files are served from the collected copies (WhiteNoise).
case "$DEBUG" in 0|false|no|off) "$VENV/bin/python" manage.py collectstatic --noinput -v0 ;; esac
"$VENV/bin/python" manage.py load_demo

# The ladder fills the worker's slots (the beat's scheduler tops it up every few seconds).
export ARENA_LADDER_CAPACITY=${ARENA_LADDER_CAPACITY:-${WORKER_CONCURRENCY:-2}}
"$VENV/bin/celery" -A workers worker --beat --loglevel=INFO --concurrency="${WORKER_CONCURRENCY:-2}" \
    --schedule=var/celerybeat-schedule &
worker=$!
trap 'kill "$worker" 2>/dev/null || true; wait "$worker" 2>/dev/null || true' EXIT INT TERM

echo "== Moon Arena on http://127.0.0.1:8000/  (API /api/, docs /api/docs/, admin /admin/)"
echo "   make an organiser/admin account with: $VENV/bin/python manage.py createsuperuser"
"$VENV/bin/python" manage.py runserver --noreload 127.0.0.1:8000
