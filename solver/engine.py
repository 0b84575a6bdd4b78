"""The Python face of the search core: convert a Position to the engine's
bit masks, call the core, and return plain data."""
from __future__ import annotations

import operator
import os
import threading
import time
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, List, Optional, Sequence

from ._engine import Core
from .cards import (JOKERS, RANKINGS, SEATS, STRAINS, SUITS, Position, PositionError, card_runs,
                    hand_sizes, power, sort_cards)
from .errors import WhistError
from .symmetry import fill, table_plan

# Table size of a solver made without one (solve, table, simulate's lead
# and tricks questions, review, puzzles), per thread: 16 MB of slots and
# 28 MB of pattern pages (_tt.pxd's tt_init).  Random deals never fill it
# (17.86M nodes on the random set either way).  The deals that fill it
# search a little more than in 64 MB: bridge-solver's 19 hard deals
# 214.46M nodes against 211.45M, the four-void deal 32.37M against 31.70M,
# the two-suited deal 79.67M against 78.80M; and the two-suited deal's
# whole process takes about 63 MB instead of 80 MB (bridge-solver: 67 MB).
DEFAULT_TT_MB = 44

# Table size of the exchange's solvers (bid.py).  The keeps of one option
# share the table; a full table is emptied, which throws the shared bounds
# away, so a big one pays (on a slow no-trump deal 256 MB searched 3x fewer
# nodes than 64 MB, and the slowest of 40 seeded deals fills 90% of 256 MB:
# 512 MB leaves room for harder ones).  Memory is touched as the table fills.
BID_TT_MB = 512

_MB = 1024 * 1024

# A solver's table is emptied when the ranking of its positions changes
# (Solver.core_for), not only the trump.  The other ranking's bounds stay
# true but seldom match, and the longer lists cost every probe a little:
# 20 samples of the bid question of examples/simulate.pbn (ten options,
# each trump's uptown then downtown on one solver) 20.04-20.77 s against
# 20.87-21.69 s kept (199.2M nodes against 198.5M); the up and down tables
# of the random set 5.08-5.15 s against 5.27-5.28 s (46.08M nodes against
# 45.82M); all 100 samples, two pairs of processes side by side, 120.3 s
# and 121.8 s against 122.2 s and 123.5 s, the same answers.
RANKING_CLEAR = True


class TableMemoryError(WhistError):
    """The transposition table asked for does not fit in the memory."""


def _proc_mb(path: str, key: str) -> Optional[float]:
    """The ``key: N kB`` line of a /proc file in MB, None when unreadable."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def available_memory_mb() -> Optional[float]:
    """The memory a new table may take, in MB: the system's available
    memory (MemAvailable of /proc/meminfo, else the free physical pages),
    less what the address-space limit (RLIMIT_AS) leaves when one is set;
    None when unknown."""
    avail = _proc_mb("/proc/meminfo", "MemAvailable:")
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / _MB
        except (ValueError, OSError, AttributeError):
            pass
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            used = _proc_mb("/proc/self/status", "VmSize:") or 0.0
            room = max(0.0, soft / _MB - used)
            avail = room if avail is None else min(avail, room)
    except (ImportError, ValueError, OSError):
        pass
    return avail


def mb_text(x: float) -> str:
    """A number of MB as said to people: 100,000,000 rather than 1e+08."""
    return f"{x:,.0f}" if x == int(x) else f"{x:g}"


def check_tt_size(tt_mb: float) -> None:
    """Raise :class:`TableMemoryError` when a table of ``tt_mb`` MB is more
    than the memory available."""
    if not tt_mb > 0:
        raise TableMemoryError(f"bad table size {tt_mb!r} MB (expected a positive number)")
    avail = available_memory_mb()
    if avail is not None and tt_mb > avail:
        raise TableMemoryError(
            f"a transposition table of {mb_text(tt_mb)} MB is more than the memory available "
            f"({avail:,.0f} MB): choose a smaller --tt-mb")


@lru_cache(maxsize=None)
def engine_card(card: str, trump: Optional[str], ranking: str) -> tuple:
    """(suit, power) of a card in the engine's coordinates."""
    if card in JOKERS:
        if trump is None:
            return (4, 1 if card == "JH" else 0)
        return (SUITS.index(trump), power(card, trump, ranking))
    return (SUITS.index(card[0]), power(card, trump, ranking))


def equal_card_groups(hand: Sequence[str], in_play: Iterable[str], trump: Optional[str],
                      ranking: str) -> List[List[str]]:
    """The cards of ``hand`` in groups of equals: adjacent in the order of
    their suit for this trump and ranking with no other card in play
    between them (the jokers are the top trumps of a trump suit; at
    no-trump they are two suitless losers).  Equal cards have the same
    double-dummy value in every deal.  Groups and cards highest first."""
    mine = set(hand)
    by_suit: dict = {}
    for c in set(in_play) | mine:
        s, pw = engine_card(c, trump, ranking)
        by_suit.setdefault(s, []).append((pw, c))
    groups = []
    for s in sorted(by_suit):
        ordered = sorted(by_suit[s], key=lambda x: (-x[0], x[1]))
        groups += card_runs([c for _pw, c in ordered], mine)
    return groups


@dataclass
class SolveResult:
    """What `Solver.solve` finds for one position."""

    turn: int                      # seat on turn (0..3 = N E S W)
    tricks: int                    # tricks the side on turn takes from here, current trick included
    ns_tricks: int                 # the same counted for N-S
    tricks_left: int               # tricks still to play, current one included
    cards: dict = field(default_factory=dict)   # legal card -> tricks the side on turn takes with it
    line: list = field(default_factory=list)    # one optimal play to the end
    nodes: int = 0                 # nodes searched for this answer


def _fresh_locks_after_fork() -> None:
    """In a child process made by fork, every Solver's lock is new: one
    held by a thread of the parent (which the child does not have) would
    otherwise never be released, and the child's first call would wait
    for ever.  A solver that such a thread was using is caught in the
    middle of a search (its core's position, its table perhaps shared):
    it gets a new, empty core of the same size."""
    for solver in list(_SOLVERS):
        busy = not solver._lock.acquire(blocking=False)
        solver._lock = threading.RLock()
        if busy:
            try:
                solver._core = Core(solver._core.tt_bytes)
            except MemoryError:
                pass                 # (the old core then: its next call may fail)
            solver._sig = solver._own_sig = solver._ranking = None


_SOLVERS: "weakref.WeakSet" = weakref.WeakSet()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks_after_fork)


