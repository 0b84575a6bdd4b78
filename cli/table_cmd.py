"""``whist-solve table FILE...``: the double-dummy table of each deal,
tricks won by N-S for every strain and every leader of the first trick, in
one or both rankings; for people, as JSON Lines, or as PBN with an
OptimumResultTable."""
from __future__ import annotations

from typing import List, Optional

import typer

from whist_solve.cards import Position
from whist_solve.engine import dd_table
from whist_solve.errors import WhistError
from whist_solve.pbn import table_board_pbn
from whist_solve.vocab import SEATS, STRAINS

from . import render
from .options import FILES_ARG, JOBS_OPT, JSON_OPT, TT_OPT, strains_option, table_ranking_option
from .runner import Run, board_json, map_prepared


def table(
    files: List[str] = FILES_ARG,
    ranking: str = typer.Option("up", "--ranking", "-r", callback=table_ranking_option,
                                metavar="up|down|both", help="Rankings to tabulate."),
    strain: Optional[List[str]] = typer.Option(None, "--strain", "--trump", "-t", callback=strains_option,
                                               metavar="S|H|D|C|NT",
                                               help="Only these strains (repeat, or S,H,...). Default: all five."),
    json_out: bool = JSON_OPT,
    pbn: bool = typer.Option(False, "--pbn", help="Print each deal as PBN with an OptimumResultTable."),
    tt_mb: int = TT_OPT,
    jobs: int = JOBS_OPT,
) -> None:
    """Double-dummy table: tricks won by N-S for every strain and every
    leader of the first trick (the full deal; a [bold]Play[/] section is ignored)."""
    if json_out and pbn:
        raise typer.BadParameter("choose one of --json and --pbn", param_hint="--pbn")
    rankings = ("up", "down") if ranking == "both" else (ranking,)
    strains = tuple(strain) if strain else STRAINS
    run = Run(json_out)

    def prepare(board):
        hands = board.hands
        if not hands:
            raise WhistError("no deal (missing Deal tag)")
        hands = [list(h) for h in hands]
        board.game()   # a bad Variant tag, or jokers in classic whist
        # Validates the deal (duplicates, unequal hands) with the rules model.
        Position.make(hands, None, "up", 0)
        return (hands, strains, rankings)

    for where, board, item, result in map_prepared(run, files, prepare, table_work, jobs, tt_mb):
        with run.guard(where, board):
            if isinstance(result, Exception):
                raise result
            _table_board(run, board, item[0], result, strains, rankings, pbn)
    run.finish()


def table_work(solver, item):
    """One deal's table (run in a worker process with --jobs)."""
    hands, strains, rankings = item
    return dd_table(hands, strains=strains, rankings=rankings, solver=solver)


def _table_board(run: Run, board, hands, result, strains, rankings, pbn: bool) -> None:
    table = {s: {r: {seat: int(result[s][r][seat]) for seat in SEATS} for r in rankings}
             for s in strains}
    n = len(hands[0])
    if run.json:
        run.emit_json(board_json(board, table=table, tricks_total=n))
        return
    if pbn:
        if not run.pbn_header:
            run.emit_text("% PBN 2.1\n% EXPORT\n")
            run.pbn_header = True
        else:
            run.emit_text("\n")
        run.emit_text(table_board_pbn(board, table, n))
        return
    deal = render.deal_text(run.style, hands, board.kitty)
    run.emit(render.dd_tables_view(run.style, render.board_title(board), table, strains,
                                   rankings, n, deal))
