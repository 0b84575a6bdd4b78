"""The terminal's width as the consoles read it from the environment
(see :func:`sane_width`); imported by the entry point before Typer is, so
it imports nothing itself."""
import os

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
