"""The pipeline fixtures (real Celery workers on this test's queues) for the SDK's tests."""

from tests.workers.pipeline.conftest import queue_name, start_worker  # noqa: F401
