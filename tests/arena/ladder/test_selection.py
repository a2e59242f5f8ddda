"""The ladder's selection maths, pure: no database, no clock but a fake one."""

from __future__ import annotations

import dataclasses
import heapq
import random
from collections import Counter

import pytest

from arena.ladder.crashes import SeatRecord, crash_loop
from arena.ladder.depth import auto_depth, room, split_depth
from arena.ladder.selection import (
    EXPLORE,
    INFORMATIVE,
    NEWCOMER,
    Entrant,
    History,
    Policy,
    plan_tables,
)
from arena.ladder.tables import check_table_sizes, default_table_sizes, duplicate_seatings


def veterans(count: int, owner_of=lambda i: i, start: int = 1) -> list[Entrant]:
    return [
        Entrant(
            bot_id=start + i,
            owner_id=owner_of(i),
            version_id=100 + start + i,
            rating=1400 + 10 * i,
            games=200,
            ladder_games=200,
        )
        for i in range(count)
    ]


def test_a_newcomer_gets_its_guaranteed_games_before_anything_else():
    newcomer = Entrant(bot_id=99, owner_id=99, version_id=999, games=0, ladder_games=0)
    tables = plan_tables([*veterans(10), newcomer], [2], 40, random.Random(1), Policy(10, 0.2))
    # Each 2-player set is two matches: five sets give the newcomer its ten games.
    first = tables[:5]
    assert all(99 in t.bots and t.reason == NEWCOMER for t in first)
    assert all(t.reason != NEWCOMER for t in tables[5:])
    assert sum(t.matches for t in tables) == 40


def test_several_newcomers_share_the_guarantee_and_come_first():
    newcomers = [
        Entrant(bot_id=90 + i, owner_id=90 + i, version_id=990 + i, ladder_games=i)
        for i in range(3)
    ]
    tables = plan_tables([*veterans(6), *newcomers], [2, 3], 200, random.Random(2))
    served = Counter()
    for index, table in enumerate(tables):
        if table.reason == NEWCOMER:
            assert all(t.reason == NEWCOMER for t in tables[:index])
        for bot in table.bots:
            served[bot] += table.matches
    for entrant in newcomers:
        assert entrant.ladder_games + served[entrant.bot_id] >= 10


def test_a_paused_or_deactivated_bot_never_sits_at_a_table():
    rng = random.Random(3)
    for _ in range(200):
        entrants = [
            Entrant(
                bot_id=i,
                owner_id=rng.randrange(4),
                version_id=i,
                rating=rng.uniform(1200, 1800),
                games=rng.randrange(40),
                ladder_games=rng.randrange(20),
                active=rng.random() > 0.2,
                paused=rng.random() < 0.2,
            )
            for i in range(12)
        ]
        barred = {e.bot_id for e in entrants if not e.can_play()}
        playable = len(entrants) - len(barred)
        tables = plan_tables(entrants, [2, 3], 30, rng, Policy(10, 0.3))
        assert all(not barred & set(t.bots) for t in tables)
        if playable < 2:
            assert tables == []


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_the_rotations_of_a_set_put_every_bot_in_every_seat_once(size):
    table = tuple(range(10, 10 + size))
    seatings = duplicate_seatings(table)
    assert len(seatings) == size and seatings[0] == table
    for seat in range(size):
        assert sorted(s[seat] for s in seatings) == sorted(table)
    assert all(sorted(s) == sorted(table) for s in seatings)


def test_exploration_takes_its_share_of_tables():
    rng = random.Random(4)
    reasons = Counter()
    history = History()
    entrants = veterans(12)
    owners = {e.bot_id: e.owner_id for e in entrants}
    for _ in range(300):
        for table in plan_tables(entrants, [2], 10, rng, Policy(10, 0.25), history):
            reasons[table.reason] += 1
            history.add(table.bots, owners, table.matches)
    share = reasons[EXPLORE] / sum(reasons.values())
    assert 0.21 <= share <= 0.29, reasons
    assert reasons[INFORMATIVE] and not reasons[NEWCOMER]


@pytest.mark.parametrize("with_fit", [False, True])
def test_one_owner_with_many_bots_does_not_crowd_out_the_others(with_fit):
    # Owner 0 has ten bots, owners 1 and 2 one each; Elo ratings only, or a fit too.
    entrants = veterans(12, owner_of=lambda i: 0 if i < 10 else i - 9)
    if with_fit:
        entrants = [
            dataclasses.replace(e, skill=1500 + 15 * i, skill_sd=50.0)
            for i, e in enumerate(entrants)
        ]
    owners = {e.bot_id: e.owner_id for e in entrants}
    history = History()
    rng = random.Random(5)
    for _ in range(300):
        for table in plan_tables(entrants, [2], 6, rng, Policy(10, 0.1), history):
            history.add(table.bots, owners, table.matches)
    seats = history.owner_seats
    total = sum(seats.values())
    # An equal share is a third each; without it owner 0 would hold ~5/6 of the seats.
    for owner in (0, 1, 2):
        assert abs(seats[owner] / total - 1 / 3) < 0.06, seats


