"""Double-dummy problems: the goal of a board and the plays on which it
turns (SPEC: ``whist-solve puzzles``).

Every board states a goal: ``[Goal "NS 5"]`` (that side takes at least five
tricks from the position on), or, as in bridge problem files, a ``Contract``
and a ``Declarer``: level + 6 tricks for the declarer's side, less the
tricks that side already won in the board's ``Play`` section.

* :func:`expand_paths` -- the PBN files of a list of files and directories;
* :func:`find_goal` -- the :class:`Goal` of a board, counted from its
  position on, or None; :func:`board_goal` the same where a goal must be;
* :func:`key_plays` -- from the decisions along the solution's line
  (:func:`whist_solve.lines.analyse_line`), the :class:`KeyPlay` s: the
  points where some cards reach the goal and others do not.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .cards import Position, sort_cards
from .errors import WhistError
from .vocab import BOOKS_FOR_LEVEL, SEATS, side_of


def shipped_collections() -> str:
    """The folder of the puzzle collections installed with whist-solve
    (the package ``whist_solve.puzzles``: bid whist, classic whist,
    downtown)."""
    from . import puzzles
    return os.path.dirname(os.path.abspath(puzzles.__file__))


def expand_paths(paths: Sequence[str]) -> Tuple[List[str], List[str]]:
    """Files to read: a directory stands for the ``*.pbn`` files inside it,
    sorted by name.  Returns (files, problems)."""
    files: List[str] = []
    problems: List[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            # (a link to nowhere is listed: reading it says so, as when
            # named; folders inside are not read, nor a pipe or a device,
            # which could block)
            names = os.listdir(p)
            inside = sorted(f for f in names if f.lower().endswith(".pbn")
                            and (os.path.isfile(os.path.join(p, f))
                                 or not os.path.exists(os.path.join(p, f))))
            if not inside:
                sub = any(os.path.isdir(os.path.join(p, f)) for f in names)
                problems.append(f"{p}: no .pbn files in this directory"
                                + (" (the folders inside it are not read)" if sub else ""))
            files.extend(os.path.join(p, f) for f in inside)
        else:
            files.append(p)
    return files, problems


@dataclass
class Goal:
    """Tricks one side must take from the position on."""

    side: str          # 'NS' or 'EW'
    tricks: int        # from the position on
    source: str        # 'Goal' or 'Contract'
    note: str = ""     # how a Contract goal was counted
    won: int = 0       # a Contract goal: tricks the side had won before the position
    whole: int = 0     # a Contract goal: the tricks it needs in the whole hand (the kitty's book aside)


def find_goal(board, pos: Position) -> Optional[Goal]:
    """The board's goal, counted from the position on (its Goal tag, else
    its Contract for the Declarer's side: in bid whist the Bidder's, the
    kitty's book counted); None when it has neither (a bad Goal tag raises
    WhistError)."""
    g = board.goal()
    if g is not None:
        return Goal(g[0], g[1], "Goal")
    contract = board.contract()
    declarer = board.declaring_seat()
    if contract is None or contract.passed or declarer is None or not contract.level:
        # (a bare strain, [Contract "H"], is how PBN gives an end position's
        # trumps: no level, no goal)
        return None
    side = side_of(declarer)
    won = pos.ns_tricks if side == "NS" else pos.ew_tricks
    need = contract.level + BOOKS_FOR_LEVEL
    book = board.kitty_book()
    if book:
        # bid whist: the discard is the bidding side's first book
        note = (f"contract {contract} by {SEATS[declarer]}: {need} books, the Kitty "
                "counted as the bidder's discard")
        need -= book
    else:
        note = f"contract {contract} by {SEATS[declarer]}: {need} tricks"
    if won:
        note += f", {won} already won"
    # (tricks still needed: none, not a negative number, once the
    # contract's are won)
    return Goal(side, max(0, need - won), "Contract", note, won, need)


def board_goal(board, pos: Position) -> Goal:
    """:func:`find_goal`, which a puzzle must have: no goal raises
    WhistError saying what is missing."""
    goal = find_goal(board, pos)
    if goal is not None:
        return goal
    contract = board.contract()
    if contract is not None and contract.passed:
        raise WhistError("no goal: the Contract is Pass and there is no Goal tag")
    if contract is not None and not contract.level:
        raise WhistError(f"no goal: the Contract ({contract.strain}) gives the trumps, no level "
                         "(add a Goal tag such as [Goal \"NS 5\"])")
    if contract is not None:
        raise WhistError("no goal: a Contract but no Declarer (add a Declarer or, in bid whist, "
                         "a Bidder tag, "
                         "or a Goal tag such as [Goal \"NS 5\"])")
    raise WhistError("no goal: add a Goal tag (e.g. [Goal \"NS 5\"]) "
                     "or a Contract and a Declarer")


def goal_value(goal: Goal, ns_tricks: int, total: int) -> int:
    """Tricks of the goal's side out of ``total`` when N-S take ``ns_tricks``."""
    return ns_tricks if goal.side == "NS" else total - ns_tricks


@dataclass
class KeyPlay:
    """A point of the line where the choice decides the goal: some cards
    reach it (for the goal's side) or defeat it (for the defenders) and
    others do not."""

    trick_no: int
    seat: int
    played: str
    good: List[str]                 # cards that keep the verdict of the line
    bad: Dict[str, int]             # the other cards -> tricks of the goal's side
    attacker: bool                  # a seat of the goal's side

    def as_json(self) -> dict:
        return {"trick": self.trick_no, "seat": SEATS[self.seat], "card": self.played,
                "good": self.good, "bad": self.bad}


def key_plays(decisions, goal: Goal, total: int, ranking: str) -> List[KeyPlay]:
    """From the line's decisions (values of the seat's side, counted from
    the solved position), the plays on which the goal turns."""
    gs = 0 if goal.side == "NS" else 1
    out: List[KeyPlay] = []
    for d in decisions:
        attacker = d.seat % 2 == gs
        goal_tricks = {c: (v if attacker else total - v) for c, v in d.values.items()}
        reach = {c for c, n in goal_tricks.items() if n >= goal.tricks}
        if not reach or len(reach) == len(goal_tricks):
            continue
        good = reach if attacker else set(goal_tricks) - reach
        if d.played not in good:  # the line's card always keeps the verdict
            continue
        bad = {c: goal_tricks[c] for c in sort_cards(set(goal_tricks) - good, ranking)}
        out.append(KeyPlay(d.trick_no, d.seat, d.played, sort_cards(good, ranking), bad, attacker))
    return out
