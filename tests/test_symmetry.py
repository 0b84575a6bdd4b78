"""Symmetric deals (whist_solve/symmetry.py): the symmetries are found, and a
table that reads results off them equals the table searched in full and the
independent reference, on deals built symmetric by turning a hand round the
table with the suits renamed."""
from __future__ import annotations

import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from whist_solve import SEATS, SUITS, Solver, dd_table
from whist_solve.board import _parse_deal
from whist_solve.cards import full_deck
from whist_solve.symmetry import deal_symmetries, image, table_plan

from support.reference import ref_value
from support.strategies import examples

FOUR_VOID = "N:.Q853.AJ962.KT74 Q853.AJ962.KT74. AJ962.KT74..Q853 KT74..Q853.AJ962"
TWO_SUITED = "N:KJ9753..AQT8642. ..KJ9753.AQT8642 .AQT8642..KJ9753 AQT8642.KJ9753.."
RANK_LETTERS = "23456789TJQKA"


def _is_four_cycle(p) -> bool:
    perm = dict(zip(SUITS, p))
    s, seen = "S", []
    for _ in range(4):
        seen.append(s)
        s = perm[s]
    return s == "S" and len(set(seen)) == 4


CYCLES = [p for p in permutations(SUITS) if _is_four_cycle(p)]


def rename(hand, perm):
    return [perm[c[0]] + c[1:] for c in hand]


@st.composite
def turned_deals(draw, max_cards=4):
    """A deal that turns into itself by one seat: North holds one card of
    each of n ranks, each later seat holds the previous seat's hand with the
    suits renamed by a 4-cycle."""
    perm = dict(zip(SUITS, draw(st.sampled_from(CYCLES))))
    n = draw(st.integers(1, max_cards))
    ranks = draw(st.lists(st.sampled_from(RANK_LETTERS), min_size=n, max_size=n, unique=True))
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=n, max_size=n))
    hands = [[s + r for s, r in zip(suits, ranks)]]
    for _ in range(3):
        hands.append(rename(hands[-1], perm))
    return hands, perm


@st.composite
def half_turned_deals(draw, max_cards=4):
    """A deal that turns into itself by two seats (N and S, E and W swap,
    the suits renamed by two swaps): each pair of cards {c, perm(c)} goes
    to one side, one card to each hand of the side."""
    perm = dict(zip(SUITS, ("H", "S", "C", "D")))
    n = draw(st.integers(1, max_cards))
    pairs = [(s + r, perm[s] + r) for r in RANK_LETTERS for s in ("S", "D")]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=2 * n, max_size=2 * n, unique=True))
    hands = [[], [], [], []]
    for i, (a, b) in enumerate(chosen):
        seat = 0 if i < n else 1
        if draw(st.booleans()):
            a, b = b, a
        hands[seat].append(a)
        hands[seat + 2].append(b)
    return hands, perm


def test_the_composed_freak_deals_turn_by_one_seat():
    for deal in (FOUR_VOID, TWO_SUITED):
        found = deal_symmetries(_parse_deal(deal, []))
        assert sorted(r for r, _ in found) == [1, 2, 3]
        search, derived = table_plan(_parse_deal(deal, []), ("S", "H", "D", "C", "NT"), (0, 2, 1, 3))
        # one trump row and one no-trump leader; the 15 others read off them
        assert search == [("S", 0), ("S", 2), ("S", 1), ("S", 3), ("NT", 0)]
        assert len(derived) == 15


def test_random_deals_have_no_symmetry():
    rng = random.Random(5)
    for _ in range(50):
        deck = full_deck(jokers=rng.random() < 0.5)
        rng.shuffle(deck)
        size = len(deck) // 4
        hands = [deck[i * size:(i + 1) * size] for i in range(4)]
        assert deal_symmetries(hands) == []
        assert table_plan(hands, ("NT", "S"))[1] == {}


def test_suits_gone_from_an_ending_swap_names():
    hands = [["SA", "HK"], ["SK", "HA"], ["SQ", "HQ"], ["SJ", "HJ"]]
    assert [(r, p["D"], p["C"], p["S"]) for r, p in deal_symmetries(hands)] == [(0, "C", "D", "S")]
    search, derived = table_plan(hands, ("D", "C"))
    assert {s for s, _ in search} == {"D"} and derived[("C", 3)] == (("D", 3), False)
    assert dd_table(hands, strains=("D", "C")) == dd_table(hands, strains=("D", "C"), symmetry=False)


def test_a_joker_in_a_hand_breaks_a_turn():
    hands = [["SA", "HK"], ["HA", "DK"], ["DA", "CK"], ["CA", "SK"]]
    assert [r for r, _ in deal_symmetries(hands)] == [1, 2, 3]
    with_joker = [h[:] for h in hands]
    with_joker[0][1] = "JH"
    assert deal_symmetries(with_joker) == []


def test_image_swaps_sides_on_an_odd_turn():
    perm = dict(zip(SUITS, ("H", "D", "C", "S")))
    assert image(("S", 0), (1, perm)) == (("H", 1), True)
    assert image(("NT", 3), (2, perm)) == (("NT", 1), False)


@settings(max_examples=examples(30), deadline=None)
@given(turned_deals(), st.sampled_from(["up", "down"]))
def test_a_turned_deal_table_equals_the_full_search_and_the_reference(deal, ranking):
    hands, perm = deal
    assert any(r == 1 and p == perm for r, p in deal_symmetries(hands))
    strains = ("S", "H", "D", "C", "NT")
    table = dd_table(hands, strains=strains, rankings=(ranking,), solver=Solver(4))
    assert table == dd_table(hands, strains=strains, rankings=(ranking,), solver=Solver(4),
                             symmetry=False)
    for strain in strains:
        trump = None if strain == "NT" else strain
        for leader, seat in enumerate(SEATS):
            assert table[strain][ranking][seat] == ref_value(hands, trump, ranking, leader)


@settings(max_examples=examples(20), deadline=None)
@given(half_turned_deals(), st.sampled_from(["up", "down"]), st.sampled_from([1, 2]))
def test_a_half_turned_deal_table_equals_the_full_search(deal, ranking, threads):
    hands, perm = deal
    assert any(r == 2 and p == perm for r, p in deal_symmetries(hands))
    strains = ("NT", "S", "D")
    table = dd_table(hands, strains=strains, rankings=(ranking, "up"), threads=threads)
    assert table == dd_table(hands, strains=strains, rankings=(ranking, "up"), symmetry=False)
    assert list(table) == list(strains) and all(list(table[s][ranking]) == list(SEATS) for s in table)


def test_a_symmetric_table_searches_less():
    perm = dict(zip(SUITS, ("H", "D", "C", "S")))
    hands = [["SA", "SK", "HQ", "DJ", "CT", "S9"]]
    for _ in range(3):
        hands.append(rename(hands[-1], perm))
    assert deal_symmetries(hands)
    full, reduced = Solver(16), Solver(16)
    want = dd_table(hands, solver=full, symmetry=False)
    assert dd_table(hands, solver=reduced) == want
    assert dd_table(hands, threads=2) == want
    assert 0 < reduced.nodes < full.nodes
