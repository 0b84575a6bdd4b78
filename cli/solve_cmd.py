"""``whist-solve solve FILE...`` (also plain ``whist-solve FILE...``): the
value of each board's position for the side on turn, the value of each
legal card and one optimal line to the end, with the alternatives at every
real choice along it (output for people)."""
from __future__ import annotations

from typing import List, Optional, Tuple

import typer

from whist_solve.cards import Position, sort_cards
from whist_solve.lines import analyse_line, check_line, has_jokers, played_count
from whist_solve.vocab import SEATS, opening_leader

from . import render
from .html import HtmlPage, html_obj, write_page
from .options import (AFTER_TRICK_OPT, BOARDS_OPT, FILES_ARG, FROM_LEAD_OPT, HTML_OPT, JOBS_OPT,
                      JSON_OPT, LEADER_OPT, RANKING_OPT, SCHEDULER_OPT, TRUMP_OPT, TT_OPT,
                      check_output_target, play_stop)
from .runner import (Over, Repeat, Repeats, Run, board_json, map_prepared,
                     say_replayed_otherwise)


def solve(
    files: List[str] = FILES_ARG,
    trump: Optional[str] = TRUMP_OPT,
    ranking: Optional[str] = RANKING_OPT,
    leader: Optional[str] = LEADER_OPT,
    json_out: bool = JSON_OPT,
    boards: Optional[List[str]] = BOARDS_OPT,
    tt_mb: int = TT_OPT,
    jobs: int = JOBS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    from_lead: bool = FROM_LEAD_OPT,
    after_trick: Optional[int] = AFTER_TRICK_OPT,
    html: Optional[str] = HTML_OPT,
) -> None:
    """Value of the position for the side on turn, the value of each legal
    card and one optimal line to the end.

    Cards of the board's [bold]Play[/] section are played first (all of them,
    the first N tricks with [bold]--after-trick N[/], none with [bold]--from-lead[/]).
    """
    stop = play_stop(from_lead, after_trick)
    check_output_target(html, files)
    run = Run(json_out, boards)
    backend = run.backend(jobs, scheduler)
    analyse = not run.json          # the alternatives along the line, for people
    repeats = Repeats()   # a position that comes again (two rooms) is solved once
    page = HtmlPage("whist-solve solve " + " ".join(files)) if html else None
    run.page = page

    def prepare(board):
        pos = board.position(trump=trump, ranking=ranking, leader=leader, tricks=stop)
        if stop != 0:
            say_replayed_otherwise(run, board, trump, ranking)
        if pos.is_over():
            return Over(pos)              # every trick recorded: nothing to solve
        return repeats.item(pos, (pos, analyse))

    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, solve_work, backend,
                                                       tt_mb):
            with run.guard(where, board):
                if isinstance(item, Over):
                    _over_board(run, board, (trump, ranking, leader), item.what, page)
                    continue
                pos = item.key if isinstance(item, Repeat) else item[0]
                result = repeats.answer(pos, item, result)
                if isinstance(result, Exception):
                    raise result
                _solve_board(run, where, board, (trump, ranking, leader), pos, *result, page=page)
    if page is not None:
        write_page(run, page, html)
    run.finish()


def solve_work(solver, item):
    """One board's solution, and with ``analyse`` the alternatives along its
    line (run on a worker with --jobs or --scheduler); nothing for a
    repeated position (its first board's answer is used)."""
    if isinstance(item, (Repeat, Over)):
        return None
    pos, analyse = item
    # From an empty table: the node count printed is then this board's
    # own, whichever boards the process solved before (--jobs, --scheduler)
    solver.clear()
    result = solver.solve(pos, cards=True, line=True)
    if not analyse:
        return result, None
    cards = {c: int(n) for c, n in result.cards.items()}
    return result, analyse_line(solver, pos, list(result.line or []), cards)


def _over_board(run: Run, board, options, pos: Position,
                page: "HtmlPage | None" = None) -> None:
    """A board whose Play section records every trick: the tricks each side
    took, and nothing to solve (no side on turn, no card, no line);
    ``options``: the --trump, --ranking and --leader given."""
    leader = options[2]
    obj = board_json(
        board, trump=pos.trump or "NT", ranking=pos.ranking,
        leader=SEATS[board.leader(leader)], turn=None, tricks=0, cards={}, line=[],
        ns_tricks=0, ew_tricks=0, tricks_left=0, trick=[], trick_leader=SEATS[pos.leader],
        won={"NS": pos.ns_tricks, "EW": pos.ew_tricks}, nodes=0, file=board.file)
    if page is not None:
        page.add_solve(html_obj(obj, board), pos, board.kitty or (), _contract_note(board, pos, options))
    if run.json:
        run.emit_json(obj)
    else:
        run.emit(render.play_over(run.style, board, pos))


