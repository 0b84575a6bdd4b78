"""Par (whist_solve.par) against DDS's dealer par through endplay.

(a) Hypothesis over random deals: endplay's table and par for every dealer
    and vulnerability; the score and the list of par contracts (level,
    strain, doubled, declarer seats, over- and undertricks) must be equal;
(b) the table from our own solver (dd_table) gives the same par;
(c) hand-made tables for the rules DDS's par follows (pass-out, the dealer
    breaking a tie, sacrifices) and the scoring helpers.
"""
from __future__ import annotations

import importlib.util
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_solve.par import (Par, ParError, contract_score, down_score, made_score, par,
                             parse_vulnerable)

from support.strategies import examples, random_deal

VULS = ("None", "NS", "EW", "All")
HERE = os.path.dirname(os.path.abspath(__file__))


def _endplay():
    return pytest.importorskip("endplay")


def ep_par(table, vul: str, dealer: int):
    """(score, sorted contracts) from endplay's par, read from the raw DDS
    record (ParList's iterator rewrites the record it reads)."""
    from endplay.dds import par as ep
    from endplay.types import Player, Vul
    vmap = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    denoms = {0: "NT", 1: "S", 2: "H", 3: "D", 4: "C"}
    data = ep(table, vmap[vul], Player(dealer))._data
    out = []
    for i in range(data.number):
        c = data.contracts[i]
        seats = {4: (0, 2), 5: (1, 3)}.get(c.seats, (c.seats,))
        out.append((c.level, denoms[c.denom], c.underTricks > 0, seats,
                    c.overTricks, c.underTricks))
    return data.score, sorted(out)


def ours(p: Par):
    return p.score, sorted((c.level, c.strain, c.doubled, c.seats, c.overtricks, c.undertricks)
                           for c in p.contracts)


def table_from_endplay(tab) -> dict:
    from support.dds_helpers import DENOM
    from endplay.types import Player
    out = {}
    for strain in ("S", "H", "D", "C", "NT"):
        row = {}
        for leader in range(4):
            declarer = (leader + 3) % 4
            t = tab[DENOM[strain], Player(declarer)]
            row["NESW"[leader]] = t if declarer % 2 == 0 else 13 - t
        out[strain] = {"up": row}
    return out


def endplay_table(hands):
    from endplay.dds import calc_dd_table
    from support.dds_helpers import make_deal
    return calc_dd_table(make_deal(hands, None, 0))


@settings(max_examples=examples(12))
@given(st.integers(0, 10 ** 9))
def test_par_equals_endplay_on_random_deals(seed):
    _endplay()
    hands = random_deal(seed)
    tab = endplay_table(hands)
    table = table_from_endplay(tab)
    for dealer in range(4):
        for vul in VULS:
            assert ours(par(table, dealer, vul)) == ep_par(tab, vul, dealer), (seed, dealer, vul)


@pytest.mark.parametrize("seed", [7, 4242])
def test_par_from_our_table(seed):
    """The plumbing from our own solver: dd_table -> par equals DDS's par."""
    _endplay()
    from whist_solve import dd_table
    hands = random_deal(seed)
    tab = endplay_table(hands)
    table = dd_table(hands)
    assert {s: table[s]["up"] for s in table} == {s: v["up"] for s, v in table_from_endplay(tab).items()}
    for dealer in range(4):
        for vul in VULS:
            assert ours(par(table, dealer, vul)) == ep_par(tab, vul, dealer)


def test_par_of_a_real_board():
    """Board 1 of the BridgeComposer export (its OptimumResultTable does not
    belong to its deal): E-W make 13 tricks in diamonds, N-S 10 in hearts;
    not vulnerable, N-S's 7H doubled three down (500) beats 7D (1440)."""
    from whist_solve import dd_table
    from whist_solve.pbn import read_pbn_file
    board = read_pbn_file(os.path.join(HERE, "data", "bridge_export.pbn"))[0]
    p = par(dd_table(board.hands), board.dealer(), board.tags["Vulnerable"])
    assert p.score == -500
    assert [c.name() for c in p.contracts] == ["7HX-NS-3"]
    assert p.text() == "Par -500: 7HX-NS-3"
    assert p.as_json()["contracts"][0] == {
        "level": 7, "strain": "H", "doubled": True, "declarer": ["N", "S"],
        "overtricks": 0, "undertricks": 3, "contract": "7HX-NS-3"}
    if importlib.util.find_spec("endplay") is not None:
        assert ours(p) == ep_par(endplay_table(board.hands), "None", board.dealer())


