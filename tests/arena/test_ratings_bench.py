"""The refit benchmark command runs end to end on a small synthetic game (no timing asserted)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from arena.models import Bot, Match

pytestmark = pytest.mark.django_db


def test_ratings_bench_writes_fits_and_reports_cold_and_warm_refits_then_cleans_up():
    out = io.StringIO()
    call_command("ratings_bench", "--bots", "30", "--matches", "600", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["bots"] == 30 and report["matches"] == 600
    assert report["new_matches_before_warm"] == 6
    for key in ("cold_refit_seconds", "warm_refit_seconds", "warm_fit_seconds", "peak_rss_mb"):
        assert report[key] >= 0
    assert report["warm_iterations"] >= 1
    assert report["skill_error_rms_elo"] < 150
    assert not Bot.objects.filter(game="bench-ratings").exists()
    assert not Match.objects.filter(game="bench-ratings").exists()
