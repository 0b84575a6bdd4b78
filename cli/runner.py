"""Running a command through its boards: the consoles, the progress bar,
the messages on stderr, the exit status, and the guard that reports one
board's problem without stopping the others (SPEC: a bad board is reported
with its file, board and problem; the other boards are still solved; the
exit status is then 2).

Exit status: 0 success, 1 a negative verdict, 2 bad usage or bad input
(or an internal error), 130 interrupted (Ctrl-C), 128 + the signal's
number when ended by SIGTERM (143) or SIGHUP (129) (the worker processes
end with the command), 141 standard output closed by its reader
(``| head``).  Error output is bounded: the first ``MAX_ERRORS_PER_FILE``
errors (and as many warnings) of a file, then a count; quoted values are
cut at ``MAX_QUOTED`` characters.
"""
from __future__ import annotations

import errno
import json
import os
import re
import signal
import sys
from collections import deque
from contextlib import contextmanager
from itertools import chain, islice
from typing import Callable, Iterator, List, Optional, Tuple

import typer
from rich.console import Console
from rich.text import Text

from whist_solve.batch import (Backend, BatchError, backend_for, default_jobs,
                               run_map, terminate_on_signals)
from whist_solve.engine import Solver
from whist_solve.errors import WhistError
from whist_solve.pbn import chosen_boards, read_pbn_file
from whist_solve.selection import BoardSelection

from . import render

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD = 2
EXIT_INTERRUPTED = 130   # Ctrl-C (SIGINT)
EXIT_PIPE = 141          # the reader of stdout went away (128 + SIGPIPE, as the shell reports it)


def stopped_by(interrupt: BaseException) -> Tuple[str, int]:
    """What a command stopped by ``interrupt`` says and its exit status:
    Ctrl-C (KeyboardInterrupt) "interrupted", 130; SIGTERM or SIGHUP (a
    Terminated, or anything with a ``signum``) "terminated (SIGTERM)",
    128 + the signal's number."""
    signum = getattr(interrupt, "signum", None)
    if signum:
        return f"terminated ({signal.Signals(signum).name})", 128 + signum
    return "interrupted", EXIT_INTERRUPTED

MAX_ERRORS_PER_FILE = 20
MAX_LABELS_SHOWN = 20    # board labels listed when --board finds no board
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


def board_json(board, deal: Optional[str] = None, **fields) -> dict:
    """A board's object of the ``--json`` output: its label and its deal
    (``deal``, else the board's whole deal) first, then ``fields`` in
    order, and last the file it came from (every command's objects carry
    it: with several files, boards of one number are told apart)."""
    obj = {"board": board.label, "deal": board.deal_string() if deal is None else deal,
           **fields}
    obj.setdefault("file", board.file)
    obj["file"] = obj.pop("file")
    return obj


def file_name(path: str) -> str:
    """How a file is named in messages: ``-`` is ``<stdin>``."""
    return "<stdin>" if path == "-" else path


def board_where(board) -> str:
    """``FILE: board LABEL``, as messages name a board."""
    return f"{file_name(board.file)}: {board.named}"


class OutputFailed(Exception):
    """Standard output cannot take the results (a full disk, /dev/full, a
    file size limit): the run stops with this one message and status 2,
    rather than solving every board only to fail each one's write and
    blame the board."""


@contextmanager
def writing_out():
    """Around a write to standard output: a reader that has gone is a
    BrokenPipeError (status 141, quietly), any other failure OutputFailed."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as e:
        if e.errno == errno.EPIPE:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe") from None
        raise OutputFailed(f"cannot write standard output ({e.strerror or e})") from None


class OutConsole(Console):
    """A console whose closed pipe is an exception (BrokenPipeError) that
    the error boundary turns into the documented exit status, rather than
    rich's own exit with status 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(32, "Broken pipe")


