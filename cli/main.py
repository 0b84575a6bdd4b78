"""The ``whist-solve`` command line: builds the application and adds the
commands, one module each (``*_cmd.py``).

``whist-solve FILE...`` is ``whist-solve solve FILE...``.  Every command reads
one or more PBN files (``-`` for standard input) and streams its results board
by board: for people (rich output on stdout) or, with ``--json``, one JSON
object per board per line on stdout and nothing else there.  Progress,
warnings and errors go to stderr.

Exit status: 0 success, 1 a negative verdict, 2 bad usage or bad input.  A
bad board is reported (file, board, problem) and the other boards are still
solved; the exit status is then 2.  Interrupted: 130 (Ctrl-C), 143 (SIGTERM),
129 (SIGHUP), the pending work cancelled and the worker processes ended.
"""
from __future__ import annotations

import os
import sys
from typing import List

import typer
from typer.core import TyperGroup

from . import (bench_cmd, bid_cmd, check_cmd, deal_cmd, play_cmd, puzzles_cmd, solve_cmd,
               table_cmd)
from .options import version_callback


class _DefaultSolveGroup(TyperGroup):
    """Runs ``solve`` when the first argument is not a command name."""

    default_command = "solve"

    def parse_args(self, ctx, args: List[str]) -> List[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names \
                and args[0] != "--version":
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_DefaultSolveGroup,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Double-dummy solver for whist and bid whist (jokers, downtown, the kitty).\n\n"
         "[bold]whist-solve FILE...[/] is short for [bold]whist-solve solve FILE...[/]. "
         "Files are PBN; [bold]-[/] reads standard input.",
    epilog="Exit status: 0 success, 1 a negative verdict, 2 bad usage or bad input, "
           "130 interrupted (Ctrl-C), 128 + the signal's number for SIGTERM (143) and SIGHUP (129).",
)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Show the version and exit.",
                                 callback=version_callback, is_eager=True),
) -> None:
    """whist-solve: double-dummy solver for whist and bid whist."""


# The commands, in the order of the help.
app.command("solve")(solve_cmd.solve)
app.command("table")(table_cmd.table)
app.command("deal")(deal_cmd.deal)
app.command("puzzles")(puzzles_cmd.puzzles)
app.command("play")(play_cmd.play)
app.command("bench")(bench_cmd.bench)
app.command("bid")(bid_cmd.bid)
app.command("check")(check_cmd.check)


def main() -> None:
    """Console script entry point."""
    try:
        app(prog_name="whist-solve")
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        # The reader of stdout has gone (| head): stop without a traceback,
        # and without Python's own complaint when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
