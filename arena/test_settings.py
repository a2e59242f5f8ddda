"""Settings for the test suite: real PostgreSQL and Redis on 127.0.0.1 unless told otherwise.

Environment variables still win, so `DATABASE_URL=... pytest` points the tests elsewhere.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")

from arena.settings import *  # noqa: E402,F403

# Hashing passwords slowly only slows the tests down.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Tests render templates without collecting static files first; the browser test runs the
# production storage in its own server (tests/arena/api/test_browser.py).
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Nothing is collected in tests: WhiteNoise finds files in the apps' folders when asked.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Rate limits bite only in the throttling tests, which set their own rates.
ARENA_THROTTLE_RATES = {"anon": None, "user": None, "uploads": None}

# In-process task tests run inside a test transaction that another connection cannot see:
# a lease renewed from the heartbeat's own connection would wait on the test's row locks.
# Tests of leases set their own length (and real workers get theirs in their environment).
ARENA_LEASE_SECONDS = 3600.0

# Parallel test workers each have their own database, so match ids repeat across them: each
# keeps its replay frames in its own memory instead of the shared directory under var/.
CACHES["frames"] = {  # noqa: F405
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "frames",
    "TIMEOUT": None,
}

# The API's cached answers on the real Redis the tests use (the broker's; each test database
# has its own key namespace: arena/services/response_cache.py).
CACHES["api"] = {  # noqa: F405
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": os.environ.get("API_CACHE_URL", CELERY_BROKER_URL),  # noqa: F405
}
