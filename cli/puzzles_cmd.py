"""``whist-solve puzzles FILE|DIR...``: verify double-dummy problems.

Every board states a goal: ``[Goal "NS 5"]`` (that side takes at least five
tricks from the position on), or, as in bridge problem files, a ``Contract``
and a ``Declarer``: level + 6 tricks for the declarer's side, less the tricks
that side already won in the board's ``Play`` section.  The command solves
each position, says whether the goal is reached with best play, and shows
the solution: the key plays, then one optimal line trick by trick, with the
alternatives at every real choice.

Exit status: 0 every goal reached, 1 some goal fails, 2 bad input (the bad
boards are reported, the others are still verified).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import typer
from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from whist_solve.cards import JOKERS, SEATS, Position, WhistError, side_of, sort_cards

from . import render

SIDE_NAMES = {"NS": "N-S", "EW": "E-W"}


# --------------------------------------------------------------------------
# Files


def expand_paths(paths: List[str]) -> Tuple[List[str], List[str]]:
    """Files to read: a directory stands for the ``*.pbn`` files inside it,
    sorted by name.  Returns (files, problems)."""
    files: List[str] = []
    problems: List[str] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            inside = sorted(f for f in os.listdir(p)
                            if f.lower().endswith(".pbn") and os.path.isfile(os.path.join(p, f)))
            if not inside:
                problems.append(f"{p}: no .pbn files in this directory")
            files.extend(os.path.join(p, f) for f in inside)
        else:
            files.append(p)
    return files, problems


# --------------------------------------------------------------------------
# Goals


@dataclass
class Goal:
    side: str          # 'NS' or 'EW'
    tricks: int        # from the position on
    source: str        # 'Goal' or 'Contract'
    note: str = ""     # how a Contract goal was counted


def board_goal(board, pos: Position) -> Goal:
    """The board's goal, counted from the position on."""
    g = board.goal()
    if g is not None:
        return Goal(g[0], g[1], "Goal")
    contract = board.contract()
    declarer = board.declarer()
    if contract is not None and not contract.passed and declarer is not None:
        side = side_of(declarer)
        won = pos.ns_tricks if side == "NS" else pos.ew_tricks
        need = contract.level + 6
        note = f"contract {contract} by {SEATS[declarer]}: {need} tricks"
        if won:
            note += f", {won} already won"
        return Goal(side, need - won, "Contract", note)
    if contract is not None and contract.passed:
        raise WhistError("no goal: the Contract is Pass and there is no Goal tag")
    if contract is not None:
        raise WhistError("no goal: a Contract but no Declarer (add a Declarer tag, "
                         "or a Goal tag such as [Goal \"NS 5\"])")
    raise WhistError("no goal: add a Goal tag (e.g. [Goal \"NS 5\"]) "
                     "or a Contract and a Declarer")


# --------------------------------------------------------------------------
# Key plays


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


# --------------------------------------------------------------------------
# Output for people


def _side(side: str) -> str:
    return SIDE_NAMES[side]


def _header(st: render.Style, pos: Position, first_leader: int, goal: Goal,
            played_before: int) -> Text:
    t = render.contract_line(st, pos.trump, pos.ranking, first_leader)
    if played_before:
        t.append(f"\n{played_before} card(s) already played: N-S won {pos.ns_tricks}, "
                 f"E-W won {pos.ew_tricks}")
        if pos.trick:
            t.append(f"; trick {pos.ns_tricks + pos.ew_tricks + 1} in progress")
    t.append("\n")
    t.append("Goal: ", style="bold")
    what = "trick" if pos.tricks_left == 1 else "tricks"
    t.append(f"{_side(goal.side)} to take {goal.tricks} of the {pos.tricks_left} {what} "
             f"from here", style="bold")
    if goal.note:
        t.append(f" ({goal.note})", style="dim")
    t.append(f"\n{render.SEAT_NAMES[SEATS[pos.turn]]} to play.")
    return t


