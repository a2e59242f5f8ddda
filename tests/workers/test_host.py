"""workers/node/host.py: the start-up check of a worker host and the capacity it logs."""

from __future__ import annotations

import logging
import os

import pytest
from django.test import override_settings

from workers.node.host import HostCapacity, log_capacity, usable_cpus


def capacity(**changes) -> HostCapacity:
    facts = dict(
        hostname="moon-a",
        cpus=2,
        processes=4,
        isolation="sandbox",
        bubblewrap="/usr/bin/bwrap",
        sandbox_ok=True,
        problem="",
    )
    facts.update(changes)
    return HostCapacity(**facts)


def test_capacity_is_processes_bounded_by_cpus_and_zero_without_a_sandbox():
    assert capacity().capacity == 2
    assert capacity(processes=1).capacity == 1
    assert capacity(sandbox_ok=False, problem="no bwrap").capacity == 0
    assert "capacity=2" in capacity().describe() and "problem" not in capacity().describe()


def test_usable_cpus_follow_the_affinity_mask():
    assert usable_cpus() == len(os.sched_getaffinity(0))


@override_settings(ARENA_BOT_ISOLATION="process")
def test_a_host_that_can_run_bots_logs_its_capacity(caplog: pytest.LogCaptureFixture):
    with caplog.at_level(logging.INFO, logger="workers.node.host"):
        found = log_capacity(processes=1)
    assert found.sandbox_ok and found.capacity == 1 and found.isolation == "process"
    assert "worker host capacity: hostname=" in caplog.text and "capacity=1" in caplog.text