class Solver:
    """A double-dummy solver with its own transposition table.

    Reuse one Solver for many positions: stored bounds carry over between
    positions of the same deal and strain (for example the four leaders of a
    table, or the steps of a line).

    One search at a time: the methods that search (solve, ns_value, value,
    can_take and their unchecked forms) and clear take the solver's lock,
    so calls from several threads wait for one another.  The search itself
    releases the GIL: for work side by side, give each thread a Solver of
    its own (dd_table's ``threads`` does).  Callers of core_for use the
    core themselves and must keep other threads off the solver meanwhile."""

    def __init__(self, tt_mb: float = DEFAULT_TT_MB):
        check_tt_size(tt_mb)
        try:
            self._core = Core(int(tt_mb * _MB))
        except (MemoryError, OverflowError):
            raise TableMemoryError(f"cannot allocate a transposition table of {tt_mb:g} MB: "
                                   "choose a smaller --tt-mb") from None
        self._sig = None
        self._own_sig = None     # _sig of its own table while it searches another's
        self._ranking = None     # the ranking of the positions its table holds, if known
        # Two threads in one core at once wrote over each other's position
        # and table: a segfault or wrong values.
        self._lock = threading.RLock()
        _SOLVERS.add(self)

    def __copy__(self):
        # (a copy would share the table, and each would take the other's
        # bounds for its own: wrong values)
        raise TypeError("a Solver cannot be copied: make another one, with a table of its own")

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        raise TypeError("a Solver cannot be pickled: make one where it is needed")

    @property
    def nodes(self) -> int:
        """Nodes searched since the solver was made."""
        return self._core.nodes

    @property
    def tt_bytes(self) -> int:
        return self._core.tt_bytes

    def clear(self) -> None:
        with self._lock:
            self._core.clear()
            self._sig = None
            self._ranking = None

    @property
    def shareable(self) -> bool:
        """Whether other solvers may search in this one's table
        (:meth:`share_table_of`); its stores then take a lock.  Set it
        while the solver is not searching.  A table starts small and grows
        as it fills, but not while shared: made shareable, it takes all
        the slots it was made with at once."""
        return self._core.shareable

    @shareable.setter
    def shareable(self, on: bool) -> None:
        self._core.shareable = on

    def bring_in_table(self, other: Optional["Solver"] = None) -> None:
        """Have the system bring all the slots of ``other``'s own table (by
        default this solver's) into memory now rather than at the first
        store to each part; ``other`` may be searching meanwhile (see
        Core.bring_in_table)."""
        self._core.bring_in_table((other or self)._core)

    def share_table_of(self, other: "Solver") -> bool:
        """Search in ``other``'s own table from now on, side by side with it,
        until :meth:`own_table`: a thread that takes over part of another's
        work on one deal and trump (the keeps of an exchange) finds what
        the other has stored and will store, and the other what it
        stores.  ``other``'s table must be shareable, and ``other`` must
        search in its own; it may be searching meanwhile.  Neither solver
        may then change trump or clear the table until this one calls
        own_table (they raise RuntimeError).  Returns False, and this
        solver searches its own table, while ``other``'s table, full, is
        making room."""
        self.own_table()
        if other is self:
            return True
        if other._core.sharing:
            raise RuntimeError("share_table_of: that solver searches another's table")
        if not self._core.share_from(other._core):
            return False
        self._own_sig = self._sig
        self._sig = other._sig
        return True

    def own_table(self) -> None:
        """Back to this solver's own table: as share_table_of found it, or
        (the shared table having filled up meanwhile) holding positions of
        the shared table's trump."""
        back = self._core.unshare()
        if back:
            self._sig = self._own_sig
        elif back is not None:
            self._ranking = None

    def core_for(self, trump: Optional[str], ranking: Optional[str] = None) -> Core:
        """The search core, its table ready for positions with this trump
        suit (None at no-trump): for callers that put many positions of one
        deal to the core in engine coordinates (`engine_card`) themselves.

        A stored bound is a fact about every position with the same suit
        lengths and owners of the top cards, in the engine's coordinates
        (powers within suits), whatever the deal: only a change of trump
        suit makes the table stale, and then it is emptied.

        A change of ``ranking`` (when given) empties it too, though its
        bounds still hold, when no other core can be searching in it (its
        own table, not shareable): the other ranking's patterns seldom
        match and lengthen the lists each probe reads (see RANKING_CLEAR)."""
        core = self._core
        if self._sig != trump:
            core.clear()
            self._sig = trump
            self._ranking = ranking
        elif ranking is not None and ranking != self._ranking and not core.sharing:
            if self._ranking is not None and RANKING_CLEAR and not core.shareable:
                core.clear()
            self._ranking = ranking
        return core

    def _load(self, pos: Position) -> dict:
        """Give the position to the core; return the map engine card -> name.
        The position is checked first (a few microseconds): one made
        directly, not by Position.make or play, may hold anything."""
        if not isinstance(pos, Position):
            raise TypeError(f"expected a Position, not {type(pos).__name__}")
        pos.validate()
        trump, ranking = pos.trump, pos.ranking
        self.core_for(trump, ranking)
        names = {}
        hands = []
        for h in pos.hands:
            coords = []
            for c in h:
                e = engine_card(c, trump, ranking)
                names[e] = c
                coords.append(e)
            hands.append(coords)
        trick = []
        for c in pos.trick:
            e = engine_card(c, trump, ranking)
            names[e] = c
            trick.append(e)
        t = -1 if trump is None else SUITS.index(trump)
        self._core.set_position(hands, t, pos.leader, trick)
        return names

    def _load_hands(self, hands, trump: Optional[str], ranking: str, leader: int) -> None:
        if trump not in _TRUMPS:
            if trump != "NT":
                raise PositionError(f"unknown trump {trump!r} (S, H, D, C, or None or NT)")
            trump = None
        if ranking not in RANKINGS:
            raise PositionError(f"unknown ranking {ranking!r} (up or down)")
        if len(hands) != 4 or leader not in (0, 1, 2, 3):
            raise PositionError(f"four hands and a leading seat 0-3, not {len(hands)} "
                                f"hands and {leader!r}")
        if len({len(h) for h in hands}) != 1:      # (a trick boundary)
            raise PositionError(f"unequal hands ({hand_sizes(hands)}) at a trick boundary")
        self.core_for(trump, ranking).set_position([[engine_card(c, trump, ranking) for c in h] for h in hands],
                                -1 if trump is None else SUITS.index(trump), leader, ())

    def ns_value_unchecked(self, hands, trump: Optional[str], ranking: str, leader: int,
                           guess: int = -1) -> int:
        """`ns_value` of a deal given as four lists of card names, at a trick
        boundary, without validating it: for programs that solve many
        positions they built themselves (the caller guarantees a legal
        deal)."""
        with self._lock:
            self._load_hands(hands, trump, ranking, leader)
            return self._core.value(_guess(guess, len(hands[leader])))

    def can_take_unchecked(self, hands, trump: Optional[str], ranking: str, leader: int,
                           side: str, tricks: int) -> bool:
        """`can_take` of a deal given as four lists of card names, without
        validating it (see `ns_value_unchecked`)."""
        with self._lock:
            self._load_hands(hands, trump, ranking, leader)
            return self._can_take(side, tricks, len(hands[leader]))

    def ns_value(self, pos: Position, guess: int = -1) -> int:
        """Tricks N-S take from the position on (current trick included)."""
        with self._lock:
            self._load(pos)
            return self._core.value(_guess(guess, pos.tricks_left))

    def value(self, pos: Position) -> int:
        """Tricks the side on turn takes from the position on."""
        ns = self.ns_value(pos)
        return ns if pos.turn % 2 == 0 else pos.tricks_left - ns

    def can_take(self, pos: Position, side: str, tricks: int) -> bool:
        """Null-window question: can `side` ('NS' or 'EW') take at least
        `tricks` tricks from the position on?"""
        with self._lock:
            self._load(pos)
            return self._can_take(side, tricks, pos.tricks_left)

    def _can_take(self, side: str, tricks: int, left: int) -> bool:
        """can_take of the position loaded, with ``left`` tricks to play."""
        if side not in ("NS", "EW"):
            raise ValueError(f"side {side!r}: expected 'NS' or 'EW'")
        tricks = operator.index(tricks)
        if tricks <= 0 or tricks > left:          # (asked of the engine, out of its ints)
            return tricks <= 0
        if side == "NS":
            return self._core.can_take(tricks)
        return not self._core.can_take(left - tricks + 1)

    def solve(self, pos: Position, cards: bool = True, line: bool = True) -> SolveResult:
        with self._lock:
            return self._solve(pos, cards, line)

    def _solve(self, pos: Position, cards: bool, line: bool) -> SolveResult:
        start = self._core.nodes
        names = self._load(pos)
        left = pos.tricks_left
        ns = self._core.value()
        ns_turn = pos.turn % 2 == 0
        res = SolveResult(turn=pos.turn, tricks=ns if ns_turn else left - ns,
                          ns_tricks=ns, tricks_left=left)
        if cards:
            vals = {}
            for e, v in self._core.card_values(ns):
                vals[names[e]] = v if ns_turn else left - v
            res.cards = {c: vals[c] for c in sort_cards(vals, pos.ranking)}
        if line:
            self._load(pos)
            res.line = [names[e] for e in self._core.line(ns)]
        res.nodes = self._core.nodes - start
        return res


