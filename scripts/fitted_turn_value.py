"""Does a value fitted to self-play make the Moon Adventure turn plans better?

    python scripts/fitted_turn_value.py --players 3 --games 20000 --tables 1200 --rounds 2

The heuristic's `Planner` searches every sequence of actions a turn allows, exactly, and
scores where each would end with hand-set weights (`W_CHIP`, `W_DEATH`, ...). This
script tests the design that replaces or corrects that score with a chance of success
fitted to games:

1. It plays `--games` missions (seeds from 100000) and records, at the start of every
   seat's turn, the team's features (below) and the mission's expected success at its
   end: 0 if a crew member ran out of oxygen, else the chance that the chips brought
   home hold enough undamaged ones.
2. It fits a logistic regression of that outcome on the features (soft labels; one game
   in five held out) and prints the held-out log loss against a constant's and the R².
3. It plays `--tables` missions (seeds from 1000) with planners whose turn-end score is
   the hand-set score plus `blend` times 100 times the fitted chance, for each of
   `--blends` (0 is the heuristic itself), and with the fitted chance alone. It prints
   each one's mean expected success, its successes with a 95% Wilson interval, and the
   difference from the heuristic on the same seeds with its standard error.

`--rounds 2` fits again on the games of the best blend of round 1 and measures again:
one step of policy iteration.

The features describe the team at a turn's start, from the observation: the chance of
success with the chips held (and with one or two more Area-5 chips), each crew member's
chance of reaching the Base on the oxygen held (summed as logarithms, with and without an
active OGS nearby), spare AP, crew members low on oxygen, oxygen cards and their expected
AP, empty containers, the undamaged chips still expected on the track, the storms and the
draw pile, OGS, and how far out the crew are. At a turn's end the Planner's expected draws
stand for the oxygen to be drawn.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from math import exp, log
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rollout_headroom import expected_success, undamaged_chance  # noqa: E402

import engine  # noqa: E402
from bots.reference import moon_adventure_heuristic as heuristic  # noqa: E402

GAME = "moon_adventure"
TRAIN_SEED = 100000
TABLE_SEED = 1000
AREAS = tuple(heuristic.UNDAMAGED)
SCALE = 100.0  # the fitted chance in the hand-set score's units (W_CHIP is 25)
FEATURES = (
    "bias",
    "chance_held",
    "chance_one_more",
    "chance_two_more",
    "log_reach",
    "log_reach_no_ogs",
    "least_spare_ap",
    "crew_low",
    "crew_empty",
    "oxygen_cards",
    "expected_ap",
    "empty_containers",
    "undamaged_on_track",
    "undamaged_in_area5",
    "storm_risk",
    "draw_pile",
    "storms_in_play",
    "active_ogs",
    "ogs_left",
    "crew_out",
    "mean_moves_home",
    "most_moves_home",
    "chance_and_reach",
    "crew_near_ogs",
)


class Table:
    """What a turn's features need of the table, read once per turn."""

    def __init__(self, view):
        self.view = view
        seen = {area: [0, 0] for area in AREAS}
        for chip in view.all_chips():
            if chip["broken"] is not None:
                seen[chip["area"]][0] += 1
                seen[chip["area"]][1] += not chip["broken"]
        self.good_left = tuple(heuristic.UNDAMAGED[a] - seen[a][1] for a in AREAS)
        self.unseen = tuple(heuristic.CHIPS_PER_AREA - seen[a][0] for a in AREAS)
        self.chips = {
            q: (view.chip_value(space), space["area"])
            for q, space in enumerate(view.track)
            if space["kind"] == "supply"
        }
        self.active_ogs = sum(1 for space in view.track if space["kind"] == "ogs")
        self.storm_risk = heuristic.storm_risk(view)

    def crew_member(self, seat):
        """(moves home, 2xO2 cards, 3xO2 cards, empty containers, face-down chips per
        area, undamaged chips known, near an active OGS) of a seat as it stands."""
        view = self.view
        held, known = held_chips(view, seat)
        oxygen = view.oxygen(seat)
        p = view.crew[seat]
        near = any(
            space["kind"] == "ogs"
            and abs(q - p) <= heuristic.OGS_NEAR
            and (q == p or q not in view.crew)
            for q, space in enumerate(view.track)
        )
        return (
            view.moves_home(seat),
            oxygen.count(2),
            oxygen.count(3),
            view.empty(seat),
            held,
            known,
            near,
        )

    def features(self, members, returned, gathered=(), new_ogs=0):
        """The team's features; `members` per seat as `crew_member` gives them."""
        view = self.view
        held, known = [0] * len(AREAS), 0
        log_reach = log_no_ogs = 0.0
        least_spare, low, empty_handed, cards, out, near_ogs = 30.0, 0, 0, 0.0, 0, 0
        expected_ap = room = 0.0
        homes = []
        for seat, (home, twos, threes, empty, chips, good, near) in enumerate(members):
            held = [a + b for a, b in zip(held, chips, strict=True)]
            known += good
            if returned[seat]:
                continue
            out += 1
            homes.append(home)
            cards += twos + threes
            ap = heuristic.EXPECTED_AP[2] * twos + heuristic.EXPECTED_AP[3] * threes
            expected_ap += ap
            room += empty
            least_spare = min(least_spare, ap - home)
            low += twos + threes <= 1
            empty_handed += twos + threes < 0.5
            reach = heuristic.reach_chance(round(twos), round(threes), home) if home < 99 else 0.0
            log_reach += log(max(reach, 0.02))
            if near:
                near_ogs += 1
            else:
                log_no_ogs += log(max(reach, 0.02))
        need = view.obs["target"]
        chances = []
        for more in (0, 1, 2):
            counts = tuple(held[:-1]) + (held[-1] + more,)
            chances.append(undamaged_chance(counts, self.good_left, self.unseen, need - known))
        on_track = [v for q, v in self.chips.items() if q not in gathered]
        in_area5 = [v for q, (v, area) in self.chips.items() if q not in gathered and area == 5]
        return [
            1.0,
            *chances,
            log_reach,
            log_no_ogs,
            max(-10.0, min(least_spare, 20.0)),
            low,
            empty_handed,
            cards,
            expected_ap,
            room,
            sum(v for v, _ in on_track),
            sum(in_area5),
            self.storm_risk,
            view.obs["draw_pile"]["size"],
            4 - view.obs["storms_aside"],
            self.active_ogs + new_ogs,
            view.obs["ogs_left"] - new_ogs,
            out,
            statistics.fmean(homes) if homes else 0.0,
            max(homes) if homes else 0,
            chances[0] * exp(log_reach),
            near_ogs / out if out else 1.0,
        ]