class ErrConsole(Console):
    """The console of stderr: messages, progress and summary lines.  A
    stderr that cannot take them (``2>/dev/full``, a reader that has gone)
    loses them, and only them: the results on stdout and the exit status
    are those of a run with a good stderr.  Its descriptor is then put on
    /dev/null, so that what is left in Python's buffer of it does not fail
    again at exit (which would end the process with status 120)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("highlight", False)
        kwargs.setdefault("emoji", False)
        super().__init__(stderr=True, **kwargs)

    def print(self, *args, **kwargs) -> None:
        try:
            super().print(*args, **kwargs)
        except (OSError, ValueError):     # ValueError: stderr closed by now
            self.on_broken_pipe()

    def on_broken_pipe(self) -> None:
        self.quiet = True
        null_under(sys.stderr)


def null_under(stream) -> None:
    """Put /dev/null under the descriptor of ``stream`` (stdout or stderr),
    which can no longer be written: what is left in Python's buffer of it
    then goes nowhere instead of failing again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class Run:
    """Shared state of one command: consoles, progress, the exit status."""

    def __init__(self, json_out: bool = False, boards: Optional[List[str]] = None):
        self.json = json_out
        # --board: the boards asked for (every board when empty)
        self.selection = BoardSelection(boards or ())   # (checked by options.boards_option)
        if not render.can_encode("\u2660\u2192", sys.stdout):
            # A terminal that cannot show the symbols: replace rather than crash.
            try:
                sys.stdout.reconfigure(errors="replace")
            except (AttributeError, ValueError):
                pass
        self.out = OutConsole(highlight=False, soft_wrap=False, emoji=False)
        self.err = ErrConsole(soft_wrap=True)
        self.style = render.Style(sys.stdout)
        self.status = EXIT_OK
        self.bad: set = set()          # where (file: board) of every error reported
        self._progress = None          # a rich Progress while a bar is shown
        self._task = None
        self._live = False
        self._batches: list = []      # the runs of Run.map, ended by interruptible()
        self._errors: dict = {}       # file -> errors reported on it
        self._warnings: dict = {}     # file -> warnings said about it
        self._files: List[str] = []   # the files named so far (for counting errors)
        self._held: Optional[list] = None   # messages kept back while a board is prepared (held_messages)
        # --html: the page that lists the errors too, in the order they are said
        self.page = None
        # table --pbn: called with each board found bad, at its turn (a bad
        # board is written back as it was read, not dropped from the file)
        self.keep_bad: Optional[Callable] = None

    # ---- messages ------------------------------------------------------

    def _message(self, kind: str, style: str, where: str, text: str) -> None:
        t = Text()
        t.append(f"{kind}: ", style=style)
        if where:
            if len(where) > MAX_MESSAGE:       # a path of thousands of characters
                where = where[:MAX_QUOTED] + "\u2026" + where[-MAX_QUOTED:]
            t.append(f"{where}: ")
        t.append(shorten(text))
        said = (t, kind, where, text)
        if self._held is not None:
            self._held.append(said)
        else:
            self._say(said)

    def _say(self, said: tuple) -> None:
        t, kind, where, text = said
        self.err.print(t)
        if kind == "error" and self.page is not None:
            self.page.add_error(where, text)

    @contextmanager
    def held_messages(self):
        """The messages said within the block are kept (the list yielded)
        instead of printed; say_held prints them.  For the boards prepared
        ahead of their results (map_prepared): their messages come out in
        the files' order, as with one process."""
        outer, self._held = self._held, []
        try:
            yield self._held
        finally:
            self._held = outer

    def say_held(self, messages: list) -> None:
        for said in messages:
            if callable(said):
                said()              # (a bad board's keep_bad, at its turn)
            else:
                self._say(said)

    def _bad_board(self, board) -> None:
        """A board found bad: keep_bad's turn, with its messages."""
        if self.keep_bad is None or board is None:
            return
        keep = self.keep_bad
        if self._held is not None:
            self._held.append(lambda: keep(board))
        else:
            keep(board)

    def _file_of(self, where: str) -> str:
        for name in self._files:
            if where == name or where.startswith(name + ": "):
                return name
        return ""

    def _over_cap(self, counts: dict, where: str) -> bool:
        """Count a message about ``where``'s file in ``counts``: True once
        that file has had MAX_ERRORS_PER_FILE of them (the rest are only
        counted, for error_summary)."""
        name = self._file_of(where)
        if not name:
            return False
        n = counts[name] = counts.get(name, 0) + 1
        return n > MAX_ERRORS_PER_FILE

    def error(self, where: str, text: str, key=None) -> None:
        """An error about ``where``; ``key`` tells apart what the summary
        counts when places share a name (a team file's two boards 1), by
        default the place."""
        self.status = max(self.status, EXIT_BAD)
        self.count_bad(where if key is None else key)
        if not self._over_cap(self._errors, where):
            self._message("error", "bold red", where, text)

    def count_bad(self, key) -> None:
        """Count an error (a board, or an item of --board) for the summary."""
        self.bad.add(key)

    def error_summary(self) -> None:
        """'... and K more errors in FILE' for the files whose errors (or
        warnings) were cut."""
        for kind, style, counts in (("error", "bold red", self._errors),
                                    ("warning", "bold yellow", self._warnings)):
            for name, n in counts.items():
                if n > MAX_ERRORS_PER_FILE:
                    more = n - MAX_ERRORS_PER_FILE
                    self._message(kind, style, "",
                                  f"... and {more} more {kind}{'s' if more > 1 else ''} in {name}")
            counts.update({k: min(v, MAX_ERRORS_PER_FILE) for k, v in counts.items()})

    def warning(self, where: str, text: str) -> None:
        """A warning, at most MAX_ERRORS_PER_FILE of them a file (a file of
        20,000 unplayed boards given to review said so 20,000 times)."""
        if not self._over_cap(self._warnings, where):
            self._message("warning", "bold yellow", where, text)

    # ---- output --------------------------------------------------------

    def emit_json(self, obj: dict) -> None:
        text = json.dumps(obj, ensure_ascii=False)
        if not render.can_encode(text, sys.stdout):
            text = json.dumps(obj)
        with writing_out():
            sys.stdout.write(text + "\n")
            sys.stdout.flush()

    def emit(self, renderable) -> None:
        """Output for people: pauses the progress bar when both streams
        share the terminal."""
        paused = self._pause()
        # A laid-out panel fits the width by construction: no cropping pass.
        with writing_out():
            self.out.print(renderable, crop=not isinstance(renderable, render.LaidPanel))
            sys.stdout.flush()
        if paused:
            self._resume()

    def emit_text(self, text: str, utf8: bool = False) -> None:
        """Text on standard output; with ``utf8`` (a file format: PBN, CSV)
        in UTF-8 whatever the locale's encoding (which replaced a letter it
        lacks by '?': lost data in a file)."""
        buf = getattr(sys.stdout, "buffer", None) if utf8 else None
        enc = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        paused = self._pause()
        with writing_out():
            if buf is not None and enc != "utf8":
                sys.stdout.flush()
                buf.write(text.encode("utf-8"))
                buf.flush()
            else:
                sys.stdout.write(text)
                sys.stdout.flush()
        if paused:
            self._resume()

    def emit_file_text(self, text: str) -> None:
        """emit_text in UTF-8 (PBN, CSV)."""
        self.emit_text(text, utf8=True)

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
    def progress(self, total: int, name: str, eta: bool = False):
        """A progress bar of ``total`` steps on stderr (a terminal only);
        ``eta`` adds the estimate of the time left.  Inside another one,
        the outer bar is hidden until this one ends."""
        outer = (self._progress, self._task, self._live)
        if outer[0] is not None and outer[2]:
            outer[0].stop()
        self._progress, self._task, self._live = None, None, False
        if total > 1 and self.err.is_terminal:
            # (imported here: a run whose stderr is not a terminal has no bar)
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                                       TextColumn, TimeElapsedColumn, TimeRemainingColumn)
            columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                       MofNCompleteColumn(), TimeElapsedColumn()]
            if eta:
                columns += [TextColumn("left"), TimeRemainingColumn()]
            self._progress = Progress(
                *columns, console=self.err, transient=True, redirect_stdout=False,
                redirect_stderr=False)
            self._task = self._progress.add_task(name, total=total)
            self._progress.start()
            self._live = True
        try:
            yield self
        finally:
            if self._progress is not None:
                if self._live:
                    self._progress.stop()
            self._progress, self._task, self._live = outer
            if outer[0] is not None and outer[2]:
                outer[0].start()

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

    def boards(self, files: List[str], partial: bool = False) -> Iterator[Tuple[str, object]]:
        """Yields (where, board) for every good board of every file; bad
        files and boards are reported on stderr and skipped.  ``partial``:
        a board whose Deal leaves hands unknown (``-``) is good too
        (``simulate``)."""
        labels: dict = {}     # (--board: the first labels of each file read, for the message)
        for turn, path in enumerate(files):
            name = file_name(path)
            if name in self._files and path == "-":
                self.error(name, "standard input given more than once (it was read the first time)")
                continue
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
            except MemoryError:
                self.error(name, "cannot read the file: out of memory")
                continue
            except Exception as e:  # an unexpected failure of the reader
                self.error(name, f"cannot read the file ({type(e).__name__}: {e})")
                continue
            for problem in getattr(boards, "problems", ()):
                self.error(name, problem)
            for note in getattr(boards, "notes", ()):
                self.warning(name, note)
            if not boards:
                if not getattr(boards, "problems", ()):
                    self.error(name, "no boards in this file")
                continue
            if self.selection:
                # (each label once: a team file's repeat)
                labels[name] = list(dict.fromkeys(b.label for b in boards))[:MAX_LABELS_SHOWN + 1]
                boards = chosen_boards(boards, self.selection.pick([b.label for b in boards]))
            with self.progress(len(boards), name):
                for board in boards:
                    # (a file given twice is read and counted twice)
                    board.run_key = (turn, board.index)
                    where = board_where(board)
                    self.describe(where)
                    errors = [e for e in board.errors
                              if not (partial and e == getattr(board, "unknown_error", None))]
                    if errors:
                        for msg in errors:
                            self.error(where, strip_prefix(str(msg), name, path, board.named),
                                       key=board_key(board))
                        self._bad_board(board)
                        self.advance()
                        continue
                    yield where, board
                    self.advance()
        if self.selection and labels:
            self._say_unmatched(labels)

    def _say_unmatched(self, labels: dict) -> None:
        """The --board items that found no board in the files read: an
        error each, with the labels each file has."""
        def shown(names: List[str]) -> str:
            text = ", ".join(repr(n) if "," in n or not n.strip() else n
                             for n in names[:MAX_LABELS_SHOWN])
            return text + (", ..." if len(names) > MAX_LABELS_SHOWN else "")
        prefix = f"{next(iter(labels))}: " if len(labels) == 1 else ""
        there = ("boards: " + shown(next(iter(labels.values()))) if len(labels) == 1
                 else "; ".join(f"{name}: {shown(names)}" for name, names in labels.items()))
        missing = self.selection.unmatched()
        if not missing:
            return
        self.status = max(self.status, EXIT_BAD)
        # (each its own error, said whatever the file's other errors: at
        # most MAX_ERRORS_PER_FILE of them)
        for i in range(len(missing)):
            self.count_bad(("--board", i))
        for text, problem in missing[:MAX_ERRORS_PER_FILE]:
            self._message("error", "bold red", f"{prefix}--board {text!r}",
                          f"no such board{', ' + problem if problem else ''} ({there})")
        if len(missing) > MAX_ERRORS_PER_FILE:
            more = len(missing) - MAX_ERRORS_PER_FILE
            self._message("error", "bold red", "",
                          f"... and {more} more --board item{'s' if more > 1 else ''} found no board")

    # ---- batches (--jobs, --scheduler) ---------------------------------

    def backend(self, jobs: Optional[int] = 1, scheduler: Optional[str] = None) -> Backend:
        """The backend the options ``--jobs`` and ``--scheduler`` ask for;
        a bad value ends the command with a message and exit status 2."""
        if scheduler is not None and jobs is not None and jobs != 1:
            self.warning("--jobs", f"{jobs} not used: with --scheduler the cluster's workers "
                                   "solve")
        return make_backend(jobs, scheduler, self)

    def map(self, work, items, backend: Backend, tt_mb: float, chunk: Optional[int] = None):
        """``work(solver, item)`` for every item on ``backend``, yielded in
        order (a failed item's exception in its place).  A batch that cannot
        run (an unreachable scheduler, a pool that broke) ends the command
        with a message and exit status 2; Ctrl-C and SIGTERM/SIGHUP cancel
        the pending tasks (see :meth:`interruptible`)."""
        if backend.kind == "pool":
            # (no pool has more workers than CPUs, whatever --jobs asks)
            items = _counted(items, min(backend.jobs, default_jobs()))
        it = run_map(work, items, backend, tt_mb=tt_mb, return_exceptions=True, chunk=chunk)
        self._batches.append(it)
        while True:
            try:
                result = next(it)
            except StopIteration:
                return
            except BatchError as e:
                self.error("", str(e))
                raise typer.Exit(EXIT_BAD) from None
            yield result

    @contextmanager
    def interruptible(self):
        """Within the block SIGTERM and SIGHUP stop the run as Ctrl-C does
        (pending tasks cancelled, worker processes ended); the command then
        ends with "interrupted" and exit status 130, or 128 + the signal's
        number for SIGTERM (143) and SIGHUP (129)."""
        try:
            with terminate_on_signals():
                try:
                    yield
                finally:
                    self._end_batches()
        except KeyboardInterrupt as e:      # Ctrl-C, or Terminated (SIGTERM, SIGHUP)
            self._stop_progress()
            said, status = stopped_by(e)
            self.err.print(said)
            raise typer.Exit(status) from None

    def _end_batches(self) -> None:
        """Ends the batches still running (an exception met while the
        command was printing a result: their workers end now, not when the
        interpreter exits)."""
        while self._batches:
            it = self._batches.pop()
            try:
                it.close()
            except Exception:
                pass

    def _stop_progress(self) -> None:
        if self._progress is not None and self._live:
            try:
                self._progress.stop()
            except Exception:
                pass
            self._live = False

    @contextmanager
    def guard(self, where: str, board=None):
        """Reports the problems of one board without stopping the run."""
        try:
            yield
        except WhistError as e:
            label = board.named if board is not None else ""
            self.error(where, strip_prefix(str(e), where, getattr(board, "file", ""), label),
                       key=board_key(board))
            self._bad_board(board)
        except (KeyboardInterrupt, SystemExit, typer.Exit, BrokenPipeError, OutputFailed):
            raise   # a reader that closed the pipe (| head) ends the run, quietly; a full disk with a message
        except Exception as e:
            if os.environ.get("WHIST_SOLVE_DEBUG") and not isinstance(e, MemoryError):
                raise
            self.error(where, one_line_error(e)[len("error: "):], key=board_key(board))
            self._bad_board(board)


