"""Review a recorded play against double-dummy.

Every recorded card is judged in the position where it was played: the
tricks its side takes from there on with best play by everyone (current
trick included) *before* the card, and *after* it (the same count when the
card is played and everyone plays best from then on).  ``cost`` is the
difference (never negative); a card that costs tricks is a mistake, and the
cards that kept the value (``best``) were right.

Each position is solved once with one Solver, whose transposition table is
kept from card to card: the values of all the legal cards of the position
give both numbers ('before' is the best of them, 'after' the played one's).

A play record that stops early (a claim, a partly played last trick) is
reviewed as far as it goes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence, Union

from .cards import Position
from .errors import PositionError, WhistError
from .vocab import BOOKS_FOR_LEVEL, SEATS, SIDE_NAMES, parse_contract, side_name, side_of
from .engine import Solver


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


_NUMBER_WORDS = {1: "a trick", 2: "two tricks", 3: "three tricks", 4: "four tricks",
                 5: "five tricks"}


@dataclass(frozen=True)
class CardReview:
    """One recorded card and its double-dummy values."""

    index: int          # 0-based position in the play
    card: str
    seat: int           # 0..3 = N E S W
    trick: int          # 1-based trick number
    before: int         # tricks of the card's side from the position on, current trick included
    after: int          # the same after this card
    best: tuple         # the cards that keep 'before' (sorted as the position sorts them)

    @property
    def cost(self) -> int:
        return self.before - self.after

    @property
    def side(self) -> str:
        return side_of(self.seat)

    def as_json(self) -> dict:
        return {"card": self.card, "seat": SEATS[self.seat], "trick": self.trick,
                "before": self.before, "after": self.after, "cost": self.cost,
                "best": list(self.best)}


@dataclass
class Review:
    """The review of a recorded play.

    ``declarer`` is the declarer's seat (the seat to the right of the first
    leader when no contract names one); ``dd_tricks`` the tricks the
    declarer's side takes double-dummy from the start; ``played_tricks``
    the tricks it won in the recorded play (None when the play stops before
    the last trick); ``end_dd_tricks`` the tricks it ends with when the
    play is finished double-dummy from the last recorded card (tricks won
    so far included).  ``contract`` is (level, strain, declarer) or None,
    ``result`` the tricks declarer's side took by the Result tag, or None.
    """

    cards: list
    declarer: int
    dd_tricks: int
    tricks: int                         # tricks in the deal
    played_tricks: Optional[int]
    end_dd_tricks: int
    contract: Optional[tuple] = None
    result: Optional[int] = None
    extra_books: int = 0
    contract_suffix: str = ""           # what the contract says besides level and strain: "X", "XX", " down"
    role: str = "declarer"              # the declaring side in words: "declarer", in bid whist
                                        # "the bidder's side"; "" when no one declares (classic whist)
    result_problem: Optional[str] = None  # what is wrong with a Result tag that was not read (read_result)

    @property
    def declarer_side(self) -> str:
        return side_of(self.declarer)

    @property
    def defence_side(self) -> str:
        return "EW" if self.declarer_side == "NS" else "NS"

    @property
    def cost(self) -> dict:
        """Tricks lost by each side's cards: {'NS': n, 'EW': m}."""
        out = {"NS": 0, "EW": 0}
        for c in self.cards:
            out[c.side] += c.cost
        return out

    @property
    def mistakes(self) -> list:
        return [c for c in self.cards if c.cost > 0]

    @property
    def complete(self) -> bool:
        return self.played_tricks is not None

    def need(self) -> Optional[int]:
        """Tricks the contract needs (level + 6, less the extra books)."""
        if self.contract is None:
            return None
        return self.contract[0] + 6 - self.extra_books

    # -- text ---------------------------------------------------------------

    def contract_name(self) -> Optional[str]:
        if self.contract is None:
            return None
        level, strain, declarer = self.contract
        return f"{level}{strain}{self.contract_suffix} by {SEATS[declarer]}"

    def _count(self, tricks: int) -> str:
        """Tricks as the game counts them: in bid whist, books (the tricks
        and the kitty's book)."""
        if self.extra_books:
            return _plural(tricks + self.extra_books, "book")
        return str(tricks)

    def _outcome(self, tricks: int) -> str:
        need = self.need()
        if need is None:
            return _plural(tricks, "trick") if not self.extra_books else self._count(tricks)
        if tricks >= need:
            over = tricks - need
            return f"makes {self._count(tricks)}" + (f" (+{over})" if over else "")
        return f"{self._count(tricks)}, down {need - tricks}"

    def events(self) -> list:
        """(trick, who, tricks lost, seat, card) for every costly card, who
        being the declaring side's role ('declarer', "the bidder's side")
        or 'the defence', or with no one declaring the side ('N-S')."""
        out = []
        for c in self.mistakes:
            if not self.role:
                who = SIDE_NAMES[c.side]
            else:
                who = self.role if c.side == self.declarer_side else "the defence"
            out.append((c.trick, who, c.cost, SEATS[c.seat], c.card))
        return out

    def verdict(self) -> str:
        """One plain-ASCII sentence: the double-dummy outcome from the
        start, what was taken, and where tricks changed hands."""
        side = SIDE_NAMES[self.declarer_side]
        head = self.contract_name() or (f"{side} (declaring {SEATS[self.declarer]})" if self.role
                                        else f"{side}")
        parts = [f"{head}: {self._outcome(self.dd_tricks)} double-dummy"]
        taken = self.result if self.result is not None else self.played_tricks
        if taken is not None:
            word = "taken" if self.result is None else "taken (Result)"
            parts.append(f"{self._count(taken)} {word}")
        else:
            last = self.cards[-1].trick if self.cards else 0
            parts.append(f"play recorded to trick {last}, "
                         f"{self._count(self.end_dd_tricks)} with double-dummy play from there")
        events = self.events()
        if events:
            text = ", ".join(f"{who} lost {_NUMBER_WORDS.get(n, _plural(n, 'trick'))} "
                             f"at trick {t} ({seat} {card})"
                             for t, who, n, seat, card in events)
            parts.append(text)
        elif self.cards:
            parts.append("no card cost a trick")
        sentence = "; ".join(parts[:2])
        if len(parts) > 2:
            sentence += ": " + parts[2]
        if (self.result is not None and self.complete
                and self.result != self.played_tricks):
            sentence += (f" (the recorded play gives {self._count(self.played_tricks)}, "
                         f"the Result tag {self._count(self.result)})")
        elif (self.result is not None and not self.complete
                and self.result != self.end_dd_tricks):
            # a claim (or play not recorded) after the last recorded trick
            last = self.cards[-1].trick if self.cards else 0
            # (a trick begun: "in trick 7, after 1 card")
            begun = sum(1 for c in self.cards if c.trick == last) % 4
            stop = (f"in trick {last}, after {_plural(begun, 'card')}" if begun
                    else f"after trick {last}")
            n = abs(self.result - self.end_dd_tricks)
            moved = _NUMBER_WORDS.get(n, _plural(n, "trick"))
            sentence += (f" (where the record stops, {stop}, double-dummy play "
                         f"gives {self._count(self.end_dd_tricks)}: the claim or the play "
                         f"after it {'gave up' if self.result < self.end_dd_tricks else 'gained'}"
                         f" {moved})")
        return sentence

    def text(self) -> str:
        """Lines: the verdict, then one line per costly card."""
        lines = [self.verdict()]
        cost = self.cost
        lines.append(f"tricks lost: {self.declarer_side} {cost[self.declarer_side]}, "
                     f"{self.defence_side} {cost[self.defence_side]}")
        for c in self.mistakes:
            best = " ".join(c.best)
            lines.append(f"trick {c.trick:>2}  {SEATS[c.seat]} {c.card:<3} "
                         f"{c.before} -> {c.after}  cost {c.cost}  best {best}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        out = {"cards": [c.as_json() for c in self.cards],
               "cost": self.cost,
               "declarer": SEATS[self.declarer],
               "dd_tricks": self.dd_tricks,
               "played_tricks": self.played_tricks,
               "end_dd_tricks": self.end_dd_tricks,
               "verdict": self.verdict()}
        if self.contract is not None:
            level, strain, declarer = self.contract
            out["contract"] = {"level": level, "strain": strain, "declarer": SEATS[declarer],
                               "need": self.need()}
        if self.result is not None:
            out["result"] = {"tricks": self.result, "dd_tricks": self.dd_tricks,
                             "difference": self.result - self.dd_tricks}
            if self.extra_books:
                out["result"]["books"] = self.result + self.extra_books
        return out


