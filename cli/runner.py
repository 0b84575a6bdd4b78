"""Running a command through its boards: the consoles, the progress bar,
the messages on stderr, the exit status, and the guard that reports one
board's problem without stopping the others (SPEC: a bad board is reported
with its file, board and problem; the other boards are still solved; the
exit status is then 2).

Exit status: 0 success, 1 a negative verdict, 2 bad usage or bad input
(or an internal error), 130 interrupted (Ctrl-C), 141 standard output
closed by its reader (``| head``).  Error output is bounded: the first
``MAX_ERRORS_PER_FILE`` errors of a file, then a count; quoted values are
cut at ``MAX_QUOTED`` characters.
"""
from __future__ import annotations

import json
import os
import re
import sys
from collections import deque
from contextlib import contextmanager
from typing import Iterator, List, Optional, Tuple

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                           TextColumn, TimeElapsedColumn)
from rich.text import Text

from whist_solve.engine import Solver
from whist_solve.errors import WhistError
from whist_solve.parallel import map_boards
from whist_solve.pbn import read_pbn_file

from . import render

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD = 2
EXIT_INTERRUPTED = 130   # Ctrl-C (SIGINT)
EXIT_PIPE = 141          # the reader of stdout went away (128 + SIGPIPE, as the shell reports it)

MAX_ERRORS_PER_FILE = 20
MAX_QUOTED = 60          # characters of a quoted value shown in a message
MAX_MESSAGE = 400        # characters of a message

_QUOTED_RE = re.compile(r"""(['"])([^'"\n]{%d})[^'"\n]{2,}\1""" % MAX_QUOTED)


def shorten(text: str) -> str:
    """A message of bounded size: quoted values longer than MAX_QUOTED
    characters cut with an ellipsis, each line at most MAX_MESSAGE, at most
    a few lines (a constraint's error has its caret line)."""
    text = _QUOTED_RE.sub(lambda m: f"{m.group(1)}{m.group(2)}\u2026{m.group(1)}", text)
    lines = [ln if len(ln) <= MAX_MESSAGE else ln[:MAX_MESSAGE] + "\u2026"
             for ln in text.split("\n")[:4]]
    return "\n".join(lines)


def one_line_error(e: BaseException) -> str:
    """The one line an exception that escaped a command ends with."""
    if isinstance(e, WhistError):
        text = str(e)
    elif isinstance(e, MemoryError):
        text = "out of memory (try a smaller --tt-mb)"
    elif isinstance(e, OSError) and e.strerror:
        text = e.strerror + (f": {e.filename}" if e.filename else "")
    else:
        text = (f"internal error ({type(e).__name__}: {e}); "
                "set WHIST_SOLVE_DEBUG=1 for details")
    return "error: " + " ".join(shorten(text).split("\n"))


def board_json(board, **fields) -> dict:
    """A board's object of the ``--json`` output: its label and its deal
    first, then ``fields`` in order."""
    return {"board": board.label, "deal": board.deal_string(), **fields}


def file_name(path: str) -> str:
    """How a file is named in messages: ``-`` is ``<stdin>``."""
    return "<stdin>" if path == "-" else path


