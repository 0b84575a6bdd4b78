"""review (whist_solve.review) against the reference minimax and DDS.

(a) Hypothesis: random endings and a random legal play (to the end or
    stopped early): every card's before/after/cost/best equal the
    reference's card values of its position; the values chain from card to
    card (N-S's total for the deal after a card equals it before the next);
    the costs account for the tricks taken;
(b) a real 52-card board with its recorded play: every position's card
    values equal DDS's (endplay), and the text and JSON;
(c) an incomplete play record and an illegal card.
"""
from __future__ import annotations

import importlib.util
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_solve import Position, Solver
from whist_solve.cards import PositionError
from whist_solve.pbn import read_pbn_file
from whist_solve.review import review_board, review_play

from support.reference import legal_plays, ref_card_values, trick_winner
from support.strategies import Spot, examples, spots

HERE = os.path.dirname(os.path.abspath(__file__))
BRIDGE = os.path.join(HERE, "data", "bridge_export.pbn")


def ns_total(review, start: Position):
    """For each card: N-S's tricks for the deal before it and after it
    (tricks won so far + the double-dummy value from the position)."""
    out = []
    pos = start
    for c in review.cards:
        left = pos.tricks_left
        ns_before = c.before if c.seat % 2 == 0 else left - c.before
        ns_after = c.after if c.seat % 2 == 0 else left - c.after
        out.append((pos.ns_tricks + ns_before, pos.ns_tricks + ns_after))
        pos = pos.play(c.card)
    return out


def check_chain(review, start):
    totals = ns_total(review, start)
    for (_, after), (before, _) in zip(totals, totals[1:]):
        assert before == after, "a card's 'after' must be the next card's 'before'"


@st.composite
def played_endings(draw):
    spot = draw(spots(min_cards=1, max_cards=4, max_trick=3))
    hands = [list(h) for h in spot.hands]
    trick = list(spot.trick)
    leader = spot.leader
    cards = []
    total = sum(len(h) for h in hands)
    stop = draw(st.integers(0, total))
    while len(cards) < stop:
        seat = (leader + len(trick)) % 4
        legal = sorted(legal_plays(hands[seat], trick, spot.trump))
        c = legal[draw(st.integers(0, len(legal) - 1))]
        hands[seat].remove(c)
        trick.append(c)
        cards.append(c)
        if len(trick) == 4:
            leader = trick_winner(trick, leader, spot.trump, spot.ranking)
            trick = []
    return spot, cards


@settings(max_examples=examples(150))
@given(case=played_endings())
def test_review_equals_reference(case, shared_solver):
    spot, cards = case
    start = Position.make(spot.hands, spot.trump, spot.ranking, spot.leader, spot.trick)
    review = review_play(start, cards, solver=shared_solver)
    assert [c.card for c in review.cards] == cards
    hands = [set(h) for h in spot.hands]
    trick, leader = list(spot.trick), spot.leader
    for c in review.cards:
        vals = ref_card_values(tuple(frozenset(h) for h in hands), spot.trump, spot.ranking,
                               leader, tuple(trick))
        seat = (leader + len(trick)) % 4
        assert c.seat == seat
        assert c.before == max(vals.values())
        assert c.after == vals[c.card]
        assert c.cost == c.before - c.after >= 0
        assert set(c.best) == {k for k, v in vals.items() if v == c.before}
        hands[seat].discard(c.card)
        trick.append(c.card)
        if len(trick) == 4:
            leader, trick = trick_winner(trick, leader, spot.trump, spot.ranking), []
    check_chain(review, start)
    cost = review.cost
    assert cost == {"NS": sum(c.cost for c in review.cards if c.seat % 2 == 0),
                    "EW": sum(c.cost for c in review.cards if c.seat % 2 == 1)}
    d, o = review.declarer_side, review.defence_side
    # The declarer side ends with its start value, less its own losses,
    # plus the defence's.
    assert review.end_dd_tricks == review.dd_tricks - cost[d] + cost[o]
    if review.complete:
        assert review.played_tricks == review.end_dd_tricks
    else:
        assert review.played_tricks is None


def test_real_board_against_dds():
    """Board 1 (52 cards played): each position's card values equal DDS's."""
    pytest.importorskip("endplay")
    from support.dds_helpers import dds_card_values
    board = read_pbn_file(BRIDGE)[0]
    review = review_board(board, solver=Solver())
    assert len(review.cards) == 52 and review.complete
    start = board.start_position()
    pos = start
    for c in review.cards:
        spot = Spot(tuple(tuple(h) for h in pos.hands), pos.trump, pos.ranking, pos.leader,
                    tuple(pos.trick))
        vals = dds_card_values(spot)
        assert c.before == max(vals.values()), c
        assert c.after == vals[c.card], c
        assert set(c.best) == {k for k, v in vals.items() if v == c.before}
        pos = pos.play(c.card)
    check_chain(review, start)


def test_real_board_verdict_and_json():
    board = read_pbn_file(BRIDGE)[0]
    review = review_board(board)
    assert review.contract == (4, "S", 2) and review.result == 3
    assert review.declarer_side == "NS"
    cost = review.cost
    assert review.played_tricks == review.dd_tricks - cost["NS"] + cost["EW"]
    j = review.as_json()
    assert set(j) >= {"cards", "cost", "dd_tricks", "result", "verdict"}
    assert j["cards"][0] == {"card": "D3", "seat": "W", "trick": 1,
                             "before": review.cards[0].before, "after": review.cards[0].after,
                             "cost": review.cards[0].cost, "best": list(review.cards[0].best)}
    assert j["result"]["tricks"] == 3 and j["dd_tricks"] == review.dd_tricks
    text = review.verdict()
    assert text.startswith("4SX by S: ") and "double-dummy" in text   # (the board is doubled)
    assert text.isascii()
    for c in review.mistakes:
        assert f"at trick {c.trick} ({'NESW'[c.seat]} {c.card})" in text


def test_incomplete_play_is_reviewed_as_far_as_it_goes():
    """Board 2 stops in trick 6 (a claim): 22 cards reviewed."""
    board = read_pbn_file(BRIDGE)[1]
    review = review_board(board)
    assert len(review.cards) == 22
    assert not review.complete and review.played_tricks is None
    assert review.cards[-1].trick == 6
    assert review.result == 9
    check_chain(review, board.start_position())


def test_illegal_card_names_the_trick():
    start = Position.make([["SA", "S2"], ["SK", "H2"], ["SQ", "H3"], ["SJ", "H4"]], None, "up", 0)
    with pytest.raises(PositionError, match="trick 1"):
        review_play(start, ["SA", "H2"])
