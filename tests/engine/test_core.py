"""The engine protocol itself, independent of any real game."""

from __future__ import annotations

import pytest

import engine
from engine.core.game import Game, Option
from engine.core.ranking import ranks_from_keys
from engine.core.state import State, describe_action, same_json


class CountdownState(State):
    """Players take 1 or 2 from a pile; who takes the last one wins."""

    def setup(self):
        self.pile = 5 + self.rng.randrange(5)
        self.seat = 0
        self.winner = None

    def _to_move(self):
        return self.seat

    def _legal_actions(self):
        return [n for n in (1, 2) if n <= self.pile]

    def _apply(self, action):
        self.pile -= action
        if self.pile == 0:
            self.winner = self.seat
        self.seat = (self.seat + 1) % self.num_players

    def _observation(self, seat):
        return {"pile": self.pile}

    def _is_terminal(self):
        return self.winner is not None

    def _result(self):
        keys = [int(seat == self.winner) for seat in range(self.num_players)]
        return {"ranks": ranks_from_keys(keys), "scores": keys}


COUNTDOWN = Game(
    name="countdown",
    rules_version="countdown@1",
    min_players=2,
    max_players=3,
    cooperative=False,
    state_class=CountdownState,
    options=(Option("variant", "short", choices=("short", "long")),),
)


def test_ranks_share_on_ties_and_skip_after():
    assert ranks_from_keys([5, 9, 5, 1]) == [2, 1, 2, 4]


def test_unknown_game_names_the_known_ones():
    with pytest.raises(engine.UnknownGame, match="known games"):
        engine.get_game("chess")


@pytest.mark.parametrize("players", [1, 4, "2", 2.0, True])
def test_wrong_player_count_is_refused(players):
    with pytest.raises(engine.InvalidSetup):
        COUNTDOWN.new_state(players, 1)


def test_options_are_checked_and_defaulted():
    assert COUNTDOWN.new_state(2, 1).options == {"variant": "short"}
    with pytest.raises(engine.InvalidSetup, match="no option"):
        COUNTDOWN.new_state(2, 1, {"speed": 3})
    with pytest.raises(engine.InvalidSetup, match="one of"):
        COUNTDOWN.new_state(2, 1, {"variant": "medium"})


@pytest.mark.parametrize("game", ["moonrakers", "moon_bots"])
@pytest.mark.parametrize(
    ("rounds", "why"), [(0, "at least 1"), (-1, "at least 1"), (1001, "at most")]
)
def test_a_round_cap_out_of_range_is_refused_at_set_up(game, rounds, why):
    with pytest.raises(engine.InvalidSetup, match=why):
        engine.get_game(game).check_options({"max_rounds": rounds})
    assert engine.get_game(game).check_options({"max_rounds": 1})["max_rounds"] == 1


def test_boolean_is_not_accepted_for_an_integer_action():
    state = COUNTDOWN.new_state(2, 1)
    with pytest.raises(engine.IllegalAction):
        state.apply(True)
    state.apply(1)
    assert state.actions == [1]


def test_result_before_the_end_is_an_error():
    with pytest.raises(engine.EngineError):
        COUNTDOWN.new_state(2, 1).result()


def test_illegal_action_message_says_why():
    state = COUNTDOWN.new_state(2, 1)
    with pytest.raises(engine.IllegalAction, match="not a legal action for seat 0"):
        state.apply(3)


def test_an_action_nested_thousands_deep_is_illegal_not_a_crash():
    """A bot's value may nest as deep as it likes: the legality check and the message
    describing the action stay bounded (no RecursionError out of the engine)."""
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    state = COUNTDOWN.new_state(2, 1)
    with pytest.raises(engine.IllegalAction, match=r"^\[\[\[+\.\.\. is not a legal action"):
        state.apply(deep)
    assert same_json(deep, deep)
    assert not same_json(deep, [[1]])
    state.apply(1)
    assert state.actions == [1]


@pytest.mark.parametrize(
    "action", [[1, "a", None, True, 2.5], {"a": [1, {"b": "c'd"}]}, "x" * 200, [], {}]
)
def test_an_illegal_actions_description_is_its_repr_cut_to_length(action):
    text = repr(action)
    assert describe_action(action, 80) == (text if len(text) <= 80 else text[:77] + "...")
