"""Double-dummy simulation: answers from the cards a player can see.

Deal the unseen cards at random many times, consistent with what is known
(:mod:`whist_solve.sampling`), solve every deal exactly, and aggregate.
Three questions, each a picklable problem (plain data) with a per-sample
function and an aggregate that grows one sample at a time:

* :class:`BidQuestion` (bid whist): the bidder's hand (and maybe the
  partner's) known; per sample, the best exchange of each of the ten
  options (:func:`whist_solve.bid.analyse_bid`); per option the books'
  distribution, the chance of making each level and the expected score of
  each bid; the recommended bid.
* :class:`LeadQuestion`: the leader's hand and a contract; per sample the
  value of every opening lead; per card the distribution of the leader's
  side's tricks and the share of deals the contract fails; the best lead,
  the cards within the noise of it, and the groups of equal cards.
* :class:`TricksQuestion`: any known hands; per sample the double-dummy
  table; per strain, ranking and leader the distribution of N-S tricks.

Running: :func:`simulate` runs samples in this process (with a progress
callback and a stop condition); :func:`run_samples` is the same work for a
batch of sample indices, a module-level function of picklable arguments for
process pools and clusters (:func:`work_items` cuts a run into such
batches).  Sample ``i`` depends only on the seed and ``i``, and the
aggregates keep integer sums, so the answer is the same whatever the
batches, their order or the machines.
"""
from __future__ import annotations

import math
import threading
import time
from collections import abc
from dataclasses import dataclass, replace
from typing import Callable, Iterable, List, Optional, Sequence, Tuple, Union

from .bid import (ALL_OPTIONS, BID_TT_MB, BOOKS_FOR_LEVEL, Scoring, analyse_bid, bid_name,
                  bid_rank, bid_score, contract_name, min_level)
from .cards import Position, sort_cards
from .errors import WhistError
from .vocab import SEATS, STRAINS, parse_seat, strain_of
from .engine import (DEFAULT_TT_MB, Solver, check_solver, engine_card, equal_card_groups,
                     first_guess, grow_solvers)
from .sampling import DealSpec, deal_spec, sample_deal

__all__ = ["SimulationError", "BidQuestion", "LeadQuestion", "TricksQuestion", "bid_question",
           "lead_question", "tricks_question", "BidAggregate", "LeadAggregate",
           "TricksAggregate", "simulate", "run_samples", "work_items", "equal_card_groups",
           "only_deal", "LEVELS", "NOISE_SE"]

LEVELS = tuple(range(1, 8))
# A difference of means smaller than this many standard errors of the
# paired differences is "within the noise".
NOISE_SE = 2.0


class SimulationError(WhistError):
    pass


def _seat(seat) -> int:
    """A seat from an index, a letter or a name (``None`` is none)."""
    try:
        return parse_seat(seat)
    except WhistError:
        raise SimulationError(f"unknown seat {seat!r} (N, E, S or W)") from None


def _strain(strain) -> str:
    s = "NT" if strain in (None, "", "N", "NT", "nt") else str(strain).upper()
    if s not in STRAINS:
        raise SimulationError(f"unknown strain {strain!r} (S, H, D, C or NT)")
    return s


def _ranking(ranking) -> str:
    r = str(ranking).lower()
    r = {"uptown": "up", "downtown": "down"}.get(r, r)
    if r not in ("up", "down"):
        raise SimulationError(f"unknown ranking {ranking!r} (up or down)")
    return r


# --------------------------------------------------------------------------
# Statistics on integer sums (exact, whatever the order of the samples)


def _mean(total: int, n: int) -> Optional[float]:
    return total / n if n else None


def _stderr(total: int, squares: int, n: int) -> Optional[float]:
    """Standard error of the mean from the sum and the sum of squares."""
    if n < 2:
        return None
    var = (squares - total * total / n) / (n - 1)
    return math.sqrt(max(var, 0.0) / n)


def _r(x: Optional[float]) -> Optional[float]:
    return None if x is None else round(x, 4)


def _hist_json(hist: dict) -> dict:
    return {str(k): hist[k] for k in sorted(hist)}


