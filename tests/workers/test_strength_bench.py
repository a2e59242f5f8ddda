"""The strength benchmark's arithmetic (the benchmark itself runs real challenges:
`python manage.py search_strength`, docs/bot-authors/search.md)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from workers.bench.strength import StopRequest, limits_for, wilson
from workers.sandbox.limits import Limits


def test_wilson_interval_matches_known_values():
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.161, abs=1e-3)


@pytest.mark.parametrize("budget", [0.1, 0.5, 2.0])
def test_limits_give_the_search_its_budget_and_are_valid(budget):
    limits = limits_for(budget)
    assert limits["move_seconds"] == pytest.approx(2 * budget)
    Limits.from_dict(limits)  # within the arena's ranges
    assert limits["cpu_seconds"] >= 120 and limits["match_seconds"] >= 600


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_ends_the_benchs_wait_and_leaves_the_handlers_as_they_were(number):
    """A bench started in the background (SIGINT ignored) still hears Ctrl-C or SIGTERM
    while it waits, and stops waiting at once; afterwards the handlers are the old ones."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with StopRequest() as stop:
            os.kill(os.getpid(), number)
            started = time.monotonic()
            stop.wait(30)
            assert stop.asked
            assert time.monotonic() - started < 5
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, before)


def test_without_a_request_the_wait_lasts_its_seconds():
    with StopRequest() as stop:
        started = time.monotonic()
        stop.wait(0.5)
        assert not stop.asked
        assert time.monotonic() - started >= 0.5
