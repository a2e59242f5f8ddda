"""The admin, the browsable API and the docs in a real browser, served as in production.

gunicorn with deploy/gunicorn.conf.py and DEBUG=false, static files collected first and
served by WhiteNoise; Debian's Chromium driven by Playwright. Every request a page makes must
succeed, and none may leave 127.0.0.1 (the docs' Swagger UI comes from /static/, not a CDN).
The browser must start: this test fails, never skips, when it cannot (scripts/test.sh installs
Chromium as root on Debian, like PostgreSQL and Redis).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "browser-test-pass-1"

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def production_server(tmp_path):
    """gunicorn on the test database with the production settings; yields its base URL."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        "DEBUG": "false",
        "SECRET_KEY": "browser-test-secret-key",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "ARENA_VAR_DIR": str(tmp_path / "var"),
        "WEB_ACCESS_LOG": "",
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    # Made by the server's settings, so the password is hashed the way it checks them.
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", "--username", "root"],
        cwd=ROOT,
        env={**env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD, "DJANGO_SUPERUSER_EMAIL": "r@x.org"},
        check=True,
    )
    port = free_port()
    env["BIND"] = f"127.0.0.1:{port}"
    env["WEB_CONCURRENCY"] = "1"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "arena.wsgi"],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urlopen(f"{base}/api/", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def visit_all(base: str, paths: list[str], login: tuple[str, str]) -> dict[str, list[str]]:
    """Open each page; return {page: [problems]} (failed requests, errors, outside hosts)."""
    from playwright.sync_api import sync_playwright

    problems: dict[str, list[str]] = {}
    with sync_playwright() as pw:
        # Playwright's own browser download cannot work here: use the system's Chromium.
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        current: list[str] = []

        def outside(route):
            current.append(f"outside request {route.request.url}")
            route.abort()

        page.route(lambda url: urlsplit(url).hostname != "127.0.0.1", outside)
        page.on("requestfailed", lambda r: current.append(f"failed {r.url}: {r.failure}"))
        page.on(
            "response",
            lambda r: current.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )
        page.on("pageerror", lambda exc: current.append(f"script error: {exc}"))

        page.goto(f"{base}/admin/login/")
        page.fill("#id_username", login[0])
        page.fill("#id_password", login[1])
        page.click("input[type=submit]")
        page.wait_for_url(f"{base}/admin/")
        problems["/admin/login/"], current[:] = list(current), []
        for path in paths:
            page.goto(f"{base}{path}", wait_until="networkidle")
            checks = PAGE_CHECKS.get(path)
            if checks:
                page.wait_for_selector(checks, timeout=15000)
            problems[path], current[:] = list(current), []
        browser.close()
    return problems


# A selector each page shows only once its scripts ran (the docs render from the schema).
PAGE_CHECKS = {
    "/api/docs/": ".swagger-ui .opblock",
}


def test_admin_browsable_api_and_docs_load_every_asset_with_debug_off(production_server):
    pages = ["/admin/", "/admin/arena/match/", "/api/", "/api/bots/", "/api/docs/"]
    problems = visit_all(production_server, pages, ("root", PASSWORD))
    assert problems == {page: [] for page in ["/admin/login/", *pages]}
    # The styles really came from /static/, compressed and cached for a long time.
    css = urlopen(f"{production_server}/static/admin/css/base.css")
    assert css.status == 200
    quoted = urlopen(f"{production_server}/admin/login/").read().decode().split('"')
    asset = next(p for p in quoted if p.startswith("/static/admin/css/base.") and len(p) > 30)
    with urlopen(f"{production_server}{asset}") as reply:
        assert "max-age=315360000" in reply.headers["Cache-Control"]