def say_replayed_otherwise(run: "Run", board, trump, ranking) -> Optional[str]:
    """A warning when --trump or --ranking replays the board's Play
    section otherwise than its own trump and ranking do (solve, puzzles,
    play); its text, or None when there is none."""
    otherwise = board.replayed_otherwise(trump, ranking)
    if not otherwise:
        return None
    text = (f"the recorded play is replayed with {' and '.join(otherwise)}: a position "
            "the table never had (the board's own trump and ranking give the one it had)")
    run.warning(board_where(board), text)
    return text


def board_key(board):
    """What tells a board apart from others of its label (the file's turn
    in the run and the board's position, Run.boards), for the count of
    boards with errors; None without a board."""
    if board is None:
        return None
    return getattr(board, "run_key", (board.file, board.index))


def strip_prefix(message: str, *prefixes: str) -> str:
    """Avoids 'file: board 1: file: board 1: ...' when the reader already
    named the file or the board."""
    for p in prefixes:
        if p and message.startswith(p + ":"):
            message = message[len(p) + 1:].lstrip()
    return message or "bad input"


def make_solver(tt_mb: int):
    return Solver(tt_mb=tt_mb)


class Repeat:
    """A work item standing for a question already sent in this run (a deal
    that comes again: the Open and Closed rooms of a team match): the work
    functions skip it and the command reuses the first answer, so that the
    output is the same as if it had been solved again."""

    def __init__(self, key):
        self.key = key


