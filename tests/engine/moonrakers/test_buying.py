"""Buying: Armory purchases, Ship Part slots and the 5th part, Advanced cards, discard rules."""

from engine.games.moonrakers.cards import CREW, PARTS
from tests.engine.moonrakers.helpers import act, new, pending, set_parts


def _to_buying(st):
    act(st, "base")
    act(st, st.legal_actions()[0])
    if pending(st) == "free_replace":
        act(st, "no_replace")


def test_buying_crew_puts_it_in_the_discard_and_refills_the_armory():
    st = new(3, 1, overload=False)
    ml = st.ml
    _to_buying(st)
    assert pending(st) == "buy"
    crew = st.armory_crew[0]
    st.credits[ml] = 10
    st.cur_opts = None
    st._legal_cache = None
    act(st, ["buy", crew])
    assert crew in st.discard[ml] and crew not in st.armory_crew
    assert st.credits[ml] == 10 - CREW[crew].cost
    assert len([c for c in st.armory_crew if c]) == 3


def test_buying_a_part_installs_it_and_adds_its_cards_to_the_discard():
    st = new(3, 1, overload=False)
    ml = st.ml
    _to_buying(st)
    st.armory_parts[0] = "mg1-kinetic"
    st.credits[ml] = 10
    st.cur_opts = None
    st._legal_cache = None
    act(st, ["buy", "mg1-kinetic"])
    assert st.parts[ml] == ["mg1-kinetic"]
    assert sorted(st.discard[ml][-3:]) == ["D1", "D1", "M"]


def test_a_fifth_part_replaces_one_of_the_four_and_its_cards_stay():
    st = new(3, 1, overload=False)
    ml = st.ml
    _to_buying(st)
    set_parts(st, ml, ["flash", "titan-3000", "twin-jets-e4", "sapphire-mk2"])
    st.objs[ml].append("tinker")
    st.armory_parts[0] = "leech"
    st.credits[ml] = 10
    st.cur_opts = None
    st._legal_cache = None
    prestige = st.prestige[ml]
    act(st, ["buy", "leech"])
    assert pending(st) == "remove_part"
    assert ["remove", "leech"] not in st.legal_actions()
    act(st, ["remove", "flash"])
    assert st.parts[ml] == ["titan-3000", "twin-jets-e4", "sapphire-mk2", "leech"]
    assert st.discard[ml][-2:] == ["R", "R"]
    assert "tinker" in st.claimed[ml] and st.prestige[ml] == prestige + 1


def test_devotion_needs_two_other_henko_parts():
    st = new(3, 1)
    ml = st.ml
    _to_buying(st)
    act(st, "keep")
    st.armory_parts[0] = "devotion-3050"
    st.credits[ml] = 10
    st.cur_opts = None
    st._legal_cache = None
    assert ["buy", "devotion-3050"] not in st.legal_actions()
    set_parts(st, ml, ["titan-3000", "duo-1000"])
    st.cur_opts = None
    st._legal_cache = None
    assert ["buy", "devotion-3050"] in st.legal_actions()
    assert PARTS["devotion-3050"].brand == "Henko"


def test_advanced_cards_cost_three_a15_and_only_with_overload():
    st = new(3, 1)
    ml = st.ml
    _to_buying(st)
    act(st, "keep")
    st.credits[ml] = 3
    st.cur_opts = None
    st._legal_cache = None
    act(st, ["buy", "Rx"])
    assert st.credits[ml] == 0 and st.discard[ml][-1] == "Rx" and st.adv["Rx"] == 9
    base = new(3, 1, overload=False)
    _to_buying(base)
    base.credits[base.ml] = 9
    base.cur_opts = None
    base._legal_cache = None
    assert not any(a[1] in ("R+", "Rx") for a in base.legal_actions() if isinstance(a, list))


def test_base_game_discard_rule_one_armory_discard_for_one_credit():
    st = new(3, 1, overload=False)
    ml = st.ml
    _to_buying(st)
    credits = st.credits[ml]
    card = st.armory_parts[2]
    act(st, ["discard", card])
    assert st.credits[ml] == credits - 1
    assert st.part_deck[0] == card and st.part_mask[0] == -1
    assert not any(a[0] == "discard" for a in st.legal_actions() if isinstance(a, list))


def test_overload_discard_rule_one_free_then_one_for_a_credit_never_a_third():
    st = new(3, 1)
    ml = st.ml
    _to_buying(st)
    assert pending(st) == "free_discard"
    credits = st.credits[ml]
    act(st, ["discard", st.armory_crew[0]])
    assert st.credits[ml] == credits
    assert pending(st) == "buy"
    act(st, ["discard", st.armory_parts[0]])
    assert st.credits[ml] == credits - 1
    assert not any(a[0] == "discard" for a in st.legal_actions() if isinstance(a, list))


def test_overload_paid_discard_needs_the_free_one_first():
    st = new(3, 1)
    _to_buying(st)
    act(st, "keep")
    assert not any(a[0] == "discard" for a in st.legal_actions() if isinstance(a, list))
