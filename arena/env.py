"""Small helpers that read settings from environment variables and fail loudly on bad values.

Every helper raises `ImproperlyConfigured` naming the variable and what it expected, so a typo
in a deployment stops the process at start-up instead of running with a silent default.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false, yes/no), not {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    return value


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _postgres_options(url: str, options: dict[str, str]) -> dict[str, Any]:
    """Typed values for the options psycopg and Django take as Python values.

    The rest (sslmode, connect_timeout, options, ...) are libpq's and stay strings. A
    string here would fail at the first query (psycopg compares the threshold as an int)
    or be ignored (Django only honours `server_side_binding` when it is True).
    """
    typed: dict[str, Any] = dict(options)
    threshold = options.get("prepare_threshold")
    if threshold is not None:
        if threshold.strip().lower() == "none":
            typed["prepare_threshold"] = None
        elif threshold.strip().isdecimal():
            typed["prepare_threshold"] = int(threshold)
        else:
            raise ImproperlyConfigured(
                f"DATABASE_URL: prepare_threshold must be a whole number or none, "
                f"not {threshold!r} ({url.split('@')[-1]})"
            )
    binding = options.get("server_side_binding")
    if binding is not None:
        value = binding.strip().lower()
        if value not in _TRUE | _FALSE:
            raise ImproperlyConfigured(
                f"DATABASE_URL: server_side_binding must be true or false, not {binding!r}"
            )
        typed["server_side_binding"] = value in _TRUE
    return typed


def parse_database_url(url: str, base_dir: Path) -> dict[str, Any]:
    """Turn a DATABASE_URL into a Django DATABASES entry.

    postgres://user:pass@host:port/name (or postgresql://) uses psycopg 3; query parameters
    (sslmode=require, ...) become connection OPTIONS. sqlite:///relative/path is relative to
    the project directory, sqlite:////absolute/path is absolute.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL names no database: {url!r}")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL has a bad port: {url!r}") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "OPTIONS": _postgres_options(url, dict(parse_qsl(parts.query))),
        }
    if scheme == "sqlite":
        if parts.netloc:
            raise ImproperlyConfigured(
                f"DATABASE_URL for SQLite is sqlite:///relative/path or sqlite:////abs/path, "
                f"not {url!r}"
            )
        raw_path = unquote(parts.path)
        if raw_path in {"", "/"}:
            raise ImproperlyConfigured(f"DATABASE_URL names no SQLite file: {url!r}")
        # sqlite:///x -> path "/x" -> relative "x"; sqlite:////x -> path "//x" -> absolute "/x"
        path = Path(raw_path[1:])
        if not path.is_absolute():
            path = base_dir / path
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}
    raise ImproperlyConfigured(
        f"DATABASE_URL must start with postgres:// or sqlite:///, not {url.split(':', 1)[0]!r}"
    )


_RATE_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600}
_RATE_PERIODS.update({"hour": 3600, "d": 86400, "day": 86400})


def env_rate(name: str, default: str | None) -> str | None:
    """A DRF throttle rate such as `60/min` (`N/s`, `/min`, `/hour`, `/day`); `off` disables it."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in {"", "off", "none"}:
        return None
    count, _, period = value.partition("/")
    if not count.isascii() or not count.isdigit() or int(count) < 1 or period not in _RATE_PERIODS:
        raise ImproperlyConfigured(
            f"{name} must be a rate like 60/min (periods: s, min, hour, day) or off, not {raw!r}"
        )
    return f"{int(count)}/{period}"