class Over:
    """A work item standing for a board whose Play section records every
    trick: nothing is left to solve, the work functions skip it.  ``what``:
    what the command needs to report it (its position, or more)."""

    def __init__(self, what):
        self.what = what


class Repeats:
    """The questions of one run: ``item(key, prepared)`` gives ``prepared``
    the first time and a :class:`Repeat` after; ``answer(item, result)``
    records a first answer or gives back the one recorded for a repeat."""

    def __init__(self):
        self.seen = set()
        self.answers = {}
        self.count = 0

    def item(self, key, prepared):
        if key in self.seen:
            return Repeat(key)
        self.seen.add(key)
        return prepared

    def answer(self, key, item, result):
        if isinstance(item, Repeat):
            self.count += 1
            return self.answers[item.key]
        self.answers[key] = result
        return result


def _counted(items, n: int):
    """``items`` as a list when it holds fewer than ``n`` (so that a pool
    starts no more processes than there are items), else as it is."""
    if hasattr(items, "__len__"):
        return items
    it = iter(items)
    head = list(islice(it, n))
    if len(head) < n:
        return head
    return chain(head, it)


def make_backend(jobs: Optional[int] = 1, scheduler: Optional[str] = None,
                 run: Optional[Run] = None) -> Backend:
    """The batch backend of the options ``--jobs N`` and ``--scheduler
    ADDRESS`` (the scheduler wins).  A bad value is reported on stderr and
    ends the command with exit status 2."""
    try:
        return backend_for(jobs, scheduler)
    except BatchError as e:
        if run is not None:
            run.error("", str(e))
        else:
            ErrConsole().print(f"error: {e}", markup=False)
        raise typer.Exit(EXIT_BAD) from None