def _side_tricks(pos: Position, side: str) -> int:
    return pos.ns_tricks if side == "NS" else pos.ew_tricks


def review_play(start: Position, cards: Sequence[str],
                contract: Optional[tuple] = None, result: Optional[int] = None,
                declarer: Optional[int] = None, solver: Optional[Solver] = None,
                extra_books: int = 0) -> Review:
    """Review ``cards`` (in play order) played from ``start``.

    ``contract`` is (level, strain, declarer seat) or None; ``declarer``
    (when no contract) defaults to the seat to the right of the first
    leader.  ``result`` is the declarer side's tricks from a Result tag.
    Raises PositionError (with the trick number) on an illegal card."""
    solver = solver or Solver()
    if contract is not None:
        declarer = contract[2]
    if declarer is None:
        declarer = (start.leader + 3) % 4
    decl_side = side_of(declarer)
    total = start.tricks_left

    pos = start
    reviews = []
    first = None
    for i, card in enumerate(cards):
        trick_no = (start.ns_tricks + start.ew_tricks) + (i + len(start.trick)) // 4 + 1
        res = solver.solve(pos, cards=True, line=False)
        if first is None:
            first = res
        if card not in res.cards:
            try:
                pos.play(card)
            except PositionError as e:
                raise PositionError(str(e).replace(": ", f" in trick {trick_no}: ", 1)) from None
            raise PositionError(f"illegal play {card} in trick {trick_no}")
        before = res.tricks
        after = res.cards[card]
        best = tuple(c for c, v in res.cards.items() if v == before)
        reviews.append(CardReview(i, card, pos.turn, trick_no, before, after, best))
        pos = pos.play(card)

    def side_value(p: Position) -> int:
        if p.is_over():
            return 0
        ns = solver.ns_value(p)
        return ns if decl_side == "NS" else p.tricks_left - ns

    if first is not None:
        dd = first.ns_tricks if decl_side == "NS" else first.tricks_left - first.ns_tricks
    else:
        dd = side_value(start)
    dd += _side_tricks(start, decl_side)
    end_dd = _side_tricks(pos, decl_side) + side_value(pos)
    played = _side_tricks(pos, decl_side) if pos.is_over() else None
    return Review(reviews, declarer, dd, total + start.ns_tricks + start.ew_tricks,
                  played, end_dd, contract, result, extra_books)


