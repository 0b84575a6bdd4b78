"""The ``whist-solve`` command line: builds the application and adds the
commands, one module each (``*_cmd.py``).

``whist-solve FILE...`` is ``whist-solve solve FILE...``.  Every command reads
one or more PBN files (``-`` for standard input) and streams its results board
by board: for people (rich output on stdout) or, with ``--json``, one JSON
object per board per line on stdout and nothing else there.  Progress,
warnings and errors go to stderr.

Exit status: 0 success, 1 a negative verdict, 2 bad usage or bad input.  A
bad board is reported (file, board, problem) and the other boards are still
solved; the exit status is then 2.  Whatever else goes wrong ends as one
line on stderr and exit status 2 (``WHIST_SOLVE_DEBUG=1`` shows the
traceback).  Interrupted: 130 (Ctrl-C, "interrupted" on stderr), 143
(SIGTERM), 129 (SIGHUP), the pending work cancelled and the worker processes
ended.  A reader that closes standard output (``| head``) ends the run
quietly with 141, the status of a program stopped by SIGPIPE.
"""
from __future__ import annotations

import contextlib
import copy
import difflib
import errno
import importlib
import inspect
import os
import re
import sys
from typing import List, Optional

import typer
from typer.core import TyperArgument, TyperGroup

try:  # the click that Typer runs on (its own copy in recent versions)
    from typer._click import exceptions as click_exceptions
except ImportError:  # pragma: no cover - older Typer on the click package
    from click import exceptions as click_exceptions

from .terminal import sane_width
from .options import version_callback
from .runner import (EXIT_BAD, EXIT_INTERRUPTED, EXIT_PIPE, OutputFailed, null_under,
                     one_line_error, shorten, stopped_by, writing_out)


# The value words of the help for options that give no metavar, by type.
_VALUE_WORDS = {int: "N", float: "X", str: "TEXT"}
_VALUE_WORDS.update({Optional[int]: "N", Optional[float]: "X", Optional[str]: "TEXT"})


def _value_word(param) -> str:
    """The word for an option's value when it gives no metavar: from its
    annotation (Typer 0.29's type descriptor) or its click type (before)."""
    desc = getattr(param, "type_descriptor", None)
    if desc is not None:
        if getattr(desc, "is_path", False):
            return "FILE"
        return _VALUE_WORDS.get(getattr(desc, "annotation", str), "TEXT")
    name = getattr(param.type, "name", "")
    return ("N" if name.startswith("int") else "X" if name.startswith("float")
            else "FILE" if name in ("path", "filename") else "TEXT")


def _plain_help(command) -> None:
    """The help of ``command`` without Typer's type labels (``<bool>``,
    ``<list[str]>``, ``<int range>``, ``[x>=1]``) and the usage line without
    braces (``{FILE...}...``): a flag shows no value, an option its metavar
    (or ``N``, ``X``, ``TEXT``), an argument its metavar.  Typer 0.29 asks a
    parameter's ``display_type_rich``; earlier versions its ``make_metavar``
    and its click type (copied here before it is changed: click's plain
    types are shared)."""
    if getattr(command, "_plain_help", False):
        return
    command._plain_help = True
    for param in command.params:
        if isinstance(param, TyperArgument):
            word = param.metavar or param.name.upper()
            usage = (lambda w=word, p=param: w if p.required else f"[{w}]")
            param.display_type_rich = lambda ctx: None
            param._usage_display_name = usage
            param.make_metavar = (lambda ctx=None, usage=False, w=word, u=usage:
                                  u() if usage else w)
            if getattr(param, "type", None) is not None:
                param.type = copy.copy(param.type)
                param.type.get_metavar = lambda *a, **k: ""
        elif getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.display_type_rich = lambda ctx: None
        else:
            word = param.metavar or _value_word(param)
            param.display_type_rich = lambda ctx, w=word: w
            param.make_metavar = lambda ctx=None, w=word, **k: w
        if hasattr(param, "_get_number_range_help_str"):
            param._get_number_range_help_str = lambda: None
    format_help = command.format_help

    def plain_format_help(ctx, formatter):
        try:  # Typer before 0.29 writes a number option's range after its value word
            from typer import rich_utils
            rich_utils.RANGE_STRING = ""
        except ImportError:  # pragma: no cover - Typer without rich
            pass
        return format_help(ctx, formatter)
    command.format_help = plain_format_help
    get_help_option = command.get_help_option

    def plain_help_option(ctx):
        option = get_help_option(ctx)
        if option is not None:
            option.display_type_rich = lambda ctx: None
        return option
    command.get_help_option = plain_help_option


