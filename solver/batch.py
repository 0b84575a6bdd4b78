"""Running a batch: one way to map a function over boards or samples, three
places to run it.

``run_map(func, items, backend, tt_mb=...)`` calls ``func(solver, item)`` for
every item and yields the results in the order of ``items``, whatever the
backend:

* **inline** (``backend_for()``, ``jobs <= 1``): in this process, with one
  :class:`~whist_solve.engine.Solver` (made on first use, or the one passed
  as ``solver=``);
* **pool** (``backend_for(jobs=N)``): a pool of worker processes on this
  machine (``concurrent.futures.ProcessPoolExecutor``).  ``N`` is capped by
  the CPUs this process may use (``os.sched_getaffinity``) and, when
  ``items`` has a length, by the number of tasks;
* **dask** (``backend_for(scheduler="tcp://host:8786")``, or the path of a
  scheduler file written by ``dask scheduler --scheduler-file``): the
  workers of a running Dask cluster.  The cluster is neither started nor
  stopped here; this process connects as a client for the run and
  disconnects at its end.  A scheduler that cannot be reached within
  ``connect_timeout`` seconds, or a missing or unreadable scheduler file,
  raises :class:`BatchError` at once, naming the address or the file.

On the workers: one ``Solver(tt_mb)`` per worker thread, kept between the
tasks of a run, as the single-process commands keep theirs, and emptied
when a Dask worker starts on the tasks of another run (see
``worker_solver``); at a Dask run's end, finished or stopped, every worker
lets go of that run's tables (``free_run_tables``).  A Dask worker with
several threads searches in parallel (the engine releases the GIL).  Each
worker has its own tables: ``tt_mb`` is per worker thread, and a run warns
at its start when a worker's memory limit leaves too little room for them
(Dask pauses a worker past a share of its limit: ``tables_over_limits``).

**Tasks are chunks of items.**  A task carries ``chunk`` items (``chunked``
builds them) and returns one result per item, so the per-task overhead
(measured by ``benchmarks/batch_overhead.py``: about 0.2 ms of a worker's
time on the pool and 5 ms on a local Dask cluster, see ``AUTO_TASK_SECONDS``) is paid once per
chunk.  ``chunk=None`` sizes the chunks from the measured time of the first
items so that a task lasts about ``TASK_SECONDS`` (0.2 s on the pool,
0.5 s on Dask); when ``items`` has a length, the chunks shrink towards the
end of the run (each at most the remaining items over twice the worker
threads) so that the workers end together.  The results still come back
one per item, in input order.

**Streaming.**  At most ``window`` tasks per worker thread (default: 2 on
the pool, 4 on Dask) are running or queued, and the next task is submitted
as soon as any of them ends, not only the oldest (a long task at the head
of the input does not leave the other workers idle); the results wait, in
a bounded backlog, for their turn.  The first result is yielded as soon as
it is ready and a long input is never read ahead in full.

**Errors.**  An exception raised by ``func`` for one item is yielded in that
item's place (``return_exceptions=True``, the default) as the same type with
the same message as in one process, and the other items go on; with
``return_exceptions=False`` it is raised when that item's turn comes.  A
worker that cannot make its Solver (for instance ``MemoryError`` for a table
larger than the memory) gives :class:`SolverUnavailable` (a ``WhistError``)
in each of its items' places, never a traceback printed by the worker.  A
task lost on the cluster (a worker that died more often than Dask's
``distributed.scheduler.allowed-failures``, a worker without whist-solve or
with another version) gives :class:`BatchError` in its items' places.

**Faults and signals.**  A Dask worker that dies mid-run loses nothing: the
scheduler runs its tasks again elsewhere and the output is complete and
identical.  Ctrl-C (``KeyboardInterrupt`` in the iterating process), or a
caller that stops iterating, cancels the pending tasks: the Dask client is
closed, leaving the cluster usable for the next run; the pool's workers are
ended.  Pool workers ignore SIGINT (the parent handles it), and end with
their parent however it ends (``PR_SET_PDEATHSIG`` on Linux).  While a pool
(or a Dask run) goes on in the main thread, SIGTERM and SIGHUP raise :class:`Terminated` (a
``KeyboardInterrupt``) in the parent, which shuts the pool down like Ctrl-C;
``terminate_on_signals()`` installs the same handlers for a whole command.
A signal that comes while a Dask client call waits is acted on when the
call returns (a wait for results is cut into calls of a quarter second;
connecting and closing wait at most ``connect_timeout``): stopping a call
of distributed's half-way makes it print a traceback.
No worker process outlives the run.

**Determinism.**  The same items give the same results in the same order
whatever the backend, the number of workers or the chunk size, provided
``func``'s result depends on the item only, not on what the solver searched
before: values do (a stored bound is a fact), node counts do not.  A
simulation gets this by deriving sample ``i`` from the seed and ``i`` only
(items such as ``(problem, seed, i)``).

**A simulation** plugs in with one item per sample, e.g. ``(problem, seed,
i)`` for ``i in range(samples)`` (a generator: nothing is built ahead), and a
``func`` that derives sample ``i`` from ``seed`` and ``i``; the chunks keep
the per-task cost low, and a ``problem`` shared by the items of a chunk is
pickled once per chunk.

**What must be picklable**: ``func`` (a module-level function of an
importable module: the workers import it by name), the items and the
results, and the exceptions ``func`` raises (one that is not is replaced by
a ``BatchError`` carrying its type and message).

**What the workers need**: for the pool, nothing (they are forks of this
process).  For Dask, every worker must have whist-solve installed, the same
version as the client (checked with each task), and any module that defines
``func``; ``pip install "whist-solve[cluster]"`` on every machine.  Dask's
scheduler port accepts pickled code from any client that reaches it: keep it
on a private network or secure it with TLS (Dask's ``distributed.comm.tls``
settings).  Nothing here writes to stdout (the results channel): Dask's own
log records below warnings are silenced and the rest go to stderr.
"""
from __future__ import annotations

