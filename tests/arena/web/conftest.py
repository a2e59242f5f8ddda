"""Fixtures of the page tests: real Celery workers, as the pipeline tests start them."""

from tests.workers.pipeline.conftest import queue_name, start_worker  # noqa: F401
