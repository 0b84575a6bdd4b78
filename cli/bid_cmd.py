"""``whist-solve bid FILE...``: for every board, the bidder's best exchange
with the kitty for each of the ten choices (the four suits uptown and
downtown, no-trump uptown and downtown): the books the bidding side takes
(the discard's book included, the bidder leading), with the keep and the
discard, the best choice, the highest makeable bid and its score.

Reduced deals work too: hands of n cards and a kitty of m; the bidder keeps
n of its n + m cards.  A bid of L always needs L + 6 books.
"""
from __future__ import annotations

from typing import List, Optional

import typer

from whist_solve.bid import analyse_bid, summarize
from whist_solve.cards import format_hand
from whist_solve.vocab import SEATS

from . import render
from .options import BID_TT_OPT, BIDDER_OPT, FILES_ARG, JOBS_OPT, JSON_OPT, SCHEDULER_OPT
from .runner import Run, board_json, map_prepared


def bid(
    files: List[str] = FILES_ARG,
    bidder: Optional[str] = BIDDER_OPT,
    json_out: bool = JSON_OPT,
    min_bid_3: bool = typer.Option(False, "--min-bid-3",
                                   help="Variant: the lowest bid is 3 (9 books)."),
    tt_mb: int = BID_TT_OPT,
    jobs: int = JOBS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
) -> None:
    """Bid whist: the bidder's best exchange with the kitty for each of
    the ten choices, the best choice and the highest makeable bid.

    The ten choices: the 4 suits uptown and downtown, no-trump uptown
    and downtown.  For each, the books the bidding side takes with its
    best discard (the discard's book included, the bidder leading), the
    keep and the discard; then the highest makeable bid and its score.

    The kitty comes from the [bold]Kitty[/] (or [bold]Undealt[/]) tag.
    Reduced deals work too: hands of n cards and a kitty of m.
    """
    run = Run(json_out)
    backend = run.backend(jobs, scheduler)

    def prepare(board):
        hands, kitty = board.exchange_deal()
        return hands, kitty, board.bidder_seat(bidder)

    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, bid_work, backend, tt_mb):
            with run.guard(where, board):
                if board.sections.get("Play"):
                    run.warning(where, "the Play section is ignored "
                                       "(the exchange is made before the play)")
                if isinstance(result, Exception):
                    raise result
                _bid_board(run, board, *item, result, min_bid_3)
    run.finish()


def bid_work(solver, item):
    """The ten exchanges of one board (run on a worker with --jobs or
    --scheduler)."""
    hands, kitty, seat = item
    return analyse_bid(hands, kitty, seat, solver=solver)


def _bid_board(run: Run, board, hands, kitty, seat: int, exchanges, min_bid_3: bool) -> None:
    summary = summarize(exchanges, min_bid_3)
    if run.json:
        run.emit_json(board_json(
            board,
            kitty=format_hand(kitty),
            bidder=SEATS[seat],
            options=[ex.as_json() for ex in exchanges],
            best=summary.best.as_json(),
            bid=summary.name,
            contract=summary.contract,
            score=summary.score,
        ))
        return
    run.emit(render.bid_view(run.style, board, hands, kitty, seat, exchanges, summary, min_bid_3))