import gc
import json
import logging
import math
import os
import pickle
import signal
import threading
import time
import traceback
import uuid
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Optional, Tuple

from .errors import WhistError
from .engine import DEFAULT_TT_MB, mb_text

__all__ = ["Backend", "BatchError", "SolverUnavailable", "Terminated", "backend_for",
           "run_map", "chunked", "default_jobs", "worker_solver", "terminate_on_signals",
           "end_process", "AUTO_TASK_SECONDS", "TASK_SECONDS", "MAX_AUTO_CHUNK"]

# With chunk=None a task is sized to last about this long.  The per-task
# overhead measured by benchmarks/batch_overhead.py on the project's 2-core
# machine (2 workers, empty tasks of one item): about 0.1 ms of wall time a
# task on the local pool (0.2 ms of a worker's time) and about 2.4 ms on a
# 2-worker LocalCluster (client -> scheduler -> worker -> client, pickled
# both ways; 4.8 ms of a worker's time).  At 0.2 s a task the cluster's
# overhead stays near 2%, and the chunks stay small enough to spread a few
# hundred items over a few dozen worker threads.
AUTO_TASK_SECONDS = 0.2
# On Dask, where a task costs 25 times more, tasks of 0.5 s (0.5% of
# overhead); the last tasks of a run of known length are shorter anyway
# (see _Sizer).  Measured no slower than 0.2 s on 200 tables or 600
# simulation samples.
TASK_SECONDS = {"pool": AUTO_TASK_SECONDS, "dask": 0.5}
MAX_AUTO_CHUNK = 256          # items per task at most when sizing automatically
# Tasks in flight per worker thread: enough that a worker has the next task
# when it ends one.  Dask needs more to hide the scheduler's round trip (4
# halves the overhead of empty tasks against 2).
WINDOW = {"pool": 2, "dask": 4}
# Tasks held at most, finished or running, as a multiple of the tasks in
# flight: room for the results that wait for a long task ahead of them.
BACKLOG = 16
CONNECT_TIMEOUT = 5.0         # seconds to reach a Dask scheduler
NO_WORKERS_WARN = 10.0        # seconds without a worker (or an answer) before a run says so
_MIB = 1 << 20                # bytes in a MB of --tt-mb (Solver's unit)
# Longest wait for the scheduler's answer to a question a run asks it while
# it waits for results (how many workers; cancel the tasks left): a
# scheduler that is frozen, or a network that went silent without closing
# the connection, never answers, and the run, its signals held for the
# call, ignored Ctrl-C and SIGTERM.
_ANSWER_TIMEOUT = 1.0
# Longest wait for a Dask task's result in one call, Ctrl-C held (see
# _signals_held): how late at most a run notices Ctrl-C while it waits.
_DASK_POLL = 0.25


class BatchError(WhistError):
    """A batch could not run where it was asked to (unreachable scheduler,
    bad scheduler file, a task lost on the cluster, a worker with another
    version)."""


class WorkersUnavailable(BatchError):
    """The worker processes of a local pool cannot start (no /dev/shm for
    its locks, fork refused, too few file descriptors); ``reason`` says
    why."""

    def __init__(self, jobs: int, reason: str):
        super().__init__(f"cannot start worker processes for --jobs {jobs}: {reason} "
                         "(try --jobs 1)")
        self.reason = reason


class SolverUnavailable(WhistError):
    """A worker could not make its Solver (table too large for the memory)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP received: raised in the main thread so that the
    run stops as on Ctrl-C.  ``signum`` is the signal's number (exit status
    128 + signum by convention)."""

    def __init__(self, signum: int):
        super().__init__(f"terminated by {signal.Signals(signum).name}")
        self.signum = signum


@dataclass(frozen=True)
class Backend:
    """Where a batch runs: ``kind`` is "inline", "pool" or "dask"."""

    kind: str = "inline"
    jobs: int = 1                         # pool: worker processes asked for
    scheduler: Optional[str] = None       # dask: address or scheduler file
    connect_timeout: float = CONNECT_TIMEOUT

    def describe(self) -> str:
        if self.kind == "pool":
            return f"{self.jobs} processes"
        if self.kind == "dask":
            return f"Dask scheduler {self.scheduler}"
        return "this process"


def backend_for(jobs: Optional[int] = 1, scheduler: Optional[str] = None,
                connect_timeout: float = CONNECT_TIMEOUT) -> Backend:
    """The backend chosen by the options ``--jobs`` and ``--scheduler``
    (``scheduler`` wins; it is an address such as ``tcp://host:8786`` or the
    path of a scheduler file)."""
    if scheduler is not None and str(scheduler).strip():
        return Backend("dask", scheduler=str(scheduler).strip(), connect_timeout=connect_timeout)
    if jobs is not None and jobs < 0:
        raise BatchError(f"--jobs must be at least 1, not {jobs}")
    if jobs is not None and jobs > 1:
        return Backend("pool", jobs=int(jobs))
    return Backend("inline")


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def chunked(items: Iterable[Any], size: int) -> Iterator[list]:
    """Lists of ``size`` consecutive items (the last one shorter), read
    lazily."""
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    it = iter(items)
    while True:
        block = list(islice(it, size))
        if not block:
            return
        yield block


# --------------------------------------------------------------------------
# The worker side (imported by name in the pool's and Dask's workers)

# The Solver of each worker thread: thread id -> (tt_mb, Solver, run).  A
# plain dict rather than a thread-local, so that a run's tables can be let
# go from another thread at the run's end (free_run_tables).
_SOLVERS: dict = {}
# The runs that have ended, as far as this worker was told (the latest
# _ENDED_KEPT): a task of theirs still queued here does nothing.
_ENDED: dict = {}
_ENDED_KEPT = 1000


