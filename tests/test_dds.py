"""The engine against DDS (Bo Haglund's double-dummy solver, through endplay).

DDS plays bridge: uptown, no jokers.  Downtown is checked by relabelling the
ranks (downtown K Q J T 9 8 7 6 5 4 3 2 A, low to high, is the uptown order
of 2 3 4 5 6 7 8 9 T J Q K A; see tests/support/dds_helpers.py).

(a) full tables of seeded random 52-card deals, 5 strains x 4 leaders, uptown;
(b) downtown full tables by relabelling;
(c) endings of 3-8 cards per hand, from the start of a trick or mid-trick:
    the value of every legal card, and the line;
(d) jokers with a trump suit at full size (12 cards each, bid whist): with
    the two lowest trumps in the kitty, JH and JL play exactly like the two
    top trumps of a 52-card deal (the other trumps two steps down), which
    DDS solves.

``WHIST_DDS_DEALS`` sets the number of full deals (default 8 uptown, a third
of that downtown).
"""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings

from whist_solve import Position, Solver, dd_table

from support.dds_helpers import (DOWN_TO_UP, dds_card_values, dds_full_table,
                         dds_ns_value, relabel_down)
from support.reference import IllegalPlay, ref_replay, trick_winner
from support.strategies import (DECK54, Spot, examples, jokers_to_top_trumps,
                        random_deal, spots)

