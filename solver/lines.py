"""A solved position's line of play: checked, replayed trick by trick, and
the alternatives valued at every real choice.

``solve`` and ``puzzles`` show one optimal line from the position to the
end; this module turns the engine's answer into what they show:

* :func:`check_line` -- is the engine's line legal, does it go to the end
  and give the value?  (A problem is returned as a message to warn about.)
* :func:`analyse_line` -- the line as :class:`LineTrick` rows, and a
  :class:`Decision` at every point where the seat on turn had cards of
  different values (within a budget of search nodes: once ``budget``
  nodes are spent the later tricks are not analysed; nodes, not seconds,
  so that the output is the same on any machine and under any load).
* :func:`played_count` -- how many cards of the deal the board's Play
  section had played before the position.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .cards import JOKERS, Position
from .errors import WhistError

# Search nodes spent, per board, valuing the alternatives along the best
# line (output for people only): about ten seconds here (8.2M nodes a
# second on the slowest deal of seed 1211).  A budget of seconds made the
# output depend on the machine's load (a busy machine or cluster listed
# fewer choices).  The environment's WHIST_SOLVE_ALTERNATIVES_NODES sets
# another (alternatives_budget).
ALTERNATIVES_NODES = 80_000_000


def alternatives_budget() -> float:
    """ALTERNATIVES_NODES, or the nodes WHIST_SOLVE_ALTERNATIVES_NODES
    gives (0 or more; ``inf`` for no limit)."""
    raw = os.environ.get("WHIST_SOLVE_ALTERNATIVES_NODES", "").strip()
    if not raw:
        return ALTERNATIVES_NODES
    try:
        nodes = float(raw.replace("_", ""))
    except ValueError:
        nodes = math.nan
    if not nodes >= 0:
        raise WhistError(f"WHIST_SOLVE_ALTERNATIVES_NODES={raw!r}: "
                         "not a number of search nodes (0 or more)")
    return nodes


@dataclass
class Decision:
    """A point of the line where the seat on turn had cards of different
    values.  Values are the final tricks of that seat's side counted from
    the solved position on."""

    trick_no: int
    seat: int
    played: str
    values: Dict[str, int]


@dataclass
class LineTrick:
    """One trick of a line: the cards by seat, the winner and the running
    trick counts of the two sides."""

    number: int
    leader: int
    cards: Dict[int, str]          # seat -> card
    before: List[int] = field(default_factory=list)  # seats whose card was played before the position
    winner: Optional[int] = None
    ns: int = 0                    # running counts from the solved position
    ew: int = 0
    choice_seats: List[int] = field(default_factory=list)


def check_line(pos: Position, line: Sequence[str], tricks: int) -> Optional[str]:
    """The problem with the engine's ``line`` from ``pos`` (it must be
    legal, go to the end and give ``tricks`` to the side on turn), or None."""
    p = pos
    side = pos.turn % 2
    try:
        for c in line:
            p = p.play(c)
    except WhistError as e:
        return f"the engine's line is not legal: {e}"
    if not p.is_over():
        return "the engine's line stops before the end"
    won_ns = p.ns_tricks - pos.ns_tricks
    won_ew = p.ew_tricks - pos.ew_tricks
    got = won_ns if side == 0 else won_ew
    if got != tricks:
        return f"the engine's line gives {got} tricks, its value is {tricks}"
    return None


def analyse_line(solver, pos: Position, line: Sequence[str], first_cards: Mapping[str, int],
                 budget: Optional[float] = None
                 ) -> Tuple[List[LineTrick], List[Decision], Optional[int]]:
    """Replays ``line`` from ``pos`` trick by trick and values the
    alternatives at every point where the seat on turn had a real choice.

    ``first_cards`` are the values of the cards of the seat on turn at
    ``pos`` (already known from the solve).  Returns (tricks, decisions,
    analysed_to): ``analysed_to`` is the first trick whose choices were not
    analysed because ``budget`` search nodes (default:
    alternatives_budget()) were spent, or None."""
    budget = alternatives_budget() if budget is None else budget
    rows: List[LineTrick] = []
    decisions: List[Decision] = []
    analysed_to: Optional[int] = None
    spent = 0
    p = pos
    base = pos.ns_tricks + pos.ew_tricks
    won = [0, 0]                      # N-S, E-W from the solved position
    row = LineTrick(number=base + 1, leader=pos.leader, cards={})
    for i, c in enumerate(pos.trick):
        seat = (pos.leader + i) % 4
        row.cards[seat] = c
        row.before.append(seat)
    for step, card in enumerate(line):
        seat = p.turn
        legal = p.legal_moves()
        if len(legal) > 1 and analysed_to is None:
            if step == 0:
                values = dict(first_cards)
            elif spent > budget:
                analysed_to = row.number    # from this trick on, not analysed
                values = None
            else:
                res = solver.solve(p, cards=True, line=False)
                spent += res.nodes
                values = {c: int(n) for c, n in res.cards.items()}
            if values and len(set(values.values())) > 1:
                done = won[seat % 2]
                decisions.append(Decision(
                    trick_no=row.number, seat=seat, played=card,
                    values={c: done + n for c, n in values.items()}))
                row.choice_seats.append(seat)
        nxt = p.play(card)
        row.cards[seat] = card
        if not nxt.trick:             # trick complete
            row.winner = nxt.leader
            won[nxt.leader % 2] += 1
            row.ns, row.ew = won
            rows.append(row)
            row = LineTrick(number=row.number + 1, leader=nxt.leader, cards={})
        p = nxt
    if row.cards:
        rows.append(row)
    return rows, decisions, analysed_to


def played_count(board, pos: Position) -> int:
    """Cards of ``board``'s deal played before ``pos`` (its Play section)."""
    hands = board.hands
    if not hands:
        return 0
    return sum(len(h) for h in hands) - sum(len(h) for h in pos.hands)


def has_jokers(pos: Position) -> bool:
    """Whether a joker is held or on the table in ``pos``."""
    return any(c in JOKERS for h in pos.hands for c in h) or any(c in JOKERS for c in pos.trick)
