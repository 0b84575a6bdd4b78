"""``whist-solve check FILE... --contract "4 S down"``: is the contract
makeable for the bidder with the best exchange?  Exit status 0 makeable
(every board), 1 not (some board), 2 bad input."""
from __future__ import annotations

from typing import List, Optional

import typer

from whist_solve.bid import Scoring, check_contract
from whist_solve.cards import format_hand
from whist_solve.errors import WhistError
from whist_solve.vocab import SEATS, is_bid, parse_contract

from . import render
from .options import (BOARDS_OPT, BID_TT_OPT, BIDDER_OPT, BOSTON_OPT, FILES_ARG, JOBS_OPT, JSON_OPT,
                      NT_DOUBLE_OPT, SCHEDULER_OPT)
from .runner import EXIT_NEGATIVE, Run, board_json, map_prepared


def check(
    files: List[str] = FILES_ARG,
    contract: Optional[str] = typer.Option(None, "--contract", "-c", metavar="BID",
                                           help="The bid, e.g. \"4 S down\", 4S\u2193, 5NT "
                                                "(default: the board's Contract tag)."),
    bidder: Optional[str] = BIDDER_OPT,
    json_out: bool = JSON_OPT,
    boards: Optional[List[str]] = BOARDS_OPT,
    nt_double: bool = NT_DOUBLE_OPT,
    boston: int = BOSTON_OPT,
    tt_mb: int = BID_TT_OPT,
    jobs: int = JOBS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
) -> None:
    """Bid whist: is [bold]--contract[/] makeable for the bidder with the
    best exchange?

    Shows the most books for the contract's trump and ranking, the keep
    and discard that take them, the score (or how many books short: "set
    by 2") and one optimal play, trick by trick with the seat that led.

    Exit status: 0 makeable (every board), 1 not makeable (some board),
    2 bad usage or bad input.
    """
    fixed = None
    if contract is not None:
        try:
            fixed = parse_contract(contract)
        except WhistError:
            # (the bids of bid whist: no double, no Pass, as PBN's contracts have)
            raise typer.BadParameter(f"bad bid {contract!r} (expected e.g. 4S, 3NT, "
                                     "'4 S down', 4H\u2193, 5NT\u2191)",
                                     param_hint="--contract") from None
        if not is_bid(fixed):
            raise typer.BadParameter(f"{contract!r}: a bid needs a level 1 to 7", param_hint="--contract")
        if fixed.doubled:
            raise typer.BadParameter(f"{contract!r}: a bid whist bid is not doubled (drop the X)",
                                     param_hint="--contract")
    scoring = Scoring(nt_double=nt_double, boston=boston)
    run = Run(json_out, boards)
    backend = run.backend(jobs, scheduler)

    def prepare(board):
        hands, kitty = board.exchange_deal()
        seat = board.bidder_seat(bidder)
        return hands, kitty, seat, fixed if fixed is not None else _board_contract(board)

    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, check_work, backend,
                                                       tt_mb):
            with run.guard(where, board):
                if isinstance(result, Exception):
                    raise result
                if not _check_board(run, board, item, result, scoring):
                    run.status = max(run.status, EXIT_NEGATIVE)
    run.finish()


def check_work(solver, item):
    """One board's verdict (run on a worker with --jobs or --scheduler)."""
    hands, kitty, seat, contract = item
    return check_contract(hands, kitty, seat, contract, solver=solver)


def _board_contract(board):
    """The board's Contract tag, which must be a bid of 1 to 7."""
    contract = board.contract()
    if contract is None:
        raise WhistError("no contract (give --contract or a Contract tag)")
    if not is_bid(contract):
        raise WhistError(f"the Contract {contract} is not a bid of 1 to 7")
    if contract.doubled:
        raise WhistError(f"the Contract {contract} is doubled: a bid whist bid is not")
    return contract


def _check_board(run: Run, board, item, res, scoring: Scoring) -> bool:
    hands, kitty, seat, _ = item
    if run.json:
        run.emit_json(board_json(
            board,
            kitty=format_hand(kitty),
            bidder=SEATS[seat],
            contract=res.contract,
            contract_ascii=res.contract_ascii,
            makeable=res.makeable,
            books=res.books,
            need=res.need,
            set_by=res.set_by,
            score=res.score(scoring),
            scoring=scoring.as_json(),
            keep=format_hand(res.keep),
            discard=format_hand(res.discard),
            line=res.line,
        ))
        return res.makeable
    run.emit(render.check_view(run.style, board, hands, kitty, seat, res, scoring))
    return res.makeable