def _version() -> str:
    from . import __version__
    return __version__


def worker_solver(tt_mb: float = DEFAULT_TT_MB, run: Optional[str] = None):
    """The Solver of the current worker thread, made on first use and kept
    (made again if another table size is asked for).  ``run`` names the
    batch asking: when it changes, the table is emptied first, so that a
    run on a long-lived worker starts with an empty table, as in a fresh
    process, and its speed does not depend on what the worker ran before
    (the bounds of earlier, unrelated runs are true, but they fill the
    table and lengthen its lists)."""
    me = threading.get_ident()
    held = _SOLVERS.get(me)
    if held is not None and held[0] == tt_mb:
        if run is not None and held[2] != run:
            held[1].clear()
            _SOLVERS[me] = (tt_mb, held[1], run)
        return held[1]
    _SOLVERS.pop(me, None)          # (the old table goes before the new one is made)
    living = {t.ident for t in threading.enumerate()}
    for ident in [i for i in _SOLVERS if i not in living]:
        _SOLVERS.pop(ident, None)   # a thread that ended (its id may come again)
    from .engine import Solver
    solver = Solver(tt_mb)
    _SOLVERS[me] = (tt_mb, solver, run)
    if run is not None and run in _ENDED:      # ended meanwhile (free_run_tables ran)
        _SOLVERS.pop(me, None)
    return solver


def free_run_tables(run: str) -> int:
    """Let go of the Solvers that run ``run`` made on this worker (sent to
    every Dask worker at the end of a run): their tables' memory goes back
    to the system as soon as no task uses them, so that an idle worker
    holds none (Dask pauses a worker whose memory passes a share of its
    limit, and tables kept after a run would keep it paused).  The
    Solvers of other runs stay, and a task of this run that starts later
    does nothing.  Returns how many were let go."""
    _ENDED[run] = True
    while len(_ENDED) > _ENDED_KEPT:
        _ENDED.pop(next(iter(_ENDED)), None)
    mine = [i for i, held in list(_SOLVERS.items()) if held[2] == run]
    for ident in mine:
        _SOLVERS.pop(ident, None)
    return len(mine)


def _solver_failure(tt_mb: float, exc: BaseException) -> SolverUnavailable:
    what = "not enough memory" if isinstance(exc, MemoryError) else f"{type(exc).__name__}: {exc}"
    return SolverUnavailable(
        f"cannot make a solver with a {mb_text(tt_mb)} MB transposition table ({what}); "
        f"try a smaller --tt-mb")


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a BatchError with its type and
    message."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return BatchError(f"{type(exc).__name__}: {exc}")


def _run_chunk(func: Callable, items: list, tt_mb: float, version: Optional[str] = None,
               run: Optional[str] = None) -> Tuple[list, float]:
    """One task: ``func(solver, item)`` for each item.  Returns
    ([(ok, value), ...], seconds): ok is False when value is the exception
    raised for that item.  Never raises for an item's error."""
    if version is not None and version != _version():
        err = BatchError(f"this worker runs whist-solve {_version()}, the client {version}: "
                         f"install the same version everywhere")
        return [(False, err)] * len(items), 0.0
    if run is not None and run in _ENDED:
        # (a task the run's cancel did not reach in time: nobody waits for it)
        return [(False, BatchError("the run has ended"))] * len(items), 0.0
    try:
        solver = worker_solver(tt_mb, run)
    except Exception as e:          # MemoryError, ValueError, OverflowError...
        err = _solver_failure(tt_mb, e)
        return [(False, err)] * len(items), 0.0
    out = []
    t0 = time.perf_counter()
    for item in items:
        try:
            out.append((True, func(solver, item)))
        except Exception as e:
            out.append((False, _portable(e)))
    return out, time.perf_counter() - t0


def _init_pool_worker(parent_pid: int) -> None:
    # Ctrl-C goes to the whole process group: the parent handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    # (forked with them blocked: _signals_blocked; one that came since is
    # handled now, by the handlers above)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD_SIGNALS)
    _die_with_parent(parent_pid)