def worker_threads(threads: Optional[int], backend: Backend) -> int:
    """Threads per task for work that can use several (``table``): the
    machine's CPUs shared out among the local processes without
    oversubscribing them (all of them in one process, CPUs // jobs with a
    pool), and one on Dask (each worker thread has its own solver
    already).  A number asked for is capped at that share, as --jobs is
    at the CPUs (64 threads on 2 cores ran 10 searches side by side, each
    with its own table, for fewer samples a second); on Dask it is taken
    as asked (the workers' machines are not this one)."""
    if backend.kind == "dask":
        return 1 if threads is None else max(1, threads)
    cpus = default_jobs()
    share = cpus
    if backend.kind == "pool":
        share = max(1, cpus // max(1, min(backend.jobs, cpus)))
    return share if threads is None else max(1, min(threads, share))


class Parts(tuple):
    """Prepared work made of independent parts (the rows of a table):
    :func:`map_prepared` sends each part as an item of its own, so that a
    long board is shared among the workers and the last boards of a run do
    not leave all but one of them idle, and gives back the list of the
    parts' results (or the first part's exception, if one failed).  At
    least one part."""

    def __new__(cls, parts):
        parts = tuple.__new__(cls, parts)
        if not parts:
            raise ValueError("Parts needs at least one part")
        return parts


def map_prepared(run: Run, files, prepare, work, backend, tt_mb: int,
                 chunk: Optional[int] = None):
    """Read the boards, prepare each (errors are reported per board), run
    `work(solver, prepared)` on `backend` (a Backend, or a number of
    processes) and yield (where, board, prepared, result) in the files'
    order; a failed work item's exception comes back as its result.  A
    board prepared as :class:`Parts` has each part run as an item and gets
    the list of their results."""
    if not isinstance(backend, Backend):
        backend = make_backend(backend, None, run)
    # The boards in the files' order: (where, board, prepared, messages),
    # prepared None for a board with nothing to run (its messages only).
    # With a pool or a cluster the boards are prepared ahead of the results
    # they wait for, so the messages of preparing them (a bad board, a
    # board skipped) are held and said at the board's turn: on stderr in
    # the files' order, as with one process.
    queue: deque = deque()

    def items():
        boards = run.boards(files)
        while True:
            # (the bad boards and files before the next good board are
            # reported while the reader looks for it: held with its own)
            with run.held_messages() as said:
                got = next(boards, None)
                prepared = None
                if got is not None:
                    with run.guard(*got):
                        prepared = prepare(got[1])
            if got is None:
                queue.append((None, None, None, said))
                return
            queue.append((got[0], got[1], prepared, said))
            if prepared is not None:
                if isinstance(prepared, Parts):
                    yield from prepared
                else:
                    yield prepared

    def say_skipped():
        while queue and queue[0][2] is None:
            run.say_held(queue.popleft()[3])

    results = run.map(work, items(), backend, tt_mb, chunk=chunk)
    for result in results:
        say_skipped()
        where, board, prepared, said = queue.popleft()
        run.say_held(said)
        if isinstance(prepared, Parts):
            got = [result] + [next(results) for _ in range(len(prepared) - 1)]
            result = next((r for r in got if isinstance(r, Exception)), got)
        yield where, board, prepared, result
    say_skipped()
