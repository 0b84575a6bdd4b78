"""Whole-process times of ``whist-solve table`` where it runs: one process,
``--jobs N``, a Dask cluster, and one deal on several threads.

    python benchmarks/batch_scaling.py deals [--deals FILE | --random SEED COUNT] [--rounds 3]
    python benchmarks/batch_scaling.py threads FILE [--rounds 5]
    python benchmarks/batch_scaling.py critical FILE...

``deals``: ``table FILE --ranking up --json`` with ``--jobs 1 --threads 1``
(one core), ``--jobs N``, and ``--scheduler`` on an N-worker LocalCluster
(worker processes of one thread each, loopback only, started here before the
runs and stopped after them), the runs interleaved round by round; each run
is a fresh ``whist-solve`` process, timed whole (start-up, reading, solving,
printing).  The outputs must be byte-identical.  Targets (issue #12): the
cluster within 10% of ``--jobs N``, both at least 1.7x one process (N = 2).

``threads``: ``table FILE --json --threads 1`` against ``--threads 2``,
alternating (issue #15: at most 0.65 of the one-thread time on 2 cores).

``critical``: in this process, ``dd_table`` of each deal of the files on one
thread and on two, with the CPU time of each thread's searches: the busier
thread's time over the one-thread time is what two free cores would give
(the critical path), a figure that the other users of a shared machine
barely move.  The tables are checked equal.

The machine may be shared: the 1-minute load average is printed next to
every figure, and so is the CPU time the run used in all its processes (the
command and its pool, or the command, the cluster's workers and scheduler),
which does not depend on the other users as much as the wall time does.
Nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

CPU: list = []
HERE = os.path.dirname(os.path.abspath(__file__))
CLI = [sys.executable, "-c", "from whist_solve.cli.main import main; main()"]


def _load() -> float:
    return os.getloadavg()[0]


WORKER_PIDS: list = []      # the cluster's worker processes (their CPU time counts)


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = ru.ru_utime + ru.ru_stime + time.process_time()     # + this process: the scheduler
    try:
        import psutil
        for pid in WORKER_PIDS:
            t = psutil.Process(pid).cpu_times()
            total += t.user + t.system
    except Exception:
        pass
    return total


def _run(args):
    load = _load()
    cpu0 = _cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(CLI + args, capture_output=True)
    seconds = time.perf_counter() - t0
    CPU.append(_cpu() - cpu0)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr.decode(errors="replace"))
        raise SystemExit(f"exit {proc.returncode}: whist-solve {' '.join(args)}")
    return seconds, load, proc.stdout


def _rounds(runs, rounds: int):
    """runs: [(name, args)]; interleaved; prints every run, then the
    median and best of each."""
    times = {name: [] for name, _ in runs}
    cpu = {name: [] for name, _ in runs}
    ref = None
    for r in range(rounds):
        for name, args in runs:
            s, load, out = _run(args)
            same = ref is None or out == ref
            ref = out if ref is None else ref
            times[name].append(s)
            cpu[name].append(CPU[-1])
            print(f"round {r + 1}  {name:24s} {s:7.2f} s   CPU {CPU[-1]:7.2f} s   load {load:5.2f}"
                  f"{'' if same else '   OUTPUT DIFFERS'}", flush=True)
    print()
    base = statistics.median(times[runs[0][0]])
    for name, _ in runs:
        med = statistics.median(times[name])
        print(f"{name:24s} median {med:7.2f} s  best {min(times[name]):7.2f} s  "
              f"{base / med:5.2f}x of '{runs[0][0]}' (medians)   CPU median "
              f"{statistics.median(cpu[name]):7.2f} s")
    return times


def deals(args) -> int:
    path = args.deals
    tmp = None
    if path is None:
        seed, count = args.random
        tmp = tempfile.NamedTemporaryFile("w", suffix=".pbn", delete=False)
        subprocess.run([sys.executable, os.path.join(HERE, "make_sets.py"), "--random",
                        str(seed), str(count)], stdout=tmp, check=True)
        tmp.close()
        path = tmp.name
    from distributed import LocalCluster

    n = args.workers
    common = ["table", path, "--ranking", "up", "--json"]
    print(f"# {path}: {os.cpu_count()} CPUs; {n} workers; {args.rounds} rounds, interleaved")
    try:
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address="127.0.0.1:0") as lc:
            from distributed import Client
            with Client(lc.scheduler_address, set_as_default=False) as client:
                WORKER_PIDS.extend(client.run(os.getpid).values())
            runs = [("one process, 1 thread", common + ["--threads", "1"]),
                    (f"--jobs {n}", common + ["--jobs", str(n)]),
                    (f"--scheduler ({n}x1)", common + ["--scheduler", lc.scheduler_address])]
            _run(runs[-1][1][:1] + [os.path.join(HERE, "data", "random.pbn"), "--json",
                                    "--scheduler", lc.scheduler_address])   # warm the workers
            _rounds(runs, args.rounds)
    finally:
        if tmp is not None:
            os.unlink(tmp.name)
    return 0


def threads(args) -> int:
    common = ["table", args.file, "--json"]
    print(f"# {args.file}: {os.cpu_count()} CPUs; {args.rounds} rounds, alternating")
    _rounds([("--threads 1", common + ["--threads", "1"]),
             ("--threads 2", common + ["--threads", "2"])], args.rounds)
    return 0


def critical(args) -> int:
    import threading
    from collections import defaultdict

    from whist_solve import engine
    from whist_solve.pbn import read_pbn_file

    cpu = defaultdict(float)
    ns_value = engine.Solver.ns_value

    def timed(self, pos, guess=-1):
        t = time.thread_time()
        try:
            return ns_value(self, pos, guess)
        finally:
            cpu[threading.get_ident()] += time.thread_time() - t

    engine.Solver.ns_value = timed
    for path in args.files:
        for board in read_pbn_file(path):
            hands = [list(h) for h in board.hands]
            cpu.clear()
            one = engine.dd_table(hands, threads=1)
            single = sum(cpu.values())
            cpu.clear()
            two = engine.dd_table(hands, threads=2)
            per = sorted(cpu.values(), reverse=True)
            print(f"{path} board {board.label}: one thread {single:6.2f} s; two threads "
                  f"{' + '.join(f'{x:.2f}' for x in per)} s; critical path "
                  f"{per[0] / single:4.2f} of one thread{'' if one == two else '  TABLES DIFFER'}"
                  f"   load {_load():5.2f}", flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    d = sub.add_parser("deals", help="one process, --jobs N and a cluster on many deals")
    d.add_argument("--deals", help="a PBN file of deals")
    d.add_argument("--random", nargs=2, type=int, default=(12, 200), metavar=("SEED", "COUNT"),
                   help="else COUNT random deals of make_sets.py (default: 12 200)")
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--rounds", type=int, default=3)
    t = sub.add_parser("threads", help="one deal on 1 and 2 threads")
    t.add_argument("file")
    t.add_argument("--rounds", type=int, default=5)
    c = sub.add_parser("critical", help="one deal on 1 and 2 threads: CPU time per thread")
    c.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    return {"deals": deals, "threads": threads, "critical": critical}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
