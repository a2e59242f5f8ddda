"""gunicorn settings for the web node: `gunicorn -c deploy/gunicorn.conf.py arena.wsgi:application`."""

import multiprocessing
import os

bind = os.environ.get("BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
timeout = 60
accesslog = "-"
