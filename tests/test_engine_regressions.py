"""Positions that once exposed an engine bug, kept as regression tests and
checked against the independent reference like the random endings."""
from __future__ import annotations

import pytest

from whist_solve import Solver
from whist_solve.dealing import random_hands
from whist_solve.engine import engine_card

from support.engine_check import check
from support.strategies import Spot

CASES = {
    # Trumps are only the two jokers.  South's big joker draws East's little
    # one, but North's entry to South's diamond ace could be ruffed by that
    # joker before it is drawn: the sure-trick count must not assume it.
    "entry ruffed before trumps are drawn": Spot(
        hands=(("DK", "HA", "HK", "HQ", "HT"), ("H3", "H5", "H7", "H8", "JL"),
               ("D8", "DA", "H4", "H9", "JH"), ("D9", "DJ", "DQ", "DT", "H2")),
        trump="S", ranking="down", leader=0, trick=()),
    "jokers as the only trumps, downtown": Spot(
        hands=(("C5", "C7", "CT", "D3", "H8"), ("DT", "H2", "H3", "HT", "JL"),
               ("C2", "DQ", "H7", "H9", "JH"), ("C9", "CQ", "D4", "D8", "HA")),
        trump="S", ranking="down", leader=3, trick=()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_regression(name):
    check(Solver(), CASES[name])


def test_set_hand_is_set_position_with_that_hand():
    """Core.set_hand (the exchange's fast path: one hand replaced, the
    others kept) gives the root set_position gives, searches included."""
    import random

    from whist_solve.cards import full_deck
    from whist_solve.engine import engine_card

    rng = random.Random(11)
    solver = Solver(16)
    for trial in range(30):
        deck = full_deck()
        rng.shuffle(deck)
        n = rng.choice((3, 5, 7))
        hands = [deck[k * n:(k + 1) * n] for k in range(4)]
        trump = rng.choice(("S", "H", None))
        ranking = rng.choice(("up", "down"))
        seat = rng.randrange(4)
        coords = [[engine_card(c, trump, ranking) for c in h] for h in hands]
        core = solver.core_for(trump)
        t = -1 if trump is None else "SHDC".index(trump)
        core.clear()
        core.set_position(coords, t, seat, ())
        want = core.value()
        core.clear()
        others = [list(h) for h in coords]
        others[seat] = []
        core.set_position(others, t, seat, ())
        masks = [0] * 5
        for s, b in coords[seat]:
            masks[s] |= 1 << b
        core.set_hand(seat, masks, seat)
        assert core.value() == want, (trial, hands, trump, ranking, seat)
        assert core.can_take(want) and not core.can_take(want + 1)


@pytest.mark.parametrize("cards, seed", [(8, 1), (9, 0), (11, 1)])
def test_cleared_core_searches_as_a_fresh_one_past_the_generation_wrap(cards, seed):
    """Core.clear moves the cut-off cache to a new generation (one byte,
    1..255: _cutoff.pxd's cut_clear) and wipes it when the counter wraps.
    A search made every 255 clears runs in the same generation each time:
    it must take the nodes of a search on a fresh core, not find the cards
    the last one remembered as if they were its own."""
    hands = random_hands(seed, cards)
    coords = [[engine_card(c, "H", "up") for c in h] for h in hands]

    def search(core):
        core.set_position(coords, 1, 0, ())
        n0 = core.nodes
        v = core.value()
        return v, core.nodes - n0

    fresh_core = Solver(16).core_for("H")
    fresh_core.clear()
    fresh = search(fresh_core)
    assert fresh[1] > 100
    core = Solver(16).core_for("H")
    seen = []
    for i in range(3 * 255):
        core.clear()
        if i % 255 == 0:
            seen.append(search(core))
    assert seen == [fresh] * 3
