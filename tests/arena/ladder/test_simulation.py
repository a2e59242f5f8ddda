"""The simulated ladder behind `manage.py ladder_bench`: its statistics and a tiny run."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from arena.ladder.simulation import (
    Results,
    load_heuristic,
    simulate,
    spearman,
    stays_from,
)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"


def test_spearman_matches_its_closed_form():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    # One adjacent swap among 5: 1 - 6 * 2 / (5 * 24) = 0.9.
    assert spearman([1, 2, 3, 4, 5], [1, 2, 4, 3, 5]) == pytest.approx(0.9)


def test_the_judged_fit_orders_bots_by_their_results_and_keeps_the_selections_fit():
    results = Results(3)
    for _ in range(8):
        results.add([0, 1], [1, 2])
        results.add([1, 2], [1, 2])
        results.add([2, 0], [2, 1])
    judged = results.fitted()
    assert results.fit is None  # the judge's fit does not feed the selection
    assert judged.skill[0] > judged.skill[1] > judged.skill[2]
    kept = results.refit()
    assert results.fit is kept and kept.skill == pytest.approx(judged.skill, abs=1e-3)
    assert math.isclose(float(kept.skill.mean()), 1500.0)


def test_stays_from_finds_the_last_dip():
    curve = [(10, 0.5), (20, 0.96), (30, 0.9), (40, 0.96), (50, 0.97)]
    assert stays_from(curve, 0.95) == 40
    assert stays_from([(10, 0.96), (20, 0.5)], 0.95) is None


@pytest.mark.parametrize("mode", ["ladder", "ladder-single", "ladder-elo", "random"])
def test_a_small_simulated_ladder_plays_real_games(mode):
    heuristic = load_heuristic(REFERENCE, "moonrollers")
    run = simulate("moonrollers", heuristic, 4, 2, mode, 1, 24, 4)
    assert run.matches == 24 and len(run.curve) == 6 and len(run.fit_curve) == 6
    assert all(-1 <= rho <= 1 for _, rho in run.curve + run.fit_curve)
    with pytest.raises(ValueError):
        simulate("moonrollers", heuristic, 4, 2, "roulette", 1, 24, 4)


def test_the_bench_command_prints_its_table_and_refuses_bad_flags():
    out = io.StringIO()
    call_command(
        "ladder_bench",
        "--games",
        "moonrollers",
        "--bots",
        "4",
        "--sizes",
        "2",
        "--max-matches",
        "20",
        "--every",
        "5",
        stdout=out,
    )
    text = out.getvalue()
    assert "moonrollers" in text and "Elo board" in text and "total" in text
    for bad in (
        ["--bots", "2"],
        ["--games", "chess"],
        ["--sizes", "9"],
        ["--threshold", "2"],
        ["--modes", "x"],
    ):
        with pytest.raises(CommandError):
            call_command("ladder_bench", "--games", "moonrollers", *bad, stdout=io.StringIO())


def test_the_oracle_and_the_model_outcomes_need_and_use_the_truth():
    heuristic = load_heuristic(REFERENCE, "moonrollers")
    truth = [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(ValueError):
        simulate("moonrollers", heuristic, 4, 2, "oracle", 1, 24, 4)
    run = simulate("moonrollers", heuristic, 4, 3, "oracle", 1, 24, 4, truth=truth, model=True)
    assert run.matches == 24 and len(run.fit_curve) == 6
    # Strengths 1 apart: 24 model games order four bots, judged against the truth's order.
    assert run.fit_curve[-1][1] > 0.5


def test_the_bench_command_runs_the_oracle_on_model_outcomes_and_caches_the_truth(
    settings, tmp_path
):
    settings.VAR_DIR = tmp_path
    flags = ["--games", "moonrollers", "--bots", "4", "--sizes", "3", "--max-matches", "12"]
    flags += ["--every", "4", "--modes", "oracle", "--model", "--truth-matches", "30"]
    out = io.StringIO()
    call_command("ladder_bench", *flags, stdout=out)
    assert "oracle" in out.getvalue() and "random" in out.getvalue()
    cached = list((tmp_path / "ladder_bench").glob("moonrollers-3p-4bots-30-hash0.json"))
    assert len(cached) == 1