def held_chips(view, seat):
    held, known = [0] * len(AREAS), 0
    for chip in view.chips(seat):
        if chip["broken"] is None:
            held[AREAS.index(chip["area"])] += 1
        elif not chip["broken"]:
            known += 1
    return held, known


def team_features(view):
    table = Table(view)
    members = [table.crew_member(seat) for seat in range(view.n)]
    return table.features(members, view.returned)


class Model:
    """A logistic regression on standardised features."""

    def __init__(self, mean, scale, weights):
        self.mean, self.scale, self.weights = mean, scale, weights

    def chance(self, features):
        z = (np.asarray(features) - self.mean) / self.scale
        return 1.0 / (1.0 + exp(-float(z @ self.weights)))


def make_planner(model, blend):
    """The heuristic's Planner with `blend` x SCALE x the fitted chance added to its
    turn-end score (`blend` None: the fitted chance alone)."""

    class FittedPlanner(heuristic.Planner):
        def __init__(self, view):
            super().__init__(view)
            self.table = Table(view)
            self.team = [self.table.crew_member(seat) for seat in range(view.n)]
            self.held, self.known = held_chips(view, view.me)
            self.scores = {}

        def leaf(self, p, gathered, routes, on_new_ogs, ap_left, boards=False, took=0):
            key = (p, gathered, routes, on_new_ogs, boards, took)
            if key not in self.scores:
                fitted = SCALE * model.chance(
                    self.turn_end(p, gathered, routes, on_new_ogs, boards, took)
                )
                if blend is None:
                    self.scores[key] = fitted
                else:
                    hand = super().leaf(p, gathered, routes, on_new_ogs, 0, boards, took)
                    self.scores[key] = hand + blend * fitted
            return self.scores[key] + 0.01 * ap_left

        def turn_end(self, p, gathered, routes, on_new_ogs, boards, took):
            view = self.view
            hand = self.cards + [2] * took
            empty = self.empty - len(gathered) - took
            on_ogs = on_new_ogs or (
                p > 0 and view.track[p]["kind"] == "ogs" and not (self.riding or boards)
            )
            drawn = (
                heuristic.expected_draws(view, empty, len(hand))
                if on_ogs and empty > 0 and p > 0
                else 0.0
            )
            dist = self.distances(p, routes) if p > 0 else {0: 0}
            home = dist.get(0, 30)
            if boards:
                home = (home + 1) // 2
            held = list(self.held)
            for q in gathered:
                held[AREAS.index(self.table.chips[q][1])] += 1
            near = on_ogs or any(abs(q - p) <= heuristic.OGS_NEAR for q in self.ogs_spots)
            twos, threes = hand.count(2) + drawn * 0.67, hand.count(3) + drawn * 0.33
            members = list(self.team)
            members[view.me] = (home, twos, threes, empty - drawn, held, self.known, near)
            returned = list(view.returned)
            returned[view.me] = returned[view.me] or p == 0
            return self.table.features(members, returned, gathered, int(on_new_ogs))

    return FittedPlanner


