"""Checks of the reference solver itself (tests/support/reference.py).

Hand-made positions whose answers are worked out by hand, a memo-free and
pruning-free brute force on small endings, metamorphic relations (downtown =
uptown with relabelled ranks; jokers in a trump suit = the two top trumps),
and, when endplay is installed, DDS on small endings.  None of this needs the
engine.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings

from support.reference import (BadPosition, IllegalPlay, legal_plays, ref_card_values,
                       ref_legal, ref_replay, ref_side_value, ref_value,
                       trick_winner)
from support import needs_dds
from support.strategies import Spot, examples, jokers_to_top_trumps, spots

N, E, S, W = range(4)


# ---------------------------------------------------------------- the rules

def test_winner_uptown_downtown():
    trick = ("SK", "S2", "H3", "S5")
    assert trick_winner(trick, N, None, "up") == N
    assert trick_winner(trick, N, None, "down") == E      # 2 is high downtown
    assert trick_winner(("SK", "S2", "SA", "S5"), N, None, "down") == S  # ace stays high
    assert trick_winner(("SQ", "SK", "HA", "H3"), W, None, "down") == W  # K lowest: Q beats K
    assert trick_winner(("SQ", "SK", "HA", "H3"), W, None, "up") == N
    assert trick_winner(("SQ", "SK", "HA", "S3"), W, None, "down") == S  # 3 beats Q downtown


def test_winner_trumps():
    assert trick_winner(("SA", "H2", "SK", "SQ"), N, "H", "up") == E
    assert trick_winner(("SA", "H2", "HK", "SQ"), N, "H", "down") == E   # H2 over HK downtown
    assert trick_winner(("SA", "H2", "HA", "SQ"), N, "H", "down") == S


def test_winner_jokers_trump():
    assert trick_winner(("HA", "JL", "S2", "S3"), N, "H", "up") == E
    assert trick_winner(("HA", "JL", "S2", "JH"), N, "H", "up") == W
    assert trick_winner(("JL", "HA", "JH", "H2"), S, "H", "down") == N
    assert trick_winner(("SA", "JL", "S2", "S3"), N, "H", "up") == E      # joker ruffs


def test_winner_jokers_nt():
    assert trick_winner(("JH", "JL", "H2", "H3"), N, None, "up") == W
    assert trick_winner(("JH", "H5", "HA", "S3"), N, None, "up") == S
    assert trick_winner(("H5", "JH", "H2", "S3"), N, None, "up") == N     # joker never wins
    assert trick_winner(("JL", "C2", "JH", "D3"), E, None, "down") == S


def test_legal_jokers_trump():
    # trump S, spade lead: a joker is a trump, must be played if no other trump
    assert legal_plays(["JL", "H5"], ["S2"], "S") == ["JL"]
    assert legal_plays(["JL", "S9", "H5"], ["S2"], "S") == ["JL", "S9"]
    # joker lead is a trump lead
    assert legal_plays(["S4", "H5"], ["JH"], "S") == ["S4"]
    assert legal_plays(["JL", "H5"], ["JH"], "S") == ["JL"]
    # non-trump lead: joker only when void
    assert legal_plays(["JL", "H5"], ["H2"], "S") == ["H5"]
    assert legal_plays(["JL", "D5"], ["H2"], "S") == ["D5", "JL"]


def test_legal_jokers_nt():
    assert legal_plays(["JL", "H5", "S3"], [], None) == ["H5", "JL", "S3"]
    # after a joker lead anything goes ...
    assert legal_plays(["JL", "H5", "S3"], ["JH"], None) == ["H5", "JL", "S3"]
    # ... until the first non-joker card fixes the suit
    assert legal_plays(["JL", "H5", "S3"], ["JH", "S2"], None) == ["S3"]
    assert legal_plays(["JL", "H5"], ["JH", "S2"], None) == ["H5", "JL"]
    assert legal_plays(["JL", "H5"], ["H2"], None) == ["H5"]
    assert legal_plays(["JL", "D5"], ["H2"], None) == ["D5", "JL"]


# ---------------------------------------------------------------- hand-made values

def test_one_card():
    h = [["SA"], ["S2"], ["S3"], ["S4"]]
    assert ref_value(h, None, "up", N) == 1
    assert ref_value(h, None, "down", N) == 1          # ace high both ways
    h = [["SK"], ["S2"], ["H3"], ["S5"]]
    assert ref_value(h, None, "up", N) == 1
    assert ref_value(h, None, "down", N) == 0
    assert ref_value(h, "H", "up", N) == 1             # S ruffs with H3
    assert ref_value(h, "H", "down", E) == 1


def test_one_card_jokers():
    h = [["SA"], ["JL"], ["S2"], ["S3"]]
    assert ref_value(h, "H", "up", N) == 0             # joker ruffs
    assert ref_value(h, None, "up", N) == 1            # NT: joker never wins
    assert ref_value(h, None, "up", E) == 1            # NT joker lead: N's SA wins
    h = [["HA"], ["JL"], ["JH"], ["H2"]]
    assert ref_value(h, "H", "up", N) == 1             # S's JH wins
    assert ref_value(h, "H", "down", W) == 1
    h = [["HA"], ["JL"], ["H3"], ["H2"]]
    assert ref_value(h, "H", "up", N) == 0             # JL beats trump ace


def test_two_card_choice_of_discard():
    # NT, N leads. N: SA SK  E: S2 H2  S: H3 D3  W: HA D4
    # N cashes SA (W must discard: HA or D4), then SK wins too.
    h = [["SA", "SK"], ["S2", "H2"], ["H3", "D3"], ["HA", "D4"]]
    assert ref_value(h, None, "up", N) == 2
    assert ref_card_values(h, None, "up", N) == {"SA": 2, "SK": 2}
    # E on lead: E leads S2 (N wins 2) or H2 (W's HA wins, then W leads D4:
    # S's D3 loses -> E-W 2); E-W take 2 leading H2
    assert ref_card_values(h, None, "up", E) == {"S2": 0, "H2": 2}
    assert ref_value(h, None, "up", E) == 0


def test_simple_squeeze_nt():
    # South leads the squeeze card DA; West guards spades (KQ) and hearts (K).
    hands = [["SA", "SJ", "H3"],          # N
             ["C2", "C3", "C4"],          # E
             ["DA", "HQ", "S2"],          # S
             ["SK", "SQ", "HK"]]          # W
    assert ref_value(hands, None, "up", S) == 3
    vals = ref_card_values(hands, None, "up", S)
    # HQ: W wins HK and leads a spade honour: N's SA is the only N-S trick;
    # S2: W plays an honour, N wins SA, W keeps the other honour and HK
    assert vals == {"DA": 3, "HQ": 1, "S2": 1}
    # the same with East as the victim (N's H3 is an idle discard)
    hands2 = [hands[0], hands[3], hands[2], hands[1]]
    assert ref_value(hands2, None, "up", S) == 3
    # East holding the DA instead: D2 lets E in to run the clubs (0); HQ or
    # S2 as above (1)
    hands3 = [["SA", "SJ", "H3"], ["C2", "C3", "DA"], ["D2", "HQ", "S2"], ["SK", "SQ", "HK"]]
    assert ref_card_values(hands3, None, "up", S) == {"D2": 0, "HQ": 1, "S2": 1}


def test_mid_trick():
    # W led S4, N to play from SA SK / H2 ... NT
    hands = [["SA", "SK", "H2"], ["SQ", "S2", "H3"], ["S3", "HA", "H4"], ["HQ", "H5"]]
    trick = ("S4",)
    vals = ref_card_values(hands, None, "up", W, trick)
    # N wins the spade, cashes the other top spade (E's SQ falls), leads H2 to S's HA: 3
    assert vals == {"SA": 3, "SK": 3}
    assert ref_value(hands, None, "up", W, trick) == 3
    assert ref_side_value(hands, None, "up", W, trick) == 3


def test_replay_and_errors():
    h = [["SA", "SK"], ["S2", "H2"], ["H3", "D3"], ["HA", "D4"]]
    line = ["SA", "S2", "H3", "D4", "SK", "H2", "D3", "HA"]
    assert ref_replay(h, None, "up", N, (), line) == 2
    assert ref_replay(h, None, "up", N, (), line, check_optimal=True) == 2
    with pytest.raises(IllegalPlay):
        ref_replay(h, None, "up", N, (), ["SA", "H2"] + line[2:])       # revoke
    with pytest.raises(IllegalPlay):
        ref_replay(h, None, "up", N, (), line[:6])                       # too short
    with pytest.raises(IllegalPlay):
        ref_replay(h, None, "up", N, (), ["SA", "S2", "D3"] + line[3:])  # not S's card
    with pytest.raises(BadPosition):
        ref_value([["SA"], ["SA"], ["S3"], ["S4"]], None, "up", N)
    with pytest.raises(BadPosition):
        ref_value([["SA", "SK"], ["S2"], ["S3"], ["S4"]], None, "up", N)
    with pytest.raises(BadPosition):   # E played H2 to N's spade lead holding S2
        ref_value([["SA"], ["S2"], ["S3", "S5"], ["S4", "H9"]], None, "up", N, ("SK", "H2"))
    # the same trick is fine when E has no spade left
    assert ref_value([["SA"], ["D2"], ["S3", "S5"], ["S4", "H9"]], None, "up", N, ("SK", "H2")) == 2


# ---------------------------------------------------------------- brute force

def brute(hands, trump, ranking, leader, trick=()):
    """Pure minimax, no memo, no pruning: N-S tricks."""
    hands = [list(h) for h in hands]
    seat = (leader + len(trick)) % 4
    if not hands[seat]:
        return 0
    results = []
    for c in legal_plays(hands[seat], list(trick), trump):
        nh = [list(h) for h in hands]
        nh[seat].remove(c)
        t = tuple(trick) + (c,)
        if len(t) == 4:
            w = trick_winner(t, leader, trump, ranking)
            results.append((w % 2 == 0) + brute(nh, trump, ranking, w, ()))
        else:
            results.append(brute(nh, trump, ranking, leader, t))
    return max(results) if seat % 2 == 0 else min(results)


@settings(max_examples=examples(150))
@given(spots(min_cards=1, max_cards=3))
def test_reference_equals_brute_force(spot: Spot):
    assert ref_value(*spot.args()) == brute(*spot.args())
    vals = ref_card_values(*spot.args())
    assert set(vals) == set(ref_legal(spot.hands, spot.trump, spot.leader, spot.trick))
    assert max(vals.values()) == ref_side_value(*spot.args())


# ---------------------------------------------------------------- metamorphic

UP = "23456789TJQKA"
DOWN_AS_UP = dict(zip("KQJT98765432A", "23456789TJQKA"))


def relabel_down(hands):
    """Downtown deal -> uptown deal with the same order of cards."""
    f = lambda c: c if c in ("JH", "JL") else c[0] + DOWN_AS_UP[c[1]]
    return [[f(c) for c in h] for h in hands]


def test_down_mapping_is_order_preserving():
    order_down = "KQJT98765432A"
    mapped = [DOWN_AS_UP[r] for r in order_down]
    assert "".join(mapped) == UP


@settings(max_examples=examples(60))
@given(spots(min_cards=1, max_cards=4, rankings=("down",), jokers="never"))
def test_down_equals_relabelled_up(spot: Spot):
    up_hands = relabel_down(spot.hands)
    up_trick = relabel_down([spot.trick])[0]
    assert ref_value(*spot.args()) == ref_value(up_hands, spot.trump, "up", spot.leader, up_trick)


@settings(max_examples=examples(60))
@given(spots(min_cards=1, max_cards=4, trumps=("S", "H"), jokers="always"))
def test_jokers_are_top_trumps(spot: Spot):
    order = UP if spot.ranking == "up" else "KQJT98765432A"
    low = {spot.trump + order[0], spot.trump + order[1]}
    all_cards = {c for h in spot.hands for c in h} | set(spot.trick)
    if all_cards & low:
        return
    hands = [jokers_to_top_trumps(h, spot.trump, spot.ranking) for h in spot.hands]
    trick = jokers_to_top_trumps(spot.trick, spot.trump, spot.ranking)
    assert ref_value(*spot.args()) == ref_value(hands, spot.trump, spot.ranking, spot.leader, trick)


# ---------------------------------------------------------------- DDS

@needs_dds
@settings(max_examples=examples(60))
@given(spots(min_cards=2, max_cards=5, rankings=("up",), jokers="never"))
def test_reference_equals_dds(spot: Spot):
    from support.dds_helpers import dds_card_values
    assert ref_card_values(*spot.args()) == dds_card_values(spot)