class OutConsole(Console):
    """A console whose closed pipe is an exception (BrokenPipeError) that
    the error boundary turns into the documented exit status, rather than
    rich's own exit with status 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(32, "Broken pipe")


class Run:
    """Shared state of one command: consoles, progress, the exit status."""

    def __init__(self, json_out: bool = False):
        self.json = json_out
        if not render.can_encode("\u2660\u2192", sys.stdout):
            # A terminal that cannot show the symbols: replace rather than crash.
            try:
                sys.stdout.reconfigure(errors="replace")
            except (AttributeError, ValueError):
                pass
        self.out = OutConsole(highlight=False, soft_wrap=False, emoji=False)
        self.err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
        self.style = render.Style(sys.stdout)
        self.status = EXIT_OK
        self.pbn_header = False
        self._progress: Optional[Progress] = None
        self._task = None
        self._live = False
        self._errors: dict = {}       # file -> errors reported on it
        self._files: List[str] = []   # the files named so far (for counting errors)

    # ---- messages ------------------------------------------------------

    def _message(self, kind: str, style: str, where: str, text: str) -> None:
        t = Text()
        t.append(f"{kind}: ", style=style)
        if where:
            t.append(f"{where}: ")
        t.append(shorten(text))
        self.err.print(t)

    def _file_of(self, where: str) -> str:
        for name in self._files:
            if where == name or where.startswith(name + ": "):
                return name
        return ""

    def error(self, where: str, text: str) -> None:
        self.status = max(self.status, EXIT_BAD)
        name = self._file_of(where)
        if name:
            n = self._errors[name] = self._errors.get(name, 0) + 1
            if n > MAX_ERRORS_PER_FILE:
                return
        self._message("error", "bold red", where, text)

    def error_summary(self) -> None:
        """'... and K more errors in FILE' for the files whose errors were cut."""
        for name, n in self._errors.items():
            if n > MAX_ERRORS_PER_FILE:
                more = n - MAX_ERRORS_PER_FILE
                self._message("error", "bold red", "",
                              f"... and {more} more error{'s' if more > 1 else ''} in {name}")
        self._errors = {k: min(v, MAX_ERRORS_PER_FILE) for k, v in self._errors.items()}

    def warning(self, where: str, text: str) -> None:
        self._message("warning", "bold yellow", where, text)

    # ---- output --------------------------------------------------------

    def emit_json(self, obj: dict) -> None:
        text = json.dumps(obj, ensure_ascii=False)
        if not render.can_encode(text, sys.stdout):
            text = json.dumps(obj)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def emit(self, renderable) -> None:
        """Output for people: pauses the progress bar when both streams
        share the terminal."""
        paused = self._pause()
        self.out.print(renderable)
        sys.stdout.flush()
        if paused:
            self._resume()

    def emit_text(self, text: str) -> None:
        paused = self._pause()
        sys.stdout.write(text)
        sys.stdout.flush()
        if paused:
            self._resume()

    # ---- progress (stderr, terminal only) --------------------------------

    def _pause(self) -> bool:
        if self._progress is not None and self._live and self.out.is_terminal:
            self._progress.stop()
            self._live = False
            return True
        return False

    def _resume(self) -> None:
        if self._progress is not None and not self._live:
            self._progress.start()
            self._live = True

    @contextmanager
    def progress(self, total: int, name: str):
        if total > 1 and self.err.is_terminal:
            self._progress = Progress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                MofNCompleteColumn(), TimeElapsedColumn(),
                console=self.err, transient=True, redirect_stdout=False, redirect_stderr=False)
            self._task = self._progress.add_task(name, total=total)
            self._progress.start()
            self._live = True
        try:
            yield self
        finally:
            if self._progress is not None:
                if self._live:
                    self._progress.stop()
                self._progress = None
                self._live = False

    def advance(self, description: Optional[str] = None) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=description)

    def describe(self, description: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=description)

    # ---- boards --------------------------------------------------------

    def finish(self) -> None:
        """Ends the command with the run's exit status."""
        self.error_summary()
        raise typer.Exit(self.status)

    def boards(self, files: List[str]) -> Iterator[Tuple[str, object]]:
        """Yields (where, board) for every good board of every file; bad
        files and boards are reported on stderr and skipped."""
        for path in files:
            name = file_name(path)
            if name not in self._files:
                self._files.append(name)
            try:
                boards = read_pbn_file(path)
            except WhistError as e:
                self.error(name, strip_prefix(str(e), name, path))
                continue
            except (OSError, UnicodeDecodeError, ValueError) as e:
                self.error(name, f"cannot read the file: {e}")
                continue
            except Exception as e:  # an unexpected failure of the reader
                self.error(name, f"cannot read the file ({type(e).__name__}: {e})")
                continue
            for problem in getattr(boards, "problems", ()):
                self.error(name, problem)
            if not boards:
                if not getattr(boards, "problems", ()):
                    self.error(name, "no boards in this file")
                continue
            with self.progress(len(boards), name):
                for board in boards:
                    where = f"{name}: board {board.label}"
                    self.describe(where)
                    if board.errors:
                        for msg in board.errors:
                            self.error(where, strip_prefix(str(msg), name, path, f"board {board.label}"))
                        self.advance()
                        continue
                    yield where, board
                    self.advance()

    def each_board(self, files, tt_mb: int, handle) -> None:
        """`handle(solver, where, board)` for every board read without
        problems, one after the other, with one solver made at the first
        board; a board's failure is reported and the next board goes on."""
        solver = None
        for where, board in self.boards(files):
            with self.guard(where, board):
                if solver is None:
                    solver = make_solver(tt_mb)
                handle(solver, where, board)

    @contextmanager
    def guard(self, where: str, board=None):
        """Reports the problems of one board without stopping the run."""
        try:
            yield
        except WhistError as e:
            label = f"board {board.label}" if board is not None else ""
            self.error(where, strip_prefix(str(e), where, getattr(board, "file", ""), label))
        except (KeyboardInterrupt, SystemExit, typer.Exit, BrokenPipeError):
            raise   # a reader that closed the pipe (| head) ends the run, quietly
        except Exception as e:
            if os.environ.get("WHIST_SOLVE_DEBUG") and not isinstance(e, MemoryError):
                raise
            self.error(where, one_line_error(e)[len("error: "):])


def strip_prefix(message: str, *prefixes: str) -> str:
    """Avoids 'file: board 1: file: board 1: ...' when the reader already
    named the file or the board."""
    for p in prefixes:
        if p and message.startswith(p + ":"):
            message = message[len(p) + 1:].lstrip()
    return message or "bad input"


def make_solver(tt_mb: int):
    return Solver(tt_mb=tt_mb)


def map_prepared(run: Run, files, prepare, work, jobs: int, tt_mb: int):
    """Read the boards, prepare each (errors are reported per board), run
    `work(solver, prepared)` on `jobs` processes and yield
    (where, board, prepared, result) in the files' order; a failed work
    item's exception comes back as its result."""
    queue: deque = deque()

    def items():
        for where, board in run.boards(files):
            prepared = None
            with run.guard(where, board):
                prepared = prepare(board)
            if prepared is not None:
                queue.append((where, board, prepared))
                yield prepared

    for result in map_boards(work, items(), jobs, tt_mb=tt_mb, return_exceptions=True, window=8):
        where, board, prepared = queue.popleft()
        yield where, board, prepared, result
