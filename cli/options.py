"""The options and arguments the commands share, and their callbacks.

Each callback turns what the user typed into the library's word
(:mod:`whist_solve.vocab`) or refuses it with a usage error (exit status 2).
"""
from __future__ import annotations

import math
import os
import stat
import tempfile
from pathlib import Path
from typing import List, Optional

import typer

from whist_solve.engine import BID_TT_MB, DEFAULT_TT_MB, check_tt_size
from whist_solve.errors import WhistError
from whist_solve.selection import BoardSelection
from whist_solve.vocab import STRAINS, parse_ranking, parse_seat, parse_strain, seat_letter

EXIT_OK = 0


def version_callback(value: bool) -> None:
    """``--version``: print the installed version and exit."""
    if value:
        try:
            from importlib.metadata import version
            v = version("whist-solve")
        except Exception:  # pragma: no cover - not installed
            v = "unknown"
        typer.echo(f"whist-solve {v}")
        raise typer.Exit(EXIT_OK)


def _word_option(parse, expected: str):
    """A callback that reads an option's value with ``parse`` (None stays
    None) and refuses what it cannot read: "'x': expected ..."."""
    def callback(value: Optional[str]) -> Optional[str]:
        if value is None:
            return None
        try:
            return parse(value)
        except WhistError:
            raise typer.BadParameter(f"{value!r}: expected {expected}") from None
    return callback


trump_option = _word_option(parse_strain, "S, H, D, C or NT")
ranking_option = _word_option(parse_ranking, "up or down")
seat_option = _word_option(lambda v: seat_letter(parse_seat(v)), "N, E, S or W")


def table_ranking_option(value: str) -> str:
    v = value.strip().lower()
    if v == "both":
        return v
    try:
        return parse_ranking(v)
    except WhistError:
        raise typer.BadParameter(f"{value!r}: expected up, down or both") from None


def strains_option(values: Optional[List[str]]) -> Optional[List[str]]:
    if not values:
        return None
    out: List[str] = []
    for value in values:
        parts = [p for p in value.replace(" ", ",").split(",") if p]
        if not parts:
            raise typer.BadParameter(f"{value!r}: expected S, H, D, C or NT")
        for part in parts:
            s = trump_option(part)
            if s not in out:
                out.append(s)
    return [s for s in STRAINS if s in out]


def number_option(value: Optional[float]) -> Optional[float]:
    """A float option that must be a number: ``nan`` (which passes the
    range checks, every comparison with it being false) is refused."""
    if value is not None and math.isnan(value):
        raise typer.BadParameter(f"{value}: expected a number")
    return value


def html_option(value: Optional[str]) -> Optional[str]:
    """--html FILE: refused up front when FILE cannot be written (a
    directory, a folder that does not exist or is not writable), before
    any board is solved.  Nothing is created yet: the page is written at
    the end (cli/html.py's write_page, which still reports what only
    writing shows, such as a full disk)."""
    if value is None:
        return None
    if not value.strip():
        raise typer.BadParameter("cannot write the HTML page: an empty file name")
    if value.strip() == "-":
        raise typer.BadParameter("cannot write the HTML page to '-': standard output holds "
                                 "the results; give a file name (./- for a file named -)")
    problem = output_problem(value)
    if problem:
        raise typer.BadParameter(f"cannot write the HTML page {value}: {problem}")
    return value


def baseline_option(value: Optional[Path]) -> Optional[Path]:
    """bench --save-baseline FILE: refused up front, as --html, when FILE
    cannot be written (before the benchmark, not after it)."""
    if value is None:
        return None
    problem = output_problem(str(value)) if str(value).strip() else "an empty file name"
    if problem:
        raise typer.BadParameter(f"cannot write the baseline {value}: {problem}")
    return value


