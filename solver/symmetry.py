"""Symmetric deals: table results that follow from others without a search.

The rules know no seat and no suit by name: only the trump suit and who
leads matter.  So when turning the table by ``r`` seats and renaming the
suits by ``perm`` gives back the same deal (every seat's hand, renamed, is
the hand of the seat ``r`` places on), each game of the deal is the same
game as its image: the strain ``t`` with ``L`` leading plays exactly as the
strain ``perm(t)`` (no-trump stays no-trump) with ``L + r`` leading, seat
``x``'s cards in one being seat ``x + r``'s in the other.  The tricks of
N-S in the image are those of N-S in the first game when ``r`` is even, and
those of E-W when it is odd.

Composed deals have such symmetries (bridge-solver's hardest deals, the
four-void deal and the two-suited deal, turn into themselves by one seat),
random deals essentially never; endings where two suits are gone entirely
have one with ``r`` = 0 (the two absent suits swapped).  ``table_plan``
says which (strain, leader) results of a table to search and how to read
the rest off them.

Jokers are not renamed: a deal whose hands hold a joker is symmetric only
with ``r`` = 0.
"""
from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Dict, Iterable, List, Sequence, Tuple

from .cards import JOKERS
from .vocab import SUITS

Symmetry = Tuple[int, Dict[str, str]]          # (seats turned, suit -> suit)
Pair = Tuple[str, int]                          # (strain, leader)


def deal_symmetries(hands: Sequence[Iterable[str]]) -> List[Symmetry]:
    """Every (r, perm) other than doing nothing under which the deal is
    itself: for each seat, its hand renamed by ``perm`` is the hand of the
    seat ``r`` places clockwise."""
    hands = [list(h) for h in hands]
    jokers = [frozenset(c for c in h if c in JOKERS) for h in hands]
    ranks = []                          # seat -> suit -> the ranks it holds there
    for hand in hands:
        by_suit: Dict[str, set] = {suit: set() for suit in SUITS}
        for card in hand:
            if card not in JOKERS:
                by_suit[card[0]].add(card[1:])
        ranks.append({suit: frozenset(x) for suit, x in by_suit.items()})
    found = []
    # with the seats kept (r = 0), only suits with the same cards in every
    # seat (in practice: suits gone from the deal) can swap names
    same_suits = len({tuple(ranks[seat][suit] for seat in range(4)) for suit in SUITS}) < 4
    for r in range(0 if same_suits else 1, 4):
        if any(jokers[seat] != jokers[(seat + r) % 4]
               or Counter(ranks[seat].values()) != Counter(ranks[(seat + r) % 4].values())
               for seat in range(4)):
            continue            # no renaming of the suits can work: quick for random deals
        for image in permutations(SUITS):
            perm = dict(zip(SUITS, image))
            if r == 0 and all(a == b for a, b in perm.items()):
                continue
            if all(ranks[(seat + r) % 4][perm[suit]] == ranks[seat][suit]
                   for seat in range(4) for suit in SUITS):
                found.append((r, perm))
    return found


def image(pair: Pair, symmetry: Symmetry) -> Tuple[Pair, bool]:
    """The (strain, leader) a symmetry takes ``pair`` to, and whether the
    sides change places (r odd: N-S's tricks there are E-W's here)."""
    strain, leader = pair
    r, perm = symmetry
    return (strain if strain == "NT" else perm[strain], (leader + r) % 4), r % 2 == 1


def table_plan(hands: Sequence[Iterable[str]], strains: Sequence[str],
               leaders: Sequence[int] = (0, 1, 2, 3)
               ) -> Tuple[List[Pair], Dict[Pair, Tuple[Pair, bool]]]:
    """Which (strain, leader) pairs of a table to search, in the order given
    (strains, then ``leaders`` within each), and for every other pair the
    searched pair it equals and whether the sides change places.  A pair is
    searched unless an earlier searched pair leads to it, so that whole rows
    are searched where possible (the leaders of a row share their stored
    bounds)."""
    symmetries = deal_symmetries(hands)
    wanted = [(strain, leader) for strain in strains for leader in leaders]
    search: List[Pair] = []
    derived: Dict[Pair, Tuple[Pair, bool]] = {}
    want = set(wanted)
    for pair in wanted:
        if pair in derived:
            continue
        search.append(pair)
        # (the symmetries form a group: every pair of this one's family is
        # reached from it, and none was searched or read off before)
        for sym in symmetries:
            other, swap = image(pair, sym)
            if other in want and other != pair:
                derived.setdefault(other, (pair, swap))
    return search, derived


def fill(values: Dict[Pair, int], derived: Dict[Pair, Tuple[Pair, bool]], tricks: int) -> None:
    """Add to ``values`` (N-S tricks of the searched pairs) those of the
    derived pairs; ``tricks`` is the number of tricks of the deal."""
    for pair, (source, swap) in derived.items():
        v = values[source]
        values[pair] = tricks - v if swap else v
