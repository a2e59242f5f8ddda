"""The deployment defaults: gunicorn's workers and limits, kept and checked DB connections,
and a statement time limit that answers 503 instead of holding a worker."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError, connection, transaction

from arena.api.errors import exception_handler

ROOT = Path(__file__).resolve().parents[2]


def test_gunicorn_defaults_sync_workers_a_timeout_and_kept_connections(monkeypatch):
    for name in ("DB_CONN_MAX_AGE", "DB_CONN_HEALTH_CHECKS", "DB_STATEMENT_TIMEOUT_MS"):
        monkeypatch.delenv(name, raising=False)
    conf = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    assert conf["worker_class"] == "sync" and conf["workers"] >= 3
    assert conf["timeout"] == 30 and conf["max_requests"] > 0
    assert os.environ["DB_CONN_MAX_AGE"] == "300"
    assert os.environ["DB_CONN_HEALTH_CHECKS"] == "true"
    assert os.environ["DB_STATEMENT_TIMEOUT_MS"] == "5000"


def test_the_settings_keep_check_and_limit_connections_as_the_environment_says():
    code = (
        "from django.conf import settings as s; d = s.DATABASES['default']; "
        "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], d['OPTIONS']['options'])"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "SECRET_KEY": "x",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/arena",
        "DB_CONN_MAX_AGE": "300",
        "DB_STATEMENT_TIMEOUT_MS": "5000",
        "DB_CONN_HEALTH_CHECKS": "true",
    }
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("300 True ") and "statement_timeout=5000" in out
    # Workers (no gunicorn configuration) keep neither the check nor the limit.
    for name in ("DB_CONN_HEALTH_CHECKS", "DB_STATEMENT_TIMEOUT_MS"):
        env.pop(name)
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("300 False ") and "statement_timeout" not in out


@pytest.mark.django_db
def test_a_statement_past_the_time_limit_is_a_503():
    with (
        pytest.raises(OperationalError) as caught,
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL statement_timeout = 10")
        cursor.execute("SELECT pg_sleep(1)")
    response = exception_handler(caught.value, {})
    assert response is not None and response.status_code == 503
    assert response.data["code"] == "timeout"