def _die_with_parent(parent_pid: int) -> None:
    """Ask Linux to send SIGTERM to this process when its parent ends."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except Exception:  # pragma: no cover - not Linux
        pass
    if os.getppid() != parent_pid:      # the parent died before prctl
        os._exit(1)


# --------------------------------------------------------------------------
# The parent side


class _Sizer:
    """The chunk size: fixed, or (``chunk=None``) from the measured time
    per item so that a task lasts about ``seconds``, growing at most to
    twice the largest chunk handed out so far (the first measure comes
    from the first task to end, the shortest: one row of 6 ms once made a
    chunk of 86 rows, 3 s of work, at the head of a run); and when the
    number of items is known, never more than a share of what is left
    (``remaining / (2 * threads)``, guided self-scheduling), so that the
    last tasks are short and the workers end together."""

    def __init__(self, chunk: Optional[int], seconds: float = AUTO_TASK_SECONDS,
                 total: Optional[int] = None, threads: int = 1):
        if chunk is not None and chunk < 1:
            raise ValueError("chunk must be at least 1")
        self.fixed = chunk
        self.target = seconds
        self.left = total               # items not yet handed out (None: unknown)
        self.threads = max(1, threads)
        self.largest = 0                # the largest chunk handed out
        self.seconds = 0.0
        self.items = 0

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.items == 0:
            n = 1
        elif self.seconds <= 0:
            n = MAX_AUTO_CHUNK
        else:
            n = max(1, min(MAX_AUTO_CHUNK, int(self.target * self.items / self.seconds)))
        n = min(n, 2 * max(1, self.largest))
        if self.left is not None:
            n = max(1, min(n, -(-self.left // (2 * self.threads))))
        return n

    def took(self, n: int) -> None:
        """``n`` items were handed out."""
        self.largest = max(self.largest, n)
        if self.left is not None:
            self.left -= n

    def record(self, n: int, seconds: float) -> None:
        self.items += n
        self.seconds += seconds


def _length(items) -> Optional[int]:
    """len(items), or None when it has none (a generator) or one beyond
    sys.maxsize."""
    try:
        return len(items)
    except (TypeError, OverflowError):   # no length, or one beyond sys.maxsize
        return None


def _stream(submit: Callable[[list], Any], wait: Callable[[Any], Tuple[list, float]],
            items: Iterable[Any], sizer: _Sizer, limit: int, return_exceptions: bool,
            idle: Optional[Callable[[], None]] = None) -> Iterator[Any]:
    """The ordered, bounded loop shared by the pool and Dask: keep ``limit``
    tasks running, submitting the next chunk as soon as any task ends (not
    only the oldest: a long task at the head must not leave the other
    workers idle), collect each task's results when it ends (its time sizes
    the next chunks), and yield the oldest task's results item by item.  At
    most ``BACKLOG * limit`` tasks are held, running or collected."""
    it = iter(items)
    pending: deque = deque()        # [future, items, results or None] in input order
    ended = threading.Event()       # set when any task ends
    exhausted = False

    def collect(task):
        try:
            task[2], seconds = wait(task[0], task[1])
            sizer.record(task[1], seconds)
        except BatchError as e:     # raised when the task's turn comes
            task[2] = e

    while True:
        running = 0
        for task in pending:
            if task[2] is None:
                if task[0].done():
                    collect(task)
                else:
                    running += 1
        while not exhausted and running < limit and len(pending) < BACKLOG * limit:
            block = list(islice(it, sizer.size()))
            if not block:
                exhausted = True
                break
            sizer.took(len(block))
            fut = submit(block)
            fut.add_done_callback(lambda _f: ended.set())
            pending.append([fut, len(block), None])
            running += 1
        if not pending:
            return
        head = pending[0]
        if head[2] is None:
            if not exhausted and len(pending) < BACKLOG * limit:
                # every slot busy: when a task ends, collect it and submit
                # the next (the timeout only bounds a missed wake-up)
                if not ended.wait(0.5) and idle is not None:
                    idle()
                ended.clear()
                continue
            collect(head)           # nothing else to do: wait for the oldest
        pending.popleft()
        if isinstance(head[2], BatchError):
            raise head[2]
        for ok, value in head[2]:
            if not ok and not return_exceptions:
                raise value
            yield value


def run_map(func: Callable[[Any, Any], Any], items: Iterable[Any],
            backend: Optional[Backend] = None, *, tt_mb: float = DEFAULT_TT_MB,
            return_exceptions: bool = True, chunk: Optional[int] = None,
            window: Optional[int] = None, solver=None) -> Iterator[Any]:
    """Yield ``func(solver, item)`` for each item, in input order, on
    ``backend`` (see the module's documentation)."""
    backend = backend or Backend()
    window = max(1, window or WINDOW.get(backend.kind, 2))
    if backend.kind == "inline":
        return _run_inline(func, items, tt_mb, return_exceptions, solver)
    if backend.kind == "pool":
        return _run_pool(func, items, backend, tt_mb, return_exceptions, chunk, window)
    if backend.kind == "dask":
        return _run_dask(func, items, backend, tt_mb, return_exceptions, chunk, window)
    raise BatchError(f"unknown backend {backend.kind!r}")


def _run_inline(func, items, tt_mb, return_exceptions, solver) -> Iterator[Any]:
    failure = None
    for item in items:
        if solver is None and failure is None:
            try:
                from .engine import Solver
                solver = Solver(tt_mb)
            except Exception as e:
                failure = _solver_failure(tt_mb, e)
        try:
            if failure is not None:
                raise failure
            result = func(solver, item)
        except Exception as e:
            if not return_exceptions:
                raise
            result = e
        yield result


# ---- local pool

def pool_workers(jobs: int, items: Iterable[Any], chunk: Optional[int] = None) -> int:
    """The number of pool workers for ``jobs`` asked: at most the CPUs this
    process may use and, when ``items`` has a length, the number of tasks."""
    n = min(max(1, jobs), default_jobs())
    count = _length(items)
    if count is None:
        return n
    tasks = math.ceil(count / chunk) if chunk else count
    return max(1, min(n, tasks))


_SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
                 if s is not None)
_HELD_SIGNALS = {signal.SIGINT, *_SIGNALS}


def _raise_terminated(signum, frame):
    raise Terminated(signum)


def _raising(handler) -> bool:
    """Is ``handler`` one that raises in the main thread: Python's own for
    Ctrl-C, or terminate_on_signals' for SIGTERM and SIGHUP?"""
    return handler is signal.default_int_handler or handler is _raise_terminated


@contextmanager
def _handlers_replaced(sigs, replace: Callable[[Any], bool], handler):
    """Within the block, in the main thread, ``handler`` handles each signal
    of ``sigs`` whose handler now is one ``replace`` accepts; the old
    handlers come back after it.  Outside the main thread, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {}
    for sig in sigs:
        current = signal.getsignal(sig)
        if replace(current):
            saved[sig] = current
            signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)


@contextmanager
def terminate_on_signals():
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` (a
    KeyboardInterrupt) in the main thread, so that ``finally`` blocks run
    and a running pool is shut down.  Handlers a program set itself are
    left alone; outside the main thread this does nothing."""
    with _handlers_replaced(_SIGNALS, lambda h: h in (signal.SIG_DFL, None), _raise_terminated):
        yield