def flat_table(ns_decl: dict, ew_decl: dict) -> dict:
    """A table from the tricks of each side's declarers: ns_decl[strain] =
    (N's tricks, S's tricks), ew_decl[strain] = (E's, W's); 6 elsewhere."""
    table = {}
    for strain in ("S", "H", "D", "C", "NT"):
        n, s = ns_decl.get(strain, (6, 6))
        e, w = ew_decl.get(strain, (6, 6))
        # leader = declarer's left: N declares -> E leads, etc.
        table[strain] = {"up": {"E": n, "W": s, "S": 13 - e, "N": 13 - w}}
    return table


def test_pass_out():
    p = par(flat_table({}, {}), "N", "None")
    assert p.score == 0 and p.passed_out and p.text() == "Par 0: pass"


def test_dealer_breaks_a_tie():
    """Both sides make exactly 1NT (N and E): the first to bid it gets it."""
    table = flat_table({"NT": (7, 6)}, {"NT": (7, 6)})
    assert ours(par(table, "N", "None")) == (90, [(1, "NT", False, (0,), 0, 0)])
    assert ours(par(table, "E", "None")) == (-90, [(1, "NT", False, (1,), 0, 0)])
    # West deals: W cannot make it, N (after W) can, before E
    assert par(table, "W", "None").score == 90
    # South deals: S and W cannot, N comes before E
    assert par(table, "S", "None").score == 90


def test_sacrifice():
    """N-S make 4S (620 vulnerable); E-W, not vulnerable, go two down in 5D
    doubled (300): the par is the sacrifice, +300 for N-S."""
    table = flat_table({"S": (10, 10)}, {"D": (9, 8)})
    p = par(table, "N", "NS")
    assert p.score == 300
    assert [c.name() for c in p.contracts] == ["5DX-E-2"]
    assert par(table, "N", "All").score == 620 - 620 + 500  # vulnerable E-W: 500 < 620
    assert [c.name() for c in par(table, "N", "All").contracts] == ["5DX-E-2"]
    assert par(table, "N", "EW").score == 420     # 500 > 420: no sacrifice
    assert [c.name() for c in par(table, "N", "EW").contracts] == ["4S-NS"]


def test_overtricks_listed_at_the_lowest_safe_level():
    """N-S take 9 tricks in clubs, nobody else makes anything (110): over
    1C+2 E-W would sacrifice in 1D doubled one down (100), so DDS bids 2C+1;
    with E-W vulnerable (200) 1C+2 is safe."""
    table = flat_table({"C": (9, 9)}, {})
    p = par(table, "N", "None")
    assert p.score == 110
    assert [c.name() for c in p.contracts] == ["2C-NS+1"]
    assert [c.name() for c in par(table, "N", "EW").contracts] == ["1C-NS+2"]


def test_scoring():
    assert made_score(4, "S", False) == 420
    assert made_score(3, "NT", True, tricks=10) == 630
    assert made_score(1, "NT", False, tricks=9) == 150
    assert made_score(6, "NT", True) == 1440
    assert made_score(7, "C", False) == 1440
    assert contract_score(4, "S", 1, False, 10) == 590
    assert contract_score(4, "S", 1, True, 11) == 990
    assert contract_score(2, "C", 1, False, 8) == 180
    assert contract_score(1, "NT", 2, False, 7) == 560
    assert contract_score(3, "NT", 0, True, 7) == -200
    assert [down_score(d, False) for d in range(1, 6)] == [100, 300, 500, 800, 1100]
    assert [down_score(d, True) for d in range(1, 6)] == [200, 500, 800, 1100, 1400]


def test_vulnerability_values():
    assert parse_vulnerable("None") == parse_vulnerable("Love") == parse_vulnerable("-") == (False, False)
    assert parse_vulnerable("NS") == (True, False)
    assert parse_vulnerable("EW") == (False, True)
    assert parse_vulnerable("All") == parse_vulnerable("Both") == (True, True)
    with pytest.raises(ParError):
        parse_vulnerable("sometimes")