def _verdict(st: render.Style, goal: Goal, value: int, left: int) -> Text:
    t = Text()
    if value >= goal.tricks:
        t.append("Solved" + (" \u2713" if st.symbols else ""), style="bold green")
        t.append(f": {_side(goal.side)} take {value} with best play")
        if value == goal.tricks:
            t.append(" (the goal exactly)")
        else:
            t.append(f" ({value - goal.tricks} more than the goal)")
    else:
        t.append("Not solved" + (" \u2717" if st.symbols else ""), style="bold red")
        t.append(f": {_side(goal.side)} take only {value}; the defence holds them "
                 f"{goal.tricks - value} short")
        if goal.tricks > left:
            t.append(f" (the goal asks for more than the {left} tricks left)")
    t.append(".")
    return t


def _key_text(st: render.Style, keys: List[KeyPlay], goal: Goal, solved: bool) -> Text:
    t = Text()
    attack = [k for k in keys if k.attacker]
    defence = [k for k in keys if not k.attacker]
    shown = attack if solved else defence
    if solved:
        t.append("Key plays", style="bold")
        t.append(f" ({_side(goal.side)}: the goal is lost with any other card)", style="dim")
    else:
        t.append("Defence", style="bold")
        t.append(" (the plays that beat the goal)", style="dim")
    t.append("\n")
    if not shown:
        t.append("  none: every card along the line keeps the verdict\n", style="dim")
    for k in shown:
        t.append(f"  trick {k.trick_no}, {render.SEAT_NAMES[SEATS[k.seat]]}: ")
        t.append_text(st.cards(k.good))
        t.append("!" if len(k.good) == 1 else " (any of these)", style="bold")
        by: Dict[int, List[str]] = {}
        for c, n in k.bad.items():
            by.setdefault(n, []).append(c)
        for n in sorted(by, reverse=True):
            t.append("; ")
            t.append_text(st.cards(by[n]))
            t.append(f" {st.arrow} {_side(goal.side)} {n}")
        t.append("\n")
    t.rstrip()
    return t


# --------------------------------------------------------------------------
# The command


@dataclass
class Tally:
    solved: int = 0
    failed: int = 0
    bad: set = field(default_factory=set)
    failures: List[str] = field(default_factory=list)


def register(app: typer.Typer) -> None:
    """Adds the ``puzzles`` command to the application."""
    from . import main as m

    @app.command()
    def puzzles(
        paths: List[str] = typer.Argument(..., metavar="FILE|DIR...", show_default=False,
                                          help="PBN files or directories of them (every *.pbn "
                                               "inside, sorted); - reads standard input."),
        trump: Optional[str] = m.TRUMP_OPT,
        ranking: Optional[str] = m.RANKING_OPT,
        leader: Optional[str] = m.LEADER_OPT,
        json_out: bool = m.JSON_OPT,
        tt_mb: int = m.TT_OPT,
    ) -> None:
        """Verify each board's goal and show the solution.

        The goal is the [bold]Goal[/] tag ([bold]NS 5[/]: N-S take at least five
        tricks from the position on) or, without one, the [bold]Contract[/] for
        the [bold]Declarer[/]'s side (level + 6, less the tricks already won in
        the [bold]Play[/] section).  Exit status 1 when a goal fails.
        """
        run_puzzles(paths, trump, ranking, leader, json_out, tt_mb)


def run_puzzles(paths, trump, ranking, leader, json_out: bool, tt_mb: int) -> None:
    from . import main as m

    tally = Tally()

    class _Run(m.Run):
        def error(self, where: str, text: str) -> None:
            tally.bad.add(where)
            super().error(where, text)

    run = _Run(json_out)
    start = time.monotonic()
    files, problems = expand_paths(paths)
    for p in problems:
        run.error("", p)

    def handle(solver, where, board):
        if _puzzle_board(run, m, solver, where, board, trump, ranking, leader):
            tally.solved += 1
        else:
            tally.failed += 1
            tally.failures.append(where)

    run.each_board(files, tt_mb, handle)
    elapsed = time.monotonic() - start
    _summary(run, tally, elapsed)
    status = run.status
    if tally.failed and status == m.EXIT_OK:
        status = m.EXIT_NEGATIVE
    raise typer.Exit(status)