class _DefaultSolveGroup(TyperGroup):
    """Runs ``solve`` when the first argument is not a command name, and
    refuses a mistyped command: a first argument that is neither a command
    nor an existing file (nor ``-``, nor an option) is a usage error that
    names the closest command."""

    default_command = "solve"

    def parse_args(self, ctx, args: List[str]) -> List[str]:
        own = {o for p in self.get_params(ctx) for o in p.opts}   # --version, completion
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names \
                and args[0] not in own:
            word = args[0]
            if not word.startswith("-") and not os.path.lexists(word) \
                    and ("." not in word and os.sep not in word):
                _unknown_command(word, sorted(COMMANDS))
            if word.startswith("-"):
                _command_after_options(args, self.commands)
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)

    def get_command(self, ctx, cmd_name):
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain_help(command)
        return command

    def format_help(self, ctx, formatter):
        _plain_help(self)
        return super().format_help(ctx, formatter)

    def invoke(self, ctx):
        """The error boundary: whatever a command lets escape becomes one
        line on stderr and a documented exit status."""
        try:
            return super().invoke(ctx)
        except (typer.Exit, click_exceptions.ClickException, typer.Abort):
            raise
        except KeyboardInterrupt as e:     # Ctrl-C, or batch.Terminated (SIGTERM, SIGHUP)
            _interrupted(e)
        except BrokenPipeError:
            _stdout_gone()
        except OutputFailed as e:
            _output_failed(e)
        except Exception as e:
            if os.environ.get("WHIST_SOLVE_DEBUG"):
                raise
            if isinstance(e, OSError) and e.errno == errno.EPIPE:
                _stdout_gone()
            _say(one_line_error(e))
            raise typer.Exit(EXIT_BAD) from None


def _command_after_options(args: List[str], commands) -> None:
    """``whist-solve --json table FILE``: a command named after options,
    which would be read as solve's file (and be "no such file"), is a
    usage error that says to put it first."""
    for i, word in enumerate(args):
        if word == "--":
            return
        if word.startswith("-"):
            continue
        if word in commands and not os.path.lexists(word):
            rest = " ".join(args[:i] + args[i + 1:])
            sys.stderr.write(f"error: {word!r} is a command: it goes first "
                             f"(whist-solve {word} {shorten(rest)})\n")
            raise typer.Exit(2)
        return


def _unknown_command(word: str, commands: List[str]) -> None:
    """``no command or file 'tabel'; did you mean 'table'?`` on stderr, exit 2."""
    close = difflib.get_close_matches(word.lower(), commands, n=1, cutoff=0.6)
    message = f"no command or file {word!r}"
    if close:
        message += f"; did you mean {close[0]!r}?"
    else:
        message += f" (commands: {', '.join(commands)})"
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(2)


def _say(text: str) -> None:
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _interrupted(interrupt: BaseException):
    """Ctrl-C: "interrupted", 130; SIGTERM or SIGHUP: 128 + its number
    (runner.stopped_by)."""
    said, status = stopped_by(interrupt)
    _say(said)
    raise typer.Exit(status)


def _output_failed(e: OutputFailed):
    """Standard output cannot be written (a full disk): say so, once, 2."""
    null_under(sys.stdout)
    _say(f"error: {e}")
    raise typer.Exit(EXIT_BAD)


def _stdout_gone():
    """The reader of stdout has gone (| head): stop without a traceback,
    and without Python's own complaint when it flushes stdout at exit."""
    null_under(sys.stdout)
    raise typer.Exit(EXIT_PIPE)


def _identity(what):
    """The file a descriptor (an int) or a path is, as (device, inode), or None."""
    try:
        st = os.stat(what)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _pipe_closed_under(stdout_was) -> bool:
    """Did the reader of stdout go while click or rich printed (the help,
    or a usage error's hint)?  Both then end the process with status 1 of
    their own: rich after putting /dev/null under stdout's descriptor,
    click after wrapping sys.stdout so that its last flush is quiet.  The
    status of a closed pipe is 141, as for the commands' results."""
    if type(sys.stdout).__name__ == "PacifyFlushWrapper":
        return True
    now = _identity(1)
    return now is not None and now != stdout_was and now == _identity(os.devnull)


# The commands in the order of the help: name -> (module, function).  A run
# imports only the module of the command it runs: each brings in its own
# part of the library (``table examples/deal.pbn --threads 1`` peaked at
# 34.1-35.1 MB with its own command loaded, 38.0-38.2 MB with all of them,
# five runs each; the time the same within the noise).
COMMANDS = {
    "solve": ("solve_cmd", "solve"),
    "table": ("table_cmd", "table"),
    "deal": ("deal_cmd", "deal"),
    "puzzles": ("puzzles_cmd", "puzzles"),
    "play": ("play_cmd", "play"),
    "bench": ("bench_cmd", "bench"),
    "bid": ("bid_cmd", "bid"),
    "check": ("check_cmd", "check"),
    "review": ("review_cmd", "review"),
    "simulate": ("simulate_cmd", "simulate"),
}


