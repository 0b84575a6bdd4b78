"""Bid whist: the bidder's best exchange with the kitty, exactly (SPEC §1).

The bidder holds ``n`` cards and takes an ``m``-card kitty (12 + 6 in the
real game; any smaller ``n`` and ``m`` for analysis), keeps ``n`` of the
``n + m`` cards and discards the rest face down.  The discard counts as the
bidding side's first book; then the ``n`` tricks are played double dummy with
the bidder leading to the first trick.  For a choice of trump (or no-trump)
and ranking, :func:`best_exchange` finds the most books the bidding side can
take over *every* possible discard, and a keep that takes them.

How it avoids solving the C(18, 6) = 18,564 keeps one by one:

* **Equivalent cards.**  For the chosen trump and ranking, cards of the
  bidder's ``n + m`` that are adjacent in the order of their suit (the jokers
  are the top trumps of a trump suit; at no-trump they are interchangeable
  suitless losers), with no card of another hand between them, are
  interchangeable: which of them are kept does not matter, only how many.  A
  keep is a count per run of such cards; one keep per count vector is
  examined (on random 12 + 6 deals 1,500 to 8,000 instead of 18,564).
* **Target-raising null-window.**  A heuristic keep (trumps and top cards,
  short side suits) is solved exactly; its value ``v`` is the target to beat.
  Every other keep, most promising first, is asked only "can the bidding side
  take ``v + 1``?" (``Solver.can_take``).  A yes is solved exactly and raises
  the target.  All keeps of one option share one solver: the transposition
  table's bounds are facts about positions described by suit lengths and the
  owners of the top cards, so keeps that differ in low cards share most of
  their proofs and most refutations cost a few hundred nodes.
* **Bounds.**  The bidding side never takes more than the ``n`` tricks; with
  a trump suit, every trump of an opponent wins its trick unless a higher
  trump of the bidding side falls in the same trick, and each trump of the
  side falls in one trick only: an opponent whose trumps can be matched to
  distinct higher trumps of the side only ``m`` times wins at least his
  trumps less ``m``.  A keep whose trumps leave the opponents ``k`` such
  tricks in one hand takes at most ``n - k``: whole families of keeps are
  set aside without a search, and the search stops as soon as a keep
  reaches the best bound of all keeps.
* **Cheap questions.**  Most keeps are refuted in a few hundred nodes, so
  the cost of putting a keep to the engine counts: the three other hands
  are converted to the engine's coordinates once per option and each keep
  goes straight to the solver's core (:class:`_Probe`).

* **Threads.**  :func:`analyse_bid` solves the trump suits side by side;
  a thread with no option left takes over runs of the keeps of another's
  long option, searching in that option's table (:class:`_KeepWork`),
  with the same answer.

Measured (seeds 0-39 of :func:`random_deal`, all ten options): a perfect
keep order, with the best keep first, would search only 7% fewer nodes; on
the slowest options a 1 GB table searched exactly as many nodes as 256 MB
(before the table's entries were split into lists).
Almost all the work is refuting keeps at the final target.

Bids (SPEC §1): a bid of 1 to 7 promises bid + 6 books; at equal numbers
downtown beats uptown and no-trump beats both.  A no-trump bidder names the
ranking after winning the bid, a suit bidder the trump suit: the ten options
are the four suits uptown and downtown and no-trump uptown and downtown.
"""
from __future__ import annotations

import contextlib
import time
from array import array
from dataclasses import dataclass, field
from itertools import product
from typing import Callable, Iterable, List, Optional, Sequence, Tuple, Union

from .cards import (JOKERS, Position, card_runs, effective_suit, format_hand, hand_sizes,
                    parse_card, power, sort_cards)
from .dealing import random_deal
from ._engine import KEEP_LIMITS, exchange_keeps
from .engine import BID_TT_MB, check_solver, engine_card, grow_solvers
from .errors import WhistError
from .vocab import (BID_KINDS, BOOKS_FOR_LEVEL, RANKINGS, SEATS, STRAINS, SUITS, Contract, bid_kind,
                    bid_name, bid_rank, contract_ascii, contract_name, is_bid, parse_contract, parse_ranking,
                    parse_seat, strain_of)

# The ten choices of the bid winner: (trump 'S' 'H' 'D' 'C' or 'NT', ranking).
ALL_OPTIONS: Tuple[Tuple[str, str], ...] = tuple((t, r) for t in STRAINS for r in RANKINGS)


# --------------------------------------------------------------------------
# Results


class ExchangeStopped(WhistError):
    """:func:`best_exchange` was asked to stop (its ``stop`` returned True)."""


@dataclass
class ExchangeStats:
    """Where the time of one :func:`best_exchange` went."""

    keeps: int = 0            # distinct keeps (count vectors of equivalent cards)
    bounded: int = 0          # keeps set aside by a bound, without a search
    null_window: int = 0      # can_take questions asked
    exact: int = 0            # keeps solved exactly
    raised: int = 0           # times a keep beat the target
    shared: int = 0           # runs of keeps taken over by another thread
    nodes: int = 0            # engine nodes
    seconds: float = 0.0


@dataclass
class Exchange:
    """The best exchange for one option.

    ``books`` counts the discard's book: 1 + ``tricks``, the tricks the
    bidding side takes in the ``n`` tricks with the bidder leading.  ``keep``
    and ``discard`` are card lists (display order)."""

    trump: str                 # 'S', 'H', 'D', 'C' or 'NT'
    ranking: str               # 'up' or 'down'
    books: int
    keep: List[str]
    discard: List[str]
    tricks: int
    bidder: int = 0
    stats: ExchangeStats = field(default_factory=ExchangeStats, repr=False, compare=False)

    @property
    def kind(self) -> str:
        """'uptown', 'downtown' or 'no-trump': what is said at the bidding."""
        return bid_kind(self.trump, self.ranking)

    def as_json(self) -> dict:
        """The option object of ``whist-solve bid --json``."""
        return {"trump": self.trump, "ranking": self.ranking, "books": self.books,
                "keep": format_hand(self.keep), "discard": format_hand(self.discard)}


