"""What is known -> random deals consistent with it, every one equally likely.

A :class:`DealSpec` says what a player knows: the hands that are known
(the others are ``None``), the cards dealt at random to the unknown hands
and the kitty (``unseen``), the kitty's size, the classic-whist turned-up
trump card (seen by all and always in the dealer's hand) and constraints on
the deal (:mod:`whist_solve.constraints`).  :func:`deal_spec` builds and
validates one; :func:`sample_deal` deals sample ``i``.

Repeatable whatever runs it: sample ``i`` of seed ``s`` is dealt by its own
random generator, seeded from ``(s, i)`` through a hash (not Python's salted
``hash``), so the samples do not depend on how they are split into batches,
on their order, or on the number of processes.

Uniform: the unseen cards are shuffled and cut into the unknown hands (and
the kitty); a deal that breaks a constraint is thrown away and dealt again
(rejection), which leaves every consistent deal equally likely.  When
:attr:`DealSpec.max_tries` deals in a row fail the constraints,
:class:`NoDealError` says so.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Iterator, List, Optional, Sequence

from .cards import JOKERS, full_deck, hand_sizes, parse_card
from .errors import WhistError
from .vocab import SEATS, parse_seat
from .constraints import Constraints
from .dealing import MAX_TRIES, shuffle

__all__ = ["DealSpec", "Deal", "SamplingError", "NoDealError", "deal_spec", "sample_deal",
           "sample_deals", "sample_rng", "enumerate_deals", "count_deals", "MAX_TRIES"]

class SamplingError(WhistError):
    """What is known is inconsistent (duplicate cards, wrong counts...)."""


class NoDealError(SamplingError):
    """The constraints accept no deal, or almost none, within the bound."""


@dataclass(frozen=True)
class Deal:
    """One sampled deal: four hands N E S W (card lists) and the kitty."""

    hands: tuple
    kitty: tuple = ()


@dataclass(frozen=True)
class DealSpec:
    """What is known, validated (build it with :func:`deal_spec`).

    ``known``: four entries, a tuple of cards or None (unknown).
    ``pool``: the cards dealt at random (the trump card left out when it is
    pre-placed).  ``needs``: cards each seat gets from the pool (0 for a
    known hand).  ``kitty``: kitty size; ``spare``: cards of the pool left
    out of play (only when ``kitty`` was given and fewer cards are needed).
    ``preplaced``: (seat, card) when the trump card is placed in an unknown
    dealer's hand."""

    known: tuple
    hand_size: int
    pool: tuple
    needs: tuple
    kitty: int
    trump_card: Optional[str] = None
    dealer: Optional[int] = None
    preplaced: Optional[tuple] = None
    constraints: tuple = ()
    max_tries: int = MAX_TRIES

    @property
    def unknown_seats(self) -> tuple:
        return tuple(s for s in range(4) if self.known[s] is None)

    @property
    def fixed(self) -> bool:
        """True when every hand and the kitty are known (one deal only)."""
        return not self.unknown_seats and len(self.pool) == self.kitty

    def describe(self) -> str:
        parts = []
        for s in range(4):
            parts.append(f"{SEATS[s]} {'known' if self.known[s] is not None else 'unknown'}")
        return ", ".join(parts) + f"; {len(self.pool)} unseen cards, kitty {self.kitty}"


def _cards(cards: Iterable[str], where: str) -> List[str]:
    out = []
    for c in cards:
        try:
            out.append(c if c in JOKERS else parse_card(c))
        except WhistError as e:
            raise SamplingError(f"{e} in {where}") from None
    return out