def _paired(rows_a: Sequence[int], rows_b: Sequence[int]) -> Tuple[float, Optional[float]]:
    """Mean and standard error of the paired differences a - b."""
    n = len(rows_a)
    d = [a - b for a, b in zip(rows_a, rows_b)]
    s = sum(d)
    return s / n, _stderr(s, sum(x * x for x in d), n)


def _within_noise(mean_diff: float, se: Optional[float]) -> bool:
    if mean_diff == 0:
        return True
    return se is not None and abs(mean_diff) < NOISE_SE * se


def _at_least_as_good(close: list, candidates: list, value) -> list:
    """``close`` (the candidates the paired test finds within the noise of
    the best), with every other candidate worth at least as much as one of
    them, in the candidates' order.  The paired test alone can pass a bid
    and fail a better one whose difference from the best varies less (6H
    within the noise of 6S, 3H with a higher expected score not): a list
    that skips a better choice reads as a mistake."""
    if not close:
        return close
    floor = min(value(c) for c in close)
    keep = set(close)
    return [c for c in candidates if c in keep or value(c) >= floor]


class _Aggregate:
    """Samples so far: one row of integers per sample, in a fixed column
    order; histograms and sums kept as they come."""

    question = ""

    def __init__(self, problem, seed, columns: int):
        self.problem = problem
        self.seed = seed
        self.samples = 0
        self.partial = False
        self.rows: List[tuple] = []
        self.sums = [0] * columns
        self.squares = [0] * columns
        self.hists = [dict() for _ in range(columns)]

    def add(self, result: Sequence[int]) -> None:
        """Take in one sample's result (from the question's ``solve_sample``)."""
        row = tuple(result)
        if len(row) != len(self.sums):
            raise SimulationError(f"a sample result of {len(row)} values, {len(self.sums)} expected")
        self.rows.append(row)
        self.samples += 1
        for j, v in enumerate(row):
            self.sums[j] += v
            self.squares[j] += v * v
            h = self.hists[j]
            h[v] = h.get(v, 0) + 1

    def extend(self, results: Iterable[Sequence[int]]) -> None:
        for r in results:
            self.add(r)

    def column(self, j: int) -> dict:
        n = self.samples
        return {"hist": _hist_json(self.hists[j]),
                "mean": _r(_mean(self.sums[j], n)),
                "stderr": _r(_stderr(self.sums[j], self.squares[j], n))}

    def make(self, j: int, level: int) -> Optional[float]:
        """The share of the samples in which column ``j`` is at least
        ``level`` + 6 (books or tricks: the level is made); None before
        the first sample."""
        if not self.samples:
            return None
        need = level + BOOKS_FOR_LEVEL
        return sum(c for v, c in self.hists[j].items() if v >= need) / self.samples

    def _head(self) -> dict:
        out = {"question": self.question, "samples": self.samples, "seed": self.seed}
        return out

    def _tail(self, out: dict) -> dict:
        if self.partial:
            out["partial"] = True
        return out


# --------------------------------------------------------------------------
# Bid


@dataclass(frozen=True)
class BidQuestion:
    """Bid whist: what to bid from the bidder's cards (and the partner's,
    when known).  Per sample, the books of the best exchange of each option
    (the kitty's book included), as :func:`whist_solve.bid.analyse_bid`."""

    spec: DealSpec
    bidder: int
    options: tuple = ALL_OPTIONS
    min_bid_3: bool = False
    tt_mb: float = BID_TT_MB
    threads: int = 1           # per sample: the trump suits side by side (analyse_bid)
    scoring: Scoring = Scoring()   # the scores of the bids (its min_bid_3 is the field above)

    question = "bid"

    @property
    def rules(self) -> Scoring:
        """The scoring in force: ``scoring`` with this question's lowest bid."""
        if self.scoring.min_bid_3 == self.min_bid_3:
            return self.scoring
        return replace(self.scoring, min_bid_3=self.min_bid_3)

    def score(self, level: int, books: int, j: int) -> int:
        """What a bid of ``level`` in option j scores with ``books``."""
        return bid_score(level, books, self.options[j][0], self.rules, self.spec.hand_size + 1)

    def solve_sample(self, solver, deal) -> tuple:
        # No more threads than analyse_bid uses (one per trump suit): the
        # helpers' tables are made before it caps them (--threads 99999).
        threads = max(1, min(self.threads, len({strain_of(t) for t, _ in self.options})))
        exs = analyse_bid(deal.hands, deal.kitty, self.bidder, self.options, solver=solver,
                          threads=threads, tt_mb=self.tt_mb,
                          helpers=_helpers(self.tt_mb, threads - 1))
        return tuple(ex.books for ex in exs)

    def aggregate(self, seed) -> "BidAggregate":
        return BidAggregate(self, seed)