@dataclass
class CheckResult:
    """Is a contract makeable for the bidder with the best exchange?"""

    level: int
    trump: str
    ranking: str
    makeable: bool
    books: int                 # most books with the best exchange for this trump and ranking
    keep: List[str]
    discard: List[str]
    line: List[str]            # one optimal play of the n tricks with that keep
    bidder: int = 0
    exchange: Optional[Exchange] = field(default=None, repr=False, compare=False)

    @property
    def need(self) -> int:
        return self.level + BOOKS_FOR_LEVEL

    @property
    def contract(self) -> str:
        return contract_name(self.level, self.trump, self.ranking)

    @property
    def contract_ascii(self) -> str:
        """The contract in plain ASCII: ``4S down``, ``5NT``."""
        return contract_ascii(self.level, self.trump, self.ranking)

    @property
    def set_by(self) -> int:
        """Books short of the contract (0 when made)."""
        return max(0, self.need - self.books)

    def score(self, scoring: Optional["Scoring"] = None) -> int:
        """The bidding side's score for the contract with the most books."""
        return bid_score(self.level, self.books, self.trump, scoring, len(self.keep) + 1)


# --------------------------------------------------------------------------
# Bids: names, order, score


def min_level(min_bid_3: bool = False) -> int:
    return 3 if min_bid_3 else 1


def highest_bid(books: int, min_bid_3: bool = False) -> Optional[int]:
    """The highest makeable bid level with ``books`` (books - 6, at most 7),
    or None when even the lowest bid (1, or 3 with the variant) fails."""
    level = min(7, books - BOOKS_FOR_LEVEL)
    return level if level >= min_level(min_bid_3) else None


def bid_score(level: int, books: int, trump: Optional[str] = None,
              scoring: Optional["Scoring"] = None, all_books: Optional[int] = None) -> int:
    """Score of the bidding side (SPEC §1): made, books - 6; set, minus the
    shortfall (bid 7 with 9 books: -4).  With a :class:`Scoring` variant:
    a no-trump bid scores double (made or set), and a made bid that takes
    every book (``all_books``: 13 in the full game) earns the Boston bonus."""
    need = level + BOOKS_FOR_LEVEL
    score = books - BOOKS_FOR_LEVEL if books >= need else books - need
    if scoring is None:
        return score
    if scoring.nt_double and strain_of(trump) == "NT":
        score *= 2
    if scoring.boston and books >= need and all_books is not None and books >= all_books:
        score += scoring.boston
    return score


@dataclass(frozen=True)
class Scoring:
    """The scoring rules in force.  The default is the rule of SPEC §1 (made:
    books - 6; set: minus the shortfall; lowest bid 1).  Variants players
    use: ``nt_double`` (a no-trump bid scores double, made or set),
    ``boston`` (bonus points for a Boston: a made bid that takes every
    book, 13 in the full game), ``min_bid_3`` (the lowest bid is 3)."""

    nt_double: bool = False
    boston: int = 0
    min_bid_3: bool = False

    def describe(self) -> str:
        """One line for people: ``"scoring: made books - 6, set minus the
        shortfall"`` and the variants in force (``"; no-trump double;
        Boston +5"``)."""
        parts = ["made books - 6, set minus the shortfall"]
        if self.nt_double:
            parts.append("no-trump double")
        if self.boston:
            parts.append(f"Boston +{self.boston}")
        if self.min_bid_3:
            parts.append("lowest bid 3")
        return "scoring: " + "; ".join(parts)

    def as_json(self) -> dict:
        return {"nt_double": self.nt_double, "boston": self.boston,
                "min_bid": min_level(self.min_bid_3)}


def option_key(ex: Exchange) -> tuple:
    """Sort key of the best option: the most books, then the higher bid."""
    return (ex.books, BID_KINDS.index(ex.kind))


def _options(exchanges) -> list:
    """The exchanges given to best_option or summarize, checked: a list of
    Exchange (what analyse_bid returns)."""
    if isinstance(exchanges, (str, bytes, Exchange)):
        raise TypeError(f"expected a sequence of Exchange, not {type(exchanges).__name__}")
    exchanges = list(exchanges)
    for ex in exchanges:
        if not isinstance(ex, Exchange):
            raise TypeError(f"expected a sequence of Exchange, holding {type(ex).__name__}")
    return exchanges


def best_option(exchanges: Sequence[Exchange]) -> Exchange:
    """The option with the most books; the higher bid wins ties (no-trump
    over downtown over uptown; among equals, the first in the list)."""
    best = None
    for ex in _options(exchanges):
        if best is None or option_key(ex) > option_key(best):
            best = ex
    if best is None:
        raise ValueError("no options")
    return best


@dataclass
class BidSummary:
    """The best option and what it is worth at the table."""

    best: Exchange
    level: Optional[int]          # highest makeable bid, None if none
    name: Optional[str]           # "5 downtown in spades"
    contract: Optional[str]       # "5S↓"
    score: int                    # made: books - 6 (and the variants'); if
                                  # nothing is makeable, the (negative) score
                                  # of the lowest bid
    scoring: Scoring = field(default_factory=Scoring)

    @property
    def rank(self) -> Optional[int]:
        """The bid's place in the auction (:func:`bid_rank`), None if none."""
        if self.level is None:
            return None
        return bid_rank(self.level, self.best.trump, self.best.ranking)


def option_score(ex: Exchange, scoring: Scoring, all_books: Optional[int] = None) -> int:
    """What an option is worth under ``scoring``: the score of its highest
    makeable bid, or of the lowest bid when none is makeable."""
    level = highest_bid(ex.books, scoring.min_bid_3)
    if level is None:
        level = min_level(scoring.min_bid_3)
    return bid_score(level, ex.books, ex.trump, scoring, all_books)


