"""Hypothesis strategies and seeded generators for random whist positions.

Independent of ``whist_solve``: the positions are plain data (a ``Spot``),
turned into an engine ``Position`` by the tests themselves.
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Optional

from hypothesis import strategies as st

from .reference import legal_plays, norm_trump

SUIT_LETTERS = "SHDC"
RANKS_UP = "23456789TJQKA"
DECK52 = [s + r for s in SUIT_LETTERS for r in reversed(RANKS_UP)]
JOKERS = ["JH", "JL"]
DECK54 = DECK52 + JOKERS
SEATS = "NESW"

# Multiply every test's example count (WHIST_TEST_SCALE=5 for a long run).
SCALE = float(os.environ.get("WHIST_TEST_SCALE", "1"))


def examples(n: int) -> int:
    return max(1, int(n * SCALE))


@dataclass(frozen=True)
class Spot:
    """A position as plain data: the cards each seat still holds, the
    contract, who led the current trick and the cards played to it."""

    hands: tuple          # 4 tuples of card names (N, E, S, W)
    trump: Optional[str]  # 'S' 'H' 'D' 'C' or None for no-trump
    ranking: str          # 'up' / 'down'
    leader: int
    trick: tuple = ()

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def tricks_left(self) -> int:
        return len(self.hands[self.turn])

    def args(self):
        """(hands, trump, ranking, leader, trick) for the reference."""
        return self.hands, self.trump, self.ranking, self.leader, self.trick

    def describe(self) -> str:
        def fmt(h):
            groups = []
            for s in SUIT_LETTERS:
                rs = sorted((c[1] for c in h if c[0] == s and c not in JOKERS),
                            key=lambda r: -RANKS_UP.index(r))
                groups.append("".join(rs))
            jk = "".join(c[1] for c in JOKERS if c in h)
            return ".".join(groups) + ("." + jk if jk else "")
        deal = "N:" + " ".join(fmt(h) for h in self.hands)
        return (f"[Deal \"{deal}\"] trump={self.trump or 'NT'} ranking={self.ranking} "
                f"leader={SEATS[self.leader]} trick={list(self.trick)}")

    def __repr__(self) -> str:
        return f"Spot({self.describe()})"


def random_trick(draw_index, hands, trump, leader, k):
    """Play k cards legally from ``hands`` (lists), choosing with draw_index(n)."""
    hands = [sorted(h) for h in hands]
    trick = []
    for i in range(k):
        seat = (leader + i) % 4
        legal = legal_plays(hands[seat], trick, trump)
        c = legal[draw_index(len(legal))]
        hands[seat].remove(c)
        trick.append(c)
    return hands, tuple(trick)


@st.composite
def spots(draw, min_cards=1, max_cards=5, trumps=("S", "H", "D", "C", None),
          rankings=("up", "down"), jokers="maybe", max_trick=3, min_trick=0,
          few_suits=True):
    """Random endings: ``n`` cards per hand (``min_cards``..``max_cards``),
    from a 52-card deck or, ``jokers='maybe'``, a 54-card one; ``'always'``
    puts at least one joker in play, ``'never'`` none.  ``few_suits`` lets
    the cards come from two or three suits only (more following, longer
    suits).  ``min_trick``..``max_trick`` cards already played to the current
    trick, legally."""
    n = draw(st.integers(min_cards, max_cards))
    trump = norm_trump(draw(st.sampled_from(trumps)))
    ranking = draw(st.sampled_from(rankings))
    leader = draw(st.integers(0, 3))
    if jokers == "never":
        use_jokers = False
    elif jokers == "always":
        use_jokers = True
    else:
        use_jokers = draw(st.booleans())
    suits = SUIT_LETTERS
    if few_suits and draw(st.integers(0, 2)) == 0:
        k = draw(st.integers(2, 3))
        suits = "".join(draw(st.permutations(list(SUIT_LETTERS)))[:k])
        if len(suits) * 13 + (2 if use_jokers else 0) < 4 * n:
            suits = SUIT_LETTERS
    deck = [c for c in DECK52 if c[0] in suits]
    if use_jokers:
        deck = deck + JOKERS
    order = draw(st.permutations(deck))
    cards = list(order[: 4 * n])
    if jokers == "always" and not any(c in JOKERS for c in cards):
        which = draw(st.sampled_from([["JH"], ["JL"], ["JH", "JL"]]))
        cards = cards[: 4 * n - len(which)] + which
        cards = [cards[i] for i in draw(st.permutations(range(4 * n)))]
    hands = [cards[i * n:(i + 1) * n] for i in range(4)]
    k = draw(st.integers(min_trick, max_trick))
    hands, trick = random_trick(lambda m: draw(st.integers(0, m - 1)), hands, trump, leader, k)
    return Spot(tuple(tuple(h) for h in hands), trump, ranking, leader, trick)


def random_deal(seed: int, jokers: bool = False, cards: int = 13) -> list:
    """A seeded random deal: 4 hands of ``cards`` cards (52- or 54-card deck)."""
    rng = random.Random(seed)
    deck = list(DECK54 if jokers else DECK52)
    rng.shuffle(deck)
    return [sorted(deck[i * cards:(i + 1) * cards]) for i in range(4)]


def random_spot(seed: int, n: int, trump=None, ranking="up", leader=None,
                jokers=False, trick_cards=None) -> Spot:
    """A seeded random ending (not Hypothesis): n cards per hand."""
    rng = random.Random(seed)
    deck = list(DECK54 if jokers else DECK52)
    rng.shuffle(deck)
    hands = [deck[i * n:(i + 1) * n] for i in range(4)]
    leader = rng.randrange(4) if leader is None else leader
    k = rng.randrange(4) if trick_cards is None else trick_cards
    trump = norm_trump(trump)
    hands, trick = random_trick(rng.randrange, hands, trump, leader, k)
    return Spot(tuple(tuple(h) for h in hands), trump, ranking, leader, trick)


def jokers_to_top_trumps(cards, trump: str, ranking: str) -> list:
    """Metamorphic relabelling: with a trump suit the jokers are the two top
    trumps (JH > JL > ace), so a deal in which the two lowest trumps (in
    ``ranking``) are out of play plays exactly like the 52-card deal where
    JH and JL become the top two trumps and every other trump moves two
    steps down in the ranking's order."""
    order = RANKS_UP if ranking == "up" else "KQJT98765432A"
    out = []
    for c in cards:
        if c == "JH":
            out.append(trump + order[12])
        elif c == "JL":
            out.append(trump + order[11])
        elif c[0] == trump:
            i = order.index(c[1])
            assert i >= 2, f"{c}: the two lowest trumps must be out of play"
            out.append(trump + order[i - 2])
        else:
            out.append(c)
    return out


@st.composite
def reduced_deals(draw, max_n=4, max_m=3):
    """(hands, kitty, bidder): n cards each and an m-card kitty, from a deck
    of a few suits (so that the hands interact), jokers usually in."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    jokers = draw(st.booleans()) or draw(st.booleans())
    need = 4 * n + m
    k = max(1, -(-(need - (2 if jokers else 0)) // 13))
    nsuits = draw(st.integers(k, 4))
    suits = draw(st.permutations("SHDC"))[:nsuits]
    deck = [c for c in DECK52 if c[0] in suits] + (list(JOKERS) if jokers else [])
    cards = draw(st.permutations(deck))[:need]
    if jokers and draw(st.booleans()):
        # a joker for the bidder's side often: put one in the kitty
        j = next((c for c in cards if c in JOKERS), None)
        if j is not None and cards.index(j) < 4 * n:
            i, last = cards.index(j), len(cards) - 1
            cards[i], cards[last] = cards[last], cards[i]
    hands = [cards[i * n:(i + 1) * n] for i in range(4)]
    kitty = cards[4 * n:]
    bidder = draw(st.integers(0, 3))
    return hands, kitty, bidder
