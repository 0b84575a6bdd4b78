"""The first target of a table row's first leader (engine.first_guess): an
estimate of N-S's tricks from the top cards and the trumps.  It only decides
where a row's null-window searches start, never a value: the values are
checked against a solver started from the midpoint."""
from __future__ import annotations

import pytest

from whist_solve import Solver
from whist_solve.board import _parse_deal
from whist_solve.cards import Position
from whist_solve.engine import _table_row, first_guess

from support.strategies import random_deal

ALL_TOP = _parse_deal("N:AKQJ.AKQJ.AKQ.AK T987.T987.T96.T9 6543.6543.J87.QJ 2.2.5432.8765432", [])
# N-S hold the ace, two, three and four of every suit (downtown's top four:
# the ace stays on top), E-W the king, queen and jack
LOW_TOP = _parse_deal("N:A532.A32.A32.A32 KQJT9.KQJ.KQJ.KQ 4.7654.7654.7654 876.T98.T98.JT98", [])


def test_the_side_with_every_top_card_and_more_trumps_is_guessed_to_take_all():
    # N-S hold the four top cards of every suit: all the points
    assert first_guess(ALL_TOP, None, "up") == 13
    assert first_guess(ALL_TOP, "S", "up") == 13
    # turned a seat round (E-W hold them), the guess is the least target
    turned = ALL_TOP[3:] + ALL_TOP[:3]
    assert first_guess(turned, None, "up") == 1


def test_downtown_the_low_cards_are_the_top_cards():
    # uptown N-S have 16 of LOW_TOP's 40 points (13 * 16 / 40 = 5.2 tricks)
    assert first_guess(LOW_TOP, None, "up") == 5
    assert first_guess(LOW_TOP, None, "down") == 13


def test_the_trump_length_moves_the_guess():
    hands = random_deal(31)
    nt = first_guess(hands, None, "up")
    for suit in "SHDC":
        ns = sum(c[0] == suit for i in (0, 2) for c in hands[i])
        ew = 13 - ns
        g = first_guess(hands, suit, "up")
        # more N-S trumps than E-W's: not a lower guess than at no-trump
        # (the top-card points are the same but for the order within the suit)
        if ns - ew >= 4:
            assert g >= nt
        if ew - ns >= 4:
            assert g <= nt


def test_jokers_count_nothing_at_no_trump_and_are_top_trumps_in_a_suit():
    # South's clubs 7 and 6 (no top cards) become the two jokers
    hands = LOW_TOP
    jokers = [list(h) for h in hands]
    jokers[2] = [c for c in jokers[2] if c not in ("C7", "C6")] + ["JH", "JL"]
    assert first_guess(jokers, None, "up") == first_guess(hands, None, "up")
    for trump in "SHDC":
        # two more trumps for N-S, and the two top ones
        assert first_guess(jokers, trump, "up") > first_guess(hands, trump, "up")
    with_jokers = random_deal(32, jokers=True)
    assert 1 <= first_guess(with_jokers, None, "up") <= len(with_jokers[0])


@pytest.mark.parametrize("seed,cards", [(40, 13), (41, 7), (42, 3), (43, 1)])
def test_the_guess_is_a_target_a_search_can_ask(seed, cards):
    hands = random_deal(seed, cards=cards)
    for trump in (None, "S", "H", "D", "C"):
        for ranking in ("up", "down"):
            assert 1 <= first_guess(hands, trump, ranking) <= cards


@pytest.mark.parametrize("seed", [50, 51, 52])
def test_a_row_started_from_the_guess_has_the_values_of_one_started_from_the_midpoint(seed):
    hands = random_deal(seed, cards=8)
    for strain, trump in (("NT", None), ("H", "H")):
        for ranking in ("up", "down"):
            row = _table_row(Solver(16), hands, strain, ranking)
            mid = [Solver(16).ns_value(Position.make(hands, trump, ranking, leader))
                   for leader in range(4)]
            assert row == mid
