"""Real Celery worker processes against the test database and Redis.

Each test that asks for `start_worker` gets worker subprocesses (`celery -A workers
worker`, consuming every queue as the default command does) pointed at pytest-django's
test database and at Redis queues of its own (the ARENA_QUEUE prefix, unique per xdist
worker and test, in this process and in the workers), so parallel test runs never take
each other's matches. Tests using it must commit their rows (`transaction=True`) for the worker
to see them. Workers are always stopped in teardown, before the database is flushed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.db import connection

from arena.models import BotVersion, Match

ROOT = Path(__file__).resolve().parents[3]
CELERY = Path(sys.executable).with_name("celery")
READY_SECONDS = 60.0


def database_url() -> str:
    db = connection.settings_dict
    user = quote(db.get("USER") or "")
    password = quote(db.get("PASSWORD") or "")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(db['NAME'])}"


class WorkerProcess:
    def __init__(self, process: subprocess.Popen[bytes], log: Path) -> None:
        self.process = process
        self.log = log

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while " ready." not in self.text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the Celery worker did not start:\n{self.text()[-4000:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        # Its own session: the group holds the worker, its pool and any bot it runs.
        # SIGQUIT is Celery's cold shutdown: the tests have nothing left to finish.
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGQUIT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)


@pytest.fixture
def queue_name() -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"arena-test-{worker}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def start_worker(
    transactional_db, queue_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., WorkerProcess]]:
    """Start Celery worker processes on this test's queues; yields the starter."""
    assert connection.vendor == "postgresql", "the pipeline tests need PostgreSQL"
    # Read by workers/queue/routing.py whenever a queue name is needed, here and in the workers.
    monkeypatch.setenv("ARENA_QUEUE", queue_name)
    started: list[WorkerProcess] = []

    def start(
        concurrency: int = 1,
        isolation: str = "process",
        app_module: str = "workers",
        extra_env: dict[str, str] | None = None,
        wait: bool = True,
        beat: bool = False,
        extra_args: tuple[str, ...] = (),
    ) -> WorkerProcess:
        index = len(started)
        env = dict(os.environ)
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "arena.settings",
                "DATABASE_URL": database_url(),
                "CELERY_BROKER_URL": django_settings.CELERY_BROKER_URL,
                "SECRET_KEY": "pipeline-test-secret",
                "ARENA_QUEUE": queue_name,
                "ARENA_BOT_ISOLATION": isolation,
                "PYTHONPATH": str(ROOT),
                # The API's cached answers live here (arena/test_settings.py). A worker
                # must share them, as docs/operators/index.md asks of a deployment: its results make
                # those answers stale. Without it, they were served up to a minute late.
                "CACHE_URL": django_settings.CACHES["api"]["LOCATION"],
            }
        )
        env.update(extra_env or {})
        log = tmp_path / f"worker{index}.log"
        command = [
            str(CELERY),
            "-A",
            app_module,
            "worker",
            "-c",
            str(concurrency),
            "-n",
            f"w{index}-{queue_name}@%h",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
            *extra_args,
        ]
        if beat:
            # The periodic jobs (reaper, ladder scheduler) in this worker's process.
            command += ["--beat", f"--schedule={tmp_path / f'beat{index}'}"]
        with log.open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        worker = WorkerProcess(process, log)
        started.append(worker)
        if wait:
            worker.wait_ready()
        return worker

    try:
        yield start
    finally:
        for worker in started:
            worker.stop()
        _drop_queues()


def _drop_queues() -> None:
    import redis

    from workers.queue.routing import queue_names

    client = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
    try:
        client.delete(*queue_names())
    finally:
        client.close()


def wait_for_matches(
    ids: list[int], workers: list[WorkerProcess], timeout: float = 120.0
) -> list[Match]:
    """Poll the database until every match is done; fail with the workers' logs if not."""
    deadline = time.monotonic() + timeout
    while True:
        matches = list(Match.objects.filter(pk__in=ids))
        if len(matches) == len(ids) and all(m.is_done() for m in matches):
            return matches
        if time.monotonic() > deadline:
            states = sorted((m.pk, m.status) for m in matches)
            logs = "\n---\n".join(w.text()[-3000:] for w in workers)
            raise AssertionError(f"matches not done in {timeout}s: {states}\n{logs}")
        time.sleep(0.1)


def wait_for_validation(bot_id: int, timeout: float = 60.0) -> BotVersion:
    """Poll until the bot's latest version's smoke match (on a worker) has settled it."""
    deadline = time.monotonic() + timeout
    while True:
        version = BotVersion.objects.filter(bot_id=bot_id).order_by("-number").first()
        if version is not None and version.validation != BotVersion.Validation.PENDING:
            return version
        if time.monotonic() > deadline:
            raise AssertionError(f"bot {bot_id}'s latest version still pending after {timeout}s")
        time.sleep(0.1)