def _relative_result(value: str, contract) -> str:
    """A Result written against ``contract`` (a Contract), as score sheets
    and club sites do ('=', '+2', '-1', '3NT+2', '4S='), as the count it
    means (the contract's tricks, or books in bid whist, and the
    difference); any other value, or one naming another contract, as it
    is."""
    m = re.fullmatch(r"(.*?)\s*([=+-])\s*([0-9]{0,2})", value)
    if not m or (m.group(2) == "=") != (m.group(3) == ""):
        return value
    if m.group(1):
        try:
            named = parse_contract(m.group(1))
        except WhistError:
            return value
        if (named.level, named.strain) != (contract.level, contract.strain):
            return value
    need = contract.level + BOOKS_FOR_LEVEL
    k = 0 if m.group(2) == "=" else int(m.group(3)) * (1 if m.group(2) == "+" else -1)
    return str(need + k) if need + k >= 0 else value


def _side_result(value: str, declarer: int, tricks: int, extra: int) -> str:
    """A Result naming the side it counts for, as PBN 2.1's own example
    file writes it ('NS 11', 'EW 2'), as the count of the declarer's side
    (of ``tricks`` in all; ``extra``, the kitty's book in bid whist, on the
    declarer's side); any other value as it is."""
    m = re.fullmatch(r"(NS|EW|N-S|E-W)\s*([0-9]{1,3})", value, re.IGNORECASE)
    if not m:
        return value
    n = int(m.group(2))
    if m.group(1).upper().replace("-", "") == side_of(declarer):
        return str(n)
    return str(tricks - n + extra) if n <= tricks else value


