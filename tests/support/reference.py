"""An independent, slow, obviously-correct double-dummy reference.

Written from SPEC §1 only; it deliberately does NOT import ``solver/cards.py``
(nor anything from ``whist_solve``) so that a bug in the rules model or in the
engine shows up as a disagreement with this file.

Rules implemented here (SPEC §1):

* Seats 0..3 = N, E, S, W, clockwise; N-S (0, 2) against E-W (1, 3).
* Follow the suit to follow when you can, otherwise play anything.  The trick
  goes to the highest trump, else to the highest card of the suit to follow.
* Within a suit, low to high: ``up``   2 3 4 5 6 7 8 9 T J Q K A
                              ``down`` K Q J T 9 8 7 6 5 4 3 2 A
* Jokers ``JH`` (big) and ``JL`` (little):
  - with a trump suit both are members of the trump suit, JH > JL > trump
    ace in both rankings; a joker lead is a trump lead; a joker counts as a
    trump for following; a joker on a non-trump lead is a trump (ruff).
  - at no-trump a joker belongs to no suit and never wins; it may be led; the
    first non-joker card of the trick fixes the suit to follow.

The search is plain minimax over every legal card.  The only two
optimisations are (1) the exact value of each position at a trick boundary is
memoised, and (2) inside one trick a textbook fail-soft alpha-beta is used;
every trick-boundary position is always searched with the full window, so the
memo only ever holds exact values.

Public API (card names ``"SA"``, ``"HT"``, ``"JH"``, ``"JL"``; trump
``'S' 'H' 'D' 'C'`` or ``None`` / ``"NT"``; ranking ``'up'`` / ``'down'``):

* ``ref_value(hands, trump, ranking, leader, trick=()) -> int``: tricks N-S
  win from the position on, the current trick included.
* ``ref_card_values(...) -> dict``: for each legal card of the seat on turn,
  the tricks the side on turn takes (current trick included) if it plays it.
* ``ref_replay(...)``: replays a sequence of cards with these rules, raising
  ``IllegalPlay`` on an illegal card, and returns the N-S tricks it produces.
"""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

UP = "23456789TJQKA"
DOWN = "KQJT98765432A"
SUIT_LETTERS = "SHDC"
JOKER_NAMES = ("JH", "JL")


class IllegalPlay(Exception):
    pass


class BadPosition(Exception):
    pass


def norm_trump(trump) -> Optional[str]:
    if trump in (None, "NT", "N", ""):
        return None
    if trump not in ("S", "H", "D", "C"):
        raise BadPosition(f"bad trump {trump!r}")
    return trump


def follow_suit_of(card: str, trump: Optional[str]) -> Optional[str]:
    """The suit a card counts as when following: a joker is a trump in a
    trump contract and of no suit (None) at no-trump."""
    if card in JOKER_NAMES:
        return trump
    return card[0]


def strength(card: str, ranking: str) -> int:
    """Order of a card inside its own suit (only compared between cards of the
    same suit); the jokers are above every rank (they only meet other cards
    as trumps)."""
    if card == "JH":
        return 101
    if card == "JL":
        return 100
    order = UP if ranking == "up" else DOWN
    return order.index(card[1])


def suit_to_follow(trick: Sequence[str], trump: Optional[str]) -> Optional[str]:
    for c in trick:
        s = follow_suit_of(c, trump)
        if s is not None:
            return s
    return None


def legal_plays(hand: Iterable[str], trick: Sequence[str], trump: Optional[str]) -> list:
    hand = sorted(hand)
    s = suit_to_follow(trick, trump)
    if s is None:
        return hand
    same = [c for c in hand if follow_suit_of(c, trump) == s]
    return same if same else hand


def trick_winner(trick: Sequence[str], leader: int, trump: Optional[str], ranking: str) -> int:
    """Seat winning a complete 4-card trick led by ``leader``."""
    assert len(trick) == 4
    if trump is not None:
        ruffs = [i for i, c in enumerate(trick) if follow_suit_of(c, trump) == trump]
        if ruffs:
            best = max(ruffs, key=lambda i: strength(trick[i], ranking))
            return (leader + best) % 4
    s = suit_to_follow(trick, trump)
    assert s is not None, "a complete trick always holds a suit card"
    followers = [i for i, c in enumerate(trick) if follow_suit_of(c, trump) == s]
    best = max(followers, key=lambda i: strength(trick[i], ranking))
    return (leader + best) % 4


def _check(hands, trump, ranking, leader, trick) -> None:
    if ranking not in ("up", "down"):
        raise BadPosition(f"bad ranking {ranking!r}")
    if leader not in (0, 1, 2, 3):
        raise BadPosition(f"bad leader {leader!r}")
    if len(hands) != 4 or len(trick) > 3:
        raise BadPosition("need 4 hands and at most 3 cards in the trick")
    allc = [c for h in hands for c in h] + list(trick)
    if len(allc) != len(set(allc)):
        raise BadPosition("duplicate card")
    for c in allc:
        if not (c in JOKER_NAMES or (len(c) == 2 and c[0] in SUIT_LETTERS and c[1] in UP)):
            raise BadPosition(f"bad card {c!r}")
    sizes = set()
    for seat in range(4):
        played = (seat - leader) % 4 < len(trick)
        sizes.add(len(hands[seat]) + (1 if played else 0))
    if len(sizes) != 1 or sizes == {0}:
        raise BadPosition(f"unequal or empty hands: {[len(h) for h in hands]} trick {trick}")
    # the cards in the trick must have been legal plays
    for i in range(1, len(trick)):
        seat = (leader + i) % 4
        held_before = set(hands[seat]) | {trick[i]}
        if trick[i] not in legal_plays(held_before, trick[:i], trump):
            raise BadPosition(f"illegal card {trick[i]} in the trick")