def bid_question(known: Sequence, bidder, *, kitty: int = 6, unseen=None, hand_size=None,
                 constraints: Iterable[str] = (), options=ALL_OPTIONS, min_bid_3: bool = False,
                 max_tries: Optional[int] = None, scoring: Optional[Scoring] = None) -> BidQuestion:
    """The bid question: ``known`` four hands N E S W (None when unknown;
    the bidder's must be known), a 54-card deck, a ``kitty`` of 6 (or m
    cards on a reduced deal of n-card hands, with ``unseen`` the cards in
    play); ``scoring``: the scores of the bids (the default rule, or a
    variant of :class:`whist_solve.bid.Scoring`)."""
    b = _seat(bidder)
    if known[b] is None:
        raise SimulationError(f"the bidder's ({SEATS[b]}) hand must be known")
    kw = {} if max_tries is None else {"max_tries": max_tries}
    spec = deal_spec(known, hand_size, jokers=True, unseen=unseen, kitty=kitty,
                     constraints=constraints, **kw)
    if spec.kitty <= 0:
        # (an exchange of nothing would still count the discard's book)
        raise SimulationError("the bid question needs a kitty, and the unseen cards leave none "
                              "(they fill the unknown hands): the bidder has nothing to take "
                              "and discard; ask the lead or tricks question")
    opts = tuple((_strain(t), _ranking(r)) for t, r in options)
    if not opts:
        raise SimulationError("no options to examine")
    if scoring is not None:
        min_bid_3 = min_bid_3 or scoring.min_bid_3
    return BidQuestion(spec, b, opts, bool(min_bid_3),
                       scoring=Scoring() if scoring is None else scoring)


class BidAggregate(_Aggregate):
    """Per option: the books' histogram, mean and standard error, the chance
    of making each level (books >= level + 6), the expected score of each
    bid (made: books - 6; set: minus the books short; or the problem's
    scoring variant); the recommended bid:
    the highest expected score, ties to the higher bid in the order of
    :func:`whist_solve.bid.bid_rank` (number, then uptown < downtown <
    no-trump), then to the earlier option.  With ``min_bid_3`` only bids 3
    to 7 are recommended."""

    question = "bid"

    def __init__(self, problem: BidQuestion, seed):
        super().__init__(problem, seed, len(problem.options))

    def score_total(self, j: int, level: int) -> int:
        return sum(c * self.problem.score(level, b, j) for b, c in self.hists[j].items())

    def bids(self):
        """(option index, level) of every bid that may be recommended."""
        lo = min_level(self.problem.min_bid_3)
        return [(j, lv) for j in range(len(self.problem.options)) for lv in range(lo, 8)]

    def best(self) -> Optional[Tuple[int, int]]:
        """(option index, level) of the recommended bid, None before any sample."""
        if not self.samples:
            return None
        opts = self.problem.options

        def key(b):
            j, lv = b
            t, r = opts[j]
            return (self.score_total(j, lv), bid_rank(lv, t, r), -j)
        return max(self.bids(), key=key)

    def close_bids(self) -> List[Tuple[int, int]]:
        """Bids whose expected score is within the noise of the best's
        (paired differences over the same samples)."""
        best = self.best()
        if best is None:
            return []
        jb, lb = best
        score = self.problem.score
        sb = [score(lb, row[jb], jb) for row in self.rows]
        out = []
        for j, lv in self.bids():
            if (j, lv) == best:
                continue
            m, se = _paired(sb, [score(lv, row[j], j) for row in self.rows])
            if _within_noise(m, se):
                out.append((j, lv))
        return _at_least_as_good(out, [b for b in self.bids() if b != best],
                                 lambda b: self.score_total(*b))

    def to_json(self) -> dict:
        p = self.problem
        n = self.samples
        out = self._head()
        out["bidder"] = SEATS[p.bidder]
        out["min_bid_3"] = p.min_bid_3
        out["scoring"] = p.rules.as_json()
        options = []
        for j, (t, r) in enumerate(p.options):
            o = {"trump": t, "ranking": r}
            o.update(self.column(j))
            o["make"] = {str(lv): _r(self.make(j, lv)) for lv in LEVELS}
            o["score"] = {str(lv): _r(self.score_total(j, lv) / n if n else None)
                          for lv in LEVELS}
            options.append(o)
        out["options"] = options
        best = self.best()
        if best is None:
            out["best"] = None
        else:
            j, lv = best
            t, r = p.options[j]
            scores = [p.score(lv, row[j], j) for row in self.rows]
            s = sum(scores)
            out["best"] = {"trump": t, "ranking": r, "level": lv,
                           "contract": contract_name(lv, t, r), "bid": bid_name(lv, t, r),
                           "score": _r(s / n), "stderr": _r(_stderr(s, sum(x * x for x in scores), n))}
            out["close"] = [contract_name(lv2, *p.options[j2]) for j2, lv2 in self.close_bids()]
        return self._tail(out)


