"""``whist-solve check FILE... --contract "4 S down"``: is the contract
makeable for the bidder with the best exchange (bid whist), or by the
declarer from the opening lead (a deal without a kitty: bridge, classic
whist)?  Exit status 0 makeable (every board), 1 not (some board), 2 bad
input."""
from __future__ import annotations

import time
from typing import List, NamedTuple, Optional

import typer

from whist_solve.bid import Scoring, check_contract
from whist_solve.cards import format_hand
from whist_solve.errors import WhistError
from whist_solve.makeable import DEAL_TRICKS, check_deal_contract
from whist_solve.vocab import (SEATS, Contract, ascii_arrows, is_bid, names_ranking,
                               opening_leader, parse_contract, parse_seat, parse_strain)

from . import render
from .options import (BIDDER_OPT, BID_TT_OPT, BOARDS_OPT, BOSTON_OPT, FILES_ARG, JOBS_OPT,
                      JSON_OPT, NT_DOUBLE_OPT, SCHEDULER_OPT)
from .runner import EXIT_NEGATIVE, Run, board_json, board_where, map_prepared, strip_prefix


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

    A bridge or classic whist deal (13 cards a hand, no kitty): is the
    contract makeable by the declarer ([bold]--bidder[/] or the Declarer
    tag), the declarer's left-hand opponent leading?  With a Vulnerable
    tag, the duplicate score too.

    Exit status: 0 makeable (every board), 1 not makeable (some board),
    2 bad usage or bad input.
    """
    fixed = None
    contract_text = contract
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
    scoring = Scoring(nt_double=nt_double, boston=boston)
    run = Run(json_out, boards)
    backend = run.backend(jobs, scheduler)

    def prepare(board):
        if fixed is None and board.passed_out():
            run.warning(board_where(board), "passed out: no contract to check")
            return None
        if _without_kitty(board):
            n = len(board.hands[0])
            if n != DEAL_TRICKS:
                # (before its contract: an end position's is often a bare strain)
                raise WhistError(f"an end position ({n} cards a hand): check answers from a "
                                 f"deal's opening lead; puzzles checks a goal from a position")
            contract = fixed if fixed is not None else _board_contract(board)
            seat = board.declaring_seat() if bidder is None else SEATS.index(bidder)
            if seat is None:
                raise WhistError("no declarer (give --bidder, the declarer here, or a Declarer tag)")
            return DealItem(board.hands, contract, seat)
        hands, kitty = board.exchange_deal()
        seat = board.bidder_seat(bidder)
        contract = fixed if fixed is not None else _board_contract(board)
        if contract.doubled:
            raise WhistError(f"--contract {contract}: a bid whist bid is not doubled (drop the X)"
                             if fixed is not None else
                             f"the Contract {contract} is doubled: a bid whist bid is not")
        # a no-trump bid given without its direction is checked uptown, as
        # SPEC reads it; the bidder names the direction after the kitty, so
        # where uptown fails downtown is checked too (check_work)
        text = contract_text if fixed is not None else board.tags.get("Contract", "")
        other = contract.strain == "NT" and not names_ranking(text)
        return hands, kitty, seat, contract, other

    said_scoring = False
    started = time.monotonic()
    made = failed = 0
    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, check_work, backend,
                                                       tt_mb):
            with run.guard(where, board):
                if board.sections.get("Play"):
                    run.warning(where, "the Play section is ignored (check answers before the "
                                       "play; review compares the play with double-dummy)")
                if isinstance(item, DealItem):
                    if (nt_double or boston) and not said_scoring:
                        run.warning(where, "--nt-double and --boston are bid whist's scoring: not "
                                           "used for a bridge or whist deal")
                        said_scoring = True
                    _say_set_aside(run, where, board, item)
                else:
                    for note in board.exchange_warnings():
                        run.warning(where, note)
                if isinstance(result, Exception):
                    raise result
                if _check_board(run, where, board, item, result, scoring):
                    made += 1
                else:
                    failed += 1
                    run.status = max(run.status, EXIT_NEGATIVE)
    run.error_summary()          # ("... and K more errors in FILE" before the summary)
    run.err.print(render.batch_summary(made + failed, "checked", len(run.bad),
                                       time.monotonic() - started,
                                       f"{made} makeable, {failed} not"))
    run.finish()


class DealItem(NamedTuple):
    """The work of a board without a kitty: its hands, the contract, the
    declarer."""
    hands: list
    contract: Contract
    declarer: int


def _without_kitty(board) -> bool:
    """A bridge or classic whist deal (no kitty, no jokers, no bid whist
    Variant): its contract is checked from the opening lead, with no
    exchange (check_deal_contract, which wants 13 cards a hand)."""
    return (board.hands is not None and not board.kitty
            and board.tag("Kitty", "Undealt") is None and board.game() == "classic")


def check_work(solver, item):
    """One board's verdict (run on a worker with --jobs or --scheduler)."""
    if isinstance(item, DealItem):
        return check_deal_contract(item.hands, item.contract, item.declarer, solver=solver)
    hands, kitty, seat, contract, other = item
    res = check_contract(hands, kitty, seat, contract, solver=solver)
    if not other or res.makeable:
        return res, None
    down = Contract(contract.level, contract.strain, "down")
    return res, check_contract(hands, kitty, seat, down, solver=solver)


