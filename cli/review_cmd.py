"""``whist-solve review FILE...``: the recorded play of each board (its
``[Play]`` section) against double-dummy: every card's value before and
after it was played, the cards that cost their side tricks (who, which
trick, how many, what was right) and the contract's double-dummy verdict
against the ``Result`` tag (:mod:`whist_solve.review`)."""
from __future__ import annotations

from typing import List, Optional

import typer

from whist_solve.review import contract_set_aside, review_board
from whist_solve.vocab import SEATS, ascii_arrows, opening_leader, strain_name

from . import render
from .options import (BOARDS_OPT, FILES_ARG, JOBS_OPT, JSON_OPT, LEADER_OPT, RANKING_OPT,
                      SCHEDULER_OPT, TRUMP_OPT, TT_OPT)
from .runner import Run, board_json, board_where, map_prepared


def review(
    files: List[str] = FILES_ARG,
    trump: Optional[str] = TRUMP_OPT,
    ranking: Optional[str] = RANKING_OPT,
    leader: Optional[str] = LEADER_OPT,
    mistakes_only: bool = typer.Option(False, "--mistakes-only", "-m",
                                       help="List only the cards that cost their side tricks "
                                            "(the JSON output keeps every card)."),
    json_out: bool = JSON_OPT,
    boards: Optional[List[str]] = BOARDS_OPT,
    tt_mb: int = TT_OPT,
    jobs: int = JOBS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
) -> None:
    """The recorded play against double-dummy: each card's value before
    and after it, the cards that cost their side tricks, and the
    contract's double-dummy verdict against the [bold]Result[/] tag.

    Boards without a [bold]Play[/] section are named on stderr and skipped.
    """
    run = Run(json_out, boards)
    backend = run.backend(jobs, scheduler)

    def prepare(board):
        # (no play is looked for first: a board that records none is
        # skipped whatever else it lacks, a trump or a leader)
        why = None
        if trump is None and _passed_out(board):
            why = "passed out"
        elif not board.has_play():
            why = "no recorded play (no cards in a Play section)"
        if why:
            run.warning(board_where(board), f"{why}: nothing to review")
            return None
        start = board.start_position(trump, ranking, leader)
        if leader is None:
            _say_other_leader(run, board, start.leader)
        _say_other_strain(run, board, start.trump, start.ranking, trump, ranking)
        return (board, trump, ranking, leader, start.trump, start.ranking, start.leader)

    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, review_work, backend,
                                                       tt_mb):
            with run.guard(where, board):
                if isinstance(result, Exception):
                    raise result
                _, _, _, _, pos_trump, pos_ranking, first_leader = item
                if result.result_problem:
                    run.warning(board_where(board),
                                f"{result.result_problem}: the play is reviewed without it")
                if run.json:
                    run.emit_json(board_json(board, trump=pos_trump or "NT", ranking=pos_ranking,
                                             leader=SEATS[first_leader], **result.as_json(),
                                             file=board.file))
                else:
                    run.emit(render.review_view(run.style, board, result, pos_trump, pos_ranking,
                                                first_leader, mistakes_only))
    run.finish()


def _say_other_leader(run: Run, board, first: int) -> None:
    """A warning when the recorded play's first leader is not the one the
    contract has (the declarer's left-hand opponent; in bid whist the
    bidder): the play is reviewed as recorded, check answers for the
    contract's."""
    declarer = board.declaring_seat()
    if declarer is None or board.contract() is None or board.passed_out():
        return
    expected = opening_leader(declarer, board.game() == "bid")
    if first != expected:
        run.warning(board_where(board),
                    f"{SEATS[first]} leads the recorded play, but the contract's opening leader "
                    f"is {SEATS[expected]} ({SEATS[declarer]} declares): the play is reviewed "
                    "as recorded")


def _say_other_strain(run: Run, board, pos_trump, pos_ranking, trump, ranking) -> None:
    """A warning when the play is reviewed in another strain or ranking
    than the contract's (a Trump tag, --trump, --ranking): the verdict
    then counts the declaring side's tricks, not the contract's."""
    contract = board.contract()
    if board.declaring_seat() is None:
        return          # (a contract without a declarer is not used)
    if contract_set_aside(contract, pos_trump, pos_ranking):
        # what said otherwise than the contract: the option, else the tag
        given = []
        if contract.trump != pos_trump:
            given.append("--trump" if trump is not None else "the Trump tag")
        if contract.ranking != pos_ranking:
            given.append("--ranking" if ranking is not None else "the Ranking tag")
        given = " and ".join(given)
        how = "at no-trump" if pos_trump is None else f"with {strain_name(pos_trump)} as trumps"
        if pos_ranking != contract.ranking:
            how += f", {pos_ranking}town"
        run.warning(board_where(board),
                    f"the play is reviewed {how} ({given}), not in the contract "
                    f"({ascii_arrows(contract.name())}): the verdict counts tricks, not the "
                    "contract")


def _passed_out(board) -> bool:
    """Passed out, and no Trump tag to review the play in."""
    return board.passed_out() and board.tag("Trump") is None


def review_work(solver, item):
    """One board's review (run on a worker with --jobs or --scheduler)."""
    board, trump, ranking, leader = item[:4]
    return review_board(board, trump, ranking, leader, solver=solver)