def deal_spec(known: Sequence[Optional[Iterable[str]]], hand_size: Optional[int] = None, *,
              jokers: bool = False, unseen: Optional[Iterable[str]] = None,
              kitty: Optional[int] = None, trump_card: Optional[str] = None,
              dealer=None, constraints: Iterable[str] = (),
              max_tries: int = MAX_TRIES) -> DealSpec:
    """Validate what is known and return a :class:`DealSpec`.

    ``known``: four entries N E S W, each a list of card names or None for
    a hand not known.  ``hand_size``: cards per hand (default: the size of
    the known hands; needed when none is known).  ``jokers``: the deck has
    the two jokers (bid whist, 54 cards).  ``unseen``: the cards dealt at
    random to the unknown hands and the kitty (default: the rest of the
    deck).  ``kitty``: the kitty's size; None gives the kitty every unseen
    card the unknown hands do not get (none in bridge and whist); a number
    takes exactly that many, and the unseen cards left over are out of play
    (a reduced deal).  ``trump_card``/``dealer``: classic whist's turned-up
    card, in the dealer's hand.  ``constraints``: texts (and-ed)."""
    if len(known) != 4:
        raise SamplingError("four hands (N, E, S, W) are needed, None for an unknown one")
    hands: List[Optional[List[str]]] = []
    for s, h in enumerate(known):
        hands.append(None if h is None else _cards(h, f"{SEATS[s]}'s hand"))
    sizes = {len(h) for h in hands if h is not None}
    if hand_size is None:
        if not sizes:
            raise SamplingError("no hand is known: give the hand size")
        if len(sizes) > 1:
            raise SamplingError(f"unequal known hands ({hand_sizes(hands)})")
        hand_size = sizes.pop()
    if not 1 <= hand_size <= 13:
        raise SamplingError(f"hands of {hand_size} cards (1 to 13)")
    for s, h in enumerate(hands):
        if h is not None and len(h) != hand_size:
            raise SamplingError(f"{SEATS[s]} holds {len(h)} cards, not {hand_size}")
    seen = {}
    for s, h in enumerate(hands):
        for c in h or ():
            if c in seen:
                raise SamplingError(f"duplicate card {c} (held by {seen[c]} and {SEATS[s]})"
                                    if seen[c] != SEATS[s] else f"duplicate card {c} in {SEATS[s]}'s hand")
            seen[c] = SEATS[s]
    if not jokers:
        held = [c for c in seen if c in JOKERS]
        if held:
            raise SamplingError(f"joker {held[0]} in a game without jokers")

    dealer_seat = None
    if dealer is not None:
        try:
            dealer_seat = parse_seat(dealer)
        except WhistError:
            raise SamplingError(f"unknown dealer seat {dealer!r}") from None
    tc = None
    if trump_card is not None:
        tc = _cards([trump_card], "the trump card")[0]
        if tc in JOKERS:
            raise SamplingError(f"the turned-up trump card cannot be a joker ({tc})")
        if dealer_seat is None:
            raise SamplingError("a turned-up trump card needs the dealer's seat")
        if tc in seen and seen[tc] != SEATS[dealer_seat]:
            raise SamplingError(f"the turned-up trump card {tc} is in {seen[tc]}'s hand, "
                                f"but it stays in the dealer's ({SEATS[dealer_seat]})")
        if hands[dealer_seat] is not None and tc not in hands[dealer_seat]:
            raise SamplingError(f"the turned-up trump card {tc} is not in the dealer's "
                                f"({SEATS[dealer_seat]}) known hand")

    if unseen is None:
        deck = full_deck(jokers=jokers)
        pool = [c for c in deck if c not in seen]
    else:
        pool = _cards(unseen, "the unseen cards")
        in_pool = set()
        for c in pool:
            if c in seen:
                raise SamplingError(f"unseen card {c} is also in {seen[c]}'s hand")
            if c in in_pool:
                raise SamplingError(f"duplicate card {c} in the unseen cards")
            if c in JOKERS and not jokers:
                raise SamplingError(f"joker {c} in a game without jokers")
            in_pool.add(c)
    preplaced = None
    needs = [0 if h is not None else hand_size for h in hands]
    if tc is not None and hands[dealer_seat] is None:
        if unseen is not None and tc not in pool:
            raise SamplingError(f"the turned-up trump card {tc} is neither known nor unseen")
        pool = [c for c in pool if c != tc]
        preplaced = (dealer_seat, tc)
        needs[dealer_seat] -= 1
    need = sum(needs)
    if kitty is None:
        if len(pool) < need:
            raise SamplingError(f"too few unseen cards: the unknown hands need {need}, "
                                f"{len(pool)} are unseen")
        kitty_size = len(pool) - need
    else:
        if kitty < 0:
            raise SamplingError(f"kitty of {kitty} cards")
        kitty_size = kitty
        if len(pool) < need + kitty_size:
            raise SamplingError(f"too few unseen cards: the unknown hands need {need} and the "
                                f"kitty {kitty_size}, {len(pool)} are unseen")
    texts = tuple(constraints)
    Constraints(texts)                      # raises ConstraintError on a bad one
    if max_tries < 1:
        raise SamplingError("max_tries must be at least 1")
    return DealSpec(known=tuple(None if h is None else tuple(h) for h in hands),
                    hand_size=hand_size, pool=tuple(pool), needs=tuple(needs),
                    kitty=kitty_size, trump_card=tc, dealer=dealer_seat, preplaced=preplaced,
                    constraints=texts, max_tries=max_tries)


# --------------------------------------------------------------------------
# Dealing


