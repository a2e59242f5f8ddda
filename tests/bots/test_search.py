"""The search: information-set MCTS over worlds sampled from one seat's observation.

Every game's search bot answers legal actions from real positions; a fixed number of
playouts with the same seed always chooses the same; the move budget follows the match's
limits; and the Moonrollers search beats the random bot. (Search bots in the real sandbox:
tests/workers/sandbox/test_sets.py.)
"""

from __future__ import annotations

import random

import pytest

import engine
from bots.reference import builtin_names, builtin_path
from bots.sdk.runner import load_bot
from bots.sdk.search import (
    InformationSetSearch,
    MoveBudget,
    SearchBot,
    random_policy,
    rank_reward,
    standing_reward,
)
from tests.workers.sandbox.conftest import RANDOM_BOT

GAMES = ["moonrollers", "moonrakers", "moon_adventure", "moon_bots"]
PLAYERS = {"moonrollers": 2, "moonrakers": 2, "moon_adventure": 3, "moon_bots": 3}


def positions(game: str, seed: int, count: int) -> list[engine.State]:
    """`count` positions of one random game where the mover has a choice."""
    rng = random.Random(seed)
    state = engine.get_game(game).new_state(PLAYERS[game], seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.3:
            found.append(state.clone())
        state.apply(rng.choice(legal))
    return found


def history_until(game: str, seed: int, state: engine.State) -> list[dict]:
    """The mover's earlier observations, replayed from the start (what a bot keeps)."""
    replay = engine.get_game(game).new_state(PLAYERS[game], seed)
    seat = state.to_move()
    seen = []
    for action in state.actions:
        if replay.to_move() == seat:
            seen.append(replay.observation(seat))
        replay.apply(action)
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_search_bot_that_answers_a_legal_action(game):
    assert "search" in builtin_names(game)
    assert builtin_path("search", game).name == f"{game}_search.py"
    for state in positions(game, seed=3, count=4):
        seat = state.to_move()
        search = InformationSetSearch(game, seat, worlds=4, seed=1)
        legal = state.legal_actions()
        observation = state.observation(seat)
        history = history_until(game, 3, state)
        chosen = search.choose(observation, legal, history=history, playouts=24)
        assert chosen in legal
        assert search.last_iterations == 24


@pytest.mark.parametrize("game", GAMES)
def test_fixed_playouts_with_one_seed_choose_the_same_action(game):
    for state in positions(game, seed=5, count=3):
        seat = state.to_move()
        history = history_until(game, 5, state)
        chosen = {
            repr(
                InformationSetSearch(game, seat, worlds=4, seed=9).choose(
                    state.observation(seat), state.legal_actions(), history=history, playouts=30
                )
            )
            for _ in range(3)
        }
        assert len(chosen) == 1


def test_the_move_budget_follows_the_limits():
    budget = MoveBudget({"move_seconds": 1.0, "cpu_seconds": 120, "match_seconds": 600})
    assert budget.seconds() == pytest.approx(0.5)  # half the move limit
    assert MoveBudget({"move_seconds": 0.2}).seconds() == pytest.approx(0.1)
    # 60% of the CPU left shared over the decisions still to come, when that is less.
    budget.decisions_left = 200
    assert budget.seconds() == pytest.approx(120 * 0.6 / 200)
    budget.charge(cpu=75.0, wall=80.0)
    assert budget.seconds() == pytest.approx(0.005)  # spent: the floor, never zero
    # A limit left out of the start message is the arena's default.
    assert MoveBudget({}).seconds() == pytest.approx(0.5)


def test_the_reward_ranks_first_above_a_close_second_above_a_distant_one():
    state = engine.get_game("moonrollers").new_state(3, 1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    rewards = rank_reward(state)
    ranks = state.result()["ranks"]
    best = min(range(3), key=lambda seat: ranks[seat])
    worst = max(range(3), key=lambda seat: ranks[seat])
    assert rewards[best] > rewards[worst]
    assert all(0.0 <= value <= 1.0 for value in rewards)


class _FixedSearch(SearchBot):
    game = "moonrollers"
    playouts = 24
    worlds = 4


def _play(game: str, bots: list, seed: int) -> dict:
    state = engine.get_game(game).new_state(len(bots), seed)
    while not state.is_terminal():
        seat = state.to_move()
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    return state.result()


def test_the_moonrollers_search_beats_the_random_bot():
    wins = 0
    for match in range(6):
        search_seat = match % 2
        bots = []
        for seat in range(2):
            if seat == search_seat:
                bot = _FixedSearch()
                bot.setup({"seat": seat, "seed": match, "match": match, "limits": {}})
            else:
                bot = load_bot(str(RANDOM_BOT)).for_match()
                bot.setup({"seat": seat, "seed": match})
            bots.append(bot)
        ranks = _play("moonrollers", bots, seed=500 + match)["ranks"]
        wins += ranks[search_seat] == 1 and ranks.count(1) == 1
    # 24 playouts a move won 12 of 12 of these games; 16 won fewer than 10.
    assert wins >= 5, f"the search won {wins} of 6 against the random bot"


@pytest.mark.parametrize("game", GAMES)
def test_a_guided_search_without_time_to_tell_plays_the_guides_move(game):
    """With a handful of iterations nothing is separated: the guide's action stands."""
    for state in positions(game, seed=8, count=3):
        seat = state.to_move()
        legal = state.legal_actions()
        suggestion = legal[-1]
        search = InformationSetSearch(
            game, seat, worlds=2, seed=2, guide=lambda observation, actions: actions[-1]
        )
        chosen = search.choose(
            state.observation(seat), legal, history=history_until(game, 8, state), playouts=3
        )
        assert chosen == suggestion


def test_choices_no_world_offers_still_get_a_legal_answer():
    """A world rebuilt inexactly may offer none of the real choices: the search answers
    one of the real ones (the guide's when it has one), never an error."""
    state = positions("moonrakers", seed=4, count=1)[0]
    seat = state.to_move()
    observation = state.observation(seat)
    unknown = [["not", "in", "any", "world"], ["nor", "this"]]
    history = history_until("moonrakers", 4, state)
    plain = InformationSetSearch("moonrakers", seat, worlds=2, seed=3)
    assert plain.choose(observation, unknown, history=history, playouts=4) == unknown[0]
    guided = InformationSetSearch(
        "moonrakers", seat, worlds=2, seed=3, guide=lambda observation, actions: actions[1]
    )
    assert guided.choose(observation, unknown, history=history, playouts=4) == unknown[1]


def test_standing_rewards_order_seats_by_standing_and_share_equal_ones():
    assert standing_reward([3.0, 3.0]) == pytest.approx([0.5, 0.5])
    ahead, behind = standing_reward([5.0, 2.0], scale=3.0)
    assert ahead > 0.5 > behind
    assert ahead + behind == pytest.approx(1.0)
    # A wider scale makes the same lead count for less.
    assert standing_reward([5.0, 2.0], scale=30.0)[0] < ahead
    first, second, third = standing_reward([9.0, 4.0, 1.0])
    assert first > second > third and all(0.0 <= r <= 1.0 for r in (first, second, third))
    assert standing_reward([7.0]) == [1.0]


def test_an_evaluation_cuts_playouts_short_and_scores_the_worlds_there():
    """With `evaluate` and `playout_depth`, each playout makes at most that many random
    decisions and the evaluation (not the end of the game) gives the reward."""
    state = positions("moon_bots", seed=4, count=1)[0]
    seat = state.to_move()
    calls = {"policy": 0, "evaluate": 0, "terminal": 0}

    def counting_policy(world, legal, rng):
        calls["policy"] += 1
        return random_policy(world, legal, rng)

    def evaluate(world):
        calls["evaluate"] += 1
        calls["terminal"] += world.is_terminal()
        return [0.5] * world.num_players

    search = InformationSetSearch(
        "moon_bots",
        seat,
        worlds=2,
        seed=3,
        policy=counting_policy,
        evaluate=evaluate,
        playout_depth=3,
    )
    chosen = search.choose(
        state.observation(seat),
        state.legal_actions(),
        history=history_until("moon_bots", 4, state),
        playouts=40,
    )
    assert chosen in state.legal_actions()
    assert calls["evaluate"] > 30  # Moon-Bots never ends within a few decisions
    assert calls["terminal"] == 0
    assert calls["policy"] <= 3 * 40
    # Without an evaluation the depth is ignored: playouts run to the end.
    calls["policy"] = 0
    InformationSetSearch(
        "moon_bots", seat, worlds=2, seed=3, policy=counting_policy, playout_depth=3
    ).choose(
        state.observation(seat),
        state.legal_actions(),
        history=history_until("moon_bots", 4, state),
        playouts=10,
    )
    assert calls["policy"] > 3 * 10


def test_a_tree_one_decision_deep_searches_the_root_only_and_the_policy_plays_on():
    """`tree_depth=1`: the root's children get the visits and none grows children of
    its own (a rollout improvement of the policy); without it the tree grows deeper."""
    state = positions("moonrollers", seed=6, count=1)[0]
    seat = state.to_move()
    history = history_until("moonrollers", 6, state)

    def grown(tree_depth):
        search = InformationSetSearch("moonrollers", seat, worlds=4, seed=2, tree_depth=tree_depth)
        search.choose(state.observation(seat), state.legal_actions(), history=history, playouts=200)
        assert search.last_root is not None
        return list(search.last_root.children.values())

    shallow = grown(1)
    assert sum(child.visits for child in shallow) == 200
    assert all(not child.children for child in shallow)
    assert any(child.children for child in grown(None))


def test_a_horizon_ends_every_playout_once_the_count_passes_its_span():
    """`horizon` with `horizon_span=2`: every playout that does not end the game stops
    at the first world two turns past the root's, where the evaluation scores it."""
    state = positions("moon_bots", seed=6, count=1)[0]
    seat = state.to_move()
    history = history_until("moon_bots", 6, state)
    scored_at = []

    def evaluate(world):
        scored_at.append(world.turns)
        return [0.5] * world.num_players

    search = InformationSetSearch(
        "moon_bots",
        seat,
        worlds=4,
        seed=2,
        evaluate=evaluate,
        horizon=lambda world: world.turns,
        horizon_span=2,
        tree_depth=1,
    )
    search.choose(state.observation(seat), state.legal_actions(), history=history, playouts=60)
    assert len(scored_at) > 40
    assert set(scored_at) == {state.turns + 2}


class _RootRecordingSearch(InformationSetSearch):
    """Remembers how many actions the sampled worlds had already seen."""

    root_length = 0

    def sample_worlds(self, observation, history):
        worlds = super().sample_worlds(observation, history)
        assert len({len(world.actions) for world in worlds}) == 1
        self.root_length = len(worlds[0].actions)
        return worlds


def test_the_evaluation_steers_the_search_toward_what_it_rewards():
    """An evaluation that rewards the seat for one action at the root (and punishes the
    others) makes the search choose it."""
    state = positions("moonrollers", seed=6, count=1)[0]
    seat = state.to_move()
    legal = state.legal_actions()
    target = legal[-1]
    search: _RootRecordingSearch

    def evaluate(world):
        mine = 1.0 if world.actions[search.root_length] == target else 0.0
        return [mine if s == seat else 1.0 - mine for s in range(world.num_players)]

    search = _RootRecordingSearch(
        "moonrollers", seat, worlds=2, seed=5, evaluate=evaluate, playout_depth=0
    )
    chosen = search.choose(
        state.observation(seat),
        legal,
        history=history_until("moonrollers", 6, state),
        playouts=12 * len(legal),
    )
    assert chosen == target


def test_the_guide_share_decides_how_clearly_the_search_must_beat_the_guide():
    """The evaluation favours the first action and the guide the last: with no share the
    search plays what it found; with the whole share it keeps the guide's move."""
    state = positions("moonrollers", seed=6, count=1)[0]
    seat = state.to_move()
    legal = state.legal_actions()
    favoured, suggested = legal[0], legal[-1]
    assert favoured != suggested
    chosen = {}
    for share in (0.0, 1.0):
        searches: list[_RootRecordingSearch] = []

        def evaluate(world, searches=searches):
            mine = 1.0 if world.actions[searches[0].root_length] == favoured else 0.0
            return [mine if s == seat else 1.0 - mine for s in range(world.num_players)]

        search = _RootRecordingSearch(
            "moonrollers",
            seat,
            worlds=2,
            seed=5,
            evaluate=evaluate,
            playout_depth=0,
            guide=lambda observation, actions: actions[-1],
            guide_share=share,
        )
        searches.append(search)
        chosen[share] = search.choose(
            state.observation(seat),
            legal,
            history=history_until("moonrollers", 6, state),
            playouts=20 * len(legal),
        )
    assert chosen == {0.0: favoured, 1.0: suggested}


class _TrustingSearch(SearchBot):
    game = "moonrollers"
    playouts = 40
    worlds = 2
    guide = staticmethod(lambda observation, actions: actions[-1])
    trust_guide = staticmethod(lambda observation: True)


def test_decisions_left_to_the_guide_are_not_searched_but_remembered():
    bot = _TrustingSearch()
    bot.setup({"seat": 0, "seed": 1, "match": 1, "limits": {}})
    for state in positions("moonrollers", seed=7, count=3):
        seat = state.to_move()
        bot.search.seat = seat
        legal = state.legal_actions()
        assert bot.act(state.observation(seat), legal) == legal[-1]
    assert bot.search.last_iterations == 0
    assert len(bot.history) == 3


def test_the_moon_adventure_search_picks_a_team_plan_each_turn_and_plays_it():
    """The plan is searched once, at the first decision of each of the bot's turns; every
    decision plays the chosen plan's heuristic move for move; the plan chosen is the one
    whose simulated missions scored best (the heuristic's own on a tie); a fixed number of
    worlds with one seed chooses the same plans every time."""
    from bots.reference import moon_adventure_heuristic as heuristic
    from bots.reference import moon_adventure_search

    def play(seed):
        state = engine.get_game("moon_adventure").new_state(3, seed)
        bot = moon_adventure_search.Bot()
        bot.setup({"seat": 0, "seed": seed, "options": {}})
        bot.playouts = 3
        mirrors = {name: heuristic.Bot(plan) for name, plan in heuristic.PLANS.items()}
        others = {1: heuristic.Bot(), 2: heuristic.Bot()}
        plans, searches, decisions = [], 0, 0
        while not state.is_terminal():
            legal = state.legal_actions()
            seat = state.to_move()
            observation = state.observation(seat)
            if seat != 0 or len(legal) == 1:
                player = others.get(seat)
                state.apply(player.act(observation, legal) if player else legal[0])
                continue
            bot.search.last_worlds = 0
            expected = {name: mirror.act(observation, legal) for name, mirror in mirrors.items()}
            chosen = bot.act(observation, legal)
            decisions += 1
            if bot.search.last_worlds:
                searches += 1
                scores = bot.search.last_scores
                assert bot.search.last_worlds == 3
                assert scores[bot.plan] == max(scores.values())
                if scores["bold"] == scores["steady"]:
                    assert bot.plan == "bold"  # the heuristic's plan at 3 players
                plans.append(bot.plan)
            assert chosen == expected[bot.plan], observation["phase"]
            state.apply(chosen)
        return plans, searches, decisions

    plans, searches, decisions = play(11)
    assert 3 <= searches < decisions / 2  # once a turn, not on every decision
    assert play(11)[0] == plans


def test_a_moon_adventure_mission_scores_its_chance_of_success():
    """0 while a crew member is out; with everyone home, the chance that the chips home
    hold the target's undamaged ones, whatever the world dealt them."""
    from bots.reference import moon_adventure_heuristic as heuristic
    from bots.reference import moon_adventure_search as search

    def held(state):
        seen = state.observation(0)
        return tuple(
            sum(
                1
                for slots in seen["containers"]
                for item in slots
                if item and item.get("area") == area
            )
            for area in (3, 4, 5)
        )

    lost = home = None
    for seed in range(60):
        state = engine.get_game("moon_adventure").new_state(2, seed)
        search.play_mission(state, heuristic.BOLD)
        if not all(state.observation(0)["returned"]):
            lost = lost or state
        elif sum(held(state)) >= 5:
            home = home or state
    assert lost is not None and home is not None
    assert search.mission_score(lost) == 0.0
    chance = search.undamaged_chance(held(home), (3, 4, 5), (7, 7, 7), 5)
    assert search.mission_score(home) == pytest.approx(chance)
    assert 0.0 < chance < 1.0
    # Two chips of Area 5 and none else: P(both undamaged) = 5/7 * 4/6.
    assert search.undamaged_chance((0, 0, 2), (3, 4, 5), (7, 7, 7), 2) == pytest.approx(20 / 42)


def test_the_moon_adventure_search_keeps_the_heuristics_plan_without_time_to_search():
    from bots.reference import moon_adventure_search

    state = engine.get_game("moon_adventure").new_state(4, 3)
    search = moon_adventure_search.PlanSearch(state.to_move(), {}, "1")
    observation = state.observation(state.to_move())
    assert search.choose(observation, 0.5, None) in ("bold", "steady")
    assert search.last_worlds >= 1 and search.world_seconds > 0
    assert search.choose(observation, search.world_seconds / 2, None) == "steady"
    assert search.last_worlds == 0
