"""gunicorn settings for the web node: `gunicorn -c deploy/gunicorn.conf.py arena.wsgi:application`.

Chosen by the load benchmark (scripts/locustfile.py; docs/benchmarks.md): the
API's requests are short and spend ~3/4 of their time in Python (serializing), not waiting
on PostgreSQL, so threads in one process queue on the GIL. Sync workers, 2 x CPUs + 1, gave
a p50 of 65 ms where 3 gthread processes x 4 threads gave 330 ms at the same 50 requests/s
(p95 640 vs 1200 ms). Run it behind a buffering proxy (nginx) so a slow client never holds
a worker. Every value can be overridden from the environment (WEB_CONCURRENCY, ...).
"""

import multiprocessing
import os

# The address and port gunicorn listens on.
bind = os.environ.get("BIND", "0.0.0.0:8000")
# gunicorn's worker class (sync: one request at a time per process, measured fastest here).
worker_class = os.environ.get("WEB_WORKER_CLASS", "sync")
# Web worker processes.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
# Threads per web worker process (for a threaded worker class).
threads = int(os.environ.get("WEB_THREADS", 1))
# The request time limits: each web connection cancels an SQL statement after
# DB_STATEMENT_TIMEOUT_MS (the request answers 503), and a sync worker still busy with one
# request after `timeout` seconds is killed and replaced, so no request holds a worker longer.
timeout = int(os.environ.get("WEB_TIMEOUT", 30))
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then, so a slow leak can never grow one without bound.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", 5000))
max_requests_jitter = max_requests // 10
# Where the access log goes ("-": standard output; empty: none).
accesslog = os.environ.get("WEB_ACCESS_LOG", "-") or None

# Settings read by arena/settings.py in each worker (environment variables win):
# keep database connections (a new one costs ~8 ms: a server process fork), checked
# before reuse, and give each SQL statement a time limit.
os.environ.setdefault("DB_CONN_MAX_AGE", "300")
os.environ.setdefault("DB_CONN_HEALTH_CHECKS", "true")
os.environ.setdefault("DB_STATEMENT_TIMEOUT_MS", "5000")


def on_starting(server):
    """A new release may shape answers differently: make every answer the response cache
    holds for this database stale (arena/api/caching.py) before the workers start."""
    try:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
        import django

        django.setup()
        from django.core.cache import caches

        from arena.services import response_cache

        response_cache.bump([response_cache.ALL])
        caches.close_all()
    except Exception:  # the cache is an optimisation: never a reason not to start
        server.log.exception("could not make the cached API answers stale")
