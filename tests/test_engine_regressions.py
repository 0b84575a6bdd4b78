"""Positions that once exposed an engine bug, kept as regression tests and
checked against the independent reference like the random endings."""
from __future__ import annotations

import pytest

from whist_solve import Solver

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