# --------------------------------------------------------------------------
# Lead


@dataclass(frozen=True)
class LeadQuestion:
    """The opening lead: the leader's hand known and a contract.  Per
    sample, the tricks the leader's side takes with each card of the
    leader's hand (``cards`` order), best play after."""

    spec: DealSpec
    leader: int
    trump: Optional[str]
    ranking: str
    level: int
    need: int                  # tricks the declaring side needs from here
    declarer: int
    cards: tuple               # the leader's cards, display order
    groups: tuple              # tuples of equal cards
    tt_mb: float = DEFAULT_TT_MB
    kitty_book: int = 0        # bid whist: the discard's book, already the declaring side's
    contract_given: bool = True   # else (classic whist) the question is who takes the majority

    question = "lead"

    @property
    def leader_declares(self) -> bool:
        """The leader's side declares (bid whist: the bidder leads), else
        it defends."""
        return self.declarer % 2 == self.leader % 2

    def solve_sample(self, solver, deal) -> tuple:
        pos = Position.make(deal.hands, self.trump, self.ranking, self.leader)
        vals = solver.solve(pos, cards=True, line=False).cards
        return tuple(vals[c] for c in self.cards)

    def aggregate(self, seed) -> "LeadAggregate":
        return LeadAggregate(self, seed)

    @property
    def contract(self) -> str:
        return contract_name(self.level, self.trump or "NT", self.ranking)


def lead_question(known: Sequence, leader, *, trump, ranking: str = "up", level: int = 1,
                  need: Optional[int] = None, declarer=None, jokers: bool = False,
                  unseen=None, hand_size=None, trump_card=None, dealer=None,
                  constraints: Iterable[str] = (), max_tries: Optional[int] = None,
                  kitty_book: int = 0, contract_given: bool = True) -> LeadQuestion:
    """The lead question.  ``trump``: 'S' 'H' 'D' 'C' or 'NT'; ``level``
    1-7: the declaring side (``declarer``'s, by default the leader's
    right-hand opponent's; the leader's own side in bid whist, where the
    bidder leads) needs ``level + 6`` tricks, less ``kitty_book`` (bid
    whist: the bidder's discard is its side's first book), or ``need``
    tricks when given (an ending).  The contract fails ("set") on a deal
    when the declaring side takes fewer.  Without ``contract_given``
    (classic whist, where no one bids) the JSON names no contract and
    ``need`` is the majority.  Unseen cards the hands do not get are out
    of play."""
    if len(known) != 4:
        raise SimulationError("four hands (N, E, S, W) are needed, None for an unknown one")
    ld = _seat(leader)
    if known[ld] is None:
        raise SimulationError(f"the leader's ({SEATS[ld]}) hand must be known")
    dec = (ld + 3) % 4 if declarer is None else _seat(declarer)
    if not 1 <= int(level) <= 7:
        raise SimulationError(f"contract level {level} (1 to 7)")
    strain = _strain(trump)
    rk = _ranking(ranking)
    if trump_card is not None and str(trump_card).strip().upper()[:1] != strain[:1]:
        raise SimulationError(f"the turned-up card {trump_card} makes {str(trump_card)[:1].upper()} "
                              f"trumps, not {strain}")
    kw = {} if max_tries is None else {"max_tries": max_tries}
    spec = deal_spec(known, hand_size, jokers=jokers, unseen=unseen, kitty=None,
                     trump_card=trump_card, dealer=dealer, constraints=constraints, **kw)
    n = spec.hand_size
    book = int(kitty_book) if need is None else 0
    nd = int(level) + BOOKS_FOR_LEVEL - book if need is None else int(need)
    if not 0 <= nd <= n:
        raise SimulationError(f"the declaring side needs {nd} of {n} tricks: impossible to judge")
    t = None if strain == "NT" else strain
    hand = list(spec.known[ld])
    cards = tuple(sort_cards(hand, rk))
    in_play = [c for h in spec.known if h is not None for c in h] + list(spec.pool)
    if spec.preplaced:
        in_play.append(spec.preplaced[1])
    groups = tuple(tuple(g) for g in equal_card_groups(hand, in_play, t, rk))
    return LeadQuestion(spec, ld, t, rk, int(level), nd, dec, cards, groups, kitty_book=book,
                        contract_given=contract_given)