def summarize(exchanges: Sequence[Exchange], min_bid_3: bool = False,
              scoring: Optional[Scoring] = None) -> BidSummary:
    """The best option and its highest makeable bid.  Under the default rule
    the best option has the most books (the higher bid wins ties); under a
    scoring variant, the best score first, then the most books, then the
    higher bid."""
    if scoring is None:
        scoring = Scoring(min_bid_3=min_bid_3)
    min_bid_3 = scoring.min_bid_3
    exchanges = _options(exchanges)
    all_books = _all_books(exchanges)
    best = None
    for ex in exchanges:
        key = (option_score(ex, scoring, all_books),) + option_key(ex)
        if best is None or key > best[0]:
            best = (key, ex)
    if best is None:
        raise ValueError("no options")
    best = best[1]
    level = highest_bid(best.books, min_bid_3)
    if level is None:
        return BidSummary(best, None, None, None,
                          bid_score(min_level(min_bid_3), best.books, best.trump, scoring, all_books),
                          scoring)
    return BidSummary(best, level, bid_name(level, best.trump, best.ranking),
                      contract_name(level, best.trump, best.ranking),
                      bid_score(level, best.books, best.trump, scoring, all_books), scoring)


def _all_books(exchanges: Sequence[Exchange]) -> Optional[int]:
    """Every book of the deal: the n tricks and the discard's book."""
    for ex in exchanges:
        return len(ex.keep) + 1
    return None


@dataclass
class SeatAnalysis:
    """One seat of :func:`analyse_auction`: its ten options and summary."""

    seat: int
    exchanges: List[Exchange]
    summary: BidSummary


@dataclass
class AuctionAnalysis:
    """Who should win the auction: each seat as the bidder, and the seat
    whose highest makeable bid is the highest.  Equal bids go to the seat
    that speaks first (the bidding starts at the dealer's left; N first
    without a dealer, as if W dealt).

    When no seat can make the lowest bid, the first three pass and the
    dealer must bid: the winner is the dealer, and ``forced`` its bid, the
    lowest level of its best option (``forced.score``: what it loses)."""

    seats: List[SeatAnalysis]
    winner: Optional[int]
    forced: Optional[BidSummary] = None


def analyse_auction(hands: Sequence[Iterable[str]], kitty: Iterable[str],
                    scoring: Optional[Scoring] = None, dealer: Optional[int] = None,
                    solver=None, threads: int = 1, tt_mb: float = BID_TT_MB) -> AuctionAnalysis:
    """:func:`analyse_bid` and :func:`summarize` for each of the four seats
    as the bidder, and the seat that should win the auction (``threads``,
    ``tt_mb``: as for :func:`analyse_bid`)."""
    from .engine import Solver

    scoring = scoring if scoring is not None else Scoring()
    solver = solver if solver is not None else Solver(tt_mb)
    hands = [list(h) for h in hands]
    kitty = list(kitty)
    seats = []
    for seat in range(4):
        exs = analyse_bid(hands, kitty, seat, solver=solver, threads=threads, tt_mb=tt_mb)
        seats.append(SeatAnalysis(seat, exs, summarize(exs, scoring=scoring)))
    first = 0 if dealer is None else (dealer + 1) % 4
    winner = None
    for k in range(4):
        sa = seats[(first + k) % 4]
        if sa.summary.rank is None:
            continue
        if winner is None or sa.summary.rank > seats[winner].summary.rank:
            winner = sa.seat
    if winner is not None:
        return AuctionAnalysis(seats, winner)
    # the first three pass: the dealer (the last to speak) must bid
    winner = (first + 3) % 4
    s = seats[winner].summary
    level = min_level(scoring.min_bid_3)
    forced = BidSummary(s.best, level, bid_name(level, s.best.trump, s.best.ranking),
                        contract_name(level, s.best.trump, s.best.ranking), s.score, scoring)
    return AuctionAnalysis(seats, winner, forced)


# --------------------------------------------------------------------------
# Input


def _seat(bidder: Union[int, str]) -> int:
    """The bidder's seat from an index, a letter or a name (not any word
    that starts like one: ``None`` or ``"Sideways"`` is no seat)."""
    try:
        return parse_seat(bidder)
    except WhistError:
        raise WhistError(f"unknown bidder seat {bidder!r} (N, E, S or W)") from None


def _cards(cards: Iterable[str]) -> List[str]:
    return [c if c in JOKERS else parse_card(c) for c in cards]


def _check_deal(hands, kitty, bidder) -> Tuple[List[List[str]], List[str], int]:
    if len(hands) != 4:
        raise WhistError("a deal needs four hands")
    hands = [_cards(h) for h in hands]
    kitty = _cards(kitty)
    bidder = _seat(bidder)
    n = len(hands[0])
    if any(len(h) != n for h in hands):
        raise WhistError(f"unequal hands ({hand_sizes(hands)})")
    if not 1 <= n <= 13:
        raise WhistError(f"hands of {n} cards (1 to 13)")
    seen = {}
    for where, cards in [(SEATS[s], hands[s]) for s in range(4)] + [("the kitty", kitty)]:
        for c in cards:
            if c in seen:
                raise WhistError(f"duplicate card {c} (in {seen[c]} and {where})"
                                 if seen[c] != where else f"duplicate card {c} in {where}")
            seen[c] = where
    return hands, kitty, bidder


# --------------------------------------------------------------------------
# The optimizer


class _Suit:
    """The bidder's choices in one suit: every combination of counts of its
    runs, with the cards kept, a heuristic worth and their powers."""

    __slots__ = ("name", "choices")

    def __init__(self, name: str, choices: list):
        self.name = name
        self.choices = choices      # [(size, worth, cards tuple, powers of the cards kept)]


def _worth(kept: Sequence[str], s: str, is_trump: bool, nt: bool, above: dict) -> float:
    """A rough count of the tricks the kept cards of one suit bring (used
    only to order the search: the result never depends on it).  ``kept`` is
    highest first; ``above[c]`` counts the opponents' cards above c."""
    if s == "J":                       # jokers at no-trump: sure losers
        return -0.6 * len(kept)
    k = len(kept)
    w = 0.0
    for i, c in enumerate(kept):
        a = above[c]
        if is_trump:
            w += 1.0 + (0.6 if a == 0 else 0.3 if a <= i else 0.0)
        elif a <= i:                   # a winner once the higher ones have gone
            w += 1.0 if a == 0 else 0.7
        elif a == i + 1 and k > i + 1:  # a guarded honour
            w += 0.35
    if is_trump:
        return w
    if nt:
        if k >= 4:
            w += 0.4 * (k - 3)
        return w
    # A side suit in a trump contract: shortness is worth ruffs.
    return w + (1.2, 0.5, 0.1)[k] if k < 3 else w


