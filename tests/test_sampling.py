"""Sampling deals from what is known: every consistent deal equally likely
(chi-square against an independent enumeration), repeatable per sample
whatever the order, known cards and the turned-up trump card in place, and
clear errors on inconsistent knowledge."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from support.strategies import DECK52, examples
from whist_solve.cards import WhistError
from whist_solve.constraints import ConstraintError
from whist_solve.sampling import (NoDealError, SamplingError, count_deals, deal_spec,
                                  enumerate_deals, sample_deal, sample_deals)

P_MIN = 0.001
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


def hcp(hand):
    return sum(HCP.get(c[1], 0) for c in hand if c not in ("JH", "JL"))


def all_deals(known, pool, hand_size, kitty=0, preplaced=None):
    """Every completion of ``known`` from ``pool`` (written here, apart from
    the module under test): keys (hands as frozensets, kitty frozenset)."""
    seats = [s for s in range(4) if known[s] is None]
    out = []

    def rec(i, rest, hands):
        if i == len(seats):
            for kit in combinations(rest, kitty):
                out.append((tuple(frozenset(h) for h in hands), frozenset(kit)))
            return
        s = seats[i]
        base = [preplaced[1]] if preplaced and preplaced[0] == s else []
        for ch in combinations(rest, hand_size - len(base)):
            hs = list(hands)
            hs[s] = base + list(ch)
            rest2 = [c for c in rest if c not in ch]
            rec(i + 1, rest2, hs)

    rec(0, list(pool), [list(h) if h is not None else None for h in known])
    return out


def key(deal):
    return (tuple(frozenset(h) for h in deal.hands), frozenset(deal.kitty))


def check_uniform(spec, expected_keys, n, seed=7):
    counts = Counter(key(sample_deal(spec, seed, i)) for i in range(n))
    assert set(counts) <= set(expected_keys), "a sampled deal is not consistent"
    obs = [counts.get(k, 0) for k in expected_keys]
    p = chisquare(obs).pvalue
    assert p > P_MIN, (p, obs)
    # the module's own enumeration agrees with the independent one
    assert {key(d) for d in enumerate_deals(spec)} == set(expected_keys)


def test_uniform_over_all_deals():
    known = [["SA", "S2"], None, None, None]
    pool = ["HA", "HK", "HQ", "DA", "D2", "C3"]
    spec = deal_spec(known, unseen=pool)
    deals = all_deals(known, pool, 2)
    assert len(deals) == 90 == count_deals(spec)
    check_uniform(spec, deals, 4500)


def test_uniform_with_a_constraint():
    known = [["SA", "S2"], None, None, None]
    pool = ["HA", "HK", "HQ", "DA", "D2", "C3"]
    text = "hcp(E) >= 4 and length(W, H) >= 1"
    spec = deal_spec(known, unseen=pool, constraints=[text])
    deals = [d for d in all_deals(known, pool, 2)
             if hcp(d[0][1]) >= 4 and any(c[0] == "H" for c in d[0][3])]
    assert 0 < len(deals) < 90
    check_uniform(spec, deals, 40 * len(deals))


def test_uniform_with_a_kitty():
    known = [["SA", "S2"], None, ["SK", "JH"], None]
    pool = ["HA", "HK", "HQ", "DA", "JL", "C3"]
    spec = deal_spec(known, jokers=True, unseen=pool, kitty=2)
    deals = all_deals(known, pool, 2, kitty=2)
    assert len(deals) == 90
    check_uniform(spec, deals, 4500)


def test_kitty_and_spare_cards_out_of_play():
    # 7 unseen cards, 2 + 2 to E and W, a kitty of 2: one card out of play
    known = [["SA", "S2"], None, ["SK", "JH"], None]
    pool = ["HA", "HK", "HQ", "DA", "JL", "C3", "C2"]
    spec = deal_spec(known, jokers=True, unseen=pool, kitty=2)
    for i in range(50):
        d = sample_deal(spec, 3, i)
        assert len(d.kitty) == 2 and len(d.hands[1]) == len(d.hands[3]) == 2
        used = set(d.kitty) | set(d.hands[1]) | set(d.hands[3])
        assert len(used) == 6 and used <= set(pool)


def test_trump_card_preplaced_uniform():
    # classic whist: W deals, H7 turned up; W's other card and E, S at random
    known = [["SA", "S2"], None, None, None]
    pool = ["HA", "HK", "H7", "DA", "D2", "C3"]
    spec = deal_spec(known, unseen=pool, trump_card="H7", dealer="W")
    deals = all_deals(known, [c for c in pool if c != "H7"], 2, preplaced=(3, "H7"))
    assert len(deals) == 30
    check_uniform(spec, deals, 3000)
    for i in range(100):
        assert "H7" in sample_deal(spec, 1, i).hands[3]


def test_card_placement_is_uniform_on_a_full_deal():
    north = DECK52[0:13]
    spec = deal_spec([north, None, None, None])
    n = 600
    table = Counter()
    for d in sample_deals(spec, 11, range(n)):
        assert sorted(d.hands[0]) == sorted(north)
        assert all(len(h) == 13 for h in d.hands) and not d.kitty
        assert len({c for h in d.hands for c in h}) == 52
        for s in (1, 2, 3):
            for c in d.hands[s]:
                table[c, s] += 1
    obs = [table[c, s] for c in DECK52[13:] for s in (1, 2, 3)]
    assert chisquare(obs).pvalue > P_MIN


def test_same_seed_same_samples_in_any_order():
    spec = deal_spec([DECK52[0:13], None, None, None], constraints=["hcp(E) >= 10"])
    forward = [sample_deal(spec, 42, i) for i in range(20)]
    backward = [sample_deal(spec, 42, i) for i in reversed(range(20))][::-1]
    chunks = list(sample_deals(spec, 42, range(0, 7))) + list(sample_deals(spec, 42, range(7, 20)))
    assert forward == backward == chunks
    assert forward != [sample_deal(spec, 43, i) for i in range(20)]
    assert len({key(d) for d in forward}) == 20
    for d in forward:
        assert hcp(d.hands[1]) >= 10


seat_sets = st.lists(st.booleans(), min_size=4, max_size=4)


@settings(max_examples=examples(60))
@given(st.integers(1, 13), seat_sets, st.integers(0, 10**6), st.randoms(use_true_random=False),
       st.booleans())
def test_known_cards_never_move(n, known_mask, seed, rnd, with_trump):
    deck = list(DECK52)
    rnd.shuffle(deck)
    known = [deck[s * n:(s + 1) * n] if known_mask[s] else None for s in range(4)]
    kw = {}
    dealer = rnd.randrange(4)
    if with_trump:
        kw = {"trump_card": deck[dealer * n], "dealer": dealer}
    unseen = [c for c in deck[:4 * n] if not any(known[s] and c in known[s] for s in range(4))]
    spec = deal_spec(known, n, unseen=unseen, **kw)
    for i in range(3):
        d = sample_deal(spec, seed, i)
        for s in range(4):
            assert len(d.hands[s]) == n
            if known[s] is not None:
                assert sorted(d.hands[s]) == sorted(known[s])
        assert sorted(c for h in d.hands for c in h) == sorted(deck[:4 * n])
        if with_trump:
            assert deck[dealer * n] in d.hands[dealer]


@pytest.mark.parametrize("args,kw,words", [
    ([["SA", "SK"], ["SA", "S2"], None, None], {}, "duplicate card SA"),
    ([["SA", "SK"], ["S3"], None, None], {}, "unequal known hands (N 2, E 1)"),
    ([["SA", "SK"], None, None, None], {"hand_size": 3}, "N holds 2 cards, not 3"),
    ([None, None, None, None], {}, "give the hand size"),
    ([["SA", "SK"], None, None, None], {"unseen": ["SK"]}, "unseen card SK is also in N"),
    ([["SA", "SK"], None, None, None], {"unseen": ["S2", "S2"]}, "duplicate card S2"),
    ([["SA", "SK"], None, None, None], {"unseen": ["S2", "S3"]}, "too few unseen cards"),
    ([["SA", "SK"], None, None, None], {"unseen": list("S2 S3 S4 S5 S6 S7".split()), "kitty": 1},
     "too few unseen cards"),
    ([["SA", "JH"], None, None, None], {}, "joker JH in a game without jokers"),
    ([["SA", "SX"], None, None, None], {}, "unknown card"),
    ([["SA", "SK"], ["H7", "S2"], None, None], {"trump_card": "H7", "dealer": "W"},
     "H7 is in E's hand"),
    ([["SA", "SK"], None, None, None], {"trump_card": "H7", "dealer": "N"},
     "not in the dealer's (N) known hand"),
    ([["SA", "SK"], None, None, None], {"trump_card": "H7"}, "needs the dealer"),
    ([["SA", "SK"], None, None, None], {"trump_card": "H7", "dealer": "W",
                                         "unseen": "S2 S3 S4 S5 S6 S7".split()},
     "neither known nor unseen"),
    ([["SA", "SK"], None, None, None], {"constraints": ["hcp(E) >="]}, "at column"),
])
def test_bad_knowledge(args, kw, words):
    with pytest.raises(WhistError) as ei:
        deal_spec(args, **kw)
    assert words in str(ei.value)
    assert isinstance(ei.value, (SamplingError, ConstraintError))


def test_impossible_constraints_say_how_many_deals_were_tried():
    spec = deal_spec([DECK52[0:13], None, None, None], constraints=["hcp(E) > 37"],
                     max_tries=2000)
    with pytest.raises(NoDealError) as ei:
        sample_deal(spec, 1, 0)
    assert "no deal satisfies the constraints: 0 of 2000 tried" in str(ei.value)
    assert isinstance(ei.value, WhistError)


def test_every_hand_known_is_one_deal():
    hands = [DECK52[13 * s:13 * (s + 1)] for s in range(4)]
    spec = deal_spec(hands)
    assert spec.fixed
    assert {key(sample_deal(spec, 5, i)) for i in range(5)} == {key(sample_deal(spec, 9, 0))}


@pytest.mark.parametrize("kitty", [0, 2])
def test_every_hand_known_tests_its_constraints_once(kitty):
    hands = [DECK52[12 * s:12 * (s + 1)] for s in range(4)]      # the last four cards unseen
    east = hcp(hands[1])
    keep = deal_spec(hands, kitty=kitty, constraints=[f"hcp(E) == {east}"])
    assert sorted(sample_deal(keep, 3, 0).hands[1]) == sorted(hands[1])
    spec = deal_spec(hands, kitty=kitty, constraints=[f"hcp(E) > {east}"], max_tries=10 ** 9)
    with pytest.raises(NoDealError, match="the known hand of E breaks 'hcp\\(E\\) > "):
        sample_deal(spec, 3, 0)              # at once: a billion tries would not end


def test_a_constraint_on_the_known_hands_alone_is_tested_once():
    """A constraint that reads only known hands holds in every deal or in
    none: one test tells, whatever max_tries (before, a broken one cost
    max_tries deals and said '0 of 100000 tried')."""
    west = DECK52[0:13]
    w = hcp(west)
    ok = deal_spec([None, None, None, west], constraints=[f"hcp(W) == {w}", "hcp(E) >= 0"])
    assert sorted(sample_deal(ok, 3, 0).hands[3]) == sorted(west)
    for text, words in ((f"hcp(W) > {w}", f"the known hand of W breaks 'hcp(W) > {w}'"),
                        ("1 > 2", "'1 > 2' reads no hand and is false")):
        spec = deal_spec([None, None, None, west], constraints=["hcp(E) >= 0", text],
                         max_tries=10 ** 9)
        with pytest.raises(NoDealError) as ei:
            sample_deal(spec, 3, 0)          # at once: a billion tries would not end
        assert words in str(ei.value)
    # a constraint on known and unknown hands is still sampled
    spec = deal_spec([None, None, None, west], constraints=[f"hcp(W) + hcp(E) > {w + 37}"],
                     max_tries=50)
    with pytest.raises(NoDealError, match="0 of 50 tried"):
        sample_deal(spec, 3, 0)


def test_shuffle_is_uniform_and_draws_from_the_rng_alone():
    import random
    from whist_solve.sampling import shuffle
    orders = Counter()
    for seed in range(6000):
        cards = ["a", "b", "c"]
        shuffle(cards, random.Random(seed))
        orders[tuple(cards)] += 1
    assert len(orders) == 6
    assert chisquare(list(orders.values())).pvalue > 1e-4
    one, two = list(range(40)), list(range(40))
    shuffle(one, random.Random(5))
    shuffle(two, random.Random(5))
    assert one == two and sorted(one) == list(range(40))


def test_constrained_deals_are_uniform_over_the_deals_that_satisfy():
    """deal --constraint throws away the deals that break the constraints:
    N's spade count given 'spades(N) >= 5' then follows the hypergeometric
    law cut at 5 (exact counts of the hands with k spades), and the other
    seats' cards are untouched by it (S's spades: their law given N's)."""
    import random
    from math import comb
    from whist_solve.constraints import Constraints
    from whist_solve.dealing import random_board
    cons = Constraints(["spades(N) >= 5"])
    rng = random.Random(5)
    n_spades, s_given_5 = Counter(), Counter()
    for i in range(2000):
        lines = random_board(rng, i + 1, "classic", cons.test_unchecked)
        deal = next(ln for ln in lines if ln.startswith("[Deal ")).split('"')[1]
        hands = deal[2:].split()
        k = len(hands[0].split(".")[0])
        n_spades[min(k, 8)] += 1
        if k == 5:
            s_given_5[min(len(hands[2].split(".")[0]), 5)] += 1
    assert min(n_spades) >= 5
    ways = {k: comb(13, k) * comb(39, 13 - k) for k in range(5, 14)}
    law = [ways[k] for k in (5, 6, 7)] + [sum(ways[k] for k in range(8, 14))]
    total = sum(n_spades.values())
    expected = [total * w / sum(law) for w in law]
    assert chisquare([n_spades[k] for k in (5, 6, 7, 8)], expected).pvalue > P_MIN
    # S's spades when N holds 5: 8 spades among S's 13 of the other 39 cards
    law = [comb(8, j) * comb(31, 13 - j) for j in range(5)] + \
        [sum(comb(8, j) * comb(31, 13 - j) for j in range(5, 9))]
    total = sum(s_given_5.values())
    expected = [total * w / sum(law) for w in law]
    obs = [s_given_5[j] for j in range(6)]
    # (bins with few expected deals merged into their neighbour)
    exp2, obs2 = expected[:4] + [expected[4] + expected[5]], obs[:4] + [obs[4] + obs[5]]
    assert chisquare(obs2, exp2).pvalue > P_MIN
