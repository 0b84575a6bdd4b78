"""The engine against the independent reference (tests/support/reference.py) on
random endings: the value, the value of every legal card, and the line
(replayed with the reference rules: legal, to the end, every card keeping the
double-dummy value, and producing the value).

One test per family of rules, so that a failure names what is broken:
trump / no-trump, uptown / downtown, jokers with a trump suit / at no-trump,
positions in the middle of a trick.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from whist_solve import Position, Solver, dd_table, solve

from support.reference import legal_plays, ref_value, trick_winner
from support.engine_check import check, to_position
from support.strategies import SUIT_LETTERS, Spot, examples, random_spot, spots

SUITS = ("S", "H", "D", "C")


# ---------------------------------------------------------------- by family of rules

@settings(max_examples=examples(40))
@given(spots(trumps=SUITS, rankings=("up",), jokers="never", max_trick=0))
def test_trump_uptown(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(40))
@given(spots(trumps=(None,), rankings=("up",), jokers="never", max_trick=0))
def test_notrump_uptown(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(30))
@given(spots(trumps=SUITS, rankings=("down",), jokers="never", max_trick=0))
def test_trump_downtown(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(30))
@given(spots(trumps=(None,), rankings=("down",), jokers="never", max_trick=0))
def test_notrump_downtown(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(40))
@given(spots(trumps=SUITS, rankings=("up", "down"), jokers="always", max_trick=0))
def test_jokers_trump(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(40))
@given(spots(trumps=(None,), rankings=("up", "down"), jokers="always", max_trick=0))
def test_jokers_notrump(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(30))
@given(spots(trumps=SUITS + (None,), rankings=("up", "down"), jokers="never", min_trick=1))
def test_mid_trick(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(30))
@given(spots(trumps=SUITS, rankings=("up", "down"), jokers="always", min_trick=1))
def test_mid_trick_jokers_trump(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(30))
@given(spots(trumps=(None,), rankings=("up", "down"), jokers="always", min_trick=1))
def test_mid_trick_jokers_notrump(shared_solver, spot):
    check(shared_solver, spot)


@settings(max_examples=examples(30))
@given(spots())
def test_anything_fresh_solver(spot):
    check(Solver(), spot)


# ---------------------------------------------------------------- reuse of a solver

@settings(max_examples=examples(15))
@given(spots(min_cards=3, max_cards=5), st.randoms(use_true_random=False))
def test_solver_reuse_along_a_playout(spot, rnd):
    """One Solver follows a random (not optimal) play: every step must still
    be right, whatever its table kept from the earlier steps."""
    solver = Solver()
    hands = [list(h) for h in spot.hands]
    leader, trick = spot.leader, list(spot.trick)
    while any(hands):
        cur = Spot(tuple(tuple(h) for h in hands), spot.trump, spot.ranking, leader, tuple(trick))
        check(solver, cur)
        seat = (leader + len(trick)) % 4
        c = rnd.choice(legal_plays(hands[seat], trick, spot.trump))
        hands[seat].remove(c)
        trick.append(c)
        if len(trick) == 4:
            leader, trick = trick_winner(tuple(trick), leader, spot.trump, spot.ranking), []


def test_solver_alternating_contracts():
    """The same cards under different trumps and rankings, one Solver."""
    solver = Solver()
    for seed in range(6):
        base = random_spot(seed, 4, jokers=seed % 2 == 1, trick_cards=0)
        for trump in (None, "S", "H"):
            for ranking in ("up", "down", "up"):
                check(solver, Spot(base.hands, trump, ranking, base.leader, ()))


# ---------------------------------------------------------------- module API

def test_module_solve():
    for seed in range(5):
        spot = random_spot(seed, 4, trump=("S", None)[seed % 2], ranking=("up", "down")[seed // 2 % 2],
                           jokers=seed >= 2)
        r = solve(to_position(spot))
        assert r.ns_tricks == ref_value(*spot.args()), spot.describe()


@settings(max_examples=examples(8))
@given(spots(min_cards=1, max_cards=3, max_trick=0))
def test_dd_table_small(spot):
    table = dd_table([list(h) for h in spot.hands], strains=("S", "H", "D", "C", "NT"),
                     rankings=("up", "down"))
    assert set(table) == {"S", "H", "D", "C", "NT"}
    for strain, by_ranking in table.items():
        assert set(by_ranking) == {"up", "down"}
        for ranking, row in by_ranking.items():
            assert set(row) == set("NESW")
            for leader, seat in enumerate("NESW"):
                want = ref_value(spot.hands, None if strain == "NT" else strain, ranking, leader)
                assert row[seat] == want, f"{strain} {ranking} {seat} leads\n{spot.describe()}"


# ---------------------------------------------------------------- hand-made positions

def test_squeeze():
    hands = [["SA", "SJ", "H3"], ["C2", "C3", "C4"], ["DA", "HQ", "S2"], ["SK", "SQ", "HK"]]
    r = Solver().solve(Position.make(hands, None, "up", 2))
    assert r.tricks == 3 and r.cards == {"DA": 3, "HQ": 1, "S2": 1}
    assert r.line[0] == "DA"


def test_thirteen_cards_one_suit_each():
    hands = [[s + r for r in "23456789TJQKA"] for s in SUIT_LETTERS]
    solver = Solver()
    for leader in range(4):
        assert solver.ns_value(Position.make(hands, "S", "up", leader)) == 13
        assert solver.ns_value(Position.make(hands, "H", "down", leader)) == 0
        assert solver.ns_value(Position.make(hands, None, "up", leader)) == (13 if leader % 2 == 0 else 0)
    r = solver.solve(Position.make(hands, None, "down", 1))
    assert r.tricks == 13 and len(r.line) == 52 and r.ns_tricks == 0


def test_twelve_cards_with_jokers():
    """Bid whist size: 12 cards each from a 54-card deck, seeded."""
    rng = random.Random(7)
    deck = [s + r for s in SUIT_LETTERS for r in "23456789TJQKA"] + ["JH", "JL"]
    rng.shuffle(deck)
    hands = [deck[12 * i:12 * i + 12] for i in range(4)]
    # the reference is too slow for 12 cards: play 8 cards of each hand
    # along the engine's own line, then compare the last 4-card ending.
    for trump, ranking in (("H", "down"), (None, "up")):
        solver = Solver()
        pos = Position.make(hands, trump, ranking, 0)
        r = solver.solve(pos)
        assert len(r.line) == 48
        h = [list(x) for x in hands]
        leader, trick = 0, []
        for c in r.line[:32]:
            seat = (leader + len(trick)) % 4
            assert c in legal_plays(h[seat], trick, trump)
            h[seat].remove(c)
            trick.append(c)
            if len(trick) == 4:
                leader, trick = trick_winner(tuple(trick), leader, trump, ranking), []
        check(solver, Spot(tuple(tuple(x) for x in h), trump, ranking, leader, ()))