def test_information_prefers_close_ratings_uncertain_bots_and_unseen_pairs():
    anchor = Entrant(bot_id=1, owner_id=1, version_id=1, rating=1500, games=5, ladder_games=50)
    close = Entrant(bot_id=2, owner_id=2, version_id=2, rating=1510, games=200, ladder_games=50)
    far = Entrant(bot_id=3, owner_id=3, version_id=3, rating=1900, games=200, ladder_games=50)
    table = plan_tables([anchor, close, far], [2], 2, random.Random(6), Policy(10, 0.0))[0]
    assert set(table.bots) == {1, 2} and table.reason == INFORMATIVE
    # The same opponent strength, but one pair has met forty times: the other is chosen.
    twin = Entrant(bot_id=4, owner_id=4, version_id=4, rating=1510, games=200, ladder_games=50)
    history = History(pair_games=Counter({(1, 2): 40}))
    table = plan_tables([anchor, close, twin], [2], 2, random.Random(7), Policy(10, 0.0), history)[
        0
    ]
    assert set(table.bots) == {1, 4}


def test_plans_alternate_table_sizes_and_never_overspend():
    rng = random.Random(8)
    entrants = veterans(8)
    for budget in range(0, 30):
        tables = plan_tables(entrants, [2, 3], budget, rng)
        assert sum(t.matches for t in tables) <= budget
        assert budget - sum(t.matches for t in tables) < 2
    tables = plan_tables(entrants, [2, 3], 50, rng)
    sizes = Counter(t.matches for t in tables)
    assert abs(sizes[2] * 2 - sizes[3] * 3) <= 3