def _suits(hands, bidder, pool: list, strain: str, ranking: str) -> List[_Suit]:
    trump = None if strain == "NT" else strain
    pool_set = set(pool)
    others = {c for s in range(4) if s != bidder for c in hands[s]}
    opps = {c for s in range(4) if s % 2 != bidder % 2 for c in hands[s]}
    everything = pool_set | others
    groups = list(SUITS) + (["J"] if trump is None else [])
    out: List[_Suit] = []
    for s in groups:
        cards = [c for c in everything if effective_suit(c, trump) == s]
        # highest first; equal powers (the two jokers at no-trump) by name,
        # so that the keeps, and the searches, come in the same order on
        # every run
        cards.sort(key=lambda c: (-power(c, trump, ranking), c))
        if s == "J":
            runs = [[c for c in cards if c in pool_set]] if any(c in pool_set for c in cards) else []
        else:
            runs = card_runs(cards, pool_set, others)
        # opponents' cards above each card of the suit
        above = {}
        n_above = 0
        for c in cards:
            above[c] = n_above
            if c in opps:
                n_above += 1
        order = {c: i for i, c in enumerate(cards)}
        choices = []
        for counts in product(*[range(len(r) + 1) for r in runs]):
            kept = [c for r, k in zip(runs, counts) for c in r[:k]]
            kept.sort(key=order.__getitem__)
            w = _worth(kept, s, s == trump, trump is None, above)
            powers = tuple(power(c, trump, ranking) for c in kept)
            choices.append((len(kept), w, tuple(kept), powers))
        out.append(_Suit(s, choices))
    return out


def _trump_losers(hands, bidder, trump: Optional[str], ranking: str) -> Optional[callable]:
    """With a trump suit: a function (powers of the bidder's kept trumps)
    -> tricks the opponents surely take with their trumps.

    Every trump of an opponent is played in some trick, and it wins that
    trick unless a higher trump of the bidding side falls in the same
    trick (or the other opponent wins it, still the opponents' trick).  A
    trump of the bidding side falls in one trick only, so it beats at most
    one trump of that opponent: the opponent wins at least his trumps less
    the most of them that can be matched each to a distinct higher trump
    of the bidding side (bidder's and partner's).  The tricks of one
    opponent's trumps are a floor for the opponents' tricks."""
    if trump is None:
        return None
    partner = tuple(power(c, trump, ranking) for c in hands[(bidder + 2) % 4]
                    if effective_suit(c, trump) == trump)
    opp_powers = []
    for seat in ((bidder + 1) % 4, (bidder + 3) % 4):
        opp_powers.append(sorted(power(c, trump, ranking) for c in hands[seat]
                                 if effective_suit(c, trump) == trump))

    def losers(kept: tuple) -> int:
        side = sorted(partner + kept)
        most = 0
        for ps in opp_powers:
            # the largest matching (opponent's trump, higher trump of the
            # side): the side's trumps from the lowest, each taking the
            # lowest opponent's trump it beats
            i = 0
            for q in side:
                if i < len(ps) and q > ps[i]:
                    i += 1
            most = max(most, len(ps) - i)
        return most
    return losers


KEEP_CARDS, KEEP_SUITS = KEEP_LIMITS     # card codes a choice, masks a choice (exchange_keeps)


def _lanes(pool: Sequence[str], trump: Optional[str], ranking: str) -> dict:
    """Each card's bit in its engine suit's 16-bit lane of one integer:
    the five masks of a set of cards are the sum of its cards' lanes."""
    lanes = {}
    for c in pool:
        s, b = engine_card(c, trump, ranking)
        lanes[c] = 1 << (16 * s + b)
    return lanes


def _masks(lane: dict, cards) -> List[int]:
    """The five engine masks of a set of cards (Core.set_hand's and
    keeps_until's form), from their lanes (_lanes)."""
    m = sum(map(lane.__getitem__, cards))
    return [(m >> (16 * s)) & 0xFFFF for s in range(KEEP_SUITS)]


class _KeepSet:
    """Every keep of n cards of the pool, most promising first (the order
    the search asks them in: the sooner the best value is the target, the
    cheaper the refutations): by the heuristic worth, highest first, ties
    by the cards' names, so that the keeps, and the searches, come in the
    same order on every run.  Made and ordered in the core (exchange_keeps,
    _keeps.pxd) from the suits' choices: ``rows`` holds five engine masks a
    keep (Core.keeps_until's form), ``caps`` the most tricks a keep can
    take (255: no cap; see _trump_losers); a keep's cards are rebuilt from
    its choices only where needed (``cards``).  (Grouping the keeps by suit
    lengths, for the table's sake, measured no better than this order.)"""

    def __init__(self, suits: List[_Suit], n: int, pool: Sequence[str], trump: Optional[str],
                 ranking: str, losers: Optional[Callable[[tuple], int]]):
        code = {c: i for i, c in enumerate(sorted(pool))}
        lane = _lanes(pool, trump, ranking)
        self.suits = suits
        self.choices = [ch for su in suits for ch in su.choices]
        first = array("H", [0])
        size = array("B")
        worth = array("d")
        key = bytearray()
        masks = array("H")
        cap = bytearray()
        for su in suits:
            for csize, w, cards, powers in su.choices:
                size.append(csize)
                worth.append(w)
                key += bytes(code[c] for c in cards).ljust(KEEP_CARDS, b"\0")
                masks.extend(_masks(lane, cards))
                cap.append(n - losers(powers) if losers is not None and su.name == trump else 255)
            first.append(len(size))
        self.n = n
        self.rows, self.caps, self.picks = exchange_keeps(n, first, size, worth, bytes(key),
                                                          masks, bytes(cap))

    def __len__(self) -> int:
        return len(self.caps)

    def cards(self, i: int) -> tuple:
        """Keep i's cards, suit by suit (each suit's highest first)."""
        ns = len(self.suits)
        picks, choices = self.picks, self.choices
        return sum((choices[picks[ns * i + s]][2] for s in range(ns)), ())

    def ceiling(self) -> int:
        """The most tricks any keep can take by its cap."""
        top = max(self.caps, default=255)
        return self.n if top == 255 else top