def _solve_board(run: Run, where: str, board, options, pos: Position, result, analysis,
                 page: "HtmlPage | None" = None) -> None:
    """One board's answer; ``options``: the --trump, --ranking and --leader
    given (None where not)."""
    trump, ranking, leader = options
    first_leader = board.leader(leader)
    line = list(result.line or [])
    cards = {c: int(n) for c, n in result.cards.items()}
    turn = pos.turn
    if result.turn is not None and int(result.turn) != turn:
        run.warning(where, f"engine reports {SEATS[int(result.turn)]} on turn, expected {SEATS[turn]}")
    left = pos.tricks_left
    ns_tricks = int(result.ns_tricks)
    problem = check_line(pos, line, int(result.tricks))
    if problem:
        run.warning(where, problem)

    if run.json or page is not None:
        obj = board_json(
            board,
            trump=pos.trump or "NT",
            ranking=pos.ranking,
            leader=SEATS[first_leader],
            turn=SEATS[turn],
            tricks=int(result.tricks),
            cards={c: cards[c] for c in sort_cards(cards, pos.ranking)},
            line=line,
            ns_tricks=ns_tricks,
            ew_tricks=left - ns_tricks,
            tricks_left=left,
            trick=list(pos.trick),
            trick_leader=SEATS[pos.leader],
            won={"NS": pos.ns_tricks, "EW": pos.ew_tricks},
            nodes=int(result.nodes) if result.nodes is not None else None,
            file=board.file,
        )
        if page is not None:
            page.add_solve(html_obj(obj, board), pos, board.kitty or (), _contract_note(board, pos, options))
        if run.json:
            run.emit_json(obj)
            return

    rows, decisions, analysed_to = analysis
    shown, set_aside = _contract_shown(board, pos, *options)
    view = render.SolveView(
        title=render.board_title(board),
        pos=pos, trump=pos.trump, ranking=pos.ranking, first_leader=first_leader,
        tricks=int(result.tricks), cards=cards, trick_rows=rows, decisions=decisions,
        analysed_to=analysed_to,
        contract=shown, declarer=_declarer_shown(board, shown), set_aside=set_aside,
        kitty=board.kitty or None, played_before=played_count(board, pos),
        nodes=result.nodes, jokers=has_jokers(pos),
    )
    run.emit(render.solve_view(run.style, view))


def _contract_note(board, pos: Position, options) -> Optional[str]:
    """What the header says of the board's contract (render.contract_note)."""
    shown, set_aside = _contract_shown(board, pos, *options)
    return render.contract_note(shown, _declarer_shown(board, shown), set_aside)


def _declarer_shown(board, shown: Optional[str]) -> Optional[str]:
    """The seat the header names with the contract (its declarer, in bid
    whist its bidder), or the bidder alone; a Bidder and a Declarer that
    differ in bid whist are refused here as everywhere."""
    seat = board.declaring_seat() if shown else board.bidder()
    return None if seat is None else SEATS[seat]


def _contract_shown(board, pos: Position, trump: Optional[str], ranking: Optional[str],
                    leader: Optional[str]) -> Tuple[Optional[str], Optional[str]]:
    """The Contract tag for the header, as whist-solve names contracts
    ('4 H down' is 4H↓), and None; or, when the position is solved in
    another strain or ranking than the contract's, or with a --leader other
    than the contract's opening leader (the declarer's left, in bid whist
    the bidder), None and what sets the contract aside ('contract 2H by N
    set aside (--leader W)')."""
    c = board.contract()
    if c is None:
        return None, None
    if c.passed:
        return c.name(), None
    why = []
    if c.trump != pos.trump:
        why.append(f"--trump {trump}" if trump is not None else "the Trump tag")
    if c.ranking != pos.ranking:
        why.append(f"--ranking {ranking}" if ranking is not None else "the Ranking tag")
    seat = board.declaring_seat()
    if (leader is not None and seat is not None
            and board.leader(leader) != opening_leader(seat, board.game() == "bid")):
        why.append(f"--leader {leader.upper()}")
    if not why:
        return c.name(), None
    by = "" if seat is None else f" by {SEATS[seat]}"
    return None, f"contract {c.name()}{by} set aside ({', '.join(why)})"


