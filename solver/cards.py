"""Cards, seats and the rules of play (SPEC §1) as plain Python.

Card names are strings: suit letter then rank (``"SA"``, ``"HT"``, ``"D2"``),
and ``"JH"`` / ``"JL"`` for the big and little joker.  Seats are indices
0..3 for N, E, S, W.  This module is the slow, readable model of the rules:
the parser and the command line validate and replay plays with it; the
Cython engine implements the same rules on bit masks.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Iterable, Optional, Sequence

from .errors import CardError, PositionError, WhistError
from .vocab import (RANKINGS, SEATS, STRAIN_NAMES, STRAINS, SUIT_SYMBOLS, SUITS, seat_index,
                    side_of)

# The errors and the seat, suit and strain words are defined in errors.py and
# vocab.py and can be imported from here too, with the rules that use them.
__all__ = [
    "CardError", "PositionError", "WhistError", "RANKINGS", "SEATS", "STRAINS", "SUIT_SYMBOLS",
    "SUITS", "RANKS", "JOKERS", "seat_index", "side_of", "parse_card", "is_joker", "full_deck",
    "effective_suit", "power", "sort_key", "sort_cards", "led_suit", "legal_cards",
    "trick_winner_offset", "format_hand", "parse_hand", "card_runs", "Position",
]

RANKS = "23456789TJQKA"
JOKERS = ("JH", "JL")

# Order of ranks within a suit, low to high, for each ranking.  The ace
# stays high downtown.
_ORDER = {
    "up": "23456789TJQKA",
    "down": "KQJT98765432A",
}


def parse_card(text: str) -> str:
    """Canonical name of a card written as ``SA``, ``sa``, ``S10``, ``JH``..."""
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    # (without the variation selectors of a suit symbol's emoji form, as
    # phones and emoji pickers write it)
    t = text.replace("\ufe0f", "").replace("\ufe0e", "").strip().upper()
    if t in JOKERS:
        return t
    if t in ("BJ", "BIG", "JB"):
        return "JH"
    if t in ("LJ", "LITTLE"):
        return "JL"
    if len(t) == 2 and t[0] in RANKS and t[1] in SUITS:
        # rank first ("JS" read as the jack of spades, or as "joker small")
        raise CardError(f"unknown card {text!r} (suit first: {t[1]}{t[0]}; the jokers "
                        "are JH and JL)")
    for letter, symbol in SUIT_SYMBOLS.items():
        t = t.replace(symbol, letter)
    if len(t) >= 2 and t[0] in SUITS:
        rank = t[1:]
        if rank == "10":
            rank = "T"
        if len(rank) == 1 and rank in RANKS:
            return t[0] + rank
    raise CardError(f"unknown card {text!r}")


def hand_sizes(hands) -> str:
    """``N 2, E 2, S 1, W 2``: how many cards each hand holds, for the
    messages about unequal hands (a hand that is None, not known, is left
    out)."""
    return ", ".join(f"{SEATS[s]} {len(h)}" for s, h in enumerate(hands) if h is not None)


def is_joker(card: str) -> bool:
    return card in JOKERS


_ALL_CARDS = frozenset([s + r for s in SUITS for r in RANKS] + list(JOKERS))


def full_deck(jokers: bool = False) -> list[str]:
    deck = [s + r for s in SUITS for r in reversed(RANKS)]
    if jokers:
        deck += list(JOKERS)
    return deck


def effective_suit(card: str, trump: Optional[str]) -> str:
    """The suit a card belongs to for following: jokers are trumps in a
    trump contract and belong to no suit ('J') at no-trump."""
    if card in JOKERS:
        return trump if trump else "J"
    return card[0]


def power(card: str, trump: Optional[str], ranking: str) -> int:
    """Rank of a card within its effective suit, higher beats lower.

    0..12 for the thirteen ranks in the order of ``ranking``; 13 for the
    little joker and 14 for the big joker (trump members).  At no-trump the
    jokers get -1: they never win."""
    if card in JOKERS:
        if not trump:
            return -1
        return 14 if card == "JH" else 13
    return _ORDER[ranking].index(card[1])


def sort_key(card: str, ranking: str = "up") -> tuple:
    """Display order: suits S H D C then jokers, high cards first."""
    if card in JOKERS:
        return (4, 0 if card == "JH" else 1)
    return (SUITS.index(card[0]), -power(card, None, ranking))


# sort_key of every card for each ranking, made once (sorting a Deal's
# hands by calling sort_key for each card was most of the time it took to
# read a big PBN file).
_SORT_KEYS = {r: {c: sort_key(c, r) for c in _ALL_CARDS} for r in _ORDER}


def card_runs(cards: Iterable[str], mine: set, others: Optional[set] = None) -> list[list[str]]:
    """The runs of ``mine`` in ``cards`` (one suit, highest first): a card of
    ``mine`` extends the current run, a card of ``others`` (by default any
    card not in ``mine``) ends it, any other card is passed over."""
    runs: list[list[str]] = []
    cur: list[str] = []
    for c in cards:
        if c in mine:
            cur.append(c)
        elif others is None or c in others:
            if cur:
                runs.append(cur)
                cur = []
    if cur:
        runs.append(cur)
    return runs


def sort_cards(cards: Iterable[str], ranking: str = "up") -> list[str]:
    cards = list(cards)     # (an iterator would be used up by a failed first try)
    keys = _SORT_KEYS.get(ranking)
    if keys is not None:
        try:
            return sorted(cards, key=keys.__getitem__)
        except KeyError:        # not a card name: sort_key says what is wrong
            pass
    return sorted(cards, key=lambda c: sort_key(c, ranking))


def led_suit(trick: Sequence[str], trump: Optional[str]) -> Optional[str]:
    """The suit to follow in a trick so far, or None when anything goes
    (no card yet, or only jokers at no-trump)."""
    for c in trick:
        s = effective_suit(c, trump)
        if s != "J":
            return s
    return None


def legal_cards(hand: Iterable[str], trick: Sequence[str], trump: Optional[str]) -> list[str]:
    hand = list(hand)
    suit = led_suit(trick, trump)
    if suit is None:
        return hand
    follow = [c for c in hand if effective_suit(c, trump) == suit]
    return follow if follow else hand


def trick_winner_offset(trick: Sequence[str], trump: Optional[str], ranking: str) -> int:
    """Index (0 = leader) of the card that wins a complete trick."""
    suit = led_suit(trick, trump)
    best, best_key = 0, None
    for i, c in enumerate(trick):
        s = effective_suit(c, trump)
        if trump and s == trump:
            key = (2, power(c, trump, ranking))
        elif s == suit:
            key = (1, power(c, trump, ranking))
        else:
            key = (0, 0)
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


def format_hand(cards: Iterable[str]) -> str:
    """PBN hand ``S.H.D.C`` (ranks high to low, as PBN writes them) with a
    fifth group for jokers when present."""
    cards = set(cards)
    groups = []
    for s in SUITS:
        ranks = [c[1] for c in cards if c not in JOKERS and c[0] == s]
        ranks.sort(key=lambda r: -RANKS.index(r))
        groups.append("".join(ranks))
    jok = "".join(j[1] for j in JOKERS if j in cards)
    text = ".".join(groups)
    if jok:
        text += "." + jok
    return text


# The name of each card, one string object for all the hands that hold it
# (a file of 100,000 deals kept 5.2 million two-letter strings otherwise).
_CARD_NAMES = {s: {r: s + r for r in RANKS} for s in SUITS}


def parse_hand(text: str) -> list[str]:
    """Parse ``S.H.D.C[.JOKERS]`` (ranks in any order and case; ``-`` for
    an empty hand)."""
    if not isinstance(text, str):
        raise CardError(f"not a hand: {text!r}")
    t = text.strip()
    if t in ("-", ""):
        return []
    groups = t.split(".")
    if len(groups) not in (4, 5):
        raise CardError(f"hand {text!r} needs 4 suit groups S.H.D.C (and an optional joker group)")
    cards: list[str] = []
    for s, g in zip(SUITS, groups[:4]):
        g = g.upper().replace("10", "T")
        names = _CARD_NAMES[s]
        for r in g:
            c = names.get(r)
            if c is None:
                hint = (" (jokers go in a fifth group: AK.2..T2.HL)"
                        if r in "HL" and len(groups) == 4 else "")
                raise CardError(f"unknown rank {r!r} in hand {text!r}{hint}")
            cards.append(c)
    if len(groups) == 5:
        for r in groups[4].upper():
            if r == "H":
                cards.append("JH")
            elif r == "L":
                cards.append("JL")
            else:
                raise CardError(f"unknown joker {r!r} in hand {text!r} (use H and/or L)")
    dup = duplicates(cards)
    if dup:
        raise CardError(f"card {dup[0]} appears twice in hand {text!r}")
    return cards


def duplicates(cards: Sequence[str]) -> list:
    """The cards that come more than once in ``cards``, sorted (in time
    linear in their number: a count per card took minutes on a hand of a
    million cards)."""
    if len(set(cards)) == len(cards):
        return []
    return sorted(c for c, n in Counter(cards).items() if n > 1)


@dataclass(frozen=True)
class Position:
    """A position to solve: the cards still held, the contract's trump and
    ranking, who led the current trick and the cards already played to it.

    ``hands`` are the cards each seat still holds (N, E, S, W).  ``trick``
    holds the cards played to the current, unfinished trick, starting with
    ``leader``'s card.  ``ns_tricks``/``ew_tricks`` count the tricks already
    won before this position (they are not part of double-dummy values)."""

    hands: tuple
    trump: Optional[str]
    ranking: str = "up"
    leader: int = 0
    trick: tuple = ()
    ns_tricks: int = 0
    ew_tricks: int = 0

    def __post_init__(self) -> None:
        # hands given as lists or sets (Position(...) called directly, not
        # make) are kept as make keeps them: a tuple of frozensets, so that
        # play() and hashing work; what is not four collections of cards is
        # left for validate() to name
        h = self.hands
        if (isinstance(h, (list, tuple)) and len(h) == 4
                and not all(type(x) is frozenset for x in h)
                and all(isinstance(x, (list, tuple, set, frozenset)) for x in h)):
            object.__setattr__(self, "hands", tuple(frozenset(x) for x in h))
        elif isinstance(h, list):
            object.__setattr__(self, "hands", tuple(h))
        if isinstance(self.trick, list):
            object.__setattr__(self, "trick", tuple(self.trick))

    @staticmethod
    def make(hands: Sequence[Iterable[str]], trump: Optional[str], ranking: str = "up",
             leader: int = 0, trick: Sequence[str] = (), ns_tricks: int = 0,
             ew_tricks: int = 0) -> "Position":
        if trump in ("NT", "N", ""):
            trump = None
        pos = Position(tuple(frozenset(h) for h in hands), trump, ranking, leader,
                       tuple(trick), ns_tricks, ew_tricks)
        pos.validate()
        return pos

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return len(self.hands[self.leader]) + (1 if self.trick else 0)

    def validate(self) -> None:
        try:
            n = len(self.hands)
        except TypeError:
            n = None
        if n != 4:
            raise PositionError(f"four hands (N, E, S, W), not {n if n is not None else self.hands!r}")
        if self.trump not in (None, "S", "H", "D", "C"):
            raise PositionError(f"unknown trump {self.trump!r}")
        if self.ranking not in RANKINGS:
            raise PositionError(f"unknown ranking {self.ranking!r} (up or down)")
        if not (isinstance(self.leader, int) and 0 <= self.leader <= 3):
            raise PositionError("leader must be a seat")
        if len(self.trick) > 3:
            raise PositionError("a trick in progress holds at most 3 cards")
        seen: dict[str, str] = {}
        for c in [c for h in self.hands for c in h] + list(self.trick):
            if c not in _ALL_CARDS:
                raise PositionError(f"unknown card {c!r}")
        for seat, hand in enumerate(self.hands):
            for c in hand:
                if c in seen:
                    raise PositionError(f"duplicate card {c} (held by {seen[c]} and {SEATS[seat]})")
                seen[c] = SEATS[seat]
        for c in self.trick:
            if c in seen:
                raise PositionError(f"duplicate card {c} (played to the trick and held by {seen[c]})")
            seen[c] = "trick"
        # Seats that already played to the current trick hold one card fewer.
        counts = []
        for seat in range(4):
            n = len(self.hands[seat])
            if (seat - self.leader) % 4 < len(self.trick):
                n += 1
            counts.append(n)
        if len(set(counts)) != 1:
            raise PositionError(f"unequal hands ({hand_sizes(self.hands)}) for a trick with "
                                f"{len(self.trick)} card(s) played")
        if counts[0] == 0:
            raise PositionError("no cards left to play")
        if counts[0] > 13:
            raise PositionError(f"hands of {counts[0]} cards (at most 13)")
        # Cards in the trick must have been legal plays.
        for i in range(1, len(self.trick)):
            seat = (self.leader + i) % 4
            played = self.trick[i]
            suit = led_suit(self.trick[:i], self.trump)
            if suit is not None and effective_suit(played, self.trump) != suit:
                held = [c for c in self.hands[seat] if effective_suit(c, self.trump) == suit]
                if held:
                    raise PositionError(
                        f"illegal play {played} by {SEATS[seat]}: must follow {suit} (holds {held[0]})")

    def legal_moves(self) -> list[str]:
        return sort_cards(legal_cards(self.hands[self.turn], self.trick, self.trump), self.ranking)

    def play(self, card: str) -> "Position":
        """The position after the seat on turn plays ``card``."""
        seat = self.turn
        if card not in self.hands[seat]:
            owner = next((SEATS[s] for s in range(4) if card in self.hands[s]), None)
            if owner:
                where = f"it is held by {owner}"
            elif card in self.trick:
                i = self.trick.index(card)
                where = f"{SEATS[(self.leader + i) % 4]} played it to this trick"
            elif card == "JH" and not any(j in h for h in self.hands for j in JOKERS):
                # (JH is the big joker: the jack of hearts is written suit first)
                where = "nobody holds it (no joker is in play; the jack of hearts is HJ)"
            else:
                where = "nobody holds it (played already, or not in this deal)"
            raise PositionError(f"illegal play {card}: {SEATS[seat]} is on turn and {where}")
        if card not in legal_cards(self.hands[seat], self.trick, self.trump):
            suit = led_suit(self.trick, self.trump)
            why = ""
            if self.trick and self.trick[0] in JOKERS and self.trump is not None:
                why = (f" (a joker led is a trump lead: with {suit} trumps the jokers are "
                       f"{STRAIN_NAMES[suit]})")
            raise PositionError(f"illegal play {card} by {SEATS[seat]}: must follow {suit}{why}")
        hands = list(self.hands)
        hands[seat] = hands[seat] - {card}
        trick = self.trick + (card,)
        if len(trick) < 4:
            return replace(self, hands=tuple(hands), trick=trick)
        winner = (self.leader + trick_winner_offset(trick, self.trump, self.ranking)) % 4
        ns, ew = self.ns_tricks, self.ew_tricks
        if winner % 2 == 0:
            ns += 1
        else:
            ew += 1
        return replace(self, hands=tuple(hands), trick=(), leader=winner, ns_tricks=ns, ew_tricks=ew)

    def is_over(self) -> bool:
        return all(len(h) == 0 for h in self.hands)