def test_the_scheduler_never_exceeds_the_target_depth_on_a_fake_clock():
    """A week of ticks every 5 s; workers finish matches after random durations."""
    rng = random.Random(9)
    entrants = {e.bot_id: e for e in veterans(15, owner_of=lambda i: i % 4)}
    owners = {b: e.owner_id for b, e in entrants.items()}
    capacity = 3
    target = auto_depth(capacity)
    running: list[tuple[float, int]] = []  # (finish time, match) heap
    waiting: list[int] = []
    history = History()
    started = 0
    now = 0.0
    for tick in range(7 * 24 * 720 // 24):  # a simulated week at a scale of 1 tick = 5 s
        now = tick * 5.0
        while running and running[0][0] <= now:
            heapq.heappop(running)
        while waiting and len(running) < capacity:
            heapq.heappush(running, (now + rng.uniform(1.0, 20.0), waiting.pop(0)))
        in_flight = len(running) + len(waiting)
        tables = plan_tables(
            list(entrants.values()), [2, 3], room(target, in_flight), rng, Policy(), history
        )
        for table in tables:
            history.add(table.bots, owners, table.matches)
            for _ in range(table.matches):
                waiting.append(started)
                started += 1
        assert len(running) + len(waiting) <= target
    assert started > 1000


def test_depth_follows_capacity_and_is_shared_between_running_ladders():
    assert auto_depth(0) == 1 and auto_depth(4) == 8
    assert split_depth(8, {"a": 2, "b": 3}) == {"a": 4, "b": 4}
    assert split_depth(3, {"a": 2, "b": 3}) == {"a": 2, "b": 3}
    assert split_depth(5, {}) == {}
    assert room(8, 10) == 0 and room(8, 3) == 5


def test_default_table_sizes_and_their_checks():
    assert default_table_sizes("moonrollers", 2, 5) == [2, 3]
    assert default_table_sizes("moonrakers", 1, 5) == [2, 3]
    assert default_table_sizes("tiny", 2, 2) == [2]
    assert check_table_sizes([3, 2], 2, 5) == [2, 3]
    for bad in ([], [1], [6], [2, 2], "2", [2.0], [True]):
        with pytest.raises(ValueError):
            check_table_sizes(bad, 1, 5)


def test_a_crash_loop_needs_the_last_n_matches_all_forfeited():
    crashes = [SeatRecord(i, "crashed: ZeroDivisionError") for i in range(10, 5, -1)]
    loop = crash_loop(crashes, 5)
    assert loop is not None and loop.match_ids == [10, 9, 8, 7, 6]
    assert "ZeroDivisionError" in loop.reason
    assert crash_loop(crashes[:4], 5) is None
    mixed = [*crashes[:4], SeatRecord(5, "")]
    assert crash_loop(mixed, 5) is None


def test_depth_covers_one_tick_of_short_matches_but_stays_bounded():
    # 2 slots, a 5 s tick, 0.5 s matches: each slot plays 10 per tick, plus one waiting.
    assert auto_depth(2, 2.0, 5.0, 0.5) == 22
    assert auto_depth(2, 2.0, 5.0, 60.0) == 4  # long matches: the minimum per slot
    assert auto_depth(2, 2.0, 5.0, 0.001) == 100  # at most 50 per slot
    assert auto_depth(2, 2.0, 5.0, None) == 4


# ----- selection driven by the whole-history fit ----------------------------------------------


def fitted(skills_and_sds, owner_of=lambda i: i) -> list[Entrant]:
    return [
        Entrant(
            bot_id=i,
            owner_id=owner_of(i),
            version_id=100 + i,
            games=200,
            ladder_games=200,
            skill=skill,
            skill_sd=sd,
        )
        for i, (skill, sd) in enumerate(skills_and_sds)
    ]


def test_the_fit_picks_the_pair_whose_order_is_least_certain():
    # 0-1 and 2-3 are both 10 Elo apart; 2-3's intervals are wide, 0-1's narrow: 2-3 first.
    entrants = fitted([(1500, 10), (1510, 10), (1700, 80), (1710, 80), (2100, 80)])
    table = plan_tables(entrants, [2], 2, random.Random(10), Policy(10, 0.0))[0]
    assert set(table.bots) == {2, 3} and table.reason == INFORMATIVE


def test_fit_tables_seat_skill_neighbours_and_never_a_foregone_pair():
    # Ten bots 120 Elo apart with 60 Elo sds: neighbours overlap, bots two apart barely.
    entrants = fitted([(1000 + 120 * i, 60) for i in range(10)])
    owners = {e.bot_id: e.owner_id for e in entrants}
    history = History()
    rng = random.Random(11)
    shape = Counter()
    for _ in range(100):
        for table in plan_tables(entrants, [2, 3], 12, rng, Policy(10, 0.0), history):
            history.add(table.bots, owners, table.matches)
            ordered = sorted(table.bots)
            shape[ordered[-1] - ordered[0] == len(ordered) - 1] += 1
    # Seats go to neighbours in the skill order, except when the fair share (one owner per
    # bot here: equal seats) leaves only a far bot within one table of the least served.
    assert shape[True] >= 0.7 * sum(shape.values()), shape
    # Fair share still holds: one owner per bot, so every bot gets about the same seats.
    seats = history.owner_seats
    assert max(seats.values()) - min(seats.values()) <= 3 * 3 + 3, seats


def test_exploration_decays_as_the_intervals_shrink():
    def share(sd: float) -> float:
        rng = random.Random(13)
        entrants = fitted([(1500 + 20 * i, sd) for i in range(12)])
        reasons = Counter(
            t.reason
            for _ in range(300)
            for t in plan_tables(entrants, [2], 10, rng, Policy(10, 0.3, exploration_sd=100))
        )
        return reasons[EXPLORE] / sum(reasons.values())

    assert 0.25 <= share(200) <= 0.35  # wide intervals: the full share
    assert 0.11 <= share(50) <= 0.19  # half the reference sd: half the share
    assert share(5) <= 0.04


def test_a_newcomer_still_comes_first_when_the_others_have_a_fit():
    newcomer = Entrant(bot_id=99, owner_id=99, version_id=999, ladder_games=0)
    entrants = [*fitted([(1500 + 30 * i, 40) for i in range(8)]), newcomer]
    tables = plan_tables(entrants, [2], 20, random.Random(14), Policy(10, 0.2))
    assert all(99 in t.bots and t.reason == NEWCOMER for t in tables[:5])
    assert all(t.reason != NEWCOMER for t in tables[5:])


def test_a_bot_missing_from_the_fit_counts_with_its_elo_and_a_wide_interval():
    # Bot 9 joined after the last refit: Elo 1600, so the fit's neighbours 1590/1610 suit it.
    late = Entrant(bot_id=9, owner_id=9, version_id=909, rating=1600, ladder_games=30)
    entrants = [*fitted([(1000, 30), (1590, 30), (1610, 30), (2200, 30)]), late]
    table = plan_tables(entrants, [2], 2, random.Random(16), Policy(10, 0.0))[0]
    assert 9 in table.bots and set(table.bots) & {1, 2}


def test_single_tables_cost_one_match_each_and_spend_the_budget():
    entrants = fitted([(1500 + 30 * i, 40) for i in range(8)])
    for budget in (0, 1, 5, 17):
        tables = plan_tables(
            entrants, [2, 3], budget, random.Random(15), Policy(10, 0.1, duplicate_sets=False)
        )
        assert len(tables) == budget and all(t.matches == 1 for t in tables)