def _puzzle_board(run, m, solver, where: str, board, trump, ranking, leader) -> bool:
    pos: Position = board.position(trump=trump, ranking=ranking, leader=leader)
    goal = board_goal(board, pos)
    first_leader = m._seat_number(board.leader(leader))
    left = pos.tricks_left
    if goal.tricks > left:
        run.warning(where, f"the goal ({_side(goal.side)} {goal.tricks}) asks for more than "
                           f"the {left} tricks left")
    result = solver.solve(pos, cards=True, line=True)
    line = list(result.line or [])
    ns = int(result.ns_tricks)
    value = ns if goal.side == "NS" else left - ns
    solved = value >= goal.tricks
    m._check_line(run, where, pos, line, int(result.tricks))
    turn_cards = {c: int(n) for c, n in result.cards.items()}
    attacker_on_turn = side_of(pos.turn) == goal.side
    goal_cards = {c: (n if attacker_on_turn else left - n) for c, n in turn_cards.items()}

    rows, decisions, analysed_to = m._analyse_line(run, solver, pos, line, turn_cards)
    keys = key_plays(decisions, goal, left, pos.ranking)
    title = board.tags.get("Title", "").strip() or None
    comment = " ".join(" ".join(getattr(board, "comments", None) or []).split()) or None

    if run.json:
        obj = {
            "board": board.label,
            "deal": board.deal_string(),
            "title": title,
            "comment": comment,
            "goal": {"side": goal.side, "tricks": goal.tricks, "from": goal.source},
            "tricks": value,
            "solved": solved,
            "line": line,
            "trump": pos.trump or "NT",
            "ranking": pos.ranking,
            "leader": SEATS[first_leader],
            "turn": SEATS[pos.turn],
            "cards": {c: goal_cards[c] for c in sort_cards(goal_cards, pos.ranking)},
            "key": [k.as_json() for k in keys if k.attacker == solved],
            "tricks_left": left,
            "won": {"NS": pos.ns_tricks, "EW": pos.ew_tricks},
            "file": m._file_name(board.file) if isinstance(board.file, str) else board.file,
        }
        run.emit_json(obj)
        return solved

    st = run.style
    played_before = m._played_count(board, pos)
    jokers = any(c in JOKERS for h in pos.hands for c in h) or any(c in JOKERS for c in pos.trick)
    view = render.SolveView(
        title="", pos=pos, trump=pos.trump, ranking=pos.ranking, first_leader=first_leader,
        tricks=int(result.tricks), cards=turn_cards, trick_rows=rows, decisions=decisions,
        analysed_to=analysed_to, played_before=played_before, jokers=jokers)
    parts = [
        _header(st, pos, first_leader, goal, played_before),
        Text(""),
        render.compass(st, pos, jokers),
        Text(""),
        _verdict(st, goal, value, left),
        Text(""),
        _key_text(st, keys, goal, solved),
    ]
    if rows:
        parts += [Text(""), render.line_table(st, view)]
        d = render.decisions_text(st, view)
        if d is not None:
            parts.append(d)
    if comment:
        parts += [Text(""), Text.assemble(("The idea: ", "bold"), comment)]
    head = f"Board {board.label}"
    if title:
        head += f": {title}"
    head += f"  {where.split(': board')[0]}"
    run.emit(Panel(Group(*parts), title=Text(head, style="bold"), title_align="left",
                   box=box.ROUNDED, expand=False,
                   border_style="green" if solved else "red"))
    return solved


def _summary(run, tally: Tally, elapsed: float) -> None:
    total = tally.solved + tally.failed + len(tally.bad)
    if run.json and total == 0:
        return
    t = Text()
    t.append(f"{tally.solved} solved", style="bold green" if tally.solved else "")
    t.append(", ")
    t.append(f"{tally.failed} failed", style="bold red" if tally.failed else "")
    t.append(", ")
    n_bad = len(tally.bad)
    t.append(f"{n_bad} error{'s' if n_bad != 1 else ''}", style="bold red" if n_bad else "")
    t.append(f" in {elapsed:.2f} s")
    if tally.failures:
        t.append("\nfailed: " + ", ".join(tally.failures))
    run.err.print(t)