def play(players, seed, planner=None, record=False):
    """One mission with every seat on the heuristic (its Planner swapped for `planner`):
    its expected success, whether it succeeded, and the features at each turn's start."""
    state = engine.get_game(GAME).new_state(players, seed=seed)
    team, rows = heuristic.Bot(), []
    original, heuristic.Planner = heuristic.Planner, planner or heuristic.Planner
    try:
        while not state.is_terminal():
            legal, seat = state.legal_actions(), state.to_move()
            observation = state.observation(seat)
            if record and observation["phase"] == "oxygen":
                rows.append(team_features(heuristic.View(observation)))
            choice = legal[0] if len(legal) == 1 else team.act(observation, legal)
            state.apply(choice if choice in legal else legal[0])
    finally:
        heuristic.Planner = original
    return expected_success(state), state.result()["outcome"] == "success", rows


def self_play(players, games, planner):
    features, outcomes, games_of = [], [], []
    for game in range(games):
        value, _, rows = play(players, TRAIN_SEED + game, planner, record=True)
        features += rows
        outcomes += [value] * len(rows)
        games_of += [game] * len(rows)
    return np.array(features), np.array(outcomes), np.array(games_of)


def fit(features, outcomes, games_of, l2=1e-3, steps=30):
    """Newton's method on the soft-label log loss; prints the held-out fit."""
    held_out = games_of % 5 == 0
    train = ~held_out
    mean, scale = features[train].mean(0), features[train].std(0)
    mean[0], scale[0] = 0.0, 1.0
    scale[scale == 0] = 1.0
    z = (features - mean) / scale
    weights = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z[train] @ weights))
        gradient = z[train].T @ (p - outcomes[train]) / train.sum() + l2 * weights
        hessian = (z[train] * (p * (1 - p))[:, None]).T @ z[train] / train.sum()
        weights -= np.linalg.solve(hessian + l2 * np.eye(len(weights)), gradient)
    p = np.clip(1 / (1 + np.exp(-z[held_out] @ weights)), 1e-6, 1 - 1e-6)
    y = outcomes[held_out]
    constant = np.clip(outcomes[train].mean(), 1e-6, 1 - 1e-6)

    def loss(q):
        return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))

    r2 = 1 - float(np.mean((p - y) ** 2) / np.var(y))
    print(
        f"fit: {len(outcomes):,} turns of {games_of.max() + 1:,} games; held-out log loss "
        f"{loss(p):.4f} (a constant: {loss(constant):.4f}), R² {r2:.3f}"
    )
    return Model(mean, scale, weights)


def wilson(successes, n, z=1.96):
    centre = (successes + z * z / 2) / (n + z * z)
    half = z * (successes * (n - successes) / n + z * z / 4) ** 0.5 / (n + z * z)
    return centre - half, centre + half


def measure(players, tables, model, blends):
    """Rows of the table, the heuristic (blend 0) first; the best blend's planner."""
    runs = [("heuristic", None)] + [(f"blend {b:g}", make_planner(model, b)) for b in blends if b]
    runs.append(("fitted chance alone", make_planner(model, None)))
    base, rows = None, []
    for name, planner in runs:
        started = time.process_time()
        played = [play(players, TABLE_SEED + t, planner) for t in range(tables)]
        ms = 1000 * (time.process_time() - started) / tables
        values = [value for value, _, _ in played]
        wins = sum(won for _, won, _ in played)
        low, high = wilson(wins, tables)
        base = base or values
        differences = [a - b for a, b in zip(values, base, strict=True)]
        se = statistics.stdev(differences) / tables**0.5 if tables > 1 else 0.0
        rows.append(
            (
                name,
                planner,
                statistics.fmean(values),
                wins,
                low,
                high,
                statistics.fmean(differences),
                se,
                ms,
            )
        )
    print(
        "| turn-end score | expected success | successes [95%] | vs heuristic [±2 se] | ms a mission |"
    )
    print("|---|---|---|---|---|")
    for name, _, value, wins, low, high, difference, se, ms in rows:
        print(
            f"| {name} | {value:.4f} | {wins}/{tables} [{low:.3f}, {high:.3f}] "
            f"| {difference:+.4f} [±{2 * se:.4f}] | {ms:.0f} |",
            flush=True,
        )
    blended = [row for row in rows[1:-1]]
    return max(blended, key=lambda row: row[2])[1] if blended else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    parser.add_argument("--games", type=int, default=20000, help="self-play missions to fit on")
    parser.add_argument("--tables", type=int, default=1200, help="missions per planner measured")
    parser.add_argument("--blends", type=float, nargs="+", default=[0.2, 1.0])
    parser.add_argument("--rounds", type=int, default=1, choices=(1, 2, 3))
    args = parser.parse_args(argv)
    if args.games < 10 or args.tables < 2:
        parser.error("--games must be at least 10 and --tables at least 2")
    if any(b < 0 for b in args.blends):
        parser.error("--blends must not be negative")
    planner = None
    for round_ in range(1, args.rounds + 1):
        print(
            f"round {round_}: self-play with {'the heuristic' if planner is None else 'the best blend'}"
        )
        model = fit(*self_play(args.players, args.games, planner))
        planner = measure(args.players, args.tables, model, args.blends) or planner


if __name__ == "__main__":
    main()
