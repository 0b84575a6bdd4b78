"""``whist-solve bid`` and ``whist-solve check``: bid whist exchanges.

``bid FILE...``: for every board, the bidder's best exchange with the kitty
for each of the ten choices (the four suits uptown and downtown, no-trump
uptown and downtown): the books the bidding side takes (the discard's book
included, the bidder leading), with the keep and the discard, the best
choice, the highest makeable bid and its score.

``check FILE... --contract "4 S down"``: is the contract makeable for the
bidder with the best exchange?  Exit status 0 makeable (every board), 1 not
(some board), 2 bad input.

Both work on reduced deals: hands of n cards and a kitty of m; the bidder
keeps n of its n + m cards.  A bid of L always needs L + 6 books.
"""
from __future__ import annotations

from typing import List, Optional

import typer
from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from whist_solve.bid import BID_TT_MB
from whist_solve.cards import JOKERS, SEATS, Position, WhistError, format_hand, sort_cards

from . import render


def _main():
    from . import main
    return main


def _bidder(board, override: Optional[str]) -> int:
    if override is not None:
        return SEATS.index(override)
    b = board.bidder()
    if b is None:
        raise WhistError("no bidder (give --bidder or a Bidder tag)")
    return b


def _deal(board):
    """The hands (before the exchange) and the kitty of a board."""
    board.check()
    hands = board.hands
    if not hands:
        raise WhistError("no deal (missing Deal tag)")
    kitty = board.kitty
    if not kitty:
        raise WhistError("no kitty (give a Kitty or Undealt tag)")
    return hands, kitty


def _compact(st: render.Style, cards, ranking: str) -> Text:
    """``♠KT4 ♥AKT8 ♦A9 JH``: suit by suit, high to low in the ranking."""
    ordered = sort_cards(cards, ranking)
    t = Text()
    for s in ("S", "H", "D", "C"):
        ranks = "".join(c[1] for c in ordered if c not in JOKERS and c[0] == s)
        if ranks:
            if t:
                t.append(" ")
            t.append(st.suit(s) + ranks, style=render.SUIT_STYLES[s])
    for j in JOKERS:
        if j in cards:
            if t:
                t.append(" ")
            t.append(j, style=render.JOKER_STYLE)
    return t


def _option_label(st: render.Style, trump: str, ranking: str) -> Text:
    t = Text()
    if trump == "NT":
        t.append("NT", style="bold")
        t.append(f" no-trump {render.RANKING_NAMES[ranking]}")
    else:
        t.append_text(st.strain(trump))
        t.append(f" {render.SUIT_NAMES[trump]} {render.RANKING_NAMES[ranking]}")
    return t


# --------------------------------------------------------------------------
# bid


def bid(
    files: List[str],
    bidder: Optional[str],
    json_out: bool,
    min_bid_3: bool,
    tt_mb: int,
) -> None:
    m = _main()
    run = m.Run(json_out)
    run.each_board(files, tt_mb, lambda solver, where, board:
                   _bid_board(run, solver, where, board, bidder, min_bid_3))
    m._finish(run)


