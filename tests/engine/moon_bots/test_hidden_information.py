"""Observations hide secret weapons; resample_hidden redraws only what a seat cannot see."""

from __future__ import annotations

import json
import random

from engine.games.moon_bots.cards import IS_SECRET, KEY, SECRET_KINDS
from tests.engine.moon_bots.support import at_assign, give, new, place, take, touch


def test_face_down_market_cards_show_no_identity():
    state = new(4)
    place(state, 3, "energy_pump")
    cell = state.observation(0)["market"][3]
    assert cell == {"category": "secret", "face_down": True, "cost": 1, "slot": 3, "row": 1}


def test_observation_is_json_and_names_no_hidden_weapon():
    state = new(4)
    give(state, 2, "computer_virus")
    text = json.dumps(state.observation(0))
    assert "computer_virus" not in text
    assert "computer_virus" in json.dumps(state.observation(2))


def test_resample_keeps_own_weapons_and_redraws_the_others():
    state = new(2, seed=4)
    give(state, 0, "dodge")  # robot 0 belongs to seat 0
    give(state, 2, "rest")  # robot 2 belongs to seat 1
    kinds = set()
    for i in range(40):
        world = state.resample_hidden(0, random.Random(i))
        assert world.observation(0) == state.observation(0)
        assert [KEY[c] for c in world.robots[0].secrets] == ["dodge"]
        assert len(world.robots[2].secrets) == 1
        kinds.add(KEY[world.robots[2].secrets[0]])
        assert sorted(c for c in world.deck if KEY[c][0] == "P") == sorted(
            c for c in state.deck if KEY[c][0] == "P"
        )  # parts in the pile are known by elimination: only their order changes
    assert len(kinds) > 3


def test_resample_conserves_every_card():
    state = new(3, seed=9)
    give(state, 1, "stronger", "dodge")
    world = state.resample_hidden(0, random.Random(1))

    def cards(s):
        held = [c for rb in s.robots for c in rb.secrets + rb.upgrades + rb.parts if c >= 0]
        market = [c for c in s.market if c >= 0]
        return sorted(s.deck + market + held + s.removed_unseen + s.facedown_discard + s.used)

    assert cards(world) == cards(state)


def test_everyone_sees_whether_the_top_of_the_pile_is_a_secret_weapon():
    """Finding 19: card backs are public; resampling keeps the back on top."""
    state = new(4)
    weapon = take(state, "dodge")
    state.deck.append(weapon)
    touch(state)
    assert [state.observation(s)["deck_top"] for s in range(4)] == ["secret"] * 4
    for i in range(30):
        world = state.resample_hidden(1, random.Random(i))
        assert IS_SECRET[world.deck[-1]]
    state.deck.insert(0, state.deck.pop())
    while IS_SECRET[state.deck[-1]]:
        state.deck.insert(0, state.deck.pop())
    assert state.observation(0)["deck_top"] == "ability"
    for i in range(30):
        assert not IS_SECRET[state.resample_hidden(1, random.Random(i)).deck[-1]]
    state.deck.clear()
    assert state.observation(0)["deck_top"] is None


def _searched(state):
    """Seat 0 plays Spare Part Search; returns the weapon kinds then in the pile."""
    give(state, 0, "spare_part_search")
    in_pile = sorted(KEY[c] for c in state.deck if IS_SECRET[c])
    state.apply(["sw", "spare_part_search"])
    return in_pile


def test_spare_part_search_shows_its_player_every_card_in_the_pile_weapons_included():
    state = new(4)
    in_pile = _searched(state)
    assert in_pile
    seen = state.observation(0)["search_pile"]
    assert seen == sorted(KEY[c] for c in state.deck)
    assert [k for k in seen if k in SECRET_KINDS] == in_pile
    assert state.observation(1)["search_pile"] is None
    state.apply(state.legal_actions()[0])
    assert state.observation(0)["search_pile"] is None
    assert state.observation(0)["pile_weapons_seen"] == [in_pile]
    assert state.observation(1)["pile_weapons_seen"] == []


def test_resample_never_re_deals_the_weapons_a_search_saw():
    state = new(4)
    in_pile = _searched(state)
    state.apply(state.legal_actions()[0])
    # One seen weapon leaves the pile into robot 1's hand (drawn, then bought).
    moved = next(c for c in reversed(state.deck) if IS_SECRET[c])
    state.deck.remove(moved)
    state.robots[1].install(moved)
    unseen_kinds = set()
    for i in range(40):
        world = state.resample_hidden(0, random.Random(i))
        assert world.observation(0) == state.observation(0)
        kept = [c for c in world.deck if IS_SECRET[c]] + world.robots[1].secrets
        assert sorted(KEY[c] for c in kept) == in_pile
        unseen_kinds.add(tuple(sorted(KEY[c] for c in world.removed_unseen)))
    assert len(unseen_kinds) > 1  # what the search did not see is still re-dealt
    other_views = {
        tuple(
            sorted(KEY[c] for c in state.resample_hidden(2, random.Random(i)).deck if IS_SECRET[c])
        )
        for i in range(40)
    }
    assert len(other_views) > 1  # seat 2 saw nothing: the pile's weapons are re-dealt


def test_an_eliminated_robots_unused_weapons_stay_hidden():
    """Finding 19: weapons stay hidden until used, also when their robot is out."""
    state = new(4)
    give(state, 1, "dodge", "rest")
    state.robots[1].energy = 1
    at_assign(state, [1])
    state.apply(["use", "board", 0])
    state.apply(["split", 1, 0])
    state.apply("pass")  # robot 1 keeps its Dodge for nothing
    assert not state.robots[1].alive
    seen = state.observation(0)
    assert seen["robots"][1]["secret_weapon_count"] == 2
    assert seen["robots"][1]["secret_weapons"] is None
    assert '"dodge"' not in json.dumps(seen) and '"rest"' not in json.dumps(seen)
    assert state.observation(1)["robots"][1]["secret_weapons"] == ["dodge", "rest"]
    kinds = {
        tuple(sorted(KEY[c] for c in state.resample_hidden(0, random.Random(i)).robots[1].secrets))
        for i in range(30)
    }
    assert len(kinds) > 1


def test_after_a_search_every_resampled_world_looks_the_same_to_every_seat():
    """Random play that always searches when it can; worlds checked at every later step."""
    games_with_a_search = 0
    for seed in range(24):
        players = 2 + seed % 3
        state = new(players, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal():
            if state.searches and step % 3 == 0:
                for seat in range(players):
                    world = state.resample_hidden(seat, random.Random(step))
                    assert world.observation(seat) == state.observation(seat)
            legal = state.legal_actions()
            search = ["sw", "spare_part_search"]
            state.apply(search if search in legal else rng.choice(legal))
            step += 1
        games_with_a_search += bool(state.searches)
    assert games_with_a_search >= 5
