"""Settings helpers: good values parse, bad values fail loudly with the variable's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from arena.env import env_bool, env_choice, env_int, env_list, parse_database_url


def test_postgres_urls_become_psycopg_settings():
    db = parse_database_url(
        "postgres://u%40x:p%3Aw@db.example:6543/arena?sslmode=require", Path("/p")
    )
    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "arena",
        "USER": "u@x",
        "PASSWORD": "p:w",
        "HOST": "db.example",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
    }
    assert parse_database_url("postgresql://postgres@127.0.0.1/arena", Path("/p"))["PORT"] == ""


def test_driver_options_in_a_postgres_url_get_their_types():
    options = parse_database_url(
        "postgres://x@h/db?prepare_threshold=5&server_side_binding=false&connect_timeout=3",
        Path("/p"),
    )["OPTIONS"]
    assert options == {"prepare_threshold": 5, "server_side_binding": False, "connect_timeout": "3"}
    none = parse_database_url("postgres://x@h/db?prepare_threshold=none", Path("/p"))
    assert none["OPTIONS"] == {"prepare_threshold": None}


@pytest.mark.parametrize(
    ("query", "words"),
    [("prepare_threshold=-1", "whole number"), ("server_side_binding=maybe", "true or false")],
)
def test_bad_driver_options_in_a_postgres_url_fail_loudly(query, words):
    with pytest.raises(ImproperlyConfigured, match=words):
        parse_database_url(f"postgres://x@h/db?{query}", Path("/p"))


def test_sqlite_urls_are_relative_or_absolute():
    assert parse_database_url("sqlite:///var/a.db", Path("/proj"))["NAME"] == "/proj/var/a.db"
    assert parse_database_url("sqlite:////tmp/a.db", Path("/proj"))["NAME"] == "/tmp/a.db"


@pytest.mark.parametrize(
    "url",
    [
        "mysql://x@y/z",
        "postgres://x@y/",
        "sqlite://host/path",
        "sqlite:///",
        "postgres://h:port/db",
        "nonsense",
    ],
)
def test_bad_database_urls_fail_loudly(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        parse_database_url(url, Path("/p"))


def test_env_helpers_parse_and_refuse(monkeypatch):
    monkeypatch.setenv("X_BOOL", "yes")
    monkeypatch.setenv("X_INT", "12")
    monkeypatch.setenv("X_LIST", "a.example, b.example,")
    monkeypatch.setenv("X_CHOICE", "process")
    assert env_bool("X_BOOL", False) is True and env_int("X_INT", 0) == 12
    assert env_list("X_LIST", []) == ["a.example", "b.example"]
    assert env_choice("X_CHOICE", "sandbox", ("sandbox", "process")) == "process"
    assert env_bool("X_UNSET", True) is True
    monkeypatch.setenv("X_BOOL", "maybe")
    monkeypatch.setenv("X_INT", "twelve")
    monkeypatch.setenv("X_CHOICE", "docker")
    with pytest.raises(ImproperlyConfigured, match="X_BOOL"):
        env_bool("X_BOOL", False)
    with pytest.raises(ImproperlyConfigured, match="X_INT"):
        env_int("X_INT", 0)
    with pytest.raises(ImproperlyConfigured, match="X_CHOICE"):
        env_choice("X_CHOICE", "sandbox", ("sandbox", "process"))
    monkeypatch.setenv("X_INT", "-5")
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        env_int("X_INT", 0, minimum=0)


def _settings_in_subprocess(tmp_path, **env):
    import os
    import subprocess
    import sys

    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO", "DATABASE", "CELERY", "SECRET", "DEBUG", "ARENA"))
    }
    clean.update(
        {"DJANGO_SETTINGS_MODULE": "arena.settings", "ARENA_VAR_DIR": str(tmp_path)}, **env
    )
    code = (
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_BROKER_URL, s.ARENA_BOT_ISOLATION)"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_the_zero_setup_default_is_sqlite_and_a_local_redis(tmp_path):
    done = _settings_in_subprocess(tmp_path, DEBUG="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "django.db.backends.sqlite3",
        "redis://127.0.0.1:6379/0",
        "sandbox",
    ]
    assert not (tmp_path / "broker").exists()


def test_the_filesystem_broker_is_an_opt_in_that_warns(tmp_path):
    done = _settings_in_subprocess(tmp_path, DEBUG="1", CELERY_BROKER_URL="filesystem://")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == "filesystem://"
    assert "races between processes" in done.stderr
    assert (tmp_path / "broker" / "queue").is_dir()


def test_production_without_a_secret_key_refuses_to_start(tmp_path):
    done = _settings_in_subprocess(tmp_path, DEBUG="0")
    assert done.returncode != 0 and "SECRET_KEY must be set" in done.stderr


def test_a_bad_isolation_value_refuses_to_start(tmp_path):
    done = _settings_in_subprocess(tmp_path, DEBUG="1", ARENA_BOT_ISOLATION="docker")
    assert done.returncode != 0 and "ARENA_BOT_ISOLATION" in done.stderr


def test_manage_py_names_a_bad_setting_in_one_line_without_a_traceback(tmp_path):
    import os
    import subprocess
    import sys

    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO", "DATABASE", "CELERY", "SECRET", "DEBUG", "ARENA", "CACHE"))
    }
    root = Path(__file__).resolve().parents[2]
    for env, words in (
        ({"DEBUG": "0"}, "SECRET_KEY must be set"),
        ({"DEBUG": "1", "CACHE_URL": "memcached://x"}, "CACHE_URL must be a redis:// URL"),
    ):
        done = subprocess.run(
            [sys.executable, "manage.py", "check"],
            env={**clean, "ARENA_VAR_DIR": str(tmp_path), **env},
            capture_output=True,
            text=True,
            timeout=60,
            cwd=root,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"configuration error: {words}"), done.stderr
        assert "Traceback" not in done.stderr