def _bid_board(run, solver, where: str, board, bidder_opt, min_bid_3: bool) -> None:
    from whist_solve.bid import analyse_bid, bid_kind, highest_bid, summarize

    hands, kitty = _deal(board)
    seat = _bidder(board, bidder_opt)
    if getattr(board, "sections", {}).get("Play"):
        run.warning(where, "the Play section is ignored (the exchange is made before the play)")
    exchanges = analyse_bid(hands, kitty, seat, solver=solver)
    summary = summarize(exchanges, min_bid_3)
    if run.json:
        run.emit_json({
            "board": board.label,
            "deal": board.deal_string(),
            "kitty": format_hand(kitty),
            "bidder": SEATS[seat],
            "options": [ex.as_json() for ex in exchanges],
            "best": summary.best.as_json(),
            "bid": summary.name,
            "contract": summary.contract,
            "score": summary.score,
        })
        return

    st = run.style
    n = len(hands[0])
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Choice", no_wrap=True)
    table.add_column("Books", justify="right")
    table.add_column("Highest bid", no_wrap=True)
    table.add_column("Keep")
    table.add_column("Discard")
    for ex in exchanges:
        level = highest_bid(ex.books, min_bid_3)
        is_best = ex is summary.best
        label = _option_label(st, ex.trump, ex.ranking)
        if is_best:
            label.append(f" {st.star}", style="bold yellow")
        table.add_row(
            label,
            Text(str(ex.books), style="bold" if is_best else ""),
            Text(f"{level} {bid_kind(ex.trump, ex.ranking)}" if level else st.dash,
                 style="" if level else "dim"),
            _compact(st, ex.keep, ex.ranking),
            _compact(st, ex.discard, ex.ranking),
            style="on grey15" if is_best else None,
        )
    best = summary.best
    head = Text()
    head.append(f"Bidder {render.SEAT_NAMES[SEATS[seat]]} ({render.side_name(seat)})", style="bold")
    head.append(f", {n} tricks to play; books count the discard's book.")
    verdict = Text()
    if summary.level is not None:
        verdict.append("Best: ", style="bold")
        verdict.append(summary.name, style="bold green")
        verdict.append(f" ({summary.contract}): {best.books} books, scores {summary.score:+d}")
    else:
        low = 3 if min_bid_3 else 1
        verdict.append("No makeable bid", style="bold red")
        verdict.append(f": at most {best.books} books "
                       f"({_option_label(st, best.trump, best.ranking).plain}); "
                       f"a bid of {low} would score {summary.score:+d}")
    title = f"Board {board.label}  {where.split(': board')[0]}"
    deal = render.deal_text(st, hands, kitty)
    run.emit(Panel(Group(deal, Text(""), head, table, verdict), title=Text(title, style="bold"),
                   title_align="left", box=box.ROUNDED, expand=False))


# --------------------------------------------------------------------------
# check


def check(
    files: List[str],
    contract: Optional[str],
    bidder: Optional[str],
    json_out: bool,
    tt_mb: int,
) -> None:
    from whist_solve.pbn import parse_contract

    m = _main()
    fixed = None
    if contract is not None:
        try:
            fixed = parse_contract(contract)
        except WhistError as e:
            raise typer.BadParameter(str(e), param_hint="--contract")
        if fixed.passed or not 1 <= fixed.level <= 7:
            raise typer.BadParameter(f"{contract!r}: a bid needs a level 1 to 7", param_hint="--contract")
    run = m.Run(json_out)

    def handle(solver, where, board):
        if not _check_board(run, solver, where, board, fixed, bidder):
            run.status = max(run.status, m.EXIT_NEGATIVE)

    run.each_board(files, tt_mb, handle)
    m._finish(run)


def _check_board(run, solver, where: str, board, contract, bidder_opt) -> bool:
    from whist_solve.bid import bid_name, check_contract

    hands, kitty = _deal(board)
    seat = _bidder(board, bidder_opt)
    if contract is None:
        contract = board.contract()
        if contract is None:
            raise WhistError("no contract (give --contract or a Contract tag)")
        if contract.passed or not 1 <= contract.level <= 7:
            raise WhistError(f"the Contract {contract} is not a bid of 1 to 7")
    res = check_contract(hands, kitty, seat, contract, solver=solver)
    if run.json:
        run.emit_json({
            "board": board.label,
            "deal": board.deal_string(),
            "kitty": format_hand(kitty),
            "bidder": SEATS[seat],
            "contract": res.contract,
            "makeable": res.makeable,
            "books": res.books,
            "need": res.need,
            "keep": format_hand(res.keep),
            "discard": format_hand(res.discard),
            "line": res.line,
        })
        return res.makeable

    st = run.style
    head = Text()
    head.append(f"{res.contract}", style="bold")
    head.append(f" ({bid_name(res.level, res.trump, res.ranking)}) by "
                f"{render.SEAT_NAMES[SEATS[seat]]}: ")
    if res.makeable:
        head.append("makeable", style="bold green")
    else:
        head.append("not makeable", style="bold red")
    head.append(f", {res.books} books with the best discard ({res.need} needed)")
    ex = Table.grid(padding=(0, 2))
    ex.add_row(Text("Keep", style="bold"), _compact(st, res.keep, res.ranking))
    ex.add_row(Text("Discard", style="bold"), _compact(st, res.discard, res.ranking))
    line = _line_table(st, hands, res)
    title = f"Board {board.label}  {where.split(': board')[0]}"
    deal = render.deal_text(st, hands, kitty)
    run.emit(Panel(Group(deal, Text(""), head, ex, Text(""), Text("One optimal play", style="bold"), line),
                   title=Text(title, style="bold"), title_align="left", box=box.ROUNDED, expand=False))
    return res.makeable


