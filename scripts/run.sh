#!/usr/bin/env bash
# The service on embedded defaults: a private PostgreSQL and Redis of its own under var/
# (deploy/embedded.py), a Celery worker with beat, and the web server. DATABASE_URL and
# CELERY_BROKER_URL, when set, point it at servers of yours instead (nothing private is
# started for them). Ctrl-C stops the web server, the worker and the private servers.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PY="$VENV/bin/python"
export DJANGO_SETTINGS_MODULE=arena.settings
# Local development defaults; production sets DEBUG=false and its own SECRET_KEY.
export DEBUG=${DEBUG:-true}
export ARENA_VAR_DIR=${ARENA_VAR_DIR:-$PWD/var}
mkdir -p "$ARENA_VAR_DIR"

embedded_args=()
[ -n "${CELERY_BROKER_URL:-}" ] && embedded_args+=(--no-redis)
[ -n "${DATABASE_URL:-}" ] && embedded_args+=(--no-postgres)
worker= web=
stop_all() {
    trap - EXIT INT TERM
    for child in $web $worker; do
        kill "$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    done
    "$PY" -m deploy.embedded stop "${embedded_args[@]}" || true
}
trap stop_all EXIT INT TERM
if [ "${#embedded_args[@]}" -lt 2 ]; then
    echo "== starting the private servers under $ARENA_VAR_DIR/embedded"
    exports=$("$PY" -m deploy.embedded start "${embedded_args[@]}")
    eval "$exports"
fi
# The web server and the worker must share the API's response cache (results make cached
# answers stale): the private Redis gives one when none is configured.

"$PY" manage.py migrate --noinput
# With DEBUG off, static files are served from the collected copies (WhiteNoise).
case "$DEBUG" in 0|false|no|off) "$PY" manage.py collectstatic --noinput -v0 ;; esac
"$PY" manage.py load_demo
organiser=$("$PY" manage.py ensure_organiser --password-file "$ARENA_VAR_DIR/organiser-password")

# The ladder fills the worker's slots (the beat's scheduler tops it up every few seconds).
export ARENA_LADDER_CAPACITY=${ARENA_LADDER_CAPACITY:-${WORKER_CONCURRENCY:-2}}
# Health asks for one live worker here: this command always runs one.
export ARENA_HEALTH_MIN_WORKERS=${ARENA_HEALTH_MIN_WORKERS:-1}
# Kept running as systemd's Restart=on-failure would: a worker that dies (killed, crashed)
# is started again; one that was asked to stop (Ctrl-C, exit code 0) is not. Health counts
# the restarts and reports a worker restarting in a loop.
supervise() {
    local child= code=0
    trap 'trap - TERM; [ -n "$child" ] && kill -TERM "$child" 2>/dev/null; wait; exit 0' TERM
    while true; do
        "$@" &
        child=$!
        wait "$child" && code=0 || code=$?
        [ "$code" = 0 ] && exit 0
        echo "== the worker exited (code $code); starting it again in 2 s" >&2
        sleep 2
    done
}
supervise "$VENV/bin/celery" -A workers worker --beat --loglevel=INFO \
    --concurrency="${WORKER_CONCURRENCY:-2}" --schedule="$ARENA_VAR_DIR/celerybeat-schedule" &
worker=$!

PORT=${PORT:-8000}
echo "== Moon Arena on http://127.0.0.1:$PORT/  (API /api/, docs /api/docs/, admin /admin/)"
echo "   database: ${DATABASE_URL%%://*}, broker: ${CELERY_BROKER_URL%%://*} (private ones under $ARENA_VAR_DIR/embedded unless you set them)"
echo "   $organiser"
# In the background, waited for: bash runs a trap only between commands, and a SIGTERM to
# this script (systemd's stop, a supervisor) must stop everything now, not when the web
# server happens to exit.
"$PY" manage.py runserver --noreload "127.0.0.1:$PORT" &
web=$!
wait "$web"