def _table_args(hands, strains, rankings, solver):
    """dd_table's arguments checked (PositionError, TypeError) before the
    symmetry code reads them: hands as lists, strains and rankings as
    tuples (a single one may be given as a string)."""
    if isinstance(strains, str):
        strains = (strains,)
    if isinstance(rankings, str):
        rankings = (rankings,)
    strains, rankings = tuple(strains), tuple(rankings)
    for strain in strains:
        if strain not in STRAINS:
            raise PositionError(f"unknown strain {strain!r} (S, H, D, C or NT)")
    for ranking in rankings:
        if ranking not in RANKINGS:
            raise PositionError(f"unknown ranking {ranking!r} (up or down)")
    check_solver(solver)
    if isinstance(hands, str) or any(isinstance(h, str) for h in hands):
        raise PositionError("hands: four lists of card names (N, E, S, W)")
    hands = [list(h) for h in hands]
    Position.make(hands, None)          # the cards and the hands' sizes
    return hands, strains, rankings


def check_solver(solver, needs: Optional[str] = None) -> None:
    """TypeError unless ``solver`` (an optional argument) is None or a
    Solver, or with ``needs`` anything with that method (a wrong one failed
    with an AttributeError deep inside)."""
    if solver is None or (isinstance(solver, Solver) if needs is None
                          else callable(getattr(solver, needs, None))):
        return
    raise TypeError(f"solver: a Solver, not {type(solver).__name__}")


def grow_solvers(solvers: list, n: int, tt_mb: float) -> list:
    """Add solvers of ``tt_mb`` MB to the list ``solvers`` until it holds
    ``n``, or fewer when the memory for another table is not there; return
    the list."""
    while len(solvers) < n:
        try:
            solvers.append(Solver(tt_mb))
        except TableMemoryError:
            break
    return solvers


def _guess(guess, left: int) -> int:
    """A first target for Core.value: ``guess`` within -1 (none) .. left."""
    return min(max(operator.index(guess), -1), left)


def solve(pos: Position, cards: bool = True, line: bool = True,
          tt_mb: float = DEFAULT_TT_MB) -> SolveResult:
    """Solve one position with a fresh solver."""
    return Solver(tt_mb).solve(pos, cards=cards, line=line)


_TRUMPS = frozenset((None, "S", "H", "D", "C"))