class RefSearch:
    """Memoised minimax for one (trump, ranking).  Values are N-S tricks."""

    def __init__(self, trump, ranking: str):
        self.trump = norm_trump(trump)
        self.ranking = ranking
        self.memo: dict = {}
        self.nodes = 0

    # exact N-S tricks from a trick boundary
    def boundary(self, hands: tuple, leader: int) -> int:
        if not hands[leader]:
            return 0
        key = (hands, leader)
        v = self.memo.get(key)
        if v is None:
            v = self.in_trick(hands, leader, (), -1, 99)
            self.memo[key] = v
        return v

    # N-S tricks from inside a trick (current trick included); fail-soft
    # alpha-beta: exact when the result lies strictly inside (alpha, beta).
    def in_trick(self, hands: tuple, leader: int, trick: tuple, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not trick and not hands[leader]:
            return 0                     # the deal is over
        if len(trick) == 4:
            w = trick_winner(trick, leader, self.trump, self.ranking)
            return (1 if w % 2 == 0 else 0) + self.boundary(hands, w)
        seat = (leader + len(trick)) % 4
        ns_to_play = seat % 2 == 0
        best = None
        for c in legal_plays(hands[seat], trick, self.trump):
            nh = list(hands)
            nh[seat] = hands[seat] - {c}
            v = self.in_trick(tuple(nh), leader, trick + (c,), alpha, beta)
            if ns_to_play:
                if best is None or v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if best is None or v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def exact(self, hands: tuple, leader: int, trick: tuple) -> int:
        return self.in_trick(hands, leader, trick, -1, 99)


_SEARCHES: dict = {}


def _search(trump, ranking) -> RefSearch:
    key = (norm_trump(trump), ranking)
    s = _SEARCHES.get(key)
    if s is None or len(s.memo) > 500_000:
        s = _SEARCHES[key] = RefSearch(trump, ranking)
    return s


def _prep(hands, trump, ranking, leader, trick):
    trump = norm_trump(trump)
    hands = tuple(frozenset(h) for h in hands)
    trick = tuple(trick)
    _check(hands, trump, ranking, leader, trick)
    return hands, trump, trick


def turn_of(leader: int, trick: Sequence[str]) -> int:
    return (leader + len(trick)) % 4


def tricks_left(hands, leader: int, trick: Sequence[str]) -> int:
    """Tricks still to be completed, the current one included."""
    return len(hands[turn_of(leader, trick)])


def ref_value(hands, trump, ranking, leader, trick=()) -> int:
    """Tricks won by N-S from the position on, the current trick included."""
    hands, trump, trick = _prep(hands, trump, ranking, leader, trick)
    return _search(trump, ranking).exact(hands, leader, trick)


def ref_legal(hands, trump, leader, trick=()) -> list:
    """Legal cards of the seat on turn."""
    return legal_plays(hands[turn_of(leader, trick)], tuple(trick), norm_trump(trump))


def ref_card_values(hands, trump, ranking, leader, trick=()) -> dict:
    """{legal card of the seat on turn: tricks its side takes if it plays it}."""
    hands, trump, trick = _prep(hands, trump, ranking, leader, trick)
    s = _search(trump, ranking)
    seat = turn_of(leader, trick)
    total = len(hands[seat])
    out = {}
    for c in legal_plays(hands[seat], trick, trump):
        nh = list(hands)
        nh[seat] = hands[seat] - {c}
        ns = s.exact(tuple(nh), leader, trick + (c,))
        out[c] = ns if seat % 2 == 0 else total - ns
    return out


def ref_side_value(hands, trump, ranking, leader, trick=()) -> int:
    """Tricks the side on turn takes from here (current trick included)."""
    ns = ref_value(hands, trump, ranking, leader, trick)
    seat = turn_of(leader, trick)
    return ns if seat % 2 == 0 else tricks_left(hands, leader, trick) - ns


def ref_replay(hands, trump, ranking, leader, trick, cards, check_optimal=False) -> int:
    """Play ``cards`` from the position with the reference rules.

    Raises IllegalPlay if a card is not held by the seat on turn or is not a
    legal play, or if the sequence does not finish the deal.  With
    ``check_optimal``, also raises IllegalPlay("not optimal ...") when a card
    changes the double-dummy value (every card of an optimal line keeps it).
    Returns the N-S tricks won by the sequence (current trick included)."""
    hands, trump, trick = _prep(hands, trump, ranking, leader, trick)
    hands = [set(h) for h in hands]
    trick = list(trick)
    ns = 0
    s = _search(trump, ranking)
    target = s.exact(tuple(frozenset(h) for h in hands), leader, tuple(trick)) if check_optimal else None
    for k, c in enumerate(cards):
        seat = (leader + len(trick)) % 4
        if c not in hands[seat]:
            raise IllegalPlay(f"card #{k} {c}: not held by seat {'NESW'[seat]} (on turn)")
        if c not in legal_plays(hands[seat], trick, trump):
            raise IllegalPlay(f"card #{k} {c}: seat {'NESW'[seat]} must follow {suit_to_follow(trick, trump)}")
        hands[seat].discard(c)
        trick.append(c)
        if len(trick) == 4:
            w = trick_winner(trick, leader, trump, ranking)
            if w % 2 == 0:
                ns += 1
            leader, trick = w, []
        if check_optimal:
            rest = s.exact(tuple(frozenset(h) for h in hands), leader, tuple(trick))
            if ns + rest != target:
                raise IllegalPlay(
                    f"card #{k} {c} is not optimal: N-S value {target} becomes {ns + rest}")
    if any(hands) or trick:
        raise IllegalPlay(f"the line stops before the end ({len(cards)} cards)")
    return ns