def _say_set_aside(run: Run, where: str, board, item: "DealItem") -> None:
    """Warnings for a deal's Leader and Trump tags that are not the
    contract's: the contract is checked from its own opening lead, in its
    own strain."""
    lead = opening_leader(item.declarer)
    if _tag_says_otherwise(board, "Leader", parse_seat, lead):
        run.warning(where, f"the Leader tag ({board.tag('Leader')}) is set aside: "
                           f"{SEATS[item.declarer]}'s contract is led by {SEATS[lead]}")
    if _tag_says_otherwise(board, "Trump", parse_strain, item.contract.strain):
        run.warning(where, f"the Trump tag ({board.tag('Trump')}) is set aside: the contract is "
                           f"{item.contract.name()}")


def _tag_says_otherwise(board, name: str, parse, value) -> bool:
    """Whether the tag ``name`` is there and, read by ``parse``, is not
    ``value`` (a value it cannot read is not)."""
    raw = board.tag(name)
    if raw is None:
        return False
    try:
        return parse(raw) != value
    except WhistError:
        return True


def _board_contract(board):
    """The board's Contract tag, which must be a bid of 1 to 7."""
    contract = board.contract()
    if contract is None:
        raw = board.tags.get("Contract")
        if raw is not None:          # PBN's "?" (unknown) or "" (none)
            raise WhistError(f"no contract: the Contract is "
                             f"{'unknown' if raw.strip() == '?' else 'empty'} ({raw.strip()!r}); "
                             "give --contract")
        raise WhistError("no contract (give --contract or a Contract tag)")
    if not is_bid(contract):
        raise WhistError(f"the Contract {contract} is not a bid of 1 to 7")
    return contract


def _declarer_vulnerable(run: Run, where: str, board, seat: int) -> Optional[bool]:
    """Whether the declarer's side is vulnerable, from the Vulnerable (or
    Vul) tag (None without one; a value that is no vulnerability is warned
    of)."""
    try:
        vul = board.vulnerability()
    except WhistError as e:
        run.warning(where, f"{strip_prefix(str(e), where, board.named)}: no score")
        return None
    return None if vul is None else vul[seat % 2]


def _deal_check_board(run: Run, where: str, board, item: DealItem, res) -> bool:
    vulnerable = _declarer_vulnerable(run, where, board, item.declarer)
    if run.json:
        run.emit_json(board_json(
            board,
            declarer=SEATS[res.declarer],
            leader=SEATS[res.leader],
            contract=res.contract.name(),
            contract_ascii=ascii_arrows(res.contract.name()),
            makeable=res.makeable,
            tricks=res.tricks,
            need=res.need,
            set_by=res.set_by,
            vulnerable=vulnerable,
            score=res.score(vulnerable),
            line=list(res.line),
        ))
    else:
        run.emit(render.deal_check_view(run.style, board, item.hands, res, vulnerable))
    return res.makeable


def _check_board(run: Run, where: str, board, item, res, scoring: Scoring) -> bool:
    if isinstance(item, DealItem):
        return _deal_check_board(run, where, board, item, res)
    hands, kitty, seat, _, _ = item
    res, down = res
    if run.json:
        extra = {} if down is None else {"downtown": {
            "contract": down.contract, "contract_ascii": down.contract_ascii,
            "makeable": down.makeable, "books": down.books}}
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
            **extra,
        ))
        return res.makeable
    run.emit(render.check_view(run.style, board, hands, kitty, seat, res, scoring, down))
    return res.makeable
