"""Django settings for Moon Arena, read from environment variables (see arena/env.py).

With no environment at all this reads a SQLite file under var/ and a Redis on 127.0.0.1:6379.
`make run` sets DATABASE_URL and CELERY_BROKER_URL to private PostgreSQL and Redis servers it
starts under var/ (deploy/embedded.py), unless they are set already.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from arena.env import (
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
# Where the service keeps its files: the SQLite default, the frames cache, static files.
VAR_DIR = Path(env_str("ARENA_VAR_DIR", str(BASE_DIR / "var")))

# Django's debug mode: tracebacks in answers, static files from the apps' folders. Never
# in production.
DEBUG = env_bool("DEBUG", False)
# Signs login sessions and CSRF tokens; required unless DEBUG is on. The same on every node.
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
# Host names the web server answers to (DEBUG on: 127.0.0.1 and localhost by default).
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
# Origins (https://arena.example.org) trusted for form posts behind a TLS-terminating proxy.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    # Swagger UI for /api/docs/, served from /static/: nothing loads from a CDN.
    "drf_spectacular_sidecar",
    "arena.apps.ArenaConfig",
    # No models: its management commands drive the workers (manage.py arena_bench).
    "workers.apps.WorkersConfig",
]

MIDDLEWARE = [
    # A database or Redis outage answers 503 naming the part (arena/api/outages.py).
    "arena.api.outages.AnswerOutages",
    "django.middleware.security.SecurityMiddleware",
    # Static files from the app (compressed, cached for ever under hashed names), before
    # anything that would open a session for them.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # `?status=` or `?page=` with nothing after `=`: a 400 naming the parameter (arena/api/).
    "arena.api.middleware.refuse_empty_query_values",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, so a hit skips only the view: anonymous API reads from Redis (arena/api/caching.py).
    "arena.api.caching.ResponseCacheMiddleware",
]

# Each answer carries X-Queries, its number of SQL statements (the load benchmark reads it).
if env_bool("API_QUERY_COUNT_HEADER", False):
    # Outermost: each answer says how many SQL statements it took (the load benchmark's).
    MIDDLEWARE.insert(0, "arena.api.middleware.count_queries")

ROOT_URLCONF = "arena.urls"
LOGIN_URL = "web-login"
LOGIN_REDIRECT_URL = "web-my-bots"
LOGOUT_REDIRECT_URL = "web-home"
WSGI_APPLICATION = "arena.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_default_sqlite = VAR_DIR / "arena.sqlite3"
DATABASES = {
    # postgres://user:password@host:port/name (psycopg 3; query parameters become connection
    # options) or sqlite:///path. `make run` sets it to a PostgreSQL of its own.
    "default": parse_database_url(env_str("DATABASE_URL", f"sqlite:///{_default_sqlite}"), BASE_DIR)
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # Worker processes and the web server share the file: wait for locks instead of failing.
    # Transactions take the write lock when they begin: a deferred one that read first and
    # then wrote (recording a result) could not upgrade while another process committed,
    # and SQLite fails such a transaction at once ("database is locked") instead of waiting.
    # In WAL mode readers (the API) do not block the workers' writes.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL",
    }
# Seconds a database connection is kept for the next request or task (0: one per request;
# the web node and the workers default to 300).
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 0, minimum=0)
# A kept connection can be checked (a ping when a request first reuses it) before use, so a
# database restart costs one reconnection instead of an error: the web node's default
# (deploy/gunicorn.conf.py). Workers keep their connections without it: their first
# statements travel in psycopg's pipeline mode (arena/services/rows.py), and they already
# drop a broken connection between tasks (workers/celery.py).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_CONN_HEALTH_CHECKS", False)
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Only the match path's statements are prepared (arena/services/rows.py), and they all
    # find their rows by key: one generic plan each, instead of planning the result's write
    # anew for every match. Django's own statements are not prepared, so they are unchanged.
    # psycopg prepares nothing unless it has a threshold (Django sets none): this one is
    # never reached, so only the statements asked for explicitly are prepared.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c plan_cache_mode=force_generic_plan"
    _options.setdefault("prepare_threshold", 2**31 - 1)
    # A request time limit the database enforces: one expensive query is cancelled (the
    # request answers 503) instead of holding a web worker. 0 = no limit; the web node's
    # default comes from deploy/gunicorn.conf.py, workers keep none.
    _statement_ms = env_int("DB_STATEMENT_TIMEOUT_MS", 0, minimum=0)
    if _statement_ms:
        _options["options"] += f" -c statement_timeout={_statement_ms}"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Replay frames (arena/services/frames.py): megabytes per match, shared by every web
    # process and kept across restarts, so on disk rather than in each process's memory.
    # A folder that cannot be written is logged and gone without (arena/cache_backends.py).
    "frames": {
        "BACKEND": "arena.cache_backends.DegradingFileBasedCache",
        "LOCATION": env_str("FRAMES_CACHE_DIR", str(VAR_DIR / "cache" / "frames")),
        "TIMEOUT": None,
        # Matches whose frames are kept; past it the cache drops a share of its entries.
        "OPTIONS": {"MAX_ENTRIES": env_int("FRAMES_CACHE_ENTRIES", 2000, minimum=1)},
    },
}

STATIC_URL = "static/"
# Where `manage.py collectstatic` writes the static files the app serves.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")))
# `manage.py collectstatic` (the Dockerfile's build, scripts/run.sh) writes hashed, gzip and
# brotli copies; WhiteNoise serves them with a year's Cache-Control. With DEBUG on, files are
# found in the apps' folders instead, so development needs no collecting.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "arena.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    # Items per page of the API's numbered lists.
    "PAGE_SIZE": env_int("API_PAGE_SIZE", 50, minimum=1),
    "DEFAULT_SCHEMA_CLASS": "arena.api.schema.ArenaAutoSchema",
    "EXCEPTION_HANDLER": "arena.api.errors.exception_handler",
    # Per user (by id) and per anonymous client (by address); rates in ARENA_THROTTLE_RATES
    # below, read at each request (arena/api/throttling.py). A throttled request is a 429
    # with Retry-After.
    "DEFAULT_THROTTLE_CLASSES": [
        "arena.api.throttling.AnonThrottle",
        "arena.api.throttling.UserThrottle",
    ],
    # Proxies in front of the web server: the client's address for the anonymous rate limit
    # is read from X-Forwarded-For this many hops back (0: the connection's address).
    "NUM_PROXIES": env_int("API_NUM_PROXIES", 0, minimum=0),
    "DEFAULT_PARSER_CLASSES": [
        "arena.api.parsers.JSONParser",
        "rest_framework.parsers.MultiPartParser",
        "rest_framework.parsers.FormParser",
    ],
}

# Throttle rates ("N/s|min|hour|day", or off). Uploads have their own, tighter scope: each
# costs a smoke match on a worker.
ARENA_THROTTLE_RATES = {
    # Requests of one anonymous client (by address).
    "anon": env_rate("API_THROTTLE_ANON", "120/min"),
    # Requests of one signed-in user.
    "user": env_rate("API_THROTTLE_USER", "600/min"),
    # Bot uploads (new bots and versions) of one user.
    "uploads": env_rate("API_THROTTLE_UPLOADS", "30/hour"),
}
# The throttles' counters and the API's cached answers (arena/api/caching.py): shared by
# every web process and worker when CACHE_URL names a Redis (redis://host:port/db). Without
# one, counters are per process and answers are not cached at all: a per-process copy could
# not be invalidated by a result recorded in a worker.
_cache_url = env_str("CACHE_URL", "")
if _cache_url.startswith(("redis://", "rediss://")):
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": _cache_url,
    }
    CACHES["api"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        # The response cache on a Redis of its own, when CACHE_URL's should hold only counters.
        "LOCATION": env_str("API_CACHE_URL", _cache_url),
    }
elif _cache_url:
    raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL or empty, not {_cache_url!r}")
else:
    CACHES["api"] = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
# Anonymous API reads served from the "api" cache; invalidated by the writers
# (arena/services/response_cache.py). What no writer announces (a queued match starting)
# is seen at most API_CACHE_TIMEOUT seconds late; answers that cannot change any more (a
# finished match, its replay, a finished tournament) are kept API_CACHE_TIMEOUT_DONE.
# Off: every API read goes to the database, even with CACHE_URL set.
API_CACHE = env_bool("API_CACHE", True)
# Seconds an answer that may still change is kept (the most a change no writer announces
# shows late).
API_CACHE_TIMEOUT = env_int("API_CACHE_TIMEOUT", 60, minimum=1)
# Seconds an answer that cannot change any more is kept.
API_CACHE_TIMEOUT_DONE = env_int("API_CACHE_TIMEOUT_DONE", 7 * 86400, minimum=1)

SPECTACULAR_SETTINGS = {
    "TITLE": "Moon Arena API",
    "DESCRIPTION": "Upload bots, schedule tournaments, browse matches, replays and leaderboards.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "arena.models.matches.Match.Status",
        "TournamentStatusEnum": "arena.models.tournaments.Tournament.Status",
        "LadderStatusEnum": "arena.models.ladder.Ladder.Status",
        "LadderEntryStatusEnum": "arena.models.ladder.LadderEntry.Status",
    },
}

# --- Celery (the app lives in workers/celery.py and reads the CELERY_* names) ---------------
_broker_dir = VAR_DIR / "broker"
# The broker: redis://host:port/db. `make run` sets it to a Redis of its own.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
if CELERY_BROKER_URL.startswith("filesystem://"):
    # Kombu's filesystem transport, only when asked for by name: producers and consumers share
    # one folder, no server needed, but several processes reading it race on a message file
    # (kombu issue #1551) and a worker dies of it within minutes. Unfit for unattended use.
    import warnings

    warnings.warn(
        "CELERY_BROKER_URL=filesystem:// is for a short try only: it loses workers to races "
        "between processes; use Redis (make run starts one of its own)",
        stacklevel=1,
    )
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        # Broadcast (worker control) messages; left unset, Kombu writes ./control.
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # The folder is polled (Kombu's default: each second); with prefetch 1 a worker
        # process then took at most one match a second. A listing every 50 ms costs nothing.
        "polling_interval": 0.05,
    }
else:
    # Take from the queues in the order the worker lists them (workers/queue/routing.py), not
    # round robin: ladder matches only run when nothing more urgent is waiting.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "queue_order_strategy": "priority",
        # Seconds before a message taken but not acknowledged (acks late: until its task
        # ends) comes back. Recovery never waits for it (leases do that, in seconds); it
        # only bounds how long a dead node's messages linger, and a copy that comes back
        # while its match still plays finds the claim held and does nothing.
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300, minimum=10),
        "socket_timeout": 10,
        "socket_connect_timeout": 5,
        "retry_on_timeout": True,
    }
    if CELERY_BROKER_URL.startswith("redis://"):
        # Kombu's Redis transport, with a worker that rides out Redis refusing writes at
        # its maxmemory (workers/queue/broker.py).
        CELERY_BROKER_TRANSPORT = "workers.queue.broker:Transport"
CELERY_RESULT_BACKEND = None
# Run tasks in the calling process instead of sending them (tests and one-off scripts only).
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# --- The arena --------------------------------------------------------------------------------
# "sandbox" runs each bot under bubblewrap; "process" is a plain process with rlimits.
ARENA_BOT_ISOLATION = env_choice("ARENA_BOT_ISOLATION", "sandbox", ("sandbox", "process"))
# Pin each worker pool process (and so its match's bots) to one CPU: see workers/node/affinity.py.
ARENA_PIN_MATCH_CPU = env_bool("ARENA_PIN_MATCH_CPU", True)
# Dotted paths loaded with import_string, so arena never imports workers statically.
# smoke_test(game, source, filename) -> None when fine, or a reason string; "" skips the check.
ARENA_SMOKE_TEST = env_str("ARENA_SMOKE_TEST", "workers.play.smoke.smoke_test")
# build_upload(source, filename) -> a Build (artifact bytes or None, log): a version in a
# language other than Python is built before its smoke match (arena/languages.py).
ARENA_BUILD = env_str("ARENA_BUILD", "workers.play.builds.build_upload")
# enqueue_validation(version_id) sends a version's smoke match to the validation queue.
ARENA_ENQUEUE_VALIDATION = env_str("ARENA_ENQUEUE_VALIDATION", "workers.tasks.enqueue_validation")
# Smoke matches started for one version at most: one that cannot run (the sandbox down, a
# worker lost mid-match) is tried again until the last, which rejects the version, saying why.
ARENA_VALIDATION_ATTEMPTS = env_int("ARENA_VALIDATION_ATTEMPTS", 6, minimum=1)
# Quotas: bots a user may own (past it a 403, quota_exceeded) ...
ARENA_MAX_BOTS_PER_USER = env_int("ARENA_MAX_BOTS_PER_USER", 20, minimum=1)
# ... and versions of one bot uploaded in any 24 hours (past it a 429 with Retry-After).
ARENA_MAX_VERSIONS_PER_BOT_PER_DAY = env_int("ARENA_MAX_VERSIONS_PER_BOT_PER_DAY", 20, minimum=1)
# enqueue_match(match_id, purpose) puts one match on its purpose's queue (workers/queue/routing.py);
# called on commit by start_tournament (arena/services/tournaments.py) and the ladder scheduler.
ARENA_ENQUEUE_MATCH = env_str("ARENA_ENQUEUE_MATCH", "workers.tasks.enqueue_match")
# enqueue_matches(match_ids, purpose) puts matches between the same bot versions on the
# queue as sets: one task, one process per bot version for the set (a pairing's games).
ARENA_ENQUEUE_MATCHES = env_str("ARENA_ENQUEUE_MATCHES", "workers.tasks.enqueue_matches")
# At most this many matches per set task (a set's processes play them interleaved).
ARENA_SET_MAX_MATCHES = env_int("ARENA_SET_MAX_MATCHES", 16, minimum=1)
# check_limits(dict) raises ValueError with a readable message for limits a worker would refuse.
ARENA_LIMITS_CHECK = env_str("ARENA_LIMITS_CHECK", "workers.sandbox.limits.Limits.from_dict")
# The largest bot file (or zip) an upload may be.
MAX_BOT_BYTES = env_int("MAX_BOT_BYTES", 256 * 1024, minimum=1024)
# A claim is a lease this long, renewed by the worker every third of it while the match
# plays (workers/queue/lease.py); the reaper re-queues a match whose lease lapsed.
ARENA_LEASE_SECONDS = env_float("ARENA_LEASE_SECONDS", 10.0, minimum=1.0)
# How often the reaper (a thread of celery beat) looks for lapsed leases.
ARENA_REAPER_SECONDS = env_float("ARENA_REAPER_SECONDS", 2.0, minimum=0.1)
# How often the reaper reads the broker for queued matches whose message was lost.
ARENA_ORPHAN_SCAN_SECONDS = env_float("ARENA_ORPHAN_SCAN_SECONDS", 10.0, minimum=0.1)
# Seconds between the stores of a running match's partial record (its replay watched live);
# 0 stores the record only at the end.
ARENA_LIVE_RECORD_SECONDS = env_float("ARENA_LIVE_RECORD_SECONDS", 3.0, minimum=0.0)
# Claims of one match before it fails (each lapse, infrastructure fault or crash is one).
ARENA_MAX_ATTEMPTS = env_int("ARENA_MAX_ATTEMPTS", 6, minimum=1)
# Infrastructure faults (database, broker, sandbox) are retried with exponential backoff
# capped at ARENA_RETRY_CAP_SECONDS, for ARENA_RETRY_TOTAL_SECONDS in all.
ARENA_RETRY_CAP_SECONDS = env_float("ARENA_RETRY_CAP_SECONDS", 15.0, minimum=0.1)
# The total time infrastructure retries may take; a played result waits as long for the
# database before it is given up (and the match played again).
ARENA_RETRY_TOTAL_SECONDS = env_float("ARENA_RETRY_TOTAL_SECONDS", 600.0, minimum=1.0)
# /api/health/ (arena/services/health.py): live_workers(timeout) -> the number of workers that
# answered a ping.
ARENA_LIVE_WORKERS = env_str("ARENA_LIVE_WORKERS", "workers.celery.live_workers")
# /api/health/ answers 503 when fewer workers than this answer its ping (0: a web node stays
# in its load balancer while every worker host is away).
ARENA_HEALTH_MIN_WORKERS = env_int("ARENA_HEALTH_MIN_WORKERS", 0, minimum=0)
# Seconds the health check waits for the workers' answers to its ping.
ARENA_HEALTH_TIMEOUT_SECONDS = env_float("ARENA_HEALTH_TIMEOUT_SECONDS", 1.0, minimum=0.05)
# /api/health/ answers 503 when the oldest waiting match has waited longer than this.
ARENA_HEALTH_MAX_WAIT_SECONDS = env_float("ARENA_HEALTH_MAX_WAIT_SECONDS", 300.0, minimum=1.0)
# A worker node started more often than this in the last hour is failing (a restart loop).
ARENA_HEALTH_MAX_STARTS_PER_HOUR = env_int("ARENA_HEALTH_MAX_STARTS_PER_HOUR", 10, minimum=1)
# The database's disk (when local) with less free space than this is failing.
ARENA_HEALTH_MIN_FREE_DISK_PERCENT = env_float(
    "ARENA_HEALTH_MIN_FREE_DISK_PERCENT", 5.0, minimum=0.0
)
# The broker's queue names, for their depths (loaded by name: arena never imports workers).
ARENA_QUEUE_NAMES = env_str("ARENA_QUEUE_NAMES", "workers.queue.routing.queue_names")
# Files the load_demo command reads (read as files: arena does not import bots/).
ARENA_REFERENCE_BOTS_DIR = Path(
    env_str("ARENA_REFERENCE_BOTS_DIR", str(BASE_DIR / "bots" / "reference"))
)
# A round robin larger than this is refused at creation (it would flood the queue).
ARENA_MAX_TOURNAMENT_MATCHES = env_int("ARENA_MAX_TOURNAMENT_MATCHES", 20000, minimum=1)
# Whole-history skill (arena/services/skills.py): refit a game after this many new rated
# results (0: only on demand).
ARENA_SKILL_REFIT_EVERY = env_int("ARENA_SKILL_REFIT_EVERY", 100, minimum=0)
# enqueue_refit(game, force) puts a refit on the queue.
ARENA_ENQUEUE_REFIT = env_str("ARENA_ENQUEUE_REFIT", "workers.tasks.enqueue_refit")

# --- The ladder (arena/ladder/, arena/services/ladder.py) -------------------------------------
# Each game's ladder starts with these; organisers change them per game (PATCH /api/ladders/).

# Ladder matches a new bot or version plays first, before tables are chosen for information.
ARENA_LADDER_NEWCOMER_GAMES = env_int("ARENA_LADDER_NEWCOMER_GAMES", 10, minimum=0)
# A version whose last N ladder matches all ended in its own forfeit is paused.
ARENA_LADDER_CRASH_PAUSE = env_int("ARENA_LADDER_CRASH_PAUSE", 5, minimum=1)
# Share of tables drawn uniformly at random instead of for their information.
ARENA_LADDER_EXPLORATION = env_float("ARENA_LADDER_EXPLORATION", 0.1, minimum=0.0)
# Ladder tables as duplicate sets (every seat rotation on one seed) or played once each.
ARENA_LADDER_DUPLICATE_SETS = env_bool("ARENA_LADDER_DUPLICATE_SETS", True)
# Worker slots the ladder may fill; 0: ask the running workers (celery inspect), each minute.
ARENA_LADDER_CAPACITY = env_int("ARENA_LADDER_CAPACITY", 0, minimum=0)
# Queued + running ladder matches per worker slot, when a ladder sets no target depth.
ARENA_LADDER_DEPTH_PER_SLOT = env_float("ARENA_LADDER_DEPTH_PER_SLOT", 2.0, minimum=0.5)
# How far back the fair share per owner and the games per pair look.
ARENA_LADDER_WINDOW_SECONDS = env_float("ARENA_LADDER_WINDOW_SECONDS", 3600.0, minimum=1.0)
# The beat schedule's tick (workers/celery.py).
ARENA_LADDER_TICK_SECONDS = env_float("ARENA_LADDER_TICK_SECONDS", 5.0, minimum=0.5)
if ARENA_LADDER_EXPLORATION > 1.0:
    raise ImproperlyConfigured("ARENA_LADDER_EXPLORATION must be between 0 and 1")

# --- Logging -------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    # DEBUG, INFO, WARNING or ERROR: the least severe record written to standard error.
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