def _root(
    version: bool = typer.Option(False, "--version", help="Show the version and exit.",
                                 callback=version_callback, is_eager=True),
) -> None:
    """whist-solve: double-dummy solver for whist and bid whist."""


def reflowed(doc: str) -> str:
    """A command's docstring as its help: each paragraph on one line.  In
    rich markup mode Typer keeps a docstring's line breaks, so a paragraph
    written over several lines came out ragged at every terminal width
    (the commands' list broke "...the value of each legal" / "card and
    ..." at 80 columns); joined, rich wraps it to the terminal."""
    paragraphs = re.split(r"\n\s*\n", inspect.cleandoc(doc or ""))
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def make_app(names: Optional[List[str]] = None) -> typer.Typer:
    """The application with the commands ``names`` (all when None), in the
    order of the help."""
    app = typer.Typer(
        cls=_DefaultSolveGroup,
        add_completion=True,
        no_args_is_help=True,
        rich_markup_mode="rich",
        context_settings={"help_option_names": ["-h", "--help"]},
        help="Double-dummy solver for whist and bid whist (jokers, downtown, the kitty).\n\n"
             "[bold]whist-solve FILE...[/] is short for [bold]whist-solve solve FILE...[/]. "
             "Files are PBN; [bold]-[/] reads standard input.",
        epilog="Exit status: 0 success, 1 a negative verdict, 2 bad usage or bad input, "
               "130 interrupted (Ctrl-C), 128 + the signal's number for SIGTERM (143) and SIGHUP "
               "(129), 141 standard output closed by its reader.",
    )
    app.callback()(_root)
    for name, (module, function) in COMMANDS.items():
        if names is None or name in names:
            command = getattr(importlib.import_module(f"{__package__}.{module}"), function)
            app.command(name, help=reflowed(command.__doc__))(command)
    return app


# Set when the shell asks for completions (click's name for it, from the
# program's name).
_COMPLETE_VAR = "_WHIST_SOLVE_COMPLETE"


def commands_for(args: List[str]) -> Optional[List[str]]:
    """The commands a run with these arguments needs: the one it names,
    ``solve`` for a file name (or any word that is not an option: a
    mistyped command is refused by name, see _DefaultSolveGroup), every
    command (None) for the main help, ``--version``, an option first, and
    shell completion."""
    if not args or _COMPLETE_VAR in os.environ:
        return None
    if args[0] in COMMANDS:
        return [args[0]]
    if args[0].startswith("-") and args[0] != "-":
        return None
    return ["solve"]


def __getattr__(name: str):
    """``app``: the whole application, made when first asked for."""
    if name == "app":
        globals()["app"] = made = make_app()
        return made
    raise AttributeError(name)


def main() -> None:
    """Console script entry point."""
    if sys.stdout is None:
        # started with standard output closed (`>&-`): every result would
        # fail to print (Python leaves sys.stdout None), so say it once
        _say("error: standard output is closed")
        sys.exit(EXIT_BAD)
    sane_width()          # (again, for python -m whist_solve.cli.main)
    stdout_was = _identity(1)
    try:
        try:
            app = make_app(commands_for(sys.argv[1:]))
            if sys.argv[1:] or "_WHIST_SOLVE_COMPLETE" in os.environ:   # (shell completion)
                status = app(prog_name="whist-solve", standalone_mode=False)
            else:
                # no arguments: the help, as the usage error it is (exit
                # 2), on standard error with the other errors
                with contextlib.redirect_stdout(sys.stderr):
                    status = app(prog_name="whist-solve", standalone_mode=False)
        except typer.Exit as e:
            status = e.exit_code
        except SystemExit:
            if not _pipe_closed_under(stdout_was):
                raise
            status = EXIT_PIPE
        except typer.Abort:
            _say("interrupted")
            status = EXIT_INTERRUPTED
        except click_exceptions.ClickException as e:
            from typer import rich_utils
            # (a value given on the command line is quoted in the message:
            # cut to a few dozen characters, as in every other message)
            e.message = shorten(e.message)
            rich_utils.rich_format_error(e)
            status = e.exit_code
        with writing_out():
            sys.stdout.flush()
    except KeyboardInterrupt:
        _say("interrupted")
        status = EXIT_INTERRUPTED
    except Exception as e:
        if isinstance(e, OSError) and e.errno == errno.EPIPE:
            try:
                _stdout_gone()
            except typer.Exit:
                pass
            status = EXIT_PIPE
        elif isinstance(e, OutputFailed):
            try:
                _output_failed(e)
            except typer.Exit:
                pass
            status = EXIT_BAD
        elif os.environ.get("WHIST_SOLVE_DEBUG"):
            raise
        else:
            _say(one_line_error(e))
            status = EXIT_BAD
    sys.exit(status if isinstance(status, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
