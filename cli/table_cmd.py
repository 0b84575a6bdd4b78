"""``whist-solve table FILE...``: the double-dummy table of each deal,
tricks won by N-S for every strain and every leader of the first trick, in
one or both rankings; for people, as JSON Lines, as CSV, or as PBN with an
OptimumResultTable.

Bridge boards (52 cards, a Dealer and a Vulnerable tag) get their par when
the five strains are tabulated uptown.  A deal that comes again in the same
run (the Open and Closed rooms of a team match) is solved once and reported
for each board.  The run ends with a summary line on stderr.
"""
from __future__ import annotations

import csv
import sys
import time
from typing import List, Optional

import typer

from whist_solve.cards import Position
from whist_solve.engine import dd_table
from whist_solve.errors import WhistError
from whist_solve.par import par as dd_par
from whist_solve.pbn import board_pbn, pbn_escapes, table_board_pbn
from whist_solve.vocab import SEATS, STRAINS

from . import render
from .html import HtmlPage, html_obj, write_page
from .options import (BOARDS_OPT, FILES_ARG, HTML_OPT, JOBS_OPT, JSON_OPT, SCHEDULER_OPT, TT_OPT,
                      check_output_target, strains_option, table_ranking_option, threads_option)
from .runner import (Parts, Repeat, Repeats, Run, board_json, map_prepared, strip_prefix,
                     worker_threads, writing_out)

# (the file last, as in --json: with several files, boards of one number
# are told apart)
CSV_COLUMNS = ("board", "deal", "strain", "ranking", "N", "E", "S", "W", "par_score", "par",
               "file")

# A spreadsheet reads a cell that starts with one of these as a formula
# (`=HYPERLINK(...)` in a board label from someone else's file): such text
# gets a leading apostrophe, which spreadsheets show as text and hide.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: str) -> str:
    """A text cell of --csv: kept as written unless a spreadsheet would run
    it as a formula (a number such as -3 is left alone)."""
    if value.startswith(_FORMULA_START):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def table(
    files: List[str] = FILES_ARG,
    ranking: str = typer.Option("up", "--ranking", "-r", callback=table_ranking_option,
                                metavar="up|down|both", help="Rankings to tabulate."),
    strain: Optional[List[str]] = typer.Option(None, "--strain", "--trump", "-t", callback=strains_option,
                                               metavar="S|H|D|C|NT",
                                               help="Only these strains (repeat, or S,H,...). Default: all five."),
    json_out: bool = JSON_OPT,
    boards: Optional[List[str]] = BOARDS_OPT,
    pbn: bool = typer.Option(False, "--pbn",
                             help="Print each deal as PBN with an OptimumResultTable (and the par "
                                  "as OptimumScore), other programs' double-dummy tags left out."),
    csv_out: bool = typer.Option(False, "--csv", help="CSV for spreadsheets: one row per board, strain "
                                                      "and ranking; N-S tricks for each leader, and the par."),
    tt_mb: int = TT_OPT,
    jobs: int = JOBS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    threads: Optional[int] = threads_option("Threads per deal (its strains and leaders side by side)."),
    html: Optional[str] = HTML_OPT,
) -> None:
    """Double-dummy table: tricks won by N-S for every strain and every
    leader of the first trick (the full deal; a [bold]Play[/] section is ignored).

    Bridge boards with [bold]Dealer[/] and [bold]Vulnerable[/] tags get their par.
    A deal repeated in the files (the two rooms of a team match) is solved once.
    """
    if sum((json_out, pbn, csv_out)) > 1:
        raise typer.BadParameter("choose one of --json, --pbn and --csv",
                                 param_hint="--csv" if csv_out else "--pbn")
    rankings = ("up", "down") if ranking == "both" else (ranking,)
    strains = tuple(strain) if strain else STRAINS
    check_output_target(html, files)
    run = Run(json_out, boards)
    backend = run.backend(jobs, scheduler)
    n_threads = worker_threads(threads, backend)
    # Deals on workers of one thread each: the rows go out one by one, so
    # that the run does not end on one worker finishing a long deal alone.
    split = backend.kind != "inline" and n_threads == 1
    started = time.monotonic()
    writer = csv.writer(_FileText(run), lineterminator="\n") if csv_out else None
    pbn_out = PbnOut(run) if pbn else None
    if pbn_out is not None:
        run.keep_bad = pbn_out.as_read
    if writer is not None:
        with writing_out():
            writer.writerow(CSV_COLUMNS)
    repeats = Repeats()   # a deal that comes again is solved once
    done = 0
    page = HtmlPage("whist-solve table " + " ".join(files)) if html else None
    run.page = page

    def prepare(board):
        hands = board.hands
        if not hands:
            raise WhistError("no deal (missing Deal tag)")
        hands = [list(h) for h in hands]
        board.game()   # a bad Variant tag, or jokers in classic whist
        # Validates the deal (duplicates, unequal hands) with the rules model.
        Position.make(hands, None, "up", 0)
        if split:
            # one item per row, so that the workers share a long deal
            item = Parts((hands, (s,), (r,), 1, tt_mb) for s in strains for r in rankings)
        else:
            item = (hands, strains, rankings, n_threads, tt_mb)
        return repeats.item(_deal_key(hands), item)

    with run.interruptible():
        for where, board, item, result in map_prepared(run, files, prepare, table_work, backend, tt_mb):
            with run.guard(where, board):
                if isinstance(item, Parts) and not isinstance(result, Exception):
                    result = _merge_rows(result)
                result = repeats.answer(_deal_key(board.hands), item, result)
                if isinstance(result, Exception):
                    raise result
                _table_board(run, where, board, board.hands, result, strains, rankings, pbn_out,
                             writer, page)
                done += 1
    if page is not None:
        write_page(run, page, html)
    n = repeats.count
    note = (f"{render.plural(n, 'board')} {'repeats' if n == 1 else 'repeat'} "
            "an earlier deal, not solved again") if n else ""
    run.error_summary()          # ("... and K more errors in FILE" before the summary)
    run.err.print(render.batch_summary(done, "tabulated", len(run.bad), time.monotonic() - started, note))
    run.finish()


