"""Every objective: secret until claimed, +1 Prestige, claimed automatically (A-16)."""

from pathlib import Path

import pytest

from engine.games.moonrakers import objectives
from engine.games.moonrakers.buying import install
from engine.games.moonrakers.cards import CONTRACTS, OBJECTIVES
from tests.engine.moonrakers.helpers import act, finish_execution, new, rig


def run(
    goal,
    contract,
    plays,
    hand=None,
    complete=True,
    dice=None,
    seats=(0,),
    seat=0,
    parts=None,
    io=None,
):
    """Seat 0 leads `contract`; `plays` are seat 0's steps; then everybody passes."""
    st = new(3, 21)
    st.objs[seat] = [goal]
    hands = {s: [] for s in seats}
    hands[0] = list(hand if hand is not None else [p[1] for p in plays if p[0] == "play"])
    hands[0].append("zek-zarag")  # keeps the step open between plays
    rig(
        st,
        contract,
        list(seats),
        hands,
        deals={s: (0, 0, 0, 0) for s in seats[1:]},
        dice={0: dice or []},
        actions={0: 9},
        draws={0: ["M"] * 9},
        parts={0: parts} if parts else None,
        io={0: io} if io else None,
    )
    prestige = st.prestige[seat]
    for action in plays:
        act(st, action)
    if complete:
        st.rem = {k: 0 for k in st.rem}
    finish_execution(st)
    return st, prestige


def claimed(st, seat=0):
    return st.claimed[seat]


@pytest.mark.parametrize(
    ("goal", "contract", "plays", "complete", "dice", "expected"),
    [
        ("ace", "abandoned-vessel", [], True, [0, 0], True),
        ("ace", "claim-bounty", [], True, [0], False),
        ("barrage", "admirals-flagship", [["play", "D3"], ["play", "D2"]], False, None, True),
        ("barrage", "admirals-flagship", [["play", "D3"]], False, None, False),
        (
            "chain-reaction",
            "admirals-flagship",
            [["play", "R"]] * 3 + [["play", "Rx"]],
            False,
            None,
            True,
        ),
        ("daredevil", "escape-pods", [["play", "D1"]], True, None, True),
        ("daredevil", "escape-pods", [["play", "S"]], True, [0, 0], False),
        ("efficiency", "fuel-shortage", [["play", "D1"]], True, None, True),
        ("efficiency", "fuel-shortage", [["play", "T"]], True, None, False),
        ("fire-support", "rival-pirate-gang", [["play", "S"]], True, [0], True),
        ("fire-support", "rival-pirate-gang", [["play", "D1"]], True, [0], False),
        ("gun-for-hire", "claim-bounty", [], True, [0], True),
        (
            "natural-leader",
            "black-hole",
            [["play", "miska-rose"], ["play", "ada-massa"], ["play", "kurt-bilar"]],
            False,
            None,
            True,
        ),
        ("quick-run", "stim-run", [], True, [0], True),
        (
            "quick-strike",
            "admirals-flagship",
            [["play", "T"], ["play", "T+"], ["play", "Tx"]],
            False,
            None,
            True,
        ),
        ("santa-maria", "pirate-treasure", [], True, [0], True),
        (
            "shield-wall",
            "admirals-flagship",
            [["play", "S"], ["play", "S"], ["play", "S+"]],
            False,
            None,
            True,
        ),
        ("youre-my-hero", "supernova-escape", [], True, [0], True),
        (
            "arsenal",
            "admirals-flagship",
            [["play", "D1"], ["play", "D2"], ["play", "D+"]],
            False,
            None,
            True,
        ),
        (
            "arsenal",
            "admirals-flagship",
            [["play", "D1"], ["play", "D1"], ["play", "D+"]],
            False,
            None,
            False,
        ),
        ("parasite", "claim-bounty", [], True, [0], True),
        ("parasite", "claim-bounty", [["play", "R"]], True, [0], False),
        (
            "tactical",
            "admirals-flagship",
            [["play", "S"], ["play", "S"], ["play", "D1"], ["play", "D1"]],
            False,
            None,
            True,
        ),
        (
            "technologic",
            "admirals-flagship",
            [["play", "R+"], ["play", "Tx"], ["play", "D+"]],
            False,
            None,
            True,
        ),
        (
            "technologic",
            "admirals-flagship",
            [["play", "R+"], ["play", "R+"], ["play", "D+"]],
            False,
            None,
            False,
        ),
        (
            "untouchable",
            "admirals-flagship",
            [["play", "ryle-al-wren"], ["opt", "block"]],
            False,
            [1, 1, 0, 0],
            True,
        ),
        ("untouchable", "admirals-flagship", [["play", "Sx"]], False, [1, 1, 0, 0], False),
        ("weird-flex", "cryptic-shadow", [], True, [0], True),
    ],
)
def test_contract_objectives(goal, contract, plays, complete, dice, expected):
    st, prestige = run(goal, contract, plays, complete=complete, dice=dice)
    assert (goal in claimed(st)) is expected
    if expected:
        reward = CONTRACTS[contract].prestige if complete else 0
        assert st.prestige[0] == prestige + 1 + reward and st.objs[0] == []