def _line_table(st: render.Style, hands, res) -> Table:
    """The line trick by trick: the cards by seat, the winner, the books."""
    hs = [list(h) for h in hands]
    hs[res.bidder] = list(res.keep)
    pos = Position.make(hs, None if res.trump == "NT" else res.trump, res.ranking, res.bidder)
    side = res.bidder % 2
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    t.add_column("Trick", justify="right")
    for s in SEATS:
        t.add_column(s, justify="center")
    t.add_column("Won by")
    t.add_column("Books", justify="right")
    books = 1
    cards = {}
    number = 1
    for c in res.line:
        cards[pos.turn] = (c, pos.turn == pos.leader)
        pos = pos.play(c)
        if not pos.trick:
            winner = pos.leader
            if winner % 2 == side:
                books += 1
            row = []
            for seat in range(4):
                card, led = cards.get(seat, (None, False))
                txt = st.card(card) if card else Text("")
                if led:
                    txt.stylize("underline")
                row.append(txt)
            t.add_row(str(number), *row, SEATS[winner], str(books))
            cards = {}
            number += 1
    return t


# --------------------------------------------------------------------------


def register(app: typer.Typer) -> None:
    """Adds ``bid`` and ``check`` to the command line."""
    m = _main()

    @app.command("bid")
    def bid_command(
        files: List[str] = m.FILES_ARG,
        bidder: Optional[str] = typer.Option(None, "--bidder", "-b", callback=m._seat_option,
                                             metavar="N|E|S|W",
                                             help="The bidder (overrides the Bidder tag)."),
        json_out: bool = m.JSON_OPT,
        min_bid_3: bool = typer.Option(False, "--min-bid-3",
                                       help="Variant: the lowest bid is 3 (9 books)."),
        tt_mb: int = typer.Option(BID_TT_MB, "--tt-mb", min=1,
                                  help="Size of the transposition table in MB."),
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
        bid(files, bidder, json_out, min_bid_3, tt_mb)

    @app.command("check")
    def check_command(
        files: List[str] = m.FILES_ARG,
        contract: Optional[str] = typer.Option(None, "--contract", "-c", metavar="BID",
                                               help="The bid, e.g. \"4 S down\", 4S\u2193, 5NT "
                                                    "(default: the board's Contract tag)."),
        bidder: Optional[str] = typer.Option(None, "--bidder", "-b", callback=m._seat_option,
                                             metavar="N|E|S|W",
                                             help="The bidder (overrides the Bidder tag)."),
        json_out: bool = m.JSON_OPT,
        tt_mb: int = typer.Option(BID_TT_MB, "--tt-mb", min=1,
                                  help="Size of the transposition table in MB."),
    ) -> None:
        """Bid whist: is [bold]--contract[/] makeable for the bidder with the
        best exchange?

        Shows the most books for the contract's trump and ranking, the keep
        and discard that take them and one optimal play.

        Exit status: 0 makeable (every board), 1 not makeable (some board),
        2 bad usage or bad input.
        """
        check(files, contract, bidder, json_out, tt_mb)