def sample_rng(seed, index: int) -> random.Random:
    """The random generator of sample ``index`` of ``seed``: a function of
    both alone (through SHA-256, the same in every process and on every
    machine)."""
    digest = hashlib.sha256(f"whist-solve:{seed}:{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


_COMPILED: dict = {}


def _constraints(texts: tuple) -> Optional[Constraints]:
    if not texts:
        return None
    c = _COMPILED.get(texts)
    if c is None:
        if len(_COMPILED) > 64:
            _COMPILED.clear()
        c = _COMPILED[texts] = Constraints(texts)
    return c


def _layout(spec: DealSpec):
    """(seats that get cards with their counts in dealing order, base hands)."""
    base = [list(h) if h is not None else [] for h in spec.known]
    if spec.preplaced is not None:
        seat, card = spec.preplaced
        base[seat].append(card)
    cuts = [(s, spec.needs[s]) for s in range(4) if spec.needs[s]]
    return cuts, base


def _deal_once(spec: DealSpec, rng: random.Random, cuts, base) -> Deal:
    pool = list(spec.pool)
    shuffle(pool, rng)
    hands = [list(h) for h in base]
    at = 0
    for s, n in cuts:
        hands[s].extend(pool[at:at + n])
        at += n
    kitty = tuple(pool[at:at + spec.kitty])
    return Deal(tuple(hands), kitty)


def sample_deal(spec: DealSpec, seed, index: int) -> Deal:
    """Sample ``index`` of ``seed``: a deal consistent with ``spec``, every
    consistent deal equally likely.  Raises :class:`NoDealError` when
    ``spec.max_tries`` deals in a row break the constraints, or at the
    first such deal when known hands alone break one of them."""
    rng = sample_rng(seed, index)
    cuts, base = _layout(spec)
    cons = _constraints(spec.constraints)
    if cons is None:
        return _deal_once(spec, rng, cuts, base)
    for i in range(spec.max_tries):
        d = _deal_once(spec, rng, cuts, base)
        if cons.test_unchecked(d.hands):
            return d
        if i == 0:
            _known_hands_break(spec, cons, base)
    if index > 0:
        # (an earlier sample found one: the constraints accept some deals)
        raise NoDealError(f"sample {index}: none of {spec.max_tries} deals tried satisfies the "
                          "constraints (they accept almost no deal)")
    raise NoDealError(f"no deal satisfies the constraints: 0 of {spec.max_tries} tried "
                      f"({'; '.join(spec.constraints)})")


def _known_hands_break(spec: DealSpec, cons: Constraints, base) -> None:
    """After a first deal that breaks the constraints: a constraint that
    reads only known hands is the same in every deal, so one test tells
    (before, such a constraint broken cost max_tries deals).  With every
    hand known, a deal that breaks them breaks one of them here."""
    for c in cons.items:
        if all(spec.known[x] is not None for x in c.seats) and not c.test(base):
            if not c.seats:
                why = f"{c.text!r} reads no hand and is false"
            else:
                names = " and ".join(SEATS[x] for x in sorted(c.seats))
                why = (f"the known hand{'s' if len(c.seats) > 1 else ''} of {names} "
                       f"break{'' if len(c.seats) > 1 else 's'} {c.text!r}")
            raise NoDealError(f"no deal satisfies the constraints: {why}")


def sample_deals(spec: DealSpec, seed, indices: Iterable[int]) -> Iterator[Deal]:
    for i in indices:
        yield sample_deal(spec, seed, i)


# --------------------------------------------------------------------------
# Exact enumeration (small positions)


def count_deals(spec: DealSpec) -> int:
    """How many deals are consistent with ``spec`` before the constraints
    (kitty order ignored)."""
    from math import comb
    n = len(spec.pool)
    total = 1
    for s in range(4):
        total *= comb(n, spec.needs[s])
        n -= spec.needs[s]
    return total * comb(n, spec.kitty)


def enumerate_deals(spec: DealSpec, limit: int = 1_000_000) -> Iterator[Deal]:
    """Every deal consistent with ``spec`` and its constraints, once each
    (hands and kitty as sorted tuples).  Refuses more than ``limit``."""
    if count_deals(spec) > limit:
        raise SamplingError(f"{count_deals(spec)} deals: too many to enumerate (limit {limit})")
    cuts, base = _layout(spec)
    cons = _constraints(spec.constraints)

    def rec(k, rest, hands):
        if k == len(cuts):
            for kit in combinations(rest, spec.kitty):
                d = Deal(tuple(tuple(sorted(h)) for h in hands), tuple(sorted(kit)))
                if cons is None or cons.test_unchecked(d.hands):
                    yield d
            return
        s, n = cuts[k]
        for chosen in combinations(rest, n):
            cs = set(chosen)
            hs = list(hands)
            hs[s] = hands[s] + list(chosen)
            yield from rec(k + 1, [c for c in rest if c not in cs], hs)

    yield from rec(0, list(spec.pool), [list(h) for h in base])