def table_work(solver, item):
    """One deal's table on ``threads`` threads (run on a worker with --jobs
    or --scheduler); nothing for a repeated deal (its first board's table
    is used)."""
    if isinstance(item, Repeat):
        return None
    hands, strains, rankings, threads, tt_mb = item
    return dd_table(hands, strains=strains, rankings=rankings, solver=solver, threads=threads,
                    tt_mb=tt_mb)


def _merge_rows(rows) -> dict:
    """The table of a deal from the one-row tables of its parts."""
    table: dict = {}
    for row in rows:
        for strain, by_ranking in row.items():
            table.setdefault(strain, {}).update(by_ranking)
    return table


def _deal_key(hands):
    return tuple(tuple(sorted(h)) for h in hands)


def board_par(board, table, strains, rankings, hands):
    """The par of a bridge board (52 cards, every strain tabulated uptown,
    Dealer and Vulnerable tags), else None; a Vulnerable tag that is no
    vulnerability raises."""
    if (set(strains) != set(STRAINS) or "up" not in rankings or len(hands[0]) != 13
            or board.kitty or board.game() != "classic"):
        return None
    dealer = board.dealer()
    vul = board.vulnerability()
    if dealer is None or vul is None:
        return None
    return dd_par(table, dealer, vul)


def _passed_out(board) -> bool:
    """Passed out (a bad Contract tag, which a table does not need, is not)."""
    try:
        return board.passed_out()
    except WhistError:
        return False


class _FileText:
    """Standard output for csv.writer: UTF-8 whatever the locale."""

    def __init__(self, run: Run):
        self.write = run.emit_file_text


class PbnOut:
    """table --pbn: the boards written again, each with its table, in the
    files' order; a board that cannot be tabulated written as it was read
    (so that the file loses none); the escape lines that opened each file
    (a program's settings) before its first board; a header game (``##``
    defaults, no deal) as written, before the board that followed it."""

    def __init__(self, run: Run):
        self.run = run
        self.started = False
        self.escapes: Optional[str] = None

    def write(self, board, game: str) -> None:
        escapes = pbn_escapes(board)
        head = "" if escapes == self.escapes else escapes
        self.escapes = escapes
        head += "".join(h + "\n\n" for h in board.headers)
        if not self.started:
            self.started = True
            self.run.emit_file_text("% PBN 2.1\n" + head + game)
        else:
            self.run.emit_file_text("\n" + head + game)

    def as_read(self, board) -> None:
        try:
            game = board_pbn(board)
        except ValueError:          # (a tag name no PBN file can hold: nothing to keep)
            return
        self.write(board, game)


def _table_board(run: Run, where: str, board, hands, result, strains, rankings,
                 pbn: Optional[PbnOut], writer, page: "HtmlPage | None" = None) -> None:
    table = {s: {r: {seat: int(result[s][r][seat]) for seat in SEATS} for r in rankings}
             for s in strains}
    n = len(hands[0])
    try:
        p = board_par(board, table, strains, rankings, hands)
    except WhistError as e:
        # (the table stands without its par)
        run.warning(where, f"{strip_prefix(str(e), where, board.named)}: no par")
        p = None
    passed = _passed_out(board)
    if page is not None:
        obj = html_obj(board_json(board, table=table, tricks_total=n, file=board.file), board)
        page.add_table(obj, hands, board.kitty, None if p is None else render.par_text(p).plain)
    if writer is not None:
        deal = board.deal_string()
        with writing_out():
            for s in strains:
                for r in rankings:
                    row = table[s][r]
                    writer.writerow([csv_text(board.label), deal, s, r,
                                     *(row[seat] for seat in SEATS),
                                     "" if p is None else p.score,
                                     "" if p is None else p.text().split(": ", 1)[1],
                                     csv_text(board.file)])
            sys.stdout.flush()
        return
    if run.json:
        extra = {}
        if p is not None:
            extra["par"] = p.as_json()
        if passed:
            extra["note"] = "passed out"
        run.emit_json(board_json(board, table=table, tricks_total=n, **extra))
        return
    if pbn is not None:
        pbn.write(board, table_board_pbn(board, table, n, None if p is None else p.score))
        return
    deal = render.deal_text(run.style, hands, board.kitty)
    run.emit(render.dd_tables_view(run.style, render.board_title(board), table, strains,
                                   rankings, n, deal, par=p,
                                   note="Passed out (Contract \"Pass\")." if passed else None,
                                   bid_whist=board.game() == "bid"))