def test_solo_goals_need_to_be_solo_and_the_right_type():
    st, _ = run("gun-for-hire", "claim-bounty", [], seats=(0, 1))
    assert claimed(st) == []
    st, _ = run("santa-maria", "claim-bounty", [], dice=[0])
    assert claimed(st) == []


def test_saboteur_fail_a_contract_as_an_ally():
    st, prestige = run("saboteur", "admirals-flagship", [], complete=False, seats=(0, 1), seat=1)
    assert claimed(st, 1) == ["saboteur"] and st.prestige[1] == prestige + 1
    st, _ = run("saboteur", "admirals-flagship", [], complete=False)  # as the ML: no
    assert claimed(st) == []


def test_utopia_needs_every_other_player_on_the_contract():
    st, _ = run("utopia", "claim-bounty", [], seats=(0, 1, 2), dice=[0])
    assert claimed(st) == ["utopia"]
    st, _ = run("utopia", "claim-bounty", [], seats=(0, 1), dice=[0])
    assert claimed(st) == []


def test_io_power_spend_three_on_one_contract():
    st, _ = run(
        "io-power",
        "admirals-flagship",
        [["ability", "io-spark-mk1", "spend"]] * 3,
        hand=[],
        complete=False,
        parts=["io-spark-mk1"],
        io={"io-spark-mk1": 3},
    )
    assert claimed(st) == ["io-power"]


def test_junker_trash_two_cards_on_one_contract():
    st, _ = run(
        "junker",
        "admirals-flagship",
        [["ability", "tributor", "M", "M"], ["req", "R"]],
        hand=["M", "M"],
        complete=False,
        parts=["tributor"],
    )
    assert claimed(st) == ["junker"]


@pytest.mark.parametrize(
    ("goal", "parts", "expected"),
    [
        ("generalist", ["mg-warp", "titan-3000", "sapphire-mk2", "flash"], True),
        ("generalist", ["mg-warp", "titan-3000", "sapphire-mk2", "leech"], False),
        ("megaton", ["mg-warp", "mg-phase-core", "predator-mk1"], False),
        ("megaton", ["mg-warp", "mg-phase-core", "mg-support-core"], True),
        ("over-9000", ["sapphire-mk2", "pulsor-mk1", "daburu-mk1"], True),
        ("specialist", ["leech", "pursuer"], True),
        ("speed-demon", ["flash", "barrier-a3", "twin-jets-e4"], True),
        ("tank", ["titan-3000", "duo-1000", "cloaking-device"], True),
    ],
)
def test_ship_part_objectives_are_claimed_on_installation(goal, parts, expected):
    st = new(3, 21)
    st.objs[1] = [goal]
    for part in parts:
        install(st, 1, part, bought=True)
    assert (goal in st.claimed[1]) is expected


@pytest.mark.parametrize(
    ("goal", "io", "expected"),
    [
        ("io-adopter", {"io-spark-mk1": 1, "io-hub-mk2": 1}, True),
        ("io-adopter", {"io-spark-mk1": 2, "io-hub-mk2": 0}, False),
        ("io-hoard", {"io-spark-mk1": 3, "io-hub-mk2": 3}, True),
        ("io-hoard", {"io-spark-mk1": 3, "io-hub-mk2": 2}, False),
    ],
)
def test_iosphere_objectives(goal, io, expected):
    st = new(3, 21)
    st.objs[2] = [goal]
    st.parts[2] = list(io)
    st.io[2] = dict(io)
    objectives.check_io(st, 2)
    assert (goal in st.claimed[2]) is expected


def test_money_bags_at_the_end_of_your_own_turn():
    st = new(3, 21)
    ml = st.ml
    st.objs[ml] = ["money-bags"]
    other = (ml + 1) % 3
    st.objs[other] = ["money-bags"]
    st.credits[ml] = 7
    st.credits[other] = 20
    act(st, "base")  # +1 Credit
    act(st, st.legal_actions()[0])
    act(st, "no_replace")
    act(st, "keep")
    act(st, "end")
    assert st.claimed[ml] == ["money-bags"] and st.claimed[other] == []


def test_objectives_are_hidden_until_claimed():
    st = new(3, 21)
    st.objs[0] = ["barrage", "ace"]
    obs = st.observation(1)
    assert obs["players"][0]["objectives_held"] == 2 and obs["players"][0]["claimed"] == []
    assert "barrage" not in str(obs)
    assert st.observation(0)["objectives"] == ["barrage", "ace"]


def test_every_objective_has_a_test():
    # Read from the test files, not collected while tests run: under pytest-xdist the
    # tests of this file are spread over processes in any order.
    here = Path(__file__).parent
    sources = "".join(
        (here / name).read_text() for name in ("test_objectives.py", "test_buying.py")
    )
    assert {goal for goal in OBJECTIVES if f'"{goal}"' not in sources} == set()