class LeadAggregate(_Aggregate):
    """Per card of the leader: histogram of the leader's side's tricks,
    mean, standard error and the share of deals the contract fails.  The
    best lead has the highest mean (ties: the first card in display order);
    a card is within the noise of it when the mean of the paired
    differences (the same samples) is below 2 standard errors of them."""

    question = "lead"

    def __init__(self, problem: LeadQuestion, seed):
        super().__init__(problem, seed, len(problem.cards))

    def set_share(self, j: int) -> Optional[float]:
        """The share of the deals where the contract fails after card j
        (the histogram counts the leader's side's tricks)."""
        if not self.samples:
            return None
        p = self.problem
        if p.leader_declares:
            return sum(c for v, c in self.hists[j].items() if v < p.need) / self.samples
        beat = p.spec.hand_size - p.need   # the leader's side needs more
        return sum(c for v, c in self.hists[j].items() if v > beat) / self.samples

    def majority_share(self, j: int) -> Optional[float]:
        """The share of the deals where the leader's side takes more than
        half of the tricks after card j (the question without a contract).
        With an even number of tricks a tie is neither side's majority, so
        this is not 1 - set_share when the declaring side is the other one
        (``set`` counts the deals where it misses its majority, ties
        included)."""
        if not self.samples:
            return None
        half = self.problem.spec.hand_size / 2
        return sum(c for v, c in self.hists[j].items() if v > half) / self.samples

    def best(self) -> Optional[int]:
        if not self.samples:
            return None
        return max(range(len(self.problem.cards)), key=lambda j: (self.sums[j], -j))

    def close(self) -> List[int]:
        """Indices of the cards within the noise of the best (the best included)."""
        b = self.best()
        if b is None:
            return []
        col_b = [row[b] for row in self.rows]
        out = []
        for j in range(len(self.problem.cards)):
            m, se = _paired(col_b, [row[j] for row in self.rows])
            if j != b and _within_noise(m, se):
                out.append(j)
        return sorted(_at_least_as_good(out, [j for j in range(len(self.problem.cards)) if j != b],
                                        lambda j: self.sums[j]) + [b])

    def to_json(self) -> dict:
        p = self.problem
        out = self._head()
        out["leader"] = SEATS[p.leader]
        out["contract"] = p.contract if p.contract_given else None
        # (what was played: without a contract, only these say it)
        out["trump"] = p.trump or "NT"
        out["ranking"] = p.ranking
        out["declarer"] = SEATS[p.declarer]
        out["need"] = p.need
        close = set(self.close())
        group_of = {c: g for g in p.groups for c in g}
        cards = {}
        for j, c in enumerate(p.cards):
            o = self.column(j)
            o["set"] = _r(self.set_share(j))
            if not p.contract_given:
                o["majority"] = _r(self.majority_share(j))
            o["close"] = j in close
            o["equal"] = [x for x in group_of[c] if x != c]
            cards[c] = o
        out["cards"] = cards
        b = self.best()
        out["best"] = None if b is None else p.cards[b]
        out["groups"] = [list(g) for g in p.groups]
        return self._tail(out)


