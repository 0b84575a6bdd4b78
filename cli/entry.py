"""The console script's entry point, kept apart from ``main`` so that it
imports nothing.

Starting ``whist-solve`` imports Typer, rich and the commands, about a tenth
of a second; a Ctrl-C in that time would otherwise end in a
KeyboardInterrupt traceback, since the error boundary of ``main`` is not yet
there.  Here it ends as any other interrupt does: "interrupted" on stderr,
status 130.  (The package's own ``__init__`` imports nothing either until a
name of it is asked for, so the time before this function runs is only
Python's own start.)

It also makes the terminal's width sane before Typer reads it (see
:func:`sane_width`).
"""
import os
import sys

# The widths the consoles may take from the environment.  rich draws its
# boxes at COLUMNS whatever it is: at 0 to 3 the boxes came out without
# their contents (the results lost, and exit status 0); at 10,000,000 the
# help and every usage error filled lines of that width (70 MB on stderr
# for one unknown option, and at 10**10 memory grew until the machine
# ran out).  Narrower than 40 is wrapped by the terminal; wider than 500
# is only blank padding.
MIN_COLUMNS = 40
MAX_COLUMNS = 500


def sane_width(environ=os.environ) -> None:
    """Bring COLUMNS (read by rich) and TERMINAL_WIDTH (read by Typer when
    it is imported; a value that is not a number ended the help in an
    internal error) within MIN_COLUMNS..MAX_COLUMNS, and drop a
    TERMINAL_WIDTH that is not a number.  A COLUMNS that is not a number is
    left alone: rich ignores it."""
    for name in ("COLUMNS", "TERMINAL_WIDTH"):
        value = environ.get(name)
        if value is None:
            continue
        text = value.strip()
        if not (text.isascii() and text.isdigit()):
            if name == "TERMINAL_WIDTH" or text.isdigit():   # ('²' passes isdigit)
                del environ[name]
            continue
        width = MAX_COLUMNS if len(text) > 6 else min(max(int(text), MIN_COLUMNS), MAX_COLUMNS)
        environ[name] = str(width)


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