def dd_table(hands: Sequence[Iterable[str]], strains: Sequence[str] = STRAINS,
             rankings: Sequence[str] = ("up",), solver: Optional[Solver] = None,
             threads: int = 1, tt_mb: float = DEFAULT_TT_MB, symmetry: bool = True) -> dict:
    """Double-dummy table: {strain: {ranking: {seat: N-S tricks when that
    seat leads to the first trick}}}.  Strains are 'S','H','D','C','NT'.

    A deal that turns into itself when the seats are turned and the suits
    renamed (a composed deal; see symmetry.py) has results that equal
    others: with ``symmetry`` (the default) only one of each such family is
    searched, the rest read off it.

    A row (one strain and ranking, the four leaders) is solved on one
    solver, its leaders in turn, so that the bounds the first leader's
    search stores serve the next three; each leader's searches start from
    the value of the one before, the first's from an estimate
    (first_guess).  With ``threads`` > 1 the rows are
    shared out among that many threads (no-trump first: usually the
    longest), each with a solver of its own (``solver`` is the first
    thread's; the others get ``tt_mb`` each): the search releases the GIL,
    so the rows are solved side by side.  A thread with no row left takes
    the last two leaders of a row whose owner has not started them (if
    the owner's table is filling up), and then helps the owners find
    their values by testing each one's next target ahead of it, in its
    table, or by searching its test now beside it there while the table
    has room, or else by searching an owner's test after each first
    card, in its own (see _threaded_table)."""
    hands, strains, rankings = _table_args(hands, strains, rankings, solver)
    search, derived, leaders = table_searches(hands, strains, symmetry)
    rows = [(strain, ranking) for strain in strains for ranking in rankings if leaders[strain]]
    threads = max(1, min(operator.index(threads), len(rows)))
    solver = solver or Solver(tt_mb)
    # (fewer threads when the memory for another table is not there: one
    # thread needs only the first solver's)
    solvers = grow_solvers([solver], threads, tt_mb)
    done = None
    if len(solvers) > 1:
        # The caller's solver is held for the whole table: the other
        # threads search in its table too, up to their own last row (held
        # only by the thread that searched in it, it was free while a
        # helper still searched there, and a call from elsewhere failed:
        # "clear: other cores search this core's table").  The solvers
        # made here are this call's alone.
        with solver._lock:
            try:
                done = _threaded_table(hands, rows, solvers, leaders=leaders)
            except RuntimeError as e:
                # no memory for another thread's stack (its table fitted):
                # the table on this thread alone, as with one solver (the
                # searches the threads began have stopped; what they stored
                # is true)
                if "can't start new thread" not in str(e):
                    raise
    if done is None:
        done = {row: _table_row(solver, hands, *row, leaders=leaders[row[0]]) for row in rows}
    table: dict = {strain: {} for strain in strains}
    tricks = len(hands[0])
    for ranking in rankings:
        values = {(strain, leader): done[strain, ranking][leader]
                  for strain, leader in search}
        fill(values, derived, tricks)
        for strain in strains:
            table[strain][ranking] = {seat: values[strain, i] for i, seat in enumerate(SEATS)}
    return table


# The first target of a row's first leader (each later leader starts from
# the value before it).  The midpoint of the tricks made the first leader's
# searches climb or fall a trick at a time to values far from it, and the
# searches short of the value cost most on the deals that take least (deal
# 28 of `whist-solve deal --count 40 --seed 1206`: 85% of its diamond row's
# nodes were North's "at least 7?", "6?" and "5?", before "4?" said yes).
# Estimated from the top cards and the trumps instead, full tables on one
# solver, nodes: deals 801-830 of bridge-solver's 1k_deals (tuned there)
# 34.06M -> 32.46M (the true value as the guess would give 31.84M);
# checked on deals 601-640 55.98M -> 55.08M, and on the 40 deals of seeds
# 1206 and 1207 48.94M -> 47.24M and 52.36M -> 51.49M.  Per trump card
# that N-S hold more than E-W: 0.5 gave 32.69M, 0.7 32.50M, 1.0 32.48M.
FIRST_GUESS_TRUMP = 0.8


def first_guess(hands, trump: Optional[str], ranking: str) -> int:
    """A first target for N-S's tricks in a deal (``hands``: N E S W card
    lists) with this trump (None: no-trump) and ranking: the tricks in
    proportion to N-S's share of the four top cards of each suit (4, 3, 2
    and 1 points; the A K Q J uptown, the jokers at the top of a trump
    suit, no points at no-trump), plus FIRST_GUESS_TRUMP for each trump
    N-S hold more than E-W; between 1 and the tricks to play."""
    tricks = max(len(h) for h in hands)
    if tricks < 1:
        return 1
    by_suit: dict = {}
    for seat, hand in enumerate(hands):
        for card in hand:
            suit, pw = engine_card(card, trump, ranking)
            by_suit.setdefault(suit, []).append((pw, seat & 1))
    t = None if trump is None else SUITS.index(trump)
    points = [0, 0]
    trumps = [0, 0]
    for suit, cards in by_suit.items():
        if suit == t:
            for _pw, side in cards:
                trumps[side] += 1
        if suit == 4:
            continue                       # jokers at no-trump never win
        cards.sort(reverse=True)
        for (_pw, side), pts in zip(cards, (4, 3, 2, 1)):
            points[side] += pts
    est = tricks * points[0] / sum(points) if sum(points) else tricks / 2
    est += FIRST_GUESS_TRUMP * (trumps[0] - trumps[1])
    return max(1, min(tricks, round(est)))


# The order in which a row's leaders are solved on one solver: the two
# leaders of one side after each other, so that the second finds the first
# one's bounds (the positions after the first tricks are often the same
# side's), each search starting from the previous leader's value.
# Measured against N, E, S, W (full tables, a fresh 64 MB solver per deal):
# random set 18.06M against 18.20M nodes; deals 201-240 of bridge-solver's
# 1k_deals 49.0M against 49.2M; the two freak deals 467.5M against 517.1M
# (48.6 s against 52.0 s); W, E, N, S and E, W, S, N searched more on the
# random set (18.7M, 18.8M).
LEADER_ORDER = (0, 2, 1, 3)


def table_searches(hands, strains: Sequence[str] = STRAINS, symmetry: bool = True):
    """The searches dd_table makes of a deal: ((strain, leader) searched,
    in LEADER_ORDER; the results read off them (see symmetry.table_plan);
    strain -> the leaders searched).  Without ``symmetry``, every one."""
    if symmetry:
        search, derived = table_plan(hands, strains, LEADER_ORDER)
    else:
        search, derived = [(strain, leader) for strain in strains for leader in LEADER_ORDER], {}
    leaders = {strain: tuple(leader for s, leader in search if s == strain) for strain in strains}
    return search, derived, leaders


class _Row:
    """One row of a table being solved by several threads.  Its owner
    solves the leaders in LEADER_ORDER on one solver; a thread with no row
    left may take the row's second side (the last two leaders), as long as
    neither has started and the owner's table is at least JOIN_ROOM full,
    and solve them in turn on its own solver."""

    def __init__(self, strain: str, ranking: str, leaders=LEADER_ORDER):
        self.strain, self.ranking = strain, ranking
        self.trump = None if strain == "NT" else strain
        self.values = [None] * 4
        self.order = tuple(leaders)   # the leaders to solve, in LEADER_ORDER (see dd_table)
        self.owner = None         # the solver of the thread that owns it
        self.next = 0             # the owner's next place in self.order
        self.end = len(self.order)    # the owner stops here (2 once a helper took the rest)

    def take(self, lock) -> int:
        """The owner's next leader (in LEADER_ORDER), -1 when none is left."""
        with lock:
            if self.next >= self.end:
                return -1
            self.next += 1
            return self.order[self.next - 1]

    def can_split(self) -> bool:
        """Could split hand the last two leaders to a helper now?"""
        return len(self.order) == 4 and self.end == 4 and self.next <= 2

    def split(self) -> list:
        """Hand the last two leaders to a helper if neither has started, and
        return them (call with the lock held); [] if not."""
        if self.can_split():
            self.end = 2
            return list(self.order[2:])
        return []


