"""The check of everything the engine says about a position against the
independent reference: the value, every legal card's value and the line."""
from __future__ import annotations

import pytest

from whist_solve import Position, Solver

from .reference import IllegalPlay, ref_card_values, ref_replay, ref_value
from .strategies import Spot


def to_position(spot: Spot) -> Position:
    return Position.make(hands=[list(h) for h in spot.hands], trump=spot.trump,
                         ranking=spot.ranking, leader=spot.leader, trick=spot.trick)


def check(solver: Solver, spot: Spot) -> None:
    """Everything the engine says about ``spot`` agrees with the reference."""
    where = spot.describe()
    pos = to_position(spot)
    ref_cards = ref_card_values(*spot.args())
    ref_ns = ref_value(*spot.args())
    ref_turn = max(ref_cards.values())
    left = spot.tricks_left
    assert (ref_ns if spot.turn % 2 == 0 else left - ref_ns) == ref_turn   # reference sanity

    r = solver.solve(pos, cards=True, line=True)
    assert r.turn == spot.turn, where
    assert r.ns_tricks == ref_ns, f"N-S value: engine {r.ns_tricks}, reference {ref_ns}\n{where}"
    assert r.tricks == ref_turn, f"value for the side on turn: engine {r.tricks}, reference {ref_turn}\n{where}"
    got = dict(r.cards)
    assert set(got) == set(ref_cards), f"legal cards: engine {sorted(got)}, reference {sorted(ref_cards)}\n{where}"
    bad = {c: (got[c], ref_cards[c]) for c in ref_cards if got[c] != ref_cards[c]}
    assert not bad, f"card values (engine, reference): {bad}\n{where}"
    assert isinstance(r.nodes, int) and r.nodes >= 0

    line = list(r.line)
    assert len(line) == 4 * left - len(spot.trick), f"line of {len(line)} cards: {line}\n{where}"
    try:
        ns = ref_replay(*spot.args(), line, check_optimal=True)
    except IllegalPlay as e:
        pytest.fail(f"bad line {line}: {e}\n{where}")
    assert ns == ref_ns, f"line {line} gives N-S {ns}, value {ref_ns}\n{where}"

    assert solver.ns_value(pos) == ref_ns, f"ns_value\n{where}"
