"""Solving the boards of a file on several processes (``--jobs N``).

``map_boards(func, items, jobs)`` calls ``func(solver, item)`` for every
item and yields the results in the order of ``items``:

* ``jobs <= 1``: inline, in this process, with one :class:`Solver` (made on
  first use, or the one passed as ``solver=``);
* ``jobs > 1``: on a pool of ``jobs`` worker processes
  (``concurrent.futures.ProcessPoolExecutor``); each worker makes one
  ``Solver(tt_mb)`` when it starts and keeps it for all the items it is
  given, as the single-process commands do.  ``func`` must be picklable (a
  module-level function) and so must the items and the results.

Results stream: at most ``jobs * window`` items are in flight, so the first
board's result is yielded as soon as it is ready and a long file is never
read ahead in full.

An exception raised by ``func`` is raised again by the generator when that
item's turn comes (which ends the generator); with ``return_exceptions=True``
the exception object is yielded in the item's place instead and the other
items go on, which is what a command that reports a bad board and carries on
wants::

    for board, result in zip(boards, map_boards(solve_one, boards, jobs,
                                                return_exceptions=True)):
        if isinstance(result, Exception):
            report(board, result)
        else:
            show(board, result)

Each worker is a separate process with its own transposition table
(``tt_mb`` each): ``--jobs 2`` uses twice the table memory.  The workers
ignore SIGINT; Ctrl-C in the parent cancels the pending items and stops the
pool.
"""
from __future__ import annotations

import os
import signal
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterable, Iterator

from whist_solve.engine import DEFAULT_TT_MB

__all__ = ["map_boards", "default_jobs", "worker_solver"]

_SOLVER = None          # the worker process's Solver
_TT_MB = DEFAULT_TT_MB


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _init_worker(tt_mb: float) -> None:
    global _SOLVER, _TT_MB
    # Ctrl-C goes to the whole process group: let the parent handle it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _TT_MB = tt_mb
    from whist_solve.engine import Solver
    _SOLVER = Solver(tt_mb)


def worker_solver():
    """The Solver of the current worker process (made if needed)."""
    global _SOLVER
    if _SOLVER is None:
        from whist_solve.engine import Solver
        _SOLVER = Solver(_TT_MB)
    return _SOLVER


def _call(func: Callable, item: Any) -> Any:
    return func(worker_solver(), item)


def map_boards(func: Callable[[Any, Any], Any], items: Iterable[Any], jobs: int = 1, *,
               tt_mb: float = DEFAULT_TT_MB, solver=None, return_exceptions: bool = False,
               window: int = 2) -> Iterator[Any]:
    """Yield ``func(solver, item)`` for each item, in input order, using
    ``jobs`` processes (see the module's documentation)."""
    if jobs is None or jobs <= 1:
        if solver is None:
            from whist_solve.engine import Solver
            solver = Solver(tt_mb)
        for item in items:
            try:
                result = func(solver, item)
            except Exception as e:
                if not return_exceptions:
                    raise
                result = e
            yield result
        return

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(tt_mb,))
    pending: deque = deque()
    it = iter(items)
    limit = max(1, jobs * window)
    ok = False
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < limit:
                try:
                    item = next(it)
                except StopIteration:
                    exhausted = True
                    break
                pending.append(pool.submit(_call, func, item))
            if not pending:
                break
            fut = pending.popleft()
            try:
                result = fut.result()
            except Exception as e:
                if not return_exceptions:
                    raise
                result = e
            yield result
        ok = True
    finally:
        # Normal end: wait for the (idle) workers.  Error, Ctrl-C or a caller
        # that stopped iterating: drop what is queued and do not wait.
        pool.shutdown(wait=ok, cancel_futures=True)