def output_problem(value: str) -> Optional[str]:
    """Why a file a run writes at its end (--html, --save-baseline) could
    not be written there, or None: checked before the run, so that an hour
    of solving is not lost to a typing error.  (What only writing shows, a
    full disk, is still reported when it is written.)"""
    folder = os.path.dirname(value) or "."
    if os.path.isdir(value):
        return "it is a directory"
    if os.path.islink(value):
        try:
            os.stat(value)
        except FileNotFoundError:
            pass                              # a dangling link: its target is made
        except OSError as e:                  # a loop of links
            return e.strerror or str(e)
    if not os.path.isdir(folder):
        return f"no directory {folder}"
    try:
        if os.stat(folder).st_nlink == 0:
            return f"the directory {folder} has been deleted"
    except OSError as e:
        return e.strerror or str(e)
    if not os.access(folder, os.W_OK) or (os.path.exists(value) and not os.access(value, os.W_OK)):
        return "permission denied"
    # The permission bits do not tell everything (a read-only file system,
    # sysfs, the superuser): open the file for appending, which leaves it
    # as it is, or make and remove a file beside it.
    try:
        if os.path.exists(value):
            if not stat.S_ISREG(os.stat(value).st_mode):
                # a FIFO or a device: opening it is no probe (a FIFO's open
                # waits for a reader, and its close ends the reader's input)
                return None
            with open(value, "ab"):
                pass
        else:
            fd, probe = tempfile.mkstemp(prefix=".whist-solve-", dir=folder)
            os.close(fd)
            os.unlink(probe)
    except OSError as e:
        return e.strerror or str(e)
    return None


def check_output_target(path: Optional[str], files, what: str = "the HTML page",
                        option: str = "--html") -> None:
    """``path``, the file --html (or another option a run writes at its
    end: ``what``, ``option``) names, being one of the input files or
    standard output: refused before any board is solved (the page would
    replace the PBN)."""
    if not path:
        return
    for f in files:
        try:
            if f == "-":
                # the standard input read from a file (< x.pbn)
                same = os.path.samestat(os.stat(path), os.fstat(0))
            else:
                same = os.path.samefile(path, f)
        except (OSError, ValueError):
            continue
        if same:
            raise typer.BadParameter(f"cannot write {what} {path}: it is the input "
                                     f"file {'(the standard input)' if f == '-' else f}",
                                     param_hint=option)
    try:
        to_stdout = os.path.samestat(os.stat(path), os.fstat(1))
    except (OSError, ValueError):
        return
    if to_stdout:
        raise typer.BadParameter(f"cannot write {what} {path}: it is the standard "
                                 "output, where the results go", param_hint=option)


def tt_option(ctx: typer.Context, value: int) -> int:
    """--tt-mb: refused up front when this machine's memory cannot hold the
    table, unless the run goes to a Dask cluster (--scheduler, read first):
    the tables are then the workers', and a run warns at its start when a
    worker's memory limit leaves too little room for them."""
    if value is not None and not ctx.params.get("scheduler"):
        try:
            check_tt_size(value)
        except WhistError as e:
            raise typer.BadParameter(str(e)) from None
    return value


# Options shared by the commands that solve a position of a board.
TRUMP_OPT = typer.Option(None, "--trump", "-t", callback=trump_option, metavar="S|H|D|C|NT",
                         help="Trump suit or NT (overrides the file).")
RANKING_OPT = typer.Option(None, "--ranking", "-r", callback=ranking_option, metavar="up|down",
                           help="Uptown or downtown (overrides the file).")
LEADER_OPT = typer.Option(None, "--leader", "-l", callback=seat_option, metavar="N|E|S|W",
                          help="Leader of the first trick of the position (overrides the file).")
FILES_ARG = typer.Argument(..., metavar="FILE...", show_default=False,
                           help="PBN files; - reads standard input.")
JSON_OPT = typer.Option(False, "--json", help="One JSON object per board per line (JSON Lines) on stdout.")


def boards_option(values: Optional[List[str]]) -> Optional[List[str]]:
    """--board: checked here, so that a malformed value is a usage error
    before any file is read."""
    try:
        BoardSelection(values or ())
    except WhistError as e:
        raise typer.BadParameter(str(e)) from None
    return values


