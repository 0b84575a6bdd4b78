"""Bridges to DDS through endplay (bridge rules: uptown, no jokers).

* downtown is handled by relabelling ranks: downtown order within a suit,
  low to high, K Q J T 9 8 7 6 5 4 3 2 A, is the uptown order of
  2 3 4 5 6 7 8 9 T J Q K A, so K->2, Q->3, ..., 2->K, A->A;
* ``calc_dd_table`` is only used on full 13-card deals (on shorter hands it
  reports values offset by the missing tricks); endings go through
  ``solve_board``, which accepts equal hands of any size and a partly
  played current trick (``Deal.first`` + ``Deal.play``).
"""
from __future__ import annotations

import pytest

pytest.importorskip("endplay")   # a test module that imports these helpers needs DDS

from endplay.dds import calc_dd_table, solve_board  # noqa: E402
from endplay.types import Deal, Denom, Player  # noqa: E402

SUIT_LETTERS = "SHDC"
RANKS_UP = "23456789TJQKA"
DOWN_TO_UP = dict(zip("KQJT98765432A", "23456789TJQKA"))
DENOM = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs,
         None: Denom.nt, "NT": Denom.nt}


def relabel_down(cards):
    """Downtown cards -> uptown cards in the same order (no jokers)."""
    return [c[0] + DOWN_TO_UP[c[1]] for c in cards]


def pbn_hand(cards) -> str:
    groups = []
    for s in SUIT_LETTERS:
        rs = sorted((c[1] for c in cards if c[0] == s), key=lambda r: -RANKS_UP.index(r))
        groups.append("".join(rs))
    return ".".join(groups)


def make_deal(hands, trump, leader) -> Deal:
    """hands: 4 lists of card names (N E S W), equal sizes, no jokers."""
    for h in hands:
        for c in h:
            assert c not in ("JH", "JL"), "DDS knows no jokers"
    pbn = "N:" + " ".join(pbn_hand(h) for h in hands)
    return Deal(pbn, first=Player(leader), trump=DENOM[trump])


def card_name(card) -> str:
    return SUIT_LETTERS[card.suit.value] + card.rank.abbr


def dds_card_values(spot) -> dict:
    """{legal card: tricks the side on turn takes} from DDS for a Spot
    (tests.strategies.Spot), mid-trick positions included.  Downtown spots
    are relabelled; the returned cards carry the spot's own names."""
    hands = [list(h) for h in spot.hands]
    trick = list(spot.trick)
    back = {c: c for h in hands for c in h}
    if spot.ranking == "down":
        back = {u: c for h in hands for c, u in zip(h, relabel_down(h))}
        hands = [relabel_down(h) for h in hands]
        trick = relabel_down(trick)
    # give the cards of the current trick back to the seats that played them
    for i, c in enumerate(trick):
        hands[(spot.leader + i) % 4].append(c)
    deal = make_deal(hands, spot.trump, spot.leader)
    for c in trick:
        deal.play(c)
    assert int(deal.curplayer) == spot.turn
    return {back[card_name(c)]: v for c, v in solve_board(deal)}


def dds_ns_value(spot) -> int:
    vals = dds_card_values(spot)
    best = max(vals.values())
    return best if spot.turn % 2 == 0 else spot.tricks_left - best


def dds_full_table(hands, ranking="up") -> dict:
    """{strain 'S'..'C','NT': {'N'..'W': N-S tricks when that seat leads}}
    for a full 13-card deal."""
    if ranking == "down":
        hands = [relabel_down(h) for h in hands]
    assert all(len(h) == 13 for h in hands)
    table = calc_dd_table(make_deal(hands, None, 0))
    out = {}
    for strain in ("S", "H", "D", "C", "NT"):
        row = {}
        for leader in range(4):
            declarer = (leader + 3) % 4          # the leader is declarer's LHO
            t = table[DENOM[strain], Player(declarer)]
            row["NESW"[leader]] = t if declarer % 2 == 0 else 13 - t
        out[strain] = row
    return out