@contextmanager
def _signals_held():
    """Within the block (in the main thread), Ctrl-C, and SIGTERM or SIGHUP
    where they raise :class:`Terminated`, are noted instead of raised; the
    first one noted is raised as the block ends (unless the block raises).

    Each blocking call of a Dask client (``Future.result``, ``nthreads``,
    ``cancel``, ``close``, connecting) runs a coroutine on the client's
    event-loop thread and waits for it.  A KeyboardInterrupt raised in the
    waiting thread before that coroutine has started makes distributed's
    clean-up callback fail (a ``NameError`` in ``distributed.utils.sync``,
    2026.8) and tornado prints its traceback on standard error.  So such a
    call is made with the signal held, for as long as it takes (a wait for
    a result at most ``_DASK_POLL`` seconds, connecting and closing at most
    their timeout), and the run stops right after it."""
    caught: list = []
    try:
        with _handlers_replaced((signal.SIGINT,) + _SIGNALS,
                                _raising,
                                lambda signum, frame: caught.append(signum)):
            yield
    except KeyboardInterrupt:
        raise
    except BaseException:
        # The block failed (a wait's timeout, a lost connection) after a
        # signal was noted: the signal wins.  It was lost before: a SIGTERM
        # noted during fut.result(timeout=...) let the run go on to its end.
        if not caught:
            raise
    if caught:
        if caught[0] == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(caught[0])


@contextmanager
def _signals_blocked():
    """Within the block (in the main thread), Ctrl-C, SIGTERM and SIGHUP
    are blocked: one that comes waits, and is handled as the block ends.

    For a pool's submit, which forks its workers: the parent runs the
    after-fork callbacks of the modules it has imported (logging's among
    them), and an exception raised inside one is printed as "Exception
    ignored" and dropped.  A Ctrl-C at that moment (2 of 150 runs of
    ``simulate --jobs 2`` stopped 0.20-0.30 s after their start) was
    lost: the run went on to its end and exited 0.  The workers start
    with the signals blocked too, until _init_pool_worker."""
    if (threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "pthread_sigmask")):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def _first_signal_only():
    """Within the block (in the main thread), the first Ctrl-C, SIGTERM or
    SIGHUP raises as before (KeyboardInterrupt, :class:`Terminated`), and
    the ones after it, while the run unwinds and ends its pool, are let go:
    a second signal raised inside the pool's shutdown (Ctrl-C, then SIGTERM
    a few milliseconds later) left a reaped worker counted as alive, and
    the pool's manager thread spun at 100% CPU for ever at exit; or it
    broke a lock of a wait ("release unlocked lock")."""
    fired: list = []

    def handler(signum, frame):
        if fired:
            return
        fired.append(signum)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(signum)

    with _handlers_replaced((signal.SIGINT,) + _SIGNALS,
                            _raising,
                            handler):
        yield


def end_process(p) -> None:
    """End a multiprocessing process now: SIGTERM (again, for one already
    sent it), two seconds to go, then SIGKILL."""
    try:
        if p.is_alive():
            p.terminate()
            p.join(2)
            if p.is_alive():
                p.kill()
                p.join(1)
    except Exception:
        pass


def _end_pool(pool, ok: bool) -> None:
    """Normal end: let the idle workers exit.  Otherwise (error, Ctrl-C,
    SIGTERM, a caller that stopped iterating): drop the queued tasks and
    end the workers at once, running tasks included."""
    if ok:
        pool.shutdown(wait=True)
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.terminate()
        except Exception:
            pass
    for p in procs:
        end_process(p)
    # Let the pool's manager thread see its workers gone and close its
    # pipes now, not while the interpreter exits (a race that printed an
    # OSError from concurrent.futures' exit hook).
    # If it is slow to see them (a loaded machine), take it off the exit
    # hook's list: the interpreter still joins the thread at exit.
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        try:
            manager.join(5)
            from concurrent.futures import process as _process
            _process._threads_wakeups.pop(manager, None)
        except Exception:
            pass


def _guard_pool_exit_hook() -> None:
    """Make concurrent.futures' exit hook safe against a race of its own.

    At interpreter exit the hook wakes each pool's manager thread by
    writing to a pipe, outside the pool's lock; when the manager thread is
    closing that pipe at the same moment (a pool ended early by Ctrl-C,
    SIGTERM or SIGHUP, on a loaded machine), the write fails with EBADF and
    Python prints "Exception ignored in: <module 'threading'>" with a
    traceback.  A wake-up of a thread whose pipe is already closed has
    nothing to do, so that error is dropped."""
    from concurrent.futures import process as _process
    wakeup_class = getattr(_process, "_ThreadWakeup", None)
    if wakeup_class is None or getattr(wakeup_class, "_whist_guarded", False):
        return
    original = wakeup_class.wakeup

    def wakeup(self):
        try:
            original(self)
        except (OSError, ValueError):
            pass

    wakeup_class.wakeup = wakeup
    wakeup_class._whist_guarded = True