# Why a helper takes a row's second side whole, and only that: the first
# leader of a row is the costly search, and the other three mostly find its
# bounds in the table.  A helper that took single leaders of another's row
# searched them on a cold table, often as long as the first leader (hard
# deal 10 of bridge-solver's set: clubs with South leading, 1.38M nodes
# cold against 0.13M after North).  Two leaders on the helper's table let
# the second use the first's bounds.  Simulated with every leader's nodes
# on a warm and a cold table (the critical path over one thread's nodes, two
# threads): bridge-solver's hard deals 1-10, 0.534 against 0.606 for single
# leaders and 0.722 for no help at all; deals 301-400 of its 1k_deals,
# 0.586 against 0.612 and 0.589.
#
# But only from an owner whose table is at least JOIN_ROOM full.  While
# the owner's table has room, a helper joins the owner's tests there
# instead (see the note on joins below): the row's later leaders then
# find the first one's bounds, and the two threads share out each test's
# moves.  Hard deal 19, whose helper took the spades' East and West when
# the owner was at South, searched East cold in 3.43M nodes against 2.87M
# after North and South.  Whole processes (`table FILE --threads 2`
# against --threads 1, medians of three, alternating), splitting at once
# -> only from a table at least half full: hard deals 19 0.689 -> 0.646,
# 10 0.634 -> 0.596, 16 0.608 -> 0.575, 14 0.548 -> 0.530, 2 0.616 ->
# 0.604, 4 (the four-void deal) 0.538 -> 0.528, 13, 15, 17 and the
# two-suited deal within 0.03 either way; deals 301-340 of 1k_deals in
# one file 0.631 -> 0.597.  Never splitting is no good: the four-void
# deal with all its 20 searches (batch_scaling.py critical, without its
# symmetry), whose owner's table fills, took as long on two threads as on
# one.  A helper that finds the owner's table with room and so helps in
# it still takes the row's second side if the table fills up meanwhile
# (join's take_side).


class _Stopped(Exception):
    """A threaded table is being abandoned (an interrupt in the thread
    that waits for it): its threads leave."""


def _root_fails_all(pos: Position, target: int, guess: int) -> bool:
    """Whether the test "can N-S take ``target`` tricks?" of ``pos``, in a
    search for a value expected to be ``guess``, is expected to find every
    move of its root failing (an ALL node), so that the cores joining it
    share out its first moves too (_split.pxd): a yes is expected up to
    the guess, and a yes fails every lead of E-W, a no every lead of N-S.

    Measured on two threads, each deal's table time over its time on one
    thread, medians of five rounds (the same process): the six hard deals
    of about a second (10, 13, 15, 16, 17, 19) 0.524 on average against
    0.541 before (the map of _split.pxd then one entry per key), hard deal
    19 0.547 against 0.601; hard deals 2, 4 and 14 (three rounds) 0.609,
    0.505, 0.510 against 0.609, 0.502, 0.507.  Sharing out the root's
    first moves in every test instead: the same on those three (0.617,
    0.502, 0.505)."""
    return (target <= guess) == (pos.turn % 2 == 1)


class _Job:
    """One null-window search of a table being solved by several threads:
    its owner publishes it, and a thread with nothing left of its own may
    search it at once in the owner's table (Core.search_job).  A
    speculative job (``ahead``) is a helper's test of another target of
    the owner's position, the one the owner would test next."""

    def __init__(self, pos: Position, target: int, number: int, ahead: bool = False,
                 root_all: bool = False):
        self.pos, self.target, self.number = pos, target, number
        self.ahead = ahead
        self.root_all = root_all  # its root's moves expected to fail all (_root_fails_all)
        self.result: Optional[int] = None
        self.failed = False       # a joiner stopped without an answer (an error)
        self.searchers = 0        # joiners searching it now
        self.owner_in = False     # (ahead) the owner searches it too now
        self.children: Optional[list] = None   # first cards a helper may still try (see _first_cards)
        self.first_helpers: list = []          # (helper core, its job) searching first cards of it now
        self.no_join = False      # a join of it alone found the owner's table making room: not joined again
        self.started = time.monotonic()


class _Exact:
    """One exact value an owner is finding by null-window tests
    (Solver.ns_value's), published for the idle threads: the values still
    possible (lo to hi), the direction of the last answer, the owner's
    test now and a helper's test ahead of it."""

    def __init__(self, pos: Position, lo: int, hi: int):
        self.pos, self.lo, self.hi = pos, lo, hi
        self.up = True                       # the last answer was a yes
        self.job: Optional[_Job] = None      # the owner's test now
        self.ahead: Optional[_Job] = None    # a helper's test of another target

    def open(self, target: int) -> bool:
        """Would the answer for ``target`` still tell something?"""
        return self.lo < target <= self.hi

    def settle(self, target: int, r: int) -> None:
        if r:
            self.lo = max(self.lo, target)
        else:
            self.hi = min(self.hi, target - 1)
        self.up = bool(r)

    def next_target(self) -> int:
        """After a yes, one more than proved; after a no, the most still
        possible (as Solver.ns_value goes)."""
        return self.lo + 1 if self.up else self.hi

    def ahead_target(self) -> Optional[int]:
        """The target a helper should test beside the owner's: the one the
        owner tests next if its answer goes the way of the last one (else
        the other side), None if neither would tell anything."""
        job = self.job
        if job is None or self.ahead is not None:
            return None
        t = job.target
        for target in ((t + 1, t - 1) if self.up else (t - 1, t + 1)):
            if self.open(target):
                return target
        return None