def contract_set_aside(contract, trump: Optional[str], ranking: str) -> bool:
    """Whether a play reviewed with ``trump`` (None: no-trump) and
    ``ranking`` is not in ``contract``'s strain and ranking (a Trump tag or
    an option said otherwise): the review then counts tricks only."""
    return (contract is not None and not contract.passed and bool(contract.level)
            and (contract.trump != trump or contract.ranking != ranking))


def _declaration(board) -> tuple:
    """The board's contract, declaring seat, kitty's book (bid whist: the
    bidder's side declares, and its discard is a book), and whether a bid
    contract is declared (a level and a declarer, not passed)."""
    c = board.contract()
    decl = board.declaring_seat()
    bid = c is not None and not c.passed and bool(c.level) and decl is not None
    return c, decl, board.kitty_book(), bid


def read_result(board, start: Position) -> tuple:
    """The board's Result tag read for the review of a play from ``start``:
    (the tricks of the declaring side, or None; None, or what is wrong with
    the tag).  The tricks of declarer's side; in bid whist, books (the
    tricks and the kitty's book); '=', '+1', '-2' against the contract;
    'NS 9', 'EW 4' for a side.  A tag that says none of these is no count
    of tricks: the play is reviewed without it (as a Vulnerable tag that
    names no vulnerability leaves out the par, not the table)."""
    c, decl, extra, bid = _declaration(board)
    written = value = (board.tags.get("Result") or "").strip().lstrip("^")
    if bid:
        # (against the contract's tricks, in whatever strain the play is reviewed)
        value = _relative_result(value, c)
    # (without a declarer, review_play counts the side of the seat to the
    # first leader's right: a side's Result is read for that side)
    counted = decl if decl is not None else (start.leader + 3) % 4
    value = _side_result(value, counted, start.tricks_left, extra)
    if not value or value in ("?", "-"):
        return None, None
    # 0 to the deal's tricks, in ASCII digits ('-1', '99999999999999999999',
    # '1_0' are no counts of tricks); in bid whist, books: the tricks and
    # the kitty's book
    most = start.tricks_left + extra
    if re.fullmatch(r"[0-9]{1,3}", value) and extra <= int(value) <= most:
        return int(value) - extra, None
    what = (f"the books the bidder's side took, {extra} to {most}" if extra
            else f"the tricks declarer took, 0 to {most}" if decl is not None
            else f"the tricks {side_name(counted)} took, 0 to {most}")
    if bid:
        what += ", or '=', '+1', '-2' against the contract"
    what += ", or 'NS 9', 'EW 4'"
    return None, f"bad Result tag {written!r} (expected {what})"


def review_board(board, trump: Optional[str] = None, ranking: Optional[str] = None,
                 leader: Union[int, str, None] = None,
                 solver: Optional[Solver] = None) -> Review:
    """Review a PBN board's ``[Play]`` section: the deal, trump, ranking and
    leader as the board gives them (or the overrides), its Contract and
    Declarer, and its Result tag (read_result: a tag that is no count of
    tricks is left out, and said in the review's result_problem)."""
    start = board.start_position(trump, ranking, leader)
    cards = board.play_cards(start.trump, start.ranking, start.leader)
    contract = None
    c, decl, extra, bid = _declaration(board)
    suffix = ""
    if bid and not contract_set_aside(c, start.trump, start.ranking):
        contract = (c.level, c.strain, decl)
        # (doubled, and downtown: in plain ASCII, as the verdict is)
        suffix = "X" * c.doubled + (" down" if c.ranking == "down" else "")
    result, problem = read_result(board, start)
    try:
        rv = review_play(start, cards, contract, result, declarer=decl, solver=solver,
                         extra_books=extra)
    except PositionError as e:
        raise WhistError(f"{board.named}: {e}") from None
    rv.contract_suffix = suffix
    rv.result_problem = problem
    if decl is None:
        rv.role = ""                # (classic whist: the side to the leader's right is counted)
    elif board.game() == "bid":
        rv.role = "the bidder's side"
    return rv