STRAINS = ("S", "H", "D", "C", "NT")
N_DEALS = int(os.environ.get("WHIST_DDS_DEALS", "8"))
UP_SEEDS = [1000 + i for i in range(N_DEALS)]
DOWN_SEEDS = [2000 + i for i in range(max(1, (N_DEALS + 2) // 3))]


def test_down_relabelling_map():
    """K->2, Q->3, J->4, T->5, 9->6, 8->7, 7->8, 6->9, 5->T, 4->J, 3->Q, 2->K, A->A:
    an order-preserving bijection from the downtown order onto the uptown one."""
    assert DOWN_TO_UP == {"K": "2", "Q": "3", "J": "4", "T": "5", "9": "6", "8": "7", "7": "8",
                          "6": "9", "5": "T", "4": "J", "3": "Q", "2": "K", "A": "A"}
    down = "KQJT98765432A"
    assert "".join(DOWN_TO_UP[r] for r in down) == "23456789TJQKA"
    assert relabel_down(["SK", "H2", "DA", "CT"]) == ["S2", "HK", "DA", "C5"]


def test_dds_bridge_sanity():
    """The DDS wrapper itself on a deal whose answers are obvious."""
    hands = [[s + r for r in "23456789TJQKA"] for s in "SHDC"]
    t = dds_full_table(hands)
    assert t["S"] == {"N": 13, "E": 13, "S": 13, "W": 13}
    assert t["H"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert t["NT"] == {"N": 13, "E": 0, "S": 13, "W": 0}


def _opening_lead_check(hands, strain, ranking, leader):
    trump = None if strain == "NT" else strain
    spot = Spot(tuple(tuple(h) for h in hands), trump, ranking, leader, ())
    r = Solver().solve(Position.make(hands, trump, ranking, leader), cards=True, line=False)
    want = dds_card_values(spot)
    assert dict(r.cards) == want, f"{strain} {ranking} {'NESW'[leader]} leads: {spot.describe()}"


@pytest.mark.parametrize("seed,ranking", [(s, "up") for s in UP_SEEDS] + [(s, "down") for s in DOWN_SEEDS])
def test_full_table(seed, ranking):
    hands = random_deal(seed)
    want = dds_full_table(hands, ranking)
    got = dd_table(hands, strains=STRAINS, rankings=(ranking,))
    for strain in STRAINS:
        assert got[strain][ranking] == want[strain], \
            f"seed {seed} {ranking} strain {strain}: engine {got[strain][ranking]}, DDS {want[strain]}"
    # and the value of every opening lead, for one strain and leader
    _opening_lead_check(hands, STRAINS[seed % 5], ranking, seed % 4)


# ---------------------------------------------------------------- endings

def check_ending(solver: Solver, spot: Spot) -> None:
    where = spot.describe()
    pos = Position.make([list(h) for h in spot.hands], spot.trump, spot.ranking, spot.leader, spot.trick)
    want = dds_card_values(spot)
    best = max(want.values())
    ns = best if spot.turn % 2 == 0 else spot.tricks_left - best
    r = solver.solve(pos, cards=True, line=True)
    assert r.tricks == best, f"engine {r.tricks}, DDS {best}\n{where}"
    assert r.ns_tricks == ns, where
    got = dict(r.cards)
    bad = {c: (got.get(c), want.get(c)) for c in set(got) | set(want) if got.get(c) != want.get(c)}
    assert not bad, f"card values (engine, DDS): {bad}\n{where}"
    # the line: legal to the end, achieves the value, every card optimal (by DDS)
    line = list(r.line)
    try:
        assert ref_replay(*spot.args(), line) == ns, f"line {line} does not give N-S {ns}\n{where}"
    except IllegalPlay as e:
        pytest.fail(f"illegal line {line}: {e}\n{where}")
    hands = [list(h) for h in spot.hands]
    leader, trick, won = spot.leader, list(spot.trick), 0
    for k, c in enumerate(line[:-4]):     # the last trick is forced
        seat = (leader + len(trick)) % 4
        hands[seat].remove(c)
        trick.append(c)
        if len(trick) == 4:
            w = trick_winner(tuple(trick), leader, spot.trump, spot.ranking)
            won += w % 2 == 0
            leader, trick = w, []
        rest = Spot(tuple(tuple(h) for h in hands), spot.trump, spot.ranking, leader, tuple(trick))
        assert won + dds_ns_value(rest) == ns, f"card #{k} {c} of line {line} is not optimal\n{where}"


@settings(max_examples=examples(150))
@given(spots(min_cards=3, max_cards=8, rankings=("up",), jokers="never", max_trick=0))
def test_endings_uptown(shared_solver, spot):
    check_ending(shared_solver, spot)


@settings(max_examples=examples(100))
@given(spots(min_cards=3, max_cards=8, rankings=("down",), jokers="never", max_trick=0))
def test_endings_downtown(shared_solver, spot):
    check_ending(shared_solver, spot)


@settings(max_examples=examples(150))
@given(spots(min_cards=3, max_cards=8, rankings=("up", "down"), jokers="never", min_trick=1))
def test_endings_mid_trick(shared_solver, spot):
    check_ending(shared_solver, spot)


# ---------------------------------------------------------------- jokers at full size

BID_CASES = [(3000 + i, trump, ranking) for i, (trump, ranking) in
             enumerate([("S", "up"), ("H", "down"), ("D", "up"), ("C", "down")])]


@pytest.mark.parametrize("seed,trump,ranking", BID_CASES)
def test_bid_whist_jokers_as_top_trumps(seed, trump, ranking):
    import random
    rng = random.Random(seed)
    order = "23456789TJQKA" if ranking == "up" else "KQJT98765432A"
    low = [trump + order[0], trump + order[1]]          # go to the kitty
    deck = [c for c in DECK54 if c not in low]
    rng.shuffle(deck)
    hands = [sorted(deck[12 * i:12 * i + 12]) for i in range(4)]   # 4 more cards in the kitty
    leader = seed % 4
    r = Solver().solve(Position.make(hands, trump, ranking, leader), cards=True, line=False)
    mapped = [jokers_to_top_trumps(h, trump, ranking) for h in hands]
    back = {m: c for h, mh in zip(hands, mapped) for c, m in zip(h, mh)}
    want = dds_card_values(Spot(tuple(tuple(h) for h in mapped), trump, ranking, leader, ()))
    want = {back[m]: v for m, v in want.items()}
    assert dict(r.cards) == want, f"seed {seed} {trump} {ranking} leader {'NESW'[leader]}: {hands}"
