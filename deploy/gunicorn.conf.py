"""gunicorn settings for the web node: `gunicorn -c deploy/gunicorn.conf.py arena.wsgi:application`.

Chosen by the load benchmark (bench/locustfile.py, README "Performance"): the API's requests
are short and mostly wait on PostgreSQL, so a few processes with threads each (gthread) keep
the cores busy with less memory than one process per concurrent request. Every value can be
overridden from the environment (WEB_CONCURRENCY, WEB_THREADS, WEB_TIMEOUT, ...).
"""

import multiprocessing
import os

bind = os.environ.get("BIND", "0.0.0.0:8000")
worker_class = os.environ.get("WEB_WORKER_CLASS", "gthread")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("WEB_THREADS", 4))
# A worker silent this long is killed and replaced. The request time limit proper is the
# database's: each web connection cancels a statement after DB_STATEMENT_TIMEOUT_MS (an
# answer of 503), so one expensive request cannot hold a worker for long.
timeout = int(os.environ.get("WEB_TIMEOUT", 30))
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then, so a slow leak can never grow one without bound.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", 5000))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("WEB_ACCESS_LOG", "-") or None

# Settings read by arena/settings.py in each worker (environment variables win):
# keep database connections (a new one costs ~8 ms: a server process fork), checked
# before reuse, and give each SQL statement a time limit.
os.environ.setdefault("DB_CONN_MAX_AGE", "300")
os.environ.setdefault("DB_CONN_HEALTH_CHECKS", "true")
os.environ.setdefault("DB_STATEMENT_TIMEOUT_MS", "5000")