# How idle threads help, once the rows and the second sides are all taken:
# one row often holds most of a table, and one value of it most of the row
# (the four-void freak deal, searched with its symmetry: one no-trump value,
# three null-window tests of 4.4M, 17.7M and 2.5M nodes, is 24.6M of the
# table's 31.7M).  An idle thread tests, in the owner's table, the target
# the owner will test next if its answer goes the way of the last one
# (_Exact.ahead_target): the bounds it stores hold for any target, its
# answer narrows the value, and if the owner does come to that test it
# joins the helper's search of it instead of starting its own.
#
# Before, idle threads searched the owner's test now beside it (after the
# "simplified ABDADA" scheme: _split.pxd).  Measured in one process
# (benchmarks/batch_scaling.py critical --symmetry: the searches table
# makes), the nodes of the busier thread over one thread's (the critical
# path, which this VM's changing speed moves less than the times):
#   four-void deal, three rounds each: tests ahead alone 0.69, 0.71, 0.69;
#   ahead and same-test joins 0.81, 1.08, 0.88; same-test joins alone (as
#   before) 0.85, 0.72.  Two searches of one test fill the shared table
#   up, and the guest, evicted, starts its search again.
#   bridge-solver's 19 hard deals, in all: 0.60 ahead alone, 0.56 with
#   same-test joins too, 0.59 before.
# So on two threads the helper tests ahead first: the steadier, and the
# worst deal's path the shortest (but see the joins while the table has
# room, below).  A third thread and beyond joins the
# owner's test now beside a test ahead (there is one test ahead at a time:
# the job numbers of a table are one watermark, see _split.pxd).
#
# First cards.  With no test ahead to make (the value's other targets are
# settled or taken), an idle thread searches the owner's test now after
# each first card in turn (_first_cards: one of each run, highest first),
# in its own table, as a job of that table that the owner ends when its
# own search of the test ends.  A yes after a card of the side that leads
# (N-S leading), or a no (E-W leading), answers the test, and the owner's
# search stops.  Where the owner's first card is a costly way to the
# answer, another card often is a cheaper one: the four-void deal's
# "at least 8?" with North leading took the owner 24.5M nodes, 8.2 s,
# alone; after the queen of hearts, the helper's first card, it says yes
# in 7.0M nodes (1.7 s) in a fresh table.  In its own table, not the
# owner's: in the owner's 44 MB table the two searches filled it, and the
# helper, sent away at each fill, started its card again seven times.
# Whole processes (`table FILE --threads 2`, three rounds alternating with
# the version without first cards, medians): the four-void deal 5.76 s
# against 7.52 s and 5.23 s against 7.24 s; hard deals 10, 16, 19 and the
# two-suited deal within 10% either way; hard deal 2 12.7 s against 11.3
# s and 12.8 s against 12.3 s, its owner's nodes the same (34.6M) either
# way: a second core kept busy slows the first a little (hard deal 14 on
# one thread: 9.46 s alone, 9.88 s beside another search, means of
# three).  A test younger than FIRST_AFTER is left to its owner alone.
#
# Joins while the table has room.  Before first cards, an idle thread on
# two threads joins the owner's test now (as a third thread does) while
# less than JOIN_ROOM of the owner's pattern pages are in use: the fills
# that made same-test joins lose on the four-void deal come when the
# table is full, and on smaller searches two searches of one test in one
# table share out its moves.  Hard deal 19 of bridge-solver's set, whose
# spades are 64% of its table's nodes and whose East-leads search alone
# is 3.4M nodes, most of them in one test ("at least 7?", which has to
# look at every East lead), is where two threads helped least.  Whole
# processes, `table FILE --threads 2` against --threads 1 (medians of
# three, alternating; the two-thread versions without and with these
# joins): hard deal 19 0.722 -> 0.666 of one thread; hard deal 2 0.640 ->
# 0.624; the four-void deal 0.551 -> 0.535; hard deals 6, 14, 16 within
# 0.02; the two-suited deal 0.574 -> 0.568 (one round).  A quarter
# instead of a half: much the same (hard deals 2 and 6 a little worse).
#
# Joins whatever the fill, last.  A shared table that fills up now makes
# room with its guests in it (the engine's park: each core stops where it
# is, the last one makes room, all go on), where a guest used to leave and
# start its search again.  So once an idle thread has no first card left
# to try (or the test is younger than FIRST_AFTER), it joins the owner's
# test however full the table (JOIN_ALONE).  Hard deal 2, whose no-trump
# row fills the table six times and puts half its nodes in one test
# (West's "at least 8?", refuted only by West's last lead, under which
# North has four answers of 3-4.5M nodes each to refute), was helped only
# by first cards, which did not answer: 0.64-0.69 of one thread's time.
# Same process, two threads over one, medians of three rounds: hard deal 2
# 0.608, the four-void deal 0.505, hard deals 10, 13, 16 and 19 0.529-0.539.
# Tried: joins whatever the fill, first (before first cards): hard deal 2
# 0.526, but the four-void deal 0.861 (its owner's first card is the
# costly way to its answer, another card the cheap one); joins whatever
# the fill instead of joins while the table has room, after first cards
# (young tests joined at once): hard deal 2 0.54-0.60 but the four-void
# deal 0.52-0.64 from run to run (a young test joined is never tried by
# first cards), hard deals 10, 13, 16 and 19 0.539-0.560; the same but
# young tests left to their owner until they are old enough for first
# cards: hard deal 2 0.666, hard deal 19 0.605.


AHEAD, JOIN, FIRST = "ahead", "join", "first"    # what an idle thread does (_threaded_table's pick)
FIRST_AFTER = 0.1     # seconds an owner's test runs before a helper tries its first cards
JOIN_ROOM = 0.5       # an idle thread joins an owner's test now while less of its table's pattern pages are in use
JOIN_ALONE = True     # ... and, on two threads, whatever the fill once it has no first card to try (see above)


def _has_room(owner: Optional[Solver]) -> bool:
    """Is less than JOIN_ROOM of ``owner``'s table's pattern pages in use
    (a second search in it would not soon fill it)?"""
    if owner is None:
        return False
    pages_used, pages = owner._core.tt_usage[2:4]
    return pages_used < pages * JOIN_ROOM


def _first_cards(pos: Position) -> list:
    """The cards the leader of ``pos`` (a trick's start) may lead, one of
    each group of equal cards, highest first, suits S, H, D, C, then the
    jokers (equal_card_groups' order): the order in which a helper tries
    them (see _threaded_table's note on first cards)."""
    seat = pos.turn
    others = [c for i, h in enumerate(pos.hands) if i != seat for c in h]
    return [g[0] for g in equal_card_groups(pos.hands[seat], others, pos.trump, pos.ranking)]