BOARDS_OPT = typer.Option(None, "--board", metavar="LABEL", callback=boards_option,
                          help="Only the boards with these labels, as the output names them "
                               "(the Board tag, else the position in the file): 7, 3-8, "
                               "1,4,9-12.  Repeatable.")
# Where in a board's Play section the position starts (solve, play).
FROM_LEAD_OPT = typer.Option(False, "--from-lead",
                             help="Start from the opening lead (the Play section is ignored).")
AFTER_TRICK_OPT = typer.Option(None, "--after-trick", min=0, metavar="N",
                               help="Start from the position after the first N tricks of the "
                                    "Play section.")


def play_stop(from_lead: bool, after_trick: Optional[int]) -> Optional[int]:
    """The complete tricks of the Play section to play first (None: all)
    for --from-lead and --after-trick, which exclude each other."""
    if from_lead and after_trick is not None:
        raise typer.BadParameter("choose one of --from-lead and --after-trick",
                                 param_hint="--after-trick")
    return 0 if from_lead else after_trick


TT_OPT = typer.Option(DEFAULT_TT_MB, "--tt-mb", min=1, metavar="MB", callback=tt_option, help="Size of the transposition table in MB.")
JOBS_OPT = typer.Option(1, "--jobs", "-j", min=1, metavar="N",
                        help="Solve the boards on this many processes (results keep the file's order).")
def scheduler_option(value: Optional[str]) -> Optional[str]:
    """--scheduler: an empty address (an unset variable, "$ADDR") is refused,
    not taken as no cluster (the run went on locally without a word)."""
    if value is not None and not value.strip():
        raise typer.BadParameter("an empty address (give the scheduler's address, "
                                 "tcp://host:8786, or its scheduler file)")
    return value


# (eager: read before --tt-mb, whose check depends on it)
SCHEDULER_OPT = typer.Option(None, "--scheduler", metavar="ADDRESS", callback=scheduler_option,
                             is_eager=True,
                             help="Run on a Dask cluster: its scheduler's address (tcp://host:8786) "
                                  "or scheduler file; needs pip install 'whist-solve\\[cluster]'.")


def threads_option(what: str, default: str = "the CPUs in one process, CPUs // jobs with "
                                           "--jobs, 1 on a cluster"):
    """``--threads N``: threads per task (``what``: the unit and what its
    threads share out), with the default of runner.worker_threads
    (``default`` says it in the help)."""
    return typer.Option(None, "--threads", min=1, metavar="N",
                        help=f"{what} Default: {default}; a larger N is capped at "
                             "CPUs // jobs, except on a cluster.")

# Options of the bid whist commands (bid, check).
BIDDER_OPT = typer.Option(None, "--bidder", "-b", callback=seat_option, metavar="N|E|S|W",
                          help="The bidder (overrides the Bidder tag).")
BID_TT_OPT = typer.Option(BID_TT_MB, "--tt-mb", min=1, metavar="MB", callback=tt_option,
                          help="Size of the transposition table in MB.")

# Scoring variants of the bid whist commands (bid, check); the default is SPEC §1's rule.
NT_DOUBLE_OPT = typer.Option(False, "--nt-double",
                             help="Variant: a no-trump bid scores double, made or set.")
BOSTON_OPT = typer.Option(0, "--boston", min=0, metavar="POINTS",
                          help="Variant: bonus points for a Boston (a made bid that takes every "
                               "book, 13 in the full game); 0: no bonus.")
MIN_BID_3_OPT = typer.Option(False, "--min-bid-3", help="Variant: the lowest bid is 3 (9 books).")

# Printable diagrams (solve, table, puzzles).
HTML_OPT = typer.Option(None, "--html", metavar="FILE", callback=html_option,
                        help="Also write the boards as one self-contained HTML page to "
                             "FILE (diagrams with what the command answers: card values "
                             "and the best line, the table and par, the puzzle).")