class _Probe:
    """Puts keeps of one deal and option to a solver.  The positions differ
    only in the bidder's hand, so the three other hands are converted to
    the engine's coordinates and given to the solver's core once, and each
    keep only replaces the bidder's hand (five bit masks, through a small
    map; the deal was validated once).  Converting the 48 cards of every
    keep by name took as long as the searches themselves on typical deals
    (20,000 keeps of a few hundred nodes each).  A solver without `core_for` (another
    implementation of the Solver API) is asked through its public unchecked
    entry points instead."""

    def __init__(self, solver, hands, bidder: int, trump: Optional[str], ranking: str,
                 pool: Sequence[str] = ()):
        self.solver = solver
        self.bidder = bidder
        self.trump = trump
        self.ranking = ranking
        self.hands = [list(h) for h in hands]
        core_for = getattr(solver, "core_for", None)
        self.core = core_for(trump, ranking) if core_for is not None else None
        if self.core is not None:
            self.lane = _lanes(pool, trump, ranking)
            self.fixed = [[engine_card(c, trump, ranking) for c in h] for h in self.hands]
            self.t = -1 if trump is None else SUITS.index(trump)
            self.placed = False

    def _hands(self, cards):
        hs = list(self.hands)
        hs[self.bidder] = list(cards)
        return hs

    def _place(self) -> None:
        """The three other hands, once; then only the bidder's change."""
        if not self.placed:
            hs = list(self.fixed)
            hs[self.bidder] = []
            self.core.set_position(hs, self.t, self.bidder, ())
            self.placed = True

    def _load(self, cards) -> None:
        self._place()
        self.core.set_hand(self.bidder, _masks(self.lane, cards), self.bidder)

    def keeps_until(self, keeps: _KeepSet, start: int, end: int, target: int, ns_side: bool,
                    n: int) -> Tuple[int, int, int, int, int]:
        """Ask the keeps from ``start`` on (before ``end``, at most
        KEEP_ROWS of them) in turn whether the bidding side takes
        ``target`` tricks, in one call to the core that also stops after
        KEEP_BATCH_NODES nodes (see Core.keeps_until): (next keep, the keep
        that takes them or -1, keeps set aside by their caps, questions
        asked, nodes)."""
        self._place()
        upto = min(end, start + KEEP_ROWS)
        return self.core.keeps_until(self.bidder, self.bidder, keeps.rows, keeps.caps, start, upto,
                                     target, ns_side, n, KEEP_BATCH_NODES)

    def ns_value(self, cards, guess: int) -> int:
        if self.core is None:
            return self.solver.ns_value_unchecked(self._hands(cards), self.trump, self.ranking,
                                                  self.bidder, guess)
        self._load(cards)
        return self.core.value(guess)

    def ns_can_take(self, cards, target: int) -> bool:
        """Can N-S take ``target`` tricks?"""
        if self.core is None:
            return self.solver.can_take_unchecked(self._hands(cards), self.trump, self.ranking,
                                                  self.bidder, "NS", target)
        self._load(cards)
        return self.core.can_take(target)


def best_exchange(hands: Sequence[Iterable[str]], kitty: Iterable[str], bidder: Union[int, str],
                  trump: Optional[str], ranking: str = "up", solver=None,
                  stop: Optional[Callable[[], bool]] = None, sharing=None) -> Exchange:
    """The most books the bidder's side takes with the best discard, for
    one trump (``'S' 'H' 'D' 'C'``, or ``'NT'``/None) and ranking, the bidder
    leading to the first trick; with a keep and a discard that take them.

    ``hands`` are N, E, S, W (n cards each; the bidder's hand before the
    exchange), ``kitty`` the m undealt cards.  ``solver`` (a
    :class:`whist_solve.engine.Solver`) may be shared between calls: keep one
    per thread and pass it to every call.  ``stop``: called before each
    keep's search; when it returns True the search ends with
    :class:`ExchangeStopped`.  ``sharing``: a :class:`_Sharing` through
    which idle threads of :func:`analyse_bid` take over part of the keeps
    (the answer is the same; the node counts are not)."""
    from .engine import Solver

    start = time.perf_counter()
    hands, kitty, bidder = _check_deal(hands, kitty, bidder)
    strain = strain_of(trump)
    ranking = parse_ranking(ranking)
    t = None if strain == "NT" else strain
    check_solver(solver, needs="ns_value_unchecked")
    solver = solver if solver is not None else Solver(BID_TT_MB)
    n = len(hands[bidder])
    pool = hands[bidder] + kitty

    # Bound: the opponents' trumps above all the trumps of the bidding side.
    losers = _trump_losers(hands, bidder, t, ranking)
    keeps = _KeepSet(_suits(hands, bidder, pool, strain, ranking), n, pool, t, ranking, losers)

    work = _KeepWork(keeps, keeps.ceiling(), n, bidder % 2 == 0,
                     lambda sv: _Probe(sv, hands, bidder, t, ranking, pool), solver)
    work.stats.keeps = len(keeps)
    if sharing is not None:
        sharing.offer(work)          # (analyse_bid holds the solvers others could reach)
        try:
            work.run(solver, stop)
        finally:
            sharing.withdraw(work)
    else:
        with _held(solver):          # its core is used directly (see Solver)
            work.run(solver, stop)
    best, index = work.answer()

    best_cards = keeps.cards(index)
    keep = sort_cards(best_cards, ranking)
    kept = set(best_cards)
    discard = sort_cards([c for c in pool if c not in kept], ranking)
    stats = work.stats
    stats.seconds = time.perf_counter() - start
    return Exchange(trump=strain, ranking=ranking, books=best + 1, keep=keep, discard=discard,
                    tricks=best, bidder=bidder, stats=stats)


class _Range:
    """A run of consecutive keeps (indices lo to hi - 1) that one thread
    examines in order."""

    def __init__(self, lo: int, hi: int):
        self.pos = lo             # the next keep to examine
        self.hi = hi
        self.solver = None        # the solver working on it, while it works
        self.wanted = False       # a helper waits to split the range
        self.paused = False       # its thread waits between two keeps meanwhile
        self.done = False


