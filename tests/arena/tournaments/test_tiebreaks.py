"""Swiss tie-breaks against a real event's published crosstable and a hand-computed
multiplayer example."""

from __future__ import annotations

import pytest

from arena.tournaments.tiebreaks import Encounter, multiplayer_standings, two_player_standings

# Hamilton Chess Club (New Zealand) Club Championship 2018, final crosstable and tie-break
# table as published by the club ("Richard On Tie Break", hamiltonchess.net, 11 April 2018).
# Each entry: number, published score, results by round (+ win, = draw, - loss, W/B colour
# and the opponent's number; BYE an unplayed round scored as written). Two players have an
# unplayed round with nothing written (0 points).
HAMILTON_2018 = """
1 5.5 +W10 +B17 +W12 =W2 +B4 +B3
2 5.5 +B27 +W16 +W9 =B1 +W8 +B10
3 4.0 =BYE +W11 +B6 =W4 +B5 -W1
4 4.0 +W22 +B15 =W8 =B3 -W1 +B13
5 4.0 -W16 +B14 +W22 +B15 -W3 +B8
6 4.0 -W21 +B27 -W3 +B23 +W16 +B14
7 4.0 -W9 -B23 +W27 +B19 +W15 +B12
8 3.5 +B25 +W21 =B4 +W13 -B2 -W5
9 3.5 +B7 +W13 -B2 =BYE +W18
10 3.5 -B1 +W25 +W26 =B12 +B17 -W2
11 3.5 =BYE -B3 -W14 +B25 +W20 +W17
12 3.0 +B20 +W18 -B1 =W10 =B14 -W7
13 3.0 +W23 -B9 +W19 -B8 +W21 -W4
14 3.0 =BYE -W5 +B11 +B22 =W12 -W6
15 3.0 +B26 -W4 +B21 -W5 -B7 +W24
16 3.0 +B5 -B2 -W17 +W24 -B6 +B22
17 2.5 +B24 -W1 +B16 =BYE -W10 -B11
18 2.5 +W19 -B12 +W23 =BYE -B9
19 2.5 -B18 +W20 -B13 -W7 =B25 +W21
20 2.5 -W12 -B19 =W25 +B27 -B11 +W26
21 2.0 +B6 -B8 -W15 +W26 -B13 -B19
22 2.0 -B4 +W24 -B5 -W14 +B26 -W16
23 2.0 -B13 +W7 -B18 -W6 -B24 +W27
24 2.0 -W17 -B22 +BYE -B16 +W23 -B15
25 2.0 -W8 -B10 =B20 -W11 =W19 +BYE
26 1.0 -W15 +BYE -B10 -B21 -W22 -B20
27 1.0 -W2 -W6 -B7 -W20 +BYE -B23
"""
POINTS = {"+": 1.0, "=": 0.5, "-": 0.0}


def parse_crosstable(text: str):
    published: dict[int, float] = {}
    games: dict[frozenset, dict[int, float]] = {}
    byes: dict[int, float] = {}
    for line in text.strip().splitlines():
        number, score, *results = line.split()
        player = int(number)
        published[player] = float(score)
        for entry in results:
            points = POINTS[entry[0]]
            if entry[1:] == "BYE":
                byes[player] = byes.get(player, 0.0) + points
                continue
            opponent = int(entry[2:])
            game = games.setdefault(frozenset((player, opponent)), {})
            game[player] = points
    return published, [Encounter(points) for points in games.values()], byes


def test_the_crosstable_is_consistent_and_gives_the_published_scores():
    published, encounters, byes = parse_crosstable(HAMILTON_2018)
    # Every game is listed by both players, with results adding up to one point.
    assert all(len(e.points) == 2 and sum(e.points.values()) == 1.0 for e in encounters)
    rows = two_player_standings(list(published), encounters, byes)
    assert {r.bot: r.points for r in rows} == published


def test_buchholz_cut1_and_sonneborn_berger_match_the_published_tie_break_table():
    published, encounters, byes = parse_crosstable(HAMILTON_2018)
    rows = {r.bot: r for r in two_player_standings(list(published), encounters, byes)}
    # Published: Richard Dare (1) BucT 22.5, S-B 19.75, Buc1 20.0;
    #            Graham Nolan (2) BucT 20.0, S-B 17.25, Buc1 19.5.
    assert rows[1].tiebreaks["buchholz"] == 22.5
    assert rows[1].tiebreaks["sonneborn_berger"] == 19.75
    assert rows[1].tiebreaks["buchholz_cut1"] == 20.0
    assert rows[2].tiebreaks["buchholz"] == 20.0
    assert rows[2].tiebreaks["sonneborn_berger"] == 17.25
    # The club's program cut Nolan's lowest opponent (Murphy, 1.0 of which a full-point
    # bye) as 0.5, counting her bye as a draw, the pre-2023 FIDE rule for opponents'
    # unplayed games; we cut her score as scored (1.0), as the 2023 regulations do.
    assert rows[2].tiebreaks["buchholz_cut1"] == 19.0


