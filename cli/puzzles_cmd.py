"""``whist-solve puzzles [FILE|DIR...]``: verify double-dummy problems.

Every board states a goal (:mod:`whist_solve.puzzle`).  The command solves
each position, says whether the goal is reached with best play, and shows
the solution: the key plays, then one optimal line trick by trick, with the
alternatives at every real choice.

Exit status: 0 every goal reached, 1 some goal fails, 2 bad input (the bad
boards are reported, the others are still verified).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import List, Optional

import typer

from whist_solve.cards import Position, sort_cards
from whist_solve.lines import analyse_line, check_line, has_jokers, played_count
from whist_solve.puzzle import (board_goal, expand_paths, goal_value, key_plays,
                                shipped_collections)
from whist_solve.vocab import SEATS, SIDE_NAMES, side_of

from . import render
from .html import HtmlPage, html_obj, write_page
from .options import (BOARDS_OPT, JOBS_OPT, JSON_OPT, LEADER_OPT, RANKING_OPT, SCHEDULER_OPT,
                      TRUMP_OPT, TT_OPT, check_output_target, html_option)
from .runner import (EXIT_NEGATIVE, EXIT_OK, Over, Run, board_json, map_prepared,
                     say_replayed_otherwise)


@dataclass
class Tally:
    solved: int = 0
    failed: int = 0
    bad: set = field(default_factory=set)
    failures: List[str] = field(default_factory=list)


class _TallyRun(Run):
    """A run that also counts the boards with errors."""

    def __init__(self, json_out: bool, tally: Tally, boards: Optional[List[str]] = None):
        super().__init__(json_out, boards)
        self.tally = tally

    def count_bad(self, key) -> None:
        self.tally.bad.add(key)
        super().count_bad(key)


def puzzles(
    paths: Optional[List[str]] = typer.Argument(
        None, metavar="[FILE|DIR...]", show_default=False,
        help="PBN files or directories of them (every *.pbn inside, sorted); - reads "
             "standard input.  Without one, the collections shipped with whist-solve."),
    trump: Optional[str] = TRUMP_OPT,
    ranking: Optional[str] = RANKING_OPT,
    leader: Optional[str] = LEADER_OPT,
    json_out: bool = JSON_OPT,
    boards: Optional[List[str]] = BOARDS_OPT,
    tt_mb: int = TT_OPT,
    jobs: int = JOBS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    html: Optional[str] = typer.Option(None, "--html", metavar="FILE", callback=html_option,
                                       help="Also write a booklet to print (the problems, then "
                                            "the solutions) as one self-contained HTML page."),
) -> None:
    """Verify each board's goal and show the solution.

    The goal is the [bold]Goal[/] tag ([bold]NS 5[/]: N-S take at least five
    tricks from the position on) or, without one, the [bold]Contract[/] for
    the [bold]Declarer[/]'s side (level + 6, less the tricks already won in
    the [bold]Play[/] section).  Exit status 1 when a goal fails.
    """
    tally = Tally()
    run = _TallyRun(json_out, tally, boards)
    backend = run.backend(jobs, scheduler)
    start = time.monotonic()
    paths = list(paths or [shipped_collections()])
    files, problems = expand_paths(paths)
    check_output_target(html, files)
    page = HtmlPage("whist-solve puzzles " + " ".join(paths)) if html else None
    run.page = page
    for p in problems:
        run.error("", p)

    def prepare(board):
        pos = board.position(trump=trump, ranking=ranking, leader=leader)
        say_replayed_otherwise(run, board, trump, ranking)
        if pos.is_over():
            return Over((pos, board_goal(board, pos)))   # every trick recorded
        return pos, board_goal(board, pos)

    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, puzzle_work, backend,
                                                       tt_mb):
            with run.guard(where, board):
                if isinstance(result, Exception):
                    raise result
                if isinstance(item, Over):
                    solved = _over_puzzle(run, board, leader, *item.what, page=page)
                else:
                    solved = _puzzle_board(run, where, board, leader, *item, *result, page=page)
                if solved:
                    tally.solved += 1
                else:
                    tally.failed += 1
                    tally.failures.append(where)
    if page is not None:
        write_page(run, page, html)
    elapsed = time.monotonic() - start
    run.error_summary()          # ("... and K more errors in FILE")
    total = tally.solved + tally.failed + len(tally.bad)
    if not (run.json and total == 0):
        run.err.print(render.puzzles_summary(tally.solved, tally.failed, len(tally.bad), elapsed,
                                             tally.failures))
    status = run.status
    if tally.failed and status == EXIT_OK:
        status = EXIT_NEGATIVE
    raise typer.Exit(status)


def puzzle_work(solver, item):
    """One position solved, with the alternatives along its optimal line
    (run on a worker with --jobs or --scheduler)."""
    if isinstance(item, Over):
        return None
    pos, _ = item
    # (from an empty table: the nodes the alternatives may spend then
    # count the same whichever puzzles the process solved before)
    solver.clear()
    result = solver.solve(pos, cards=True, line=True)
    turn_cards = {c: int(n) for c, n in result.cards.items()}
    return (result,) + tuple(analyse_line(solver, pos, list(result.line or []), turn_cards))


def _goal_json(goal) -> dict:
    """The goal in the JSON (and the booklet): side, tricks, where it comes
    from, and how a Contract goal was counted ("" for a Goal tag)."""
    return {"side": goal.side, "tricks": goal.tricks, "from": goal.source, "note": goal.note}


def _title_and_comment(board):
    """A puzzle's title (the Title tag) and its comments on one line, or None."""
    return ((board.tag("Title") or "").strip() or None,
            " ".join(" ".join(board.brace_comments).split()) or None)