def _threaded_table(hands, rows, solvers, stats: Optional[dict] = None,
                    leaders: Optional[dict] = None) -> dict:
    """The rows (strain, ranking) of dd_table on several threads: {row:
    [N-S tricks for each leader]}, None for a leader not asked for (``leaders``:
    strain -> the leaders to solve, in LEADER_ORDER; all four by default).
    ``stats``, if given, receives how many jobs were published, joined,
    and answered first by a joiner, tests ahead, first cards and second
    sides taken (for tests), and under ``"cpu"`` the CPU seconds of each
    thread, busiest first (the critical path: what two free cores would
    take, whoever else uses the machine)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    cond = threading.Condition()
    # Longest rows first, so that the last row to start is a short one: the
    # no-trump rows are usually the longest (on bridge-solver's hard deals
    # they were the longest row of 6 deals in 11 timed, up to 90% of the
    # table); the rows are taken in this order, the table keeps its own.
    todo = [_Row(strain, ranking, (leaders or {}).get(strain, LEADER_ORDER))
            for strain, ranking in sorted(rows, key=lambda row: row[0] != "NT")]
    started: list = []
    exacts: dict = {}              # owner solver -> the _Exact it is finding now
    owning = [len(solvers)]        # threads that may still publish jobs
    stopping = [False]             # an interrupt: every thread stops its search and leaves
    counts = {"jobs": 0, "joined": 0, "answered": 0, "ahead": 0, "first": 0, "sides": 0}
    cpu: list = []                 # each thread's CPU seconds

    def next_work(solver):
        """A row to own, or the second side of a started row, or None."""
        with cond:
            if todo:
                row = todo.pop(0)
                row.owner = solver
                started.append(row)
                return row, None
            return take_side()

    def take_side():
        """(row, its last two leaders) of the row with most leaders to
        start whose owner's table is filling up, or None (with the lock
        held).  While the table has room, the owner is helped in it
        instead (see the note on second sides above)."""
        for row in sorted(started, key=lambda r: r.next):
            if row.can_split() and not _has_room(row.owner):
                counts["sides"] += 1
                return row, row.split()
        return None

    def exact(solver: Solver, pos: Position, guess: int) -> int:
        """solver.ns_value(pos, guess), each null-window test published as
        a job that idle threads may join, and the value being found
        published so that an idle thread may test the next target ahead
        of the owner (see join)."""
        core = solver._core
        trump = pos.trump
        with cond:
            # a new trump empties the table: not while a joiner is in it
            while solver._sig != trump and core.guests:
                cond.wait()
        solver._load(pos)
        hi = pos.tricks_left
        if guess < 0:
            guess = (hi + 1) // 2
        ex = _Exact(pos, 0, hi)
        t = min(max(guess, 1), hi)
        with cond:
            exacts[solver] = ex
        try:
            while True:
                with cond:
                    if stopping[0]:
                        raise _Stopped()
                    if ex.lo >= ex.hi:
                        return ex.lo
                    if not ex.open(t):
                        t = ex.next_target()
                    ahead = ex.ahead
                    if ahead is not None and ahead.target == t and ahead.result is None \
                            and not ahead.failed:
                        job = ahead                 # search it beside the helper
                        job.owner_in = True
                    else:
                        if ahead is not None:
                            stop_ahead(core, ex)
                        job = _Job(pos, t, core.next_job(),
                                   root_all=_root_fails_all(pos, t, guess))
                    counts["jobs"] += 1
                    ex.job = job
                    cond.notify_all()
                r = core.search_job(t, job.number, root_all=job.root_all)
                with cond:
                    ex.job = None
                    job.owner_in = False
                    for helper, hjob in job.first_helpers:
                        helper.finish_job(hjob)
                    if stopping[0]:
                        raise _Stopped()
                    if r < 0:
                        # another core finished first (its answer comes with
                        # its leaving), or a helper's answer ahead made this
                        # test useless; if neither, the owner searches again
                        while job.result is None and not job.failed and job.searchers \
                                and ex.open(t):
                            cond.wait()
                        r = job.result
                    elif job.result is None:
                        job.result = r
                    if r is not None:
                        ex.settle(t, r)
                        if ex.ahead is job:
                            ex.ahead = None
                        if ex.ahead is not None and not ex.open(ex.ahead.target):
                            stop_ahead(core, ex)
                    elif not ex.open(t):
                        continue
                if r is None:
                    r = core.can_take(t)
                    with cond:
                        ex.settle(t, r)
                t = ex.next_target()
        finally:
            with cond:
                exacts.pop(solver, None)
                if ex.ahead is not None:
                    stop_ahead(core, ex)

    def stop_ahead(core, ex: _Exact) -> None:
        """End the helper's test ahead of the owner (with the lock held,
        the owner between two tests of its own: the number of the test
        ahead is the owner's last)."""
        core.finish_job(ex.ahead.number)
        ex.ahead = None
        cond.notify_all()

    def prepare_joins(me: Solver) -> None:
        """Have the other owners' tables made shareable ahead of a join:
        their slots brought into memory by this thread (see
        Solver.bring_in_table), then the owner's search asked to grow the
        table to all of them (see Core.ask_shareable)."""
        with cond:
            others = [o for o in exacts if o is not me and not o.shareable]
        for other in others:
            me.bring_in_table(other)
            other._core.ask_shareable()

    def pick(solver: Solver):
        """Work for an idle thread: ((owner, the value it is finding, and
        AHEAD for a test ahead of it, JOIN for a join of its test now or
        FIRST for a first card of its test now), None), or (None, the
        seconds until a test now is old enough for first cards, or None).
        A test now is joined beside another thread's test ahead (a third
        thread and beyond), or alone while its table has room (JOIN_ROOM),
        or alone once it has no first card left to try or is younger than
        FIRST_AFTER (JOIN_ALONE; see above)."""
        others = [(owner, ex) for owner, ex in exacts.items() if owner is not solver]
        for owner, ex in others:
            if ex.ahead_target() is not None:
                return (owner, ex, AHEAD), None
        # the others' tests now that are still open
        open_now = [(owner, ex, ex.job) for owner, ex in others
                    if ex.job is not None and ex.job.result is None]
        for owner, ex, job in open_now:
            if ex.ahead is not None and ex.ahead.searchers:
                return (owner, ex, JOIN), None
        # (a test now that nobody searches beside its owner, and whose
        # table has not turned this thread away)
        alone = [(owner, ex, job) for owner, ex, job in open_now
                 if not job.ahead and not job.searchers and not job.no_join]
        for owner, ex, job in alone:
            if _has_room(owner):
                return (owner, ex, JOIN), None
        now = time.monotonic()
        soonest = None
        for owner, ex, job in open_now:
            if not job.ahead and not job.pos.trick \
                    and (solver._sig == job.pos.trump or not solver._core.guests):
                # (a first card is searched in this thread's own table: one
                # of another trump empties it, not while another core
                # searches in it; its leaving wakes this thread)
                wait = job.started + FIRST_AFTER - now
                if wait > 0:
                    soonest = wait if soonest is None else min(soonest, wait)
                    continue
                if job.children is None:
                    job.children = _first_cards(job.pos)
                if job.children:
                    return (owner, ex, FIRST), None
        if JOIN_ALONE and alone:
            owner, ex, job = alone[0]
            return (owner, ex, JOIN), None
        return None, soonest

    def join(solver: Solver):
        """Help the owners' searches until no thread owns work: test the
        target an owner would test next, beside its test now (each answer
        narrows the value: the owner's next test is often answered, or half
        searched, by then); else search the owner's test now with it (a
        third thread, or while the table has room); else try the first
        cards of its test now (first_card).  Returns None, or a row's
        second side to solve (take_side) once its owner's table fills up:
        this thread then owns work again."""
        prepare_joins(solver)
        while True:
            with cond:
                while True:
                    if stopping[0]:
                        return None
                    side = take_side()
                    if side is not None:
                        owning[0] += 1
                        return side
                    found, wait = pick(solver)
                    if found is not None or owning[0] == 0:
                        break
                    cond.wait(wait)
                if found is None:
                    return None
                owner, ex, kind = found
                joined = False
                if kind == FIRST:
                    job = ex.job
                    card = job.children.pop(0)
                    hjob = solver._core.next_job()
                    job.first_helpers.append((solver._core, hjob))
                    job.searchers += 1
                    counts["first"] += 1
                elif owner._core.shareable:
                    joined = solver.share_table_of(owner)
                    if not joined and kind == JOIN:
                        ex.job.no_join = True      # full: making room
                else:
                    owner._core.ask_shareable()
                if joined:
                    if kind == AHEAD:
                        job = _Job(ex.pos, ex.ahead_target(), owner._core.next_job(), ahead=True)
                        ex.ahead = job
                        counts["ahead"] += 1
                    else:
                        job = ex.job
                        counts["joined"] += 1
                    job.searchers += 1
            if kind == FIRST:
                first_card(solver, owner, job, card, hjob)
                continue
            if not joined:
                # the owner's search makes its table shareable at its next
                # trick, or room in it once this thread has left
                time.sleep(0.0002)
                continue
            r = None
            try:
                solver._load(job.pos)
                r = solver._core.search_job(job.target, job.number, publish=not job.ahead,
                                             root_all=job.root_all)
            finally:
                solver.own_table()
                with cond:
                    job.searchers -= 1
                    if r is None:
                        job.failed = True      # the owner searches it again
                    elif r >= 0 and job.result is None:
                        job.result = r
                        counts["answered"] += 1
                        if job.ahead:
                            answered_ahead(owner, ex, job, r)
                    cond.notify_all()

    def first_card(solver: Solver, owner: Solver, job: _Job, card: str, hjob: int) -> None:
        """Search, in this thread's own table, the owner's test now after
        the first card ``card`` (as job ``hjob`` of this table, which the
        owner ends when its own search of the test ends): an answer that
        settles the test (a yes when the side that leads it is N-S, else a
        no) is the test's answer, and the owner's search of it stops."""
        r = None
        try:
            solver._load(job.pos.play(card))
            r = solver._core.search_job(job.target, hjob)
        finally:
            with cond:
                job.searchers -= 1
                job.first_helpers.remove((solver._core, hjob))
                if r is not None and r >= 0 and job.result is None \
                        and bool(r) == (job.pos.turn % 2 == 0):
                    job.result = r
                    counts["answered"] += 1
                    owner._core.finish_job(job.number)
                cond.notify_all()

    def answered_ahead(owner: Solver, ex: _Exact, job: _Job, r: int) -> None:
        """A helper's test ahead of the owner is answered (with the lock
        held): it narrows the value; the owner's search of the same test
        stops, and so does the owner's test now if it tells nothing more."""
        if ex.ahead is job:
            ex.ahead = None
        if exacts.get(owner) is not ex or not ex.open(job.target):
            return                     # the owner has gone past it
        ex.settle(job.target, r)
        now = ex.job
        if now is job and job.owner_in:
            owner._core.finish_job(job.number)
        elif now is not None and not ex.open(now.target):
            owner._core.finish_job(now.number)     # an earlier number than the job ahead

    def work(solver: Solver) -> None:
        # (its core is used directly, see Solver: the caller holds the
        # lock of the one solver that others could reach, see dd_table)
        start = time.thread_time()
        try:
            work_on(solver)
        finally:
            with cond:
                cpu.append(time.thread_time() - start)

    def work_on(solver: Solver) -> None:
        side = None                   # a second side join took, to solve next
        while True:
            try:
                job = side or next_work(solver)
                while job is not None:
                    row, leaders = job
                    if leaders is not None:
                        prepare_joins(solver)      # the last rows are started
                    guess = first_guess(hands, row.trump, row.ranking)
                    while True:
                        if leaders is None:
                            leader = row.take(cond)
                        else:
                            leader = leaders.pop(0) if leaders else -1
                        if leader < 0:
                            break
                        guess = exact(solver, Position.make(hands, row.trump, row.ranking, leader),
                                      guess)
                        row.values[leader] = guess
                    job = next_work(solver)
            finally:
                with cond:
                    owning[0] -= 1
                    cond.notify_all()
            side = join(solver)
            if side is None:
                return

    try:
        with ThreadPoolExecutor(max_workers=len(solvers)) as pool:
            try:
                list(pool.map(work, solvers))
            except BaseException:
                # an interrupt (or an error): every search is a job, so
                # all of them stop now, and the pool's threads end soon
                with cond:
                    stopping[0] = True
                    for solver in solvers:
                        solver._core.stop_jobs()
                    cond.notify_all()
                raise
    finally:
        for solver in solvers:
            if not solver._core.guests:
                solver.shareable = False      # (and a request to make it so is dropped)
        if stats is not None:
            stats.update(counts)
            stats["cpu"] = sorted(cpu, reverse=True)
    return {(r.strain, r.ranking): r.values for r in started}


def _table_row(solver: Solver, hands, strain: str, ranking: str,
               leaders: Sequence[int] = LEADER_ORDER) -> list:
    """N-S tricks of one strain and ranking for each leader (seat index) in
    ``leaders``, solved in that order; None for the others."""
    trump = None if strain == "NT" else strain
    values = [None] * 4
    guess = first_guess(hands, trump, ranking)
    for leader in leaders:
        guess = solver.ns_value(Position.make(hands, trump, ranking, leader), guess)
        values[leader] = guess
    return values