def test_the_tied_leaders_are_ranked_as_the_club_ranked_them():
    published, encounters, byes = parse_crosstable(HAMILTON_2018)
    rows = two_player_standings(list(published), encounters, byes)
    assert [r.bot for r in rows[:2]] == [1, 2]
    # Score groups stay in order.
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


def test_direct_encounter_breaks_a_tie_the_other_criteria_leave():
    # A beat B; both have 2 points, Buchholz cut-1 4.5 (opponents B or A 2.0, D 1.5,
    # E 2.5, less D) and Sonneborn-Berger 4.0 (A: 2.0 + 1.5 / 2 + 2.5 / 2; B: 1.5 + 2.5).
    results = [("A", "B", 1.0), ("A", "D", 0.5), ("A", "E", 0.5), ("B", "D", 1.0)]
    results += [("B", "E", 1.0), ("C", "D", 0.0), ("C", "E", 0.0), ("D", "E", 0.0)]
    encounters = [Encounter({a: r, b: 1.0 - r}) for a, b, r in results]
    rows = two_player_standings(["B", "A", "C", "D", "E"], encounters)
    by_bot = {r.bot: r for r in rows}
    for bot in "AB":
        assert by_bot[bot].points == 2.0
        assert by_bot[bot].tiebreaks["buchholz_cut1"] == 4.5
        assert by_bot[bot].tiebreaks["sonneborn_berger"] == 4.0
    assert by_bot["A"].tiebreaks["direct_encounter"] == 1.0
    assert [r.bot for r in rows] == ["E", "A", "B", "D", "C"]


def test_multiplayer_tie_breaks_on_a_hand_computed_example():
    # Six bots, two rounds of 3-player tables, one game each. Points per game: 1 for each
    # seat beaten, 1/2 for each shared rank, over players - 1.
    # Round 1: B 1st, A and C share 2nd  -> B 1, A 1/4, C 1/4
    #          D 1st, F and E share 2nd  -> D 1, F 1/4, E 1/4
    # Round 2: A 1st, E 2nd, D 3rd       -> A 1, E 1/2, D 0
    #          F, B, C all share 1st     -> 1/2 each
    # Totals: A 1.25, B 1.5, C 0.75, D 1.0, E 0.75, F 0.75.
    # Opponents' points: C = (B 1.5 + A 1.25) + (F 0.75 + B 1.5) = 5.0
    #                    E = (D 1.0 + F 0.75) + (A 1.25 + D 1.0) = 4.0
    #                    F = (D 1.0 + E 0.75) + (B 1.5 + C 0.75) = 4.0
    # Mean finishing rank: F (2 + 1) / 2 = 1.5, E (2 + 2) / 2 = 2.
    # So: B, A, D, then C (opponents' points), F before E (mean rank).
    encounters = [
        Encounter({"B": 1.0, "A": 0.25, "C": 0.25}, {"B": 1, "A": 2, "C": 2}),
        Encounter({"D": 1.0, "F": 0.25, "E": 0.25}, {"D": 1, "F": 2, "E": 2}),
        Encounter({"A": 1.0, "E": 0.5, "D": 0.0}, {"A": 1, "E": 2, "D": 3}),
        Encounter({"F": 0.5, "B": 0.5, "C": 0.5}, {"F": 1, "B": 1, "C": 1}),
    ]
    rows = multiplayer_standings(list("ABCDEF"), encounters)
    assert [r.bot for r in rows] == ["B", "A", "D", "C", "F", "E"]
    by_bot = {r.bot: r for r in rows}
    assert [by_bot[b].points for b in "ABCDEF"] == [1.25, 1.5, 0.75, 1.0, 0.75, 0.75]
    assert by_bot["C"].tiebreaks["opponents_points"] == 5.0
    assert (
        by_bot["E"].tiebreaks["opponents_points"]
        == by_bot["F"].tiebreaks["opponents_points"]
        == 4.0
    )
    assert by_bot["F"].tiebreaks["mean_rank"] == 1.5 and by_bot["E"].tiebreaks["mean_rank"] == 2.0


def test_a_bye_adds_to_the_score_but_not_to_buchholz():
    rows = two_player_standings(["A", "B", "C"], [Encounter({"A": 1.0, "B": 0.0})], {"C": 1.0})
    by_bot = {r.bot: r for r in rows}
    assert by_bot["C"].points == 1.0 and by_bot["C"].tiebreaks["buchholz"] == 0.0
    assert by_bot["A"].tiebreaks["buchholz"] == 0.0  # B scored nothing
    assert by_bot["A"].as_dict()["points"] == 1.0


@pytest.mark.parametrize("standings", [two_player_standings, multiplayer_standings])
def test_entrants_without_results_are_listed_in_seed_order(standings):
    rows = standings([3, 1, 2], [])
    assert [r.bot for r in rows] == [3, 1, 2]
