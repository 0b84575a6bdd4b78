"""What a batch costs where it runs (whist_solve.batch).

    python benchmarks/batch_overhead.py [--tasks 2000] [--deals FILE] [--workers 2]

1. Per-task overhead: ``--tasks`` empty tasks (one item each, chunk=1) on
   the local pool (jobs=N) and on an N-worker LocalCluster (processes, one
   thread each, loopback only): wall time / tasks, i.e. what one task costs
   beyond its work when N workers share the queue.
2. A real workload: the full double-dummy tables (``dd_table``, five strains
   by four leaders) of the deals of ``--deals`` (default
   benchmarks/data/random.pbn) in this process, on the pool (jobs=N) and on
   the LocalCluster, with the default chunking; the results are checked to be
   identical.  Target (issue #12): the cluster within 10% of the pool, both
   at least 1.7x one process, on 2 workers.

Everything is printed on stdout; nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _empty(solver, item):
    return item


def _table(solver, hands):
    from whist_solve.engine import dd_table
    return dd_table(hands, solver=solver)


WINDOW = {}


def _timed(func, items, backend, chunk=None, tt_mb=None):
    from whist_solve.batch import run_map
    kw = {} if tt_mb is None else {"tt_mb": tt_mb}
    kw.update(WINDOW)
    t0 = time.perf_counter()
    out = list(run_map(func, items, backend, chunk=chunk, **kw))
    return time.perf_counter() - t0, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, default=2000, help="empty tasks for the overhead")
    ap.add_argument("--deals", default=os.path.join(HERE, "data", "random.pbn"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="repeat the deals this many times")
    ap.add_argument("--rounds", type=int, default=3,
                    help="runs of each, interleaved; the fastest is kept (the machine is shared)")
    ap.add_argument("--window", type=int, default=None, help="tasks in flight per worker thread")
    args = ap.parse_args(argv)
    if args.window:
        WINDOW["window"] = args.window

    from distributed import LocalCluster

    from whist_solve.batch import backend_for
    from whist_solve.pbn import read_pbn_file

    n = args.workers
    deals = [b.hands for b in read_pbn_file(args.deals)] * args.repeat
    inline, pool = backend_for(), backend_for(jobs=n)
    print(f"# {os.cpu_count()} CPUs, {len(os.sched_getaffinity(0))} usable; {n} workers; "
          f"load average {os.getloadavg()[0]:.2f} at start; best of {args.rounds} rounds")

    with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as lc:
        dask = backend_for(scheduler=lc.scheduler_address)
        _timed(_empty, range(50), dask, chunk=1)            # warm the workers' imports
        _timed(_empty, range(50), pool, chunk=1)

        print("\n## per-task overhead (empty tasks, chunk=1)")
        for name, b in (("pool", pool), ("dask", dask)):
            s = min(_timed(_empty, range(args.tasks), b, chunk=1)[0] for _ in range(args.rounds))
            print(f"{name:6s} {args.tasks} tasks {s:7.3f} s  {1e3 * s / args.tasks:6.3f} ms/task "
                  f"(wall, {n} workers)   {1e3 * s * n / args.tasks:6.3f} ms/task per worker")
        s, _ = _timed(_empty, range(args.tasks * 10), dask)
        print(f"dask   {args.tasks * 10} empty items, chunk=auto: {s:.3f} s")

        print(f"\n## dd_table of {len(deals)} deals ({os.path.relpath(args.deals)})")
        runs = (("one process", inline), (f"--jobs {n}", pool), (f"dask {n}x1", dask))
        best = {}
        ref = None
        for _ in range(args.rounds):
            for name, b in runs:
                s, out = _timed(_table, deals, b)
                ref = out if ref is None else ref
                if out != ref:
                    print(f"{name}: DIFFERENT results")
                best[name] = min(best.get(name, s), s)
        s1 = best["one process"]
        for name, _ in runs:
            s = best[name]
            print(f"{name:16s} {s:7.2f} s  {len(deals) / s:6.2f} tables/s  x{s1 / s:4.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
