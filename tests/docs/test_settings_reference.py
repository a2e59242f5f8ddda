"""The configuration reference (docs/operators/settings.md) is generated from the code that
reads the settings, and says something about every one of them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location(
        "settings_reference", ROOT / "scripts" / "settings_reference.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_settings_page_is_what_the_generator_writes():
    generator = _generator()
    assert generator.PAGE.read_text() == generator.render(), (
        "docs/operators/settings.md is stale: run python scripts/settings_reference.py"
    )


def test_every_setting_of_arena_settings_is_on_the_page_with_a_description():
    generator = _generator()
    variables = generator.django_settings()
    process, _defaults = generator.process_settings({v.name for v in variables})
    names = {v.name for v in variables}
    # A few that every deployment sets, as a check that the parser finds them at all.
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "ARENA_LEASE_SECONDS"} <= names
    assert {"ARENA_SANDBOX_UID_BASE", "WORKER_CONCURRENCY", "WEB_CONCURRENCY"} <= {
        v.name for v in process
    }
    by_name = {v.name: v for v in variables}
    # A default that depends on another setting is shown as code, not with one branch taken.
    assert by_name["ALLOWED_HOSTS"].default == "`['127.0.0.1', 'localhost'] if DEBUG else []`"
    assert by_name["API_CACHE_URL"].default == "the value of `CACHE_URL`"
    assert by_name["DATABASE_URL"].default == "`sqlite:///<var>/arena.sqlite3`"
    undescribed = [v.name for v in variables + process if not v.description]
    assert not undescribed, f"add a comment above where these are read: {undescribed}"


def test_a_new_setting_reaches_the_page(tmp_path):
    generator = _generator()
    settings = tmp_path / "settings.py"
    settings.write_text(
        generator.SETTINGS.read_text()
        + '\n# Seconds a test waits for nothing at all.\nARENA_NEW = env_float("ARENA_NEW", 1.5)\n'
    )
    generator.SETTINGS = settings
    generator.ROOT = tmp_path
    variables = {v.name: v for v in generator.django_settings(settings)}
    assert variables["ARENA_NEW"].default == "`1.5`"
    assert variables["ARENA_NEW"].description == "Seconds a test waits for nothing at all."