# --------------------------------------------------------------------------
# Tricks


@dataclass(frozen=True)
class TricksQuestion:
    """The double-dummy table of the sampled deals: per sample, the N-S
    tricks for every strain, ranking and leader (in that nesting order)."""

    spec: DealSpec
    strains: tuple = STRAINS
    rankings: tuple = ("up",)
    leaders: tuple = (0, 1, 2, 3)
    tt_mb: float = DEFAULT_TT_MB
    kitty_book: int = 0        # bid whist: the leader bids, and its discard is a book

    question = "tricks"

    @property
    def cells(self) -> List[tuple]:
        return [(s, r, ld) for s in self.strains for r in self.rankings for ld in self.leaders]

    def solve_sample(self, solver, deal) -> tuple:
        hands = [list(h) for h in deal.hands]
        out = []
        for s in self.strains:
            t = None if s == "NT" else s
            for r in self.rankings:
                guess = first_guess(hands, t, r)
                for ld in self.leaders:
                    v = solver.ns_value_unchecked(hands, t, r, ld, guess)
                    out.append(v)
                    guess = v
        return tuple(out)

    def aggregate(self, seed) -> "TricksAggregate":
        return TricksAggregate(self, seed)


def tricks_question(known: Sequence, *, strains: Sequence[str] = STRAINS,
                    rankings: Sequence[str] = ("up",), leaders: Sequence = ("N", "E", "S", "W"),
                    jokers: bool = False, unseen=None, hand_size=None, trump_card=None,
                    dealer=None, constraints: Iterable[str] = (),
                    max_tries: Optional[int] = None, kitty_book: int = 0) -> TricksQuestion:
    """The tricks question from any known hands (unseen cards the hands do
    not get are out of play).  ``kitty_book`` (bid whist, 1): the leader is
    the bidder, whose discard is its side's first book; the make shares are
    then the leader's side's, books counted."""
    kw = {} if max_tries is None else {"max_tries": max_tries}
    spec = deal_spec(known, hand_size, jokers=jokers, unseen=unseen, kitty=None,
                     trump_card=trump_card, dealer=dealer, constraints=constraints, **kw)
    st = tuple(dict.fromkeys(_strain(s) for s in strains))
    rk = tuple(dict.fromkeys(_ranking(r) for r in rankings))
    ld = tuple(dict.fromkeys(_seat(x) for x in leaders))
    if not st or not rk or not ld:
        raise SimulationError("the tricks question needs a strain, a ranking and a leader")
    return TricksQuestion(spec, st, rk, ld, kitty_book=int(kitty_book))


class TricksAggregate(_Aggregate):
    """Per strain, ranking and leader: histogram of N-S tricks, mean,
    standard error, and the share of deals N-S take each level
    (tricks >= level + 6; E-W's chances follow from the histogram).  In
    bid whist (the question's kitty_book) the bidder leads: the share of
    deals the leader's side takes level + 6 books, its discard's book
    counted."""

    question = "tricks"

    def __init__(self, problem: TricksQuestion, seed):
        super().__init__(problem, seed, len(problem.cells))

    def leader_makes(self, j: int, leader: int, level: int) -> Optional[float]:
        """Bid whist: the share of the samples in which the leader's side
        (the bidder's) takes ``level`` + 6 books, its discard's included."""
        if not self.samples:
            return None
        n = self.problem.spec.hand_size
        need = level + BOOKS_FOR_LEVEL - self.problem.kitty_book
        return sum(c for v, c in self.hists[j].items()
                   if (v if leader % 2 == 0 else n - v) >= need) / self.samples

    def to_json(self) -> dict:
        out = self._head()
        table: dict = {}
        for j, (s, r, ld) in enumerate(self.problem.cells):
            o = self.column(j)
            if self.problem.kitty_book:
                o["make"] = {str(lv): _r(self.leader_makes(j, ld, lv)) for lv in LEVELS}
            else:
                o["make"] = {str(lv): _r(self.make(j, lv)) for lv in LEVELS}
            table.setdefault(s, {}).setdefault(r, {})[SEATS[ld]] = o
        out["table"] = table
        return self._tail(out)


Question = Union[BidQuestion, LeadQuestion, TricksQuestion]