def _run_pool(func, items, backend, tt_mb, return_exceptions, chunk, window) -> Iterator[Any]:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _guard_pool_exit_hook()

    workers = pool_workers(backend.jobs, items, chunk)
    sizer = _Sizer(chunk, TASK_SECONDS["pool"], _length(items), workers)

    def cannot_start(e: OSError) -> BatchError:
        # (no /dev/shm for the pool's locks, fork refused: EAGAIN, too few
        # file descriptors)
        return WorkersUnavailable(backend.jobs, e.strerror or str(e))

    # (which signal ended a worker cannot be told reliably: the pool itself
    # ends the other workers as soon as one is lost)
    lost = ("a worker process ended unexpectedly (killed, or out of memory); "
            "the run stops, the results written so far stand")

    with terminate_on_signals(), _first_signal_only():
        try:
            pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_pool_worker,
                                       initargs=(os.getpid(),))
        except OSError as e:
            raise cannot_start(e) from None
        ok = False

        def wait(fut, n):
            try:
                return fut.result()
            except BrokenProcessPool:
                raise BatchError(lost) from None

        try:
            def submit(block):
                with _signals_blocked():
                    try:
                        return pool.submit(_run_chunk, func, block, tt_mb)
                    except BrokenProcessPool:
                        raise BatchError(lost) from None
                    except OSError as e:
                        raise cannot_start(e) from None

            yield from _stream(submit, wait, items, sizer, max(1, workers * window),
                               return_exceptions)
            ok = True
        finally:
            _end_pool(pool, ok)


# ---- Dask

# The least level of Dask's records that reach stderr, by logger.  The
# client's own errors (a scheduler lost: "Failed to reconnect to scheduler
# after 5.00 seconds, closing client") are reported by the run, in its
# words, once.
_DASK_LOG_LEVELS = {"distributed": logging.WARNING, "distributed.client": logging.CRITICAL,
                    "distributed.worker": logging.WARNING,
                    "distributed.scheduler": logging.WARNING,
                    "distributed.comm": logging.WARNING, "distributed.core": logging.WARNING}


def _quiet_dask_logs() -> None:
    for name, level in _DASK_LOG_LEVELS.items():
        logger = logging.getLogger(name)
        if logger.getEffectiveLevel() < level:
            logger.setLevel(level)


# The most of a Dask scheduler file read (characters).
_SCHEDULER_FILE_CHARS = 1 << 20


def _scheduler_address(where: str) -> str:
    """The address to connect to: ``where`` itself, or the ``address`` of
    the scheduler file ``where``."""
    if "://" in where:
        return where
    looks_like_file = os.path.sep in where or where.endswith(".json") or os.path.exists(where)
    if not looks_like_file:
        if ":" in where:            # host:port
            return where
        raise BatchError(f"scheduler {where!r}: not an address (tcp://host:port) "
                         f"nor a scheduler file")
    try:
        with open(where, encoding="utf-8") as f:
            # (a few hundred bytes; a bigger file is not one, and a device
            # such as /dev/zero is not read for ever)
            text = f.read(_SCHEDULER_FILE_CHARS + 1)
        if len(text) > _SCHEDULER_FILE_CHARS:
            raise ValueError("too big")
        info = json.loads(text)
    except FileNotFoundError:
        raise BatchError(f"scheduler file {where}: no such file") from None
    except IsADirectoryError:
        raise BatchError(f"scheduler file {where}: is a folder") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise BatchError(f"scheduler file {where}: not a Dask scheduler file "
                         f"({type(e).__name__})") from None
    address = info.get("address") if isinstance(info, dict) else None
    if not isinstance(address, str) or not address:
        raise BatchError(f"scheduler file {where}: no scheduler address in it")
    return address


def _check_address(address: str, named: str) -> None:
    """BatchError unless Dask can read ``address``: a known scheme, and a
    host and a port where the scheme has them.  Checked with Dask's own
    parser before a Client is made, for a message that says what is wrong
    (see also _release)."""
    from distributed.comm import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend
    try:
        scheme, _ = parse_address(address)
        get_backend(scheme)
    except ValueError as e:
        raise BatchError(f"scheduler {named}: {e}") from None
    if scheme == "inproc":
        raise BatchError(f"scheduler {named}: an inproc:// scheduler lives inside "
                         f"one process; give its tcp:// address")
    if scheme not in ("tcp", "tls", "ws", "wss"):
        return                          # (ucx: Dask reads its addresses itself)
    try:
        _, port = get_address_host_port(address)
    except ValueError:
        raise BatchError(f"scheduler {named}: not an address "
                         f"({scheme}://host:port, the port a number)") from None
    if not 0 < port < 65536:
        raise BatchError(f"scheduler {named}: port {port} out of range (1-65535)")


def _release(error: BaseException) -> None:
    """Let go of a Client that failed in its constructor (``error``), so
    that it closes now.  The frames of the error's traceback hold it, and
    with them the error that the raised BatchError keeps as its context:
    left so, it closed at the interpreter's exit, when its event loop had
    stopped, and waited 10 s for it and printed a traceback (a TLS address
    without a TLS configuration, for one)."""
    traceback.clear_frames(error.__traceback__)
    error.__traceback__ = None
    gc.collect()


