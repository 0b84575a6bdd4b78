"""The keeps of an exchange as the core makes and orders them
(exchange_keeps, _keeps.pxd, through bid._KeepSet), against a plain Python
making of the same keeps from the same choices of each suit: every
combination of one choice a suit that holds n cards, its worth the sum of
the choices' (suit by suit), ordered by worth (highest first) and then by
the cards' names; its masks the engine bits of its cards, its cap that of
its trumps."""
from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings

from support.strategies import examples, reduced_deals

from whist_solve import bid
from whist_solve._engine import exchange_keeps
from whist_solve.bid import ALL_OPTIONS
from whist_solve.dealing import random_deal
from whist_solve.engine import engine_card


def plain_keeps(suits, n):
    """[(worth, cards, the choice of each suit)] in search order."""
    out = []
    for picks in product(*[su.choices for su in suits]):
        if sum(ch[0] for ch in picks) != n:
            continue
        w = 0.0
        for ch in picks:
            w = w + ch[1]
        out.append((w, sum((ch[2] for ch in picks), ()), picks))
    out.sort(key=lambda k: (-k[0], k[1]))
    return out


def check(hands, kitty, bidder, option):
    hands, kitty, bidder = bid._check_deal(hands, kitty, bidder)
    strain, ranking = bid.strain_of(option[0]), bid.parse_ranking(option[1])
    trump = None if strain == "NT" else strain
    n = len(hands[bidder])
    pool = hands[bidder] + kitty
    suits = bid._suits(hands, bidder, pool, strain, ranking)
    losers = bid._trump_losers(hands, bidder, trump, ranking)
    got = bid._KeepSet(suits, n, pool, trump, ranking, losers)
    want = plain_keeps(suits, n)
    assert len(got) == len(want)
    bit = {}
    for c in pool:
        s, b = engine_card(c, trump, ranking)
        bit[c] = (s, 1 << b)
    names = [su.name for su in suits]
    for i, (_w, cards, picks) in enumerate(want):
        assert got.cards(i) == cards
        masks = [0] * 5
        for c in cards:
            masks[bit[c][0]] |= bit[c][1]
        assert list(got.rows[5 * i:5 * i + 5]) == masks
        cap = 255
        if losers is not None:
            cap = n - losers(picks[names.index(trump)][3])
        assert got.caps[i] == cap
    assert got.ceiling() == (n if losers is None else max(got.caps))
    return len(want)


@pytest.mark.parametrize("seed", [1, 6])
def test_keeps_of_full_deals_in_plain_order(seed):
    hands, kitty, bidder = random_deal(seed)
    total = sum(check(hands, kitty, bidder, option) for option in ALL_OPTIONS)
    assert total > 10_000


@settings(max_examples=examples(60), deadline=None)
@given(reduced_deals(max_n=5, max_m=4))
def test_keeps_of_small_deals_in_plain_order(deal):
    hands, kitty, bidder = deal
    for option in ALL_OPTIONS:
        check(hands, kitty, bidder, option)


def test_exchange_keeps_refuses_what_it_cannot_hold():
    from array import array

    one = dict(first=array("H", [0, 1]), size=bytes([1]), worth=array("d", [0.0]),
               key=bytes(16), masks=array("H", [1, 0, 0, 0, 0]), cap=bytes([255]))
    rows, caps, picks = exchange_keeps(1, *one.values())
    assert list(rows) == [1, 0, 0, 0, 0] and list(caps) == [255] and list(picks) == [0]
    rows, caps, picks = exchange_keeps(2, *one.values())      # no keep of two cards
    assert len(caps) == 0
    with pytest.raises(ValueError):
        exchange_keeps(17, *one.values())
    with pytest.raises(ValueError):
        exchange_keeps(1, one["first"], one["size"], one["worth"], bytes(15), one["masks"],
                       one["cap"])
    with pytest.raises(ValueError):
        exchange_keeps(1, array("H", [0, 1, 0]), *list(one.values())[1:])