# --------------------------------------------------------------------------
# Running

_SOLVERS: dict = {}


_HELPERS = threading.local()


def _helpers(tt_mb: float, n: int) -> list:
    """This thread's extra solvers for a sample's threads (kept between
    samples, like the main one: a table made and dropped for every sample
    would be paged in anew each time)."""
    if n <= 0:
        return []
    if getattr(_HELPERS, "tt_mb", None) != tt_mb:
        _HELPERS.tt_mb = tt_mb
        _HELPERS.held = []
    return grow_solvers(_HELPERS.held, n, tt_mb)[:n]


def _solver_for(problem) -> Solver:
    """This process's solver for the problem's table size (kept between
    batches: the table's bounds stay true from deal to deal)."""
    mb = problem.tt_mb
    s = _SOLVERS.get(mb)
    if s is None:
        _SOLVERS.clear()
        s = _SOLVERS[mb] = Solver(mb)
    return s


def run_samples(solver, item) -> list:
    """The results of samples ``indices`` of ``seed``: ``item`` is
    ``(problem, seed, indices)``.  Module-level and of picklable arguments,
    for a batch runner mapping it over chunks of indices; ``solver`` None
    uses one solver per process."""
    problem, seed, indices = item
    if solver is None:
        solver = _solver_for(problem)
    spec = problem.spec
    return [problem.solve_sample(solver, sample_deal(spec, seed, i)) for i in indices]


class WorkItems(abc.Sequence):
    """The items of :func:`work_items`, made as they are read: a run of
    many samples (``--count 100000000 --time 10``) holds no list of them."""

    def __init__(self, problem, seed, count: int, chunk: int, start: int):
        self.problem, self.seed, self.chunk = problem, seed, chunk
        self.end = start + count
        self.starts = range(start, self.end, chunk)

    def __len__(self) -> int:
        return len(self.starts)     # OverflowError beyond sys.maxsize items

    def _item(self, i: int) -> tuple:
        """The item of the chunk that starts at sample i."""
        return (self.problem, self.seed, tuple(range(i, min(i + self.chunk, self.end))))

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self._item(i) for i in self.starts[k]]
        return self._item(self.starts[k])

    def __iter__(self):
        return map(self._item, self.starts)


def work_items(problem, seed, count: int, chunk: int = 8, start: int = 0) -> Sequence[tuple]:
    """Samples ``start .. start + count - 1`` as items for :func:`run_samples`,
    ``chunk`` samples each (a sequence that makes them as they are read)."""
    if chunk < 1:
        raise SimulationError("chunk must be at least 1")
    return WorkItems(problem, seed, max(0, count), chunk, start)


def simulate(problem, count: int, seed=0, solver=None,
             progress: Optional[Callable] = None,
             stop: Union[None, float, Callable[[], bool]] = None, aggregate=None):
    """Run ``count`` samples of ``problem`` in this process and return the
    aggregate (``.to_json()`` for the report).

    ``progress(aggregate)`` is called after every sample.  ``stop`` is a
    time budget in seconds or a function returning True to stop; a run
    stopped early is marked partial.  Pass your own ``aggregate``
    (``problem.aggregate(seed)``) to keep a handle on the samples taken so
    far when the run is interrupted."""
    if count < 0:
        raise SimulationError(f"sample count {count}")
    agg = aggregate if aggregate is not None else problem.aggregate(seed)
    check_solver(solver, needs="solve")
    if solver is None:
        solver = Solver(problem.tt_mb)
    if stop is not None and not callable(stop):
        deadline = time.monotonic() + float(stop)

        def stop():
            return time.monotonic() >= deadline
    spec = problem.spec
    one = only_deal(problem)     # every sample the same deal: solved once
    result = None
    for i in range(agg.samples, count):
        if stop is not None and stop():
            agg.partial = True
            break
        if result is None or not one:
            result = problem.solve_sample(solver, sample_deal(spec, seed, i))
        agg.add(result)
        if progress is not None:
            progress(agg)
    return agg


def only_deal(problem) -> bool:
    """Is every card known (one deal only: every sample is that deal, its
    result the same, so it is solved once)?  A bid question of a board
    whose hands are all known took 100 times bid's time."""
    return problem.spec.fixed