def connect(backend: Backend):
    """A Dask client connected to ``backend``'s scheduler, or BatchError
    within about ``connect_timeout`` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise BatchError("running on a Dask cluster needs the cluster extra: "
                         "pip install \"whist-solve[cluster]\"") from None
    _quiet_dask_logs()
    address = _scheduler_address(backend.scheduler or "")
    named = address if address == backend.scheduler else f"{address} (from {backend.scheduler})"
    _check_address(address, named)
    _probe_scheduler(address, named, backend.connect_timeout)
    client = None
    try:
        with _signals_held():
            client = Client(address, timeout=backend.connect_timeout, set_as_default=False)
        return client
    except KeyboardInterrupt:           # held while connecting: connected, then stopped
        if client is not None:
            with _signals_held():
                client.close(timeout=backend.connect_timeout)
        raise
    except (OSError, TimeoutError) as e:
        raise _unreachable(named, backend.connect_timeout, e) from None
    except (ValueError, TypeError) as e:
        _release(e)
        raise BatchError(f"scheduler {named}: {e}") from None


def _unreachable(named: str, timeout: float, error: BaseException) -> BatchError:
    return BatchError(f"cannot reach the Dask scheduler at {named} "
                      f"within {timeout:g} s ({type(error).__name__})")


def _probe_scheduler(address: str, named: str, timeout: float) -> None:
    """BatchError unless a Dask scheduler answers at ``address`` within
    ``timeout`` seconds: Dask's handshake, then its ``identity`` call, on a
    connection of our own, before a Client is made.

    A Client is made with the signals held (see _signals_held), and its
    constructor does not always keep to its timeout: a port that accepted
    the connection and then said nothing kept it waiting for ever, deaf to
    Ctrl-C and SIGTERM (15 minutes, until SIGKILL); a server that answered
    with something else (an HTTP server, bytes at random) ended in an
    internal error after 10 s, and the half-made Client's traceback at
    exit.  Here the wait is bounded, and a signal stops it."""
    import asyncio      # (here and in the Dask client's code only: 6 MB of every command's process)

    from distributed.comm import connect as comm_connect
    from distributed.security import Security

    class Settings(Exception):
        """The connection cannot be tried as set up (tls:// without TLS
        settings): Dask says why."""

    async def identity():
        try:
            comm = await comm_connect(address, timeout=timeout,
                                      **Security().get_connection_args("client"))
        except (TypeError, ValueError) as e:
            raise Settings(str(e)) from None
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        info = asyncio.run(asyncio.wait_for(identity(), timeout))
    except Settings as e:
        raise BatchError(f"scheduler {named}: {e}") from None
    except (OSError, asyncio.TimeoutError, TimeoutError) as e:
        raise _unreachable(named, timeout, e) from None
    except Exception as e:
        raise BatchError(f"{named} is not a Dask scheduler: it does not answer as one "
                         f"({type(e).__name__})") from None
    kind = info.get("type") if isinstance(info, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind}" if isinstance(kind, str) else "something else"
        raise BatchError(f"{named} is not a Dask scheduler: {what} answers there")


def _scheduler_lost(client, error: BaseException) -> bool:
    """Did a task fail because the client lost its scheduler (killed,
    restarted, the network gone), rather than on a worker?"""
    if "scheduler-connection-lost" in str(error):
        return True
    return getattr(client, "status", "running") in ("connecting", "closing", "closed")


class _WorkerWatch:
    """While tasks wait: when the cluster has had no worker taking tasks
    (none at all, or every one paused) for NO_WORKERS_WARN seconds, or its
    scheduler has not answered for as long, say so once each (a warning of
    this module's logger, on standard error).  The run goes on waiting, as
    Dask does (an adaptive cluster starts its workers on demand, a job
    queue may take a while, a paused worker resumes when its memory goes
    down, a scheduler may be paused); Ctrl-C stops it."""

    def __init__(self, client, where: Optional[str]):
        self.client = client
        self.where = where
        self.since: Optional[float] = None
        self.silent_since: Optional[float] = None
        self.next_look = 0.0
        self.said = False
        self.said_silent = False

    def __call__(self) -> None:
        import asyncio
        now = time.monotonic()
        if (self.said and self.said_silent) or now < self.next_look:
            return
        self.next_look = now + 1.0
        try:
            # (the threads of the running workers, then of all: two small
            # answers, not every worker's identity each second)
            try:
                running = _ask(self.client, "ncores_running", _ANSWER_TIMEOUT)
            except (TimeoutError, asyncio.TimeoutError):
                raise
            except Exception:       # (a scheduler without that question: all counted as running)
                running = _ask(self.client, "ncores", _ANSWER_TIMEOUT)
            workers = running or _ask(self.client, "ncores", _ANSWER_TIMEOUT)
        except (TimeoutError, asyncio.TimeoutError):
            if self.silent_since is None:
                self.silent_since = now
            if not self.said_silent and now - self.silent_since >= NO_WORKERS_WARN:
                self.said_silent = True
                logging.getLogger(__name__).warning(
                    f"warning: the Dask scheduler at {self.where} has not answered for "
                    f"{NO_WORKERS_WARN:g} s: the run waits for it; Ctrl-C stops the run")
            return
        except Exception:
            return
        self.silent_since = None
        if self.said:
            return
        if running:
            self.since = None
            return
        if self.since is None:
            self.since = now
        elif now - self.since >= NO_WORKERS_WARN:
            self.said = True
            if workers:
                try:
                    why = _paused_why(_workers(self.client, _ANSWER_TIMEOUT))
                except Exception:
                    why = "Dask pauses a worker whose memory passes a share of its limit"
                what = (f"every worker of the Dask cluster at {self.where} has been paused for "
                        f"{NO_WORKERS_WARN:g} s ({why})")
                wait = "the tasks wait until one resumes or joins"
            else:
                what = f"the Dask cluster at {self.where} has had no worker for {NO_WORKERS_WARN:g} s"
                wait = "the tasks wait until one joins (dask worker ADDRESS)"
            logging.getLogger(__name__).warning(f"warning: {what}: {wait}; Ctrl-C stops the run")


def _paused_why(workers: dict) -> str:
    """Why Dask workers are paused, as far as the scheduler's view tells."""
    statuses = {w.get("status") for w in workers.values()}
    if statuses == {"paused"}:
        return ("Dask pauses a worker whose memory passes a share of its limit; "
                "this run's tables take up to --tt-mb MB per worker thread")
    return "status " + ", ".join(sorted(str(x) for x in statuses))


def _ask(client, handler: str, timeout: float):
    """The answer of the scheduler's ``handler`` (``ncores``: the threads
    of each worker; ``ncores_running``: of each worker taking tasks;
    ``identity``), waiting at most ``timeout`` seconds (TimeoutError)."""
    with _signals_held():
        return client.sync(getattr(client.scheduler, handler), callback_timeout=timeout)


def _workers(client, timeout: float) -> dict:
    """The scheduler's view of its workers: address -> Dask's identity of
    the worker (``nthreads``, ``status``, ``memory_limit``, ``metrics``),
    waiting at most ``timeout`` seconds for the answer (TimeoutError)."""
    return dict(_ask(client, "identity", timeout).get("workers") or {})


def _memory_share() -> Tuple[Optional[float], str]:
    """(share, what happens): the share of its memory limit at which a Dask
    worker stops taking tasks (``distributed.worker.memory.pause``: "paused")
    or, with pausing off, is ended (``terminate``: "ended"), from Dask's
    configuration here (the workers are presumed to share it); (None, "")
    when neither is set."""
    import dask
    for key, what in (("distributed.worker.memory.pause", "paused"),
                      ("distributed.worker.memory.terminate", "ended")):
        share = dask.config.get(key, None)
        if share:
            return float(share), what
    return None, ""


def tables_over_limits(workers: dict, tt_mb: float, share: Optional[float]) -> list:
    """The workers whose memory limit leaves too little room for a table of
    ``tt_mb`` MB per thread: [(address, MB of table per thread that fit,
    limit in MB, threads)], the tightest first.  The room is ``share`` of
    the limit less the memory the worker uses already.  Workers without a
    limit are not listed; none when ``share`` is None."""
    out = []
    if not share:
        return out
    for address, w in workers.items():
        limit = w.get("memory_limit") or 0
        threads = max(1, int(w.get("nthreads") or 1))
        if limit <= 0:
            continue
        used = (w.get("metrics") or {}).get("memory") or 0
        fits = max(0.0, (share * limit - used) / threads / _MIB)
        if tt_mb > fits:
            out.append((address, fits, limit / _MIB, threads))
    out.sort(key=lambda x: x[1])
    return out


def _warn_tables_over_limits(workers: dict, tt_mb: float) -> None:
    """A warning when some workers' memory limits leave too little room for
    the run's tables: as the tables fill, Dask pauses such a worker (it
    takes no task until its memory goes down) or ends it."""
    share, what = _memory_share()
    over = tables_over_limits(workers, tt_mb, share)
    if not over:
        return
    address, fits, limit, threads = over[0]
    which = (f"the Dask worker at {address}" if len(workers) == 1
             else f"{len(over)} of the {len(workers)} Dask workers (the tightest: {address})")
    logging.getLogger(__name__).warning(
        f"warning: tables of {mb_text(tt_mb)} MB per thread may not fit the memory limit of {which}: "
        f"about {fits:.0f} MB per thread fit ({threads} thread{'s' if threads != 1 else ''}, "
        f"limit {limit:.0f} MB, {what} at {share:.0%}); "
        f"{'a paused worker takes no task' if what == 'paused' else 'its tasks would be lost'}: "
        f"use a smaller --tt-mb")


def _cancel(client, futures, timeout: float) -> None:
    """client.cancel(futures, force=True), waiting at most ``timeout``
    seconds for the scheduler (Client.cancel itself has no timeout: the
    coroutine it returns when asynchronous is run on the client's loop with
    one)."""
    from distributed.utils import sync
    sync(client.loop, client.cancel, futures, force=True, asynchronous=True,
         callback_timeout=timeout)


def _run_dask(func, items, backend, tt_mb, return_exceptions, chunk, window) -> Iterator[Any]:
    with terminate_on_signals():
        yield from _run_dask_client(func, items, backend, tt_mb, return_exceptions, chunk, window)


def _run_dask_client(func, items, backend, tt_mb, return_exceptions, chunk, window
                     ) -> Iterator[Any]:
    import asyncio
    client = connect(backend)
    version = _version()
    run = uuid.uuid4().hex          # the workers empty their tables for a new run
    pending: list = []
    ok = False
    try:
        try:
            workers = _workers(client, backend.connect_timeout)
        except (TimeoutError, asyncio.TimeoutError):
            raise BatchError(f"the Dask scheduler at {backend.scheduler} does not answer "
                             f"(no answer in {backend.connect_timeout:g} s)") from None
        threads = sum(int(w.get("nthreads") or 0) for w in workers.values()) or 1
        _warn_tables_over_limits(workers, tt_mb)
        sizer = _Sizer(chunk, TASK_SECONDS["dask"], _length(items), threads)

        def submit(block):
            fut = client.submit(_run_chunk, func, block, tt_mb, version, run, pure=False)
            pending.append(fut)
            return fut

        watch = _WorkerWatch(client, backend.scheduler)

        def wait(fut, n):
            try:
                while True:
                    try:
                        with _signals_held():
                            result = fut.result(timeout=_DASK_POLL)
                        break
                    except TimeoutError:
                        watch()
            except Exception as e:      # KilledWorker, a worker that cannot unpickle func...
                if _scheduler_lost(client, e):
                    # (every task left would fail the same way, each board
                    # with Dask's two-line message)
                    raise BatchError(f"lost the connection to the Dask scheduler at "
                                     f"{backend.scheduler}: the run stops") from None
                text = " ".join(str(e).split())
                err = BatchError(f"a task was lost on the cluster: {type(e).__name__}: {text}")
                result = ([(False, err)] * n, 0.0)
            finally:
                pending.remove(fut)
                fut.release()
            return result

        yield from _stream(submit, wait, items, sizer, max(2, threads * window), return_exceptions,
                           idle=watch)
        ok = True
    finally:
        with _signals_held():       # a second Ctrl-C must not skip the close
            if not ok and pending:
                try:
                    _cancel(client, pending, _ANSWER_TIMEOUT)
                except Exception:
                    pass
            try:
                client.run(free_run_tables, run, on_error="ignore", callback_timeout=_ANSWER_TIMEOUT)
            except Exception:
                pass
            try:
                client.close(timeout=backend.connect_timeout)
            except Exception:
                pass
