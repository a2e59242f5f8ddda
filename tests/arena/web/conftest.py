"""Fixtures of the page tests: real Celery workers, as the pipeline tests start them."""

import pytest

from tests.workers.pipeline.conftest import queue_name, start_worker  # noqa: F401


@pytest.fixture(autouse=True)
def fake_games():
    """No fake games here (tests/arena/conftest.py adds them): the pages show the real four."""
    yield