class _KeepWork:
    """The keeps of one option, examined by one thread or split among
    several (each range of keeps on its own solver).

    The answer is the most tricks of any keep and the first keep in the
    sorted order that takes them, whatever the split: a keep matters only
    if it beats every value already found at an earlier keep and at least
    equals every value found at a later one, so it is asked "can the side
    take max(E + 1, L)?" with E and L the best values found so far before
    and after it (a keep solved exactly is recorded with its place).  The
    first keep is solved exactly.

    A helper (a thread of :func:`analyse_bid` with no option left) splits
    a range that still has STEAL_MIN keeps to go (see STEAL_LEAVE): it
    waits until the range's thread is between two keeps, takes the end of
    the range, and searches it in the owner's table (the solver that runs
    the option: Solver.share_table_of), side by side with the other
    threads; when it is done, it splits a range again, and so does the
    owner.  The one table matters: the keeps share most of their proofs
    through it (seed 21's no-trump uptown, 6,263 keeps: 50.0M nodes on
    one table; the same keeps dealt out in turns of 500 to two cold
    tables, 75.8M).  With a copy of the owner's table made at each split
    instead, two threads searched that option in 74.9M-81.5M nodes against
    57.7M on one; in one table, 61M-65M."""

    def __init__(self, keeps: _KeepSet, ceiling: int, n: int, ns_side: bool, make_probe, home):
        import threading

        self.keeps, self.ceiling, self.n = keeps, ceiling, n
        self.ns_side = ns_side
        self.make_probe = make_probe
        self.home = home              # the owner's solver: every range searches in its table
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.found: List[Tuple[int, int]] = []   # (tricks, index) of keeps solved exactly
        self.best = -1                            # the most tricks in found
        self.ranges = [_Range(0, len(keeps))]
        self.stats = ExchangeStats()
        self.failed = False
        self.started = time.perf_counter()

    # -- the targets
    def _target(self, i: int, alone: bool = False) -> Optional[int]:
        """What keep i must take to matter, None if nothing can (with the
        lock held, or alone: one range, every keep found is before i);
        0: no value is known yet, solve it exactly."""
        if alone:
            before, after = self.best, -1
        else:
            before = max((v for v, j in self.found if j < i), default=-1)
            after = max((v for v, j in self.found if j > i), default=-1)
        if before >= self.ceiling:
            return None
        if not self.found:
            return 0
        return max(before + 1, after, 0)

    def answer(self) -> Tuple[int, int]:
        if self.failed or any(not r.done for r in self.ranges):
            raise ExchangeStopped("the exchange search was stopped")
        best, index = max(self.found, key=lambda f: (f[0], -f[1]))
        return best, index

    # -- the work
    def run(self, solver, stop) -> None:
        """The owner's part: the first range, then the others' ranges as a
        helper, then wait until every range is done."""
        try:
            self._work(self.ranges[0], solver, stop)
            self.help(solver, stop)
            with self.changed:
                while not all(r.done for r in self.ranges) and not self.failed:
                    if stop is not None and stop():
                        raise ExchangeStopped("the exchange search was stopped")
                    self.changed.wait(0.05)
        except BaseException:
            self._fail()
            raise

    def _fail(self) -> None:
        """The work ends unfinished: the other threads stop at their next
        keep, the owner raises ExchangeStopped."""
        with self.changed:
            self.failed = True
            self.changed.notify_all()

    def help(self, solver, stop) -> None:
        """A helper thread's part: ranges taken from the others until none
        is worth taking."""
        try:
            while True:
                rng = self.steal(solver)
                if rng is None:
                    return
                self._work(rng, solver, stop)
        except BaseException:
            self._fail()
            raise

    def _open(self, solver) -> list:
        """The ranges worth splitting for ``solver`` (with the lock held),
        if it can search in the owner's table."""
        if (self.failed or time.perf_counter() - self.started < STEAL_AFTER
                or getattr(solver, "share_table_of", None) is None
                or not hasattr(self.home, "shareable")):
            return []
        return [r for r in self.ranges if not r.done and r.solver is not None
                and not r.wanted and r.hi - r.pos >= STEAL_MIN]

    def steal_possible(self, solver) -> bool:
        with self.lock:
            return bool(self._open(solver))

    def steal(self, solver):
        """Split the range with most keeps left, if it has STEAL_MIN: the
        new range (all but its next STEAL_LEAVE keeps) is this thread's;
        None if there is nothing worth taking."""
        home = self.home
        if (not getattr(home, "shareable", True) and solver is not home
                and hasattr(solver, "bring_in_table") and self.steal_possible(solver)):
            # Before the first split, while the owner still searches: the
            # memory of all the slots of its table, which it takes when
            # made shareable (below) and the two threads then fill.  Without
            # it the rehash into them (the owner waiting) and then the
            # stores (the other thread waiting for the lock) would wait for
            # that memory to come in.
            solver.bring_in_table(home)
        with self.changed:
            while True:
                open_ranges = self._open(solver)
                if not open_ranges:
                    return None
                victim = max(open_ranges, key=lambda r: r.hi - r.pos)
                victim.wanted = True
                # the victim's thread stops between two keeps (see _work)
                while not victim.paused and not victim.done and not self.failed:
                    self.changed.wait()
                # The first split makes the owner's table shareable (and
                # grows it to all its slots: see Solver.shareable), which
                # only a split of the owner's own range may do: the owner
                # then waits between two keeps.
                if (victim.paused and not self.failed and victim.hi - victim.pos >= STEAL_MIN
                        and (home.shareable or victim.solver is home)):
                    if not home.shareable:
                        home.shareable = True
                    solver.share_table_of(home)
                    mid = victim.pos + min(STEAL_LEAVE, (victim.hi - victim.pos) // 2)
                    rng = _Range(mid, victim.hi)
                    victim.hi = mid
                    self.ranges.append(rng)
                    self.stats.shared += 1
                else:
                    rng = None
                victim.wanted = False
                self.changed.notify_all()
                if rng is not None:
                    return rng

    def _work(self, rng: _Range, solver, stop) -> None:
        probe = self.make_probe(solver)
        with self.changed:
            rng.solver = solver
        try:
            while True:
                # Alone on the option (one range, no helper waiting to
                # split it), this thread is the only one that reads or
                # writes the work's state, and takes no lock: the locks
                # cost more than the search of a cheap keep (35,000 keeps
                # a deal).  A helper that wants the range is seen at the
                # next keep; the ranges only change while their threads
                # wait (below).
                alone = not rng.wanted and len(self.ranges) == 1
                if alone:
                    if rng.pos >= rng.hi or self.failed:
                        return
                    i = rng.pos
                    target = self._target(i, alone=True)
                    # the refutations in the core, many keeps a call
                    many = bool(target) and probe.core is not None
                    if not many:
                        rng.pos += 1
                else:
                    with self.changed:
                        if rng.wanted:
                            # a helper splits this range now
                            rng.paused = True
                            self.changed.notify_all()
                            while rng.wanted and not self.failed:
                                self.changed.wait()
                            rng.paused = False
                        if rng.pos >= rng.hi or self.failed:
                            return
                        i = rng.pos
                        rng.pos += 1
                        target = self._target(i)
                if stop is not None and stop():
                    raise ExchangeStopped("the exchange search was stopped")
                if target is None:
                    with self.changed:
                        rng.pos = rng.hi
                    return
                if alone and many:
                    self._ask_many(probe, solver, rng, target)
                    continue
                if target and self.keeps.caps[i] < target:
                    value, kind, nodes = None, "bounded", 0
                else:
                    cards = self.keeps.cards(i)
                    n0 = solver.nodes
                    if target == 0:
                        value, kind = self._exact(probe, cards, None), "exact"
                    elif self._can_take(probe, cards, target):
                        value, kind = self._exact(probe, cards, target), "raised"
                    else:
                        value, kind = None, "refuted"
                    nodes = solver.nodes - n0
                if alone:
                    self._record(i, value, kind, nodes)
                else:
                    with self.lock:
                        self._record(i, value, kind, nodes)
        finally:
            if getattr(solver, "own_table", None) is not None:
                solver.own_table()      # (before the range is done: see steal)
            with self.changed:
                rng.solver = None
                rng.done = rng.pos >= rng.hi
                if not rng.done:
                    self.failed = True
                self.changed.notify_all()

    def _ask_many(self, probe, solver, rng: _Range, target: int) -> None:
        """Alone on the option: the keeps from rng.pos on asked in one call
        to the core (_Probe.keeps_until), and the one that takes the
        target, if any, solved exactly."""
        stats = self.stats
        rng.pos, hit, bounded, asked, nodes = probe.keeps_until(
            self.keeps, rng.pos, rng.hi, target, self.ns_side, self.n)
        stats.bounded += bounded
        stats.nodes += nodes
        if hit < 0:
            stats.null_window += asked
            return
        stats.null_window += asked - 1          # the hit's question: _record's
        n0 = solver.nodes
        value = self._exact(probe, self.keeps.cards(hit), target)
        self._record(hit, value, "raised", solver.nodes - n0)

    def _record(self, i: int, value: Optional[int], kind: str, nodes: int) -> None:
        """What keep i came to (see _work for the lock)."""
        stats = self.stats
        if kind == "bounded":
            stats.bounded += 1
            return
        stats.nodes += nodes
        if kind != "exact":
            stats.null_window += 1
        if value is not None:
            stats.exact += 1
            if kind == "raised":
                stats.raised += 1
            self.found.append((value, i))
            self.best = max(self.best, value)

    def _exact(self, probe, cards, guess: Optional[int]) -> int:
        """The tricks of the bidding side with this keep."""
        n = self.n
        if guess is None:
            g = -1                                   # the engine's own guess
        else:
            g = guess if self.ns_side else n - guess
        ns = probe.ns_value(cards, g)
        return ns if self.ns_side else n - ns

    def _can_take(self, probe, cards, target: int) -> bool:
        if self.ns_side:
            return probe.ns_can_take(cards, target)
        return not probe.ns_can_take(cards, self.n - target + 1)


# A range is split for a helper only with at least this many keeps to go,
# in an option that has run this long (most options take less than that
# in all: splitting them gains nothing).
STEAL_MIN = 100
STEAL_AFTER = 0.1

# A thread alone on its option hands the refutations to the core in one
# call for up to KEEP_ROWS keeps or KEEP_BATCH_NODES nodes (a few hundredths
# of a second: the stop requests and a helper's wish to share are seen
# between two calls).  A return to Python for every keep cost about 4 us a
# keep, and a deal examines some 35,000 keeps.
KEEP_ROWS = 256
KEEP_BATCH_NODES = 200_000

# A helper takes all but the next STEAL_LEAVE keeps of a range (half of a
# short one), and the range's thread, once done with those, takes all but
# the next STEAL_LEAVE of the helper's: the two threads go through the
# keeps side by side in their sorted order, as one thread would, so that
# each keep finds in the table the proofs of the keeps before it.  (Seed
# 21's no-trump uptown on two threads: 61.1M-64.6M nodes in four runs
# against 64.5M-68.1M with the helper taking the last two thirds; 57.7M
# on one thread.)
STEAL_LEAVE = 64
# How often an idle thread looks again for keeps to take (seconds).
HELP_POLL = 0.02


class _Sharing:
    """The options being solved by the threads of :func:`analyse_bid`, so
    that a thread with no option left helps with another's keeps."""

    def __init__(self, threads: int):
        import threading

        self.changed = threading.Condition()
        self.works: List[_KeepWork] = []
        self.busy = threads           # threads still solving options of their own

    def offer(self, work: _KeepWork) -> None:
        with self.changed:
            self.works.append(work)
            self.changed.notify_all()

    def withdraw(self, work: _KeepWork) -> None:
        with self.changed:
            if work in self.works:
                self.works.remove(work)
            self.changed.notify_all()

    def help(self, solver, stop) -> None:
        """For a thread with no option left: help with the options in
        progress until every thread is done with its own (an option that
        has not yet run STEAL_AFTER seconds is waited for, and so is the
        next option of a thread between two)."""
        with self.changed:
            self.busy -= 1
            self.changed.notify_all()
        while not stop():
            with self.changed:
                works = list(self.works)
                if not works and self.busy == 0:
                    return
            for work in works:
                if work.steal_possible(solver):
                    work.help(solver, stop)
            with self.changed:
                if self.works or self.busy:
                    # woken at once when the last thread is done
                    self.changed.wait(HELP_POLL)


def _held(solver):
    """The solver's lock (see Solver), or nothing for an object with only
    the position-level API, which takes its own lock at each call."""
    lock = getattr(solver, "_lock", None)
    return lock if lock is not None else contextlib.nullcontext()


def analyse_bid(hands: Sequence[Iterable[str]], kitty: Iterable[str], bidder: Union[int, str],
                options: Sequence[Tuple[str, str]] = ALL_OPTIONS, solver=None,
                threads: int = 1, tt_mb: float = BID_TT_MB, helpers: Sequence = ()) -> List[Exchange]:
    """:func:`best_exchange` for each option (default: the ten of SPEC §3,
    spades uptown, spades downtown, ..., no-trump downtown), one solver
    shared by all of them.

    With ``threads`` > 1 the options are shared out among that many
    threads by trump suit (no-trump first: usually the longest), each
    thread with a solver of its own (``solver`` is the first thread's, the
    others are taken from ``helpers``, then made with ``tt_mb`` each;
    fewer threads if the memory for their tables is not there): the search
    releases the GIL, so the options are solved side by side.  The results
    are the same.  A thread with no option left takes over part of the
    keeps of an option still being solved (see :class:`_KeepWork`); when
    none does, the node counts are those of one thread too (with fresh
    solvers: a solver's table is emptied whenever the trump suit changes
    anyway).  An error in one thread, or an exception in the calling
    thread (Ctrl-C), stops the other threads at their next keep."""
    from .engine import Solver

    solver = solver if solver is not None else Solver(tt_mb)
    groups: dict = {}
    for option in options:
        groups.setdefault(strain_of(option[0]), []).append(option)
    threads = max(1, min(threads, len(groups)))
    # (the caller's solver held throughout, as dd_table holds it: the
    # other threads may search in its table; the rest are this call's)
    with _held(solver):
        if threads == 1:
            return [best_exchange(hands, kitty, bidder, t, r, solver=solver) for t, r in options]
        solvers = grow_solvers([solver] + list(helpers)[:threads - 1], threads, tt_mb)
        return _threaded_options(hands, kitty, bidder, options, groups, solvers)


def _threaded_options(hands, kitty, bidder, options, groups: dict, solvers) -> List[Exchange]:
    import threading
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

    lock = threading.Lock()
    stop = threading.Event()
    todo = sorted(groups.values(), key=lambda group: strain_of(group[0][0]) != "NT")
    done: dict = {}
    sharing = _Sharing(len(solvers))

    def work(solver) -> None:
        while not stop.is_set():
            with lock:
                group = todo.pop(0) if todo else None
            if group is None:
                # no option left: take over part of the keeps of another's
                sharing.help(solver, stop.is_set)
                return
            for t, r in group:
                done[t, r] = best_exchange(hands, kitty, bidder, t, r, solver=solver,
                                           stop=stop.is_set, sharing=sharing)

    # A solver's table is made shareable when another thread first takes
    # over part of its keeps (_KeepWork.steal), and no sooner: a shareable
    # table uses all its slots from the start, and the memory of a 512 MB
    # table's slots costs each thread about 0.45 s of CPU on this
    # project's VM (see _tt.pxd's tt_grow), whatever its own options need.
    try:
        with ThreadPoolExecutor(max_workers=len(solvers)) as pool:
            futures = [pool.submit(work, solver) for solver in solvers]
            try:
                finished, _ = wait(futures, return_when=FIRST_EXCEPTION)
                for future in finished:
                    if future.exception() is not None:
                        raise future.exception()
            except BaseException:
                stop.set()       # the other threads end at their next keep
                raise
    finally:
        for solver in solvers:
            if hasattr(solver, "shareable"):
                try:
                    solver.shareable = False
                except RuntimeError:
                    pass        # interrupted while a helper still searches in it
    return [done[option] for option in options]


def check_contract(hands: Sequence[Iterable[str]], kitty: Iterable[str], bidder: Union[int, str],
                   contract, solver=None) -> CheckResult:
    """Is ``contract`` (a :class:`whist_solve.pbn.Contract` or text such as
    ``"4 S down"``) makeable for the bidder with the best exchange?  Gives
    the most books, the keep and discard that take them and one optimal play
    of the tricks with that keep."""
    from .engine import Solver

    if isinstance(contract, str):
        contract = parse_contract(contract)
    if not isinstance(contract, Contract):
        raise WhistError(f"not a contract: {contract!r} (a Contract, or text such as '4 S down')")
    if not is_bid(contract):
        raise WhistError(f"a bid whist contract needs a level 1 to 7 (got {contract})")
    check_solver(solver, needs="ns_value_unchecked")
    solver = solver if solver is not None else Solver(BID_TT_MB)
    ex = best_exchange(hands, kitty, bidder, contract.strain, contract.ranking, solver=solver)
    hands2 = [list(h) for h in hands]
    hands2 = _check_deal(hands2, kitty, bidder)[0]
    hands2[ex.bidder] = list(ex.keep)
    pos = Position.make(hands2, None if ex.trump == "NT" else ex.trump, ex.ranking, ex.bidder)
    line = list(solver.solve(pos, cards=False, line=True).line)
    need = contract.level + BOOKS_FOR_LEVEL
    return CheckResult(level=contract.level, trump=ex.trump, ranking=ex.ranking,
                       makeable=ex.books >= need, books=ex.books, keep=ex.keep,
                       discard=ex.discard, line=line, bidder=ex.bidder, exchange=ex)


__all__ = [
    "ALL_OPTIONS", "AuctionAnalysis", "BidSummary", "CheckResult", "Exchange", "ExchangeStats",
    "Scoring", "SeatAnalysis", "analyse_auction", "analyse_bid", "option_score",
    "best_exchange", "best_option", "bid_kind", "bid_name", "bid_rank", "bid_score",
    "check_contract", "contract_name", "highest_bid", "random_deal", "summarize",
]