def _over_puzzle(run: Run, board, leader, pos: Position, goal,
                 page: "HtmlPage | None" = None) -> bool:
    """A puzzle whose Play section records every trick: the goal (the
    tricks still to take from there) is reached only if it asks for none."""
    solved = goal.tricks <= 0
    if run.json or page is not None:
        title, comment = _title_and_comment(board)
        obj = board_json(
            board, title=title, comment=comment,
            goal=_goal_json(goal),
            tricks=0, solved=solved, line=[], trump=pos.trump or "NT", ranking=pos.ranking,
            leader=SEATS[board.leader(leader)], turn=None, cards={}, key=[], tricks_left=0,
            won={"NS": pos.ns_tricks, "EW": pos.ew_tricks}, file=board.file)
        if page is not None:
            page.add_puzzle(html_obj(obj, board), pos)
    if run.json:
        run.emit_json(obj)
    else:
        side = SIDE_NAMES[goal.side]
        said = (f"Goal reached: {side} needed no more tricks." if solved else
                f"Goal not reached: {side} needed {goal.tricks} more.")
        run.emit(render.play_over(run.style, board, pos, said))
    return solved


def _puzzle_board(run: Run, where: str, board, leader, pos: Position, goal, result,
                  rows, decisions, analysed_to, page: "HtmlPage | None" = None) -> bool:
    first_leader = board.leader(leader)
    left = pos.tricks_left
    if goal.tricks > left:
        run.warning(where, f"the goal ({SIDE_NAMES[goal.side]} {goal.tricks}) asks for more than "
                           f"the {left} tricks left")
    line = list(result.line or [])
    value = goal_value(goal, int(result.ns_tricks), left)
    solved = value >= goal.tricks
    problem = check_line(pos, line, int(result.tricks))
    if problem:
        run.warning(where, problem)
    turn_cards = {c: int(n) for c, n in result.cards.items()}
    attacker_on_turn = side_of(pos.turn) == goal.side
    goal_cards = {c: (n if attacker_on_turn else left - n) for c, n in turn_cards.items()}

    keys = key_plays(decisions, goal, left, pos.ranking)
    title, comment = _title_and_comment(board)

    if run.json or page is not None:
        obj = board_json(
            board,
            title=title,
            comment=comment,
            goal=_goal_json(goal),
            tricks=value,
            solved=solved,
            line=line,
            trump=pos.trump or "NT",
            ranking=pos.ranking,
            leader=SEATS[first_leader],
            turn=SEATS[pos.turn],
            cards={c: goal_cards[c] for c in sort_cards(goal_cards, pos.ranking)},
            key=[k.as_json() for k in keys if k.attacker == solved],
            tricks_left=left,
            won={"NS": pos.ns_tricks, "EW": pos.ew_tricks},
            file=board.file,
        )
        if page is not None:
            page.add_puzzle(html_obj(obj, board), pos)
        if run.json:
            run.emit_json(obj)
            return solved

    view = render.SolveView(
        title="", pos=pos, trump=pos.trump, ranking=pos.ranking, first_leader=first_leader,
        tricks=int(result.tricks), cards=turn_cards, trick_rows=rows, decisions=decisions,
        analysed_to=analysed_to, played_before=played_count(board, pos), jokers=has_jokers(pos))
    run.emit(render.puzzle_view(run.style, board, view, goal, value, keys, solved, title, comment))
    return solved
