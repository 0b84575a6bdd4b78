"""The console script's entry point, kept apart from ``main`` so that it
imports nothing.

Starting ``whist-solve`` imports Typer, rich and the commands, about a tenth
of a second; a Ctrl-C in that time would otherwise end in a
KeyboardInterrupt traceback, since the error boundary of ``main`` is not yet
there.  Here it ends as any other interrupt does: "interrupted" on stderr,
status 130.  (The package's own ``__init__`` imports nothing either until a
name of it is asked for, so the time before this function runs is only
Python's own start.)

It also makes the terminal's width sane before Typer reads it
(:func:`whist_solve.cli.terminal.sane_width`).
"""
import sys

from .terminal import sane_width


def main() -> None:
    sane_width()
    try:
        from .main import main as run
    except KeyboardInterrupt:
        try:
            sys.stderr.write("interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        sys.exit(130)
    run()
