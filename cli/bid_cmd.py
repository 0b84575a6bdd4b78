"""``whist-solve bid FILE...``: for every board, the bidder's best exchange
with the kitty for each of the ten choices (the four suits uptown and
downtown, no-trump uptown and downtown): the books the bidding side takes
(the discard's book included, the bidder leading), with the keep and the
discard, the best choice, the highest makeable bid and its score.

Reduced deals work too: hands of n cards and a kitty of m; the bidder keeps
n of its n + m cards.  A bid of L always needs L + 6 books.
"""
from __future__ import annotations

import time
from typing import List, Optional

from whist_solve.bid import Scoring, analyse_auction, analyse_bid, summarize
from whist_solve.cards import format_hand
from whist_solve.vocab import SEATS, contract_ascii

from . import render
from .options import (BIDDER_OPT, BID_TT_OPT, BOARDS_OPT, BOSTON_OPT, FILES_ARG, JOBS_OPT,
                      JSON_OPT, MIN_BID_3_OPT, NT_DOUBLE_OPT, SCHEDULER_OPT, threads_option)
from .runner import Run, board_json, map_prepared, worker_threads


def bid(
    files: List[str] = FILES_ARG,
    bidder: Optional[str] = BIDDER_OPT,
    json_out: bool = JSON_OPT,
    boards: Optional[List[str]] = BOARDS_OPT,
    min_bid_3: bool = MIN_BID_3_OPT,
    nt_double: bool = NT_DOUBLE_OPT,
    boston: int = BOSTON_OPT,
    tt_mb: int = BID_TT_OPT,
    jobs: int = JOBS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    threads: Optional[int] = threads_option(
        "Threads per board (its trump suits side by side, each thread with a table of --tt-mb)."),
) -> None:
    """Bid whist: the bidder's best exchange with the kitty for each of
    the ten choices, the best choice and the highest makeable bid.

    The ten choices: the 4 suits uptown and downtown, no-trump uptown
    and downtown.  For each, the books the bidding side takes with its
    best discard (the discard's book included, the bidder leading), the
    keep and the discard; then the highest makeable bid and its score.

    With no bidder (no [bold]Bidder[/] tag, no [bold]--bidder[/]) all four
    seats are analysed: each seat's best choice and highest makeable bid,
    and the seat that should win the auction.

    The kitty comes from the [bold]Kitty[/] (or [bold]Undealt[/]) tag; a bid whist
    deal of 12 cards a hand (jokers dealt, or a Variant "bid" tag) without one
    has the 6 cards not dealt.
    Reduced deals work too: hands of n cards and a kitty of m.
    """
    scoring = Scoring(nt_double=nt_double, boston=boston, min_bid_3=min_bid_3)
    run = Run(json_out, boards)
    backend = run.backend(jobs, scheduler)
    n_threads = worker_threads(threads, backend)
    started = time.monotonic()
    done = 0

    def prepare(board):
        hands, kitty = board.exchange_deal()
        seat = None if bidder is None and board.bidder() is None else board.bidder_seat(bidder)
        return hands, kitty, seat, scoring, board.dealer(), n_threads, tt_mb

    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, bid_work, backend, tt_mb):
            with run.guard(where, board):
                if board.sections.get("Play"):
                    run.warning(where, "the Play section is ignored "
                                       "(the exchange is made before the play)")
                for note in board.exchange_warnings():
                    run.warning(where, note)
                if isinstance(result, Exception):
                    raise result
                _bid_board(run, board, item, result)
                done += 1
    run.error_summary()          # ("... and K more errors in FILE" before the summary)
    run.err.print(render.batch_summary(done, "analysed", len(run.bad), time.monotonic() - started))
    run.finish()


def bid_work(solver, item):
    """The ten exchanges of one board's bidder, or with no bidder every
    seat's and the auction's winner (run on a worker with --jobs or
    --scheduler)."""
    hands, kitty, seat, scoring, dealer, threads, tt_mb = item
    if seat is None:
        return analyse_auction(hands, kitty, scoring, dealer=dealer, solver=solver, threads=threads,
                               tt_mb=tt_mb)
    return analyse_bid(hands, kitty, seat, solver=solver, threads=threads, tt_mb=tt_mb)


def _bid_board(run: Run, board, item, result) -> None:
    hands, kitty, seat, scoring = item[:4]
    if seat is None:
        _auction_board(run, board, hands, kitty, scoring, result)
        return
    exchanges = result
    summary = summarize(exchanges, scoring=scoring)
    min_bid_3 = scoring.min_bid_3
    if run.json:
        run.emit_json(board_json(
            board,
            kitty=format_hand(kitty),
            bidder=SEATS[seat],
            options=[ex.as_json() for ex in exchanges],
            best=summary.best.as_json(),
            bid=summary.name,
            contract=summary.contract,
            contract_ascii=_ascii(summary),
            score=summary.score,
            scoring=scoring.as_json(),
        ))
        return
    run.emit(render.bid_view(run.style, board, hands, kitty, seat, exchanges, summary, min_bid_3))


def _auction_board(run: Run, board, hands, kitty, scoring: Scoring, auction) -> None:
    """No bidder: every seat as the bidder, and who should win the auction."""
    if run.json:
        seats = {}
        for sa in auction.seats:
            s = sa.summary
            seats[SEATS[sa.seat]] = {
                "options": [ex.as_json() for ex in sa.exchanges],
                "best": s.best.as_json(),
                "bid": s.name,
                "contract": s.contract,
                "contract_ascii": _ascii(s),
                "score": s.score,
            }
        run.emit_json(board_json(
            board,
            kitty=format_hand(kitty),
            bidder=None,
            seats=seats,
            winner=None if auction.winner is None else SEATS[auction.winner],
            forced=None if auction.forced is None else {
                "bid": auction.forced.name,
                "contract": auction.forced.contract,
                "contract_ascii": _ascii(auction.forced),
                "books": auction.forced.best.books,
                "score": auction.forced.score,
            },
            scoring=scoring.as_json(),
        ))
        return
    run.emit(render.auction_view(run.style, board, hands, kitty, auction))


def _ascii(summary) -> "str | None":
    """The bid in plain ASCII (``4S down``), None when nothing is makeable."""
    if summary.level is None:
        return None
    return contract_ascii(summary.level, summary.best.trump, summary.best.ranking)
