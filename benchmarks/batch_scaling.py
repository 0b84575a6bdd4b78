"""Whole-process times of ``whist-solve table`` where it runs: one process,
``--jobs N``, a Dask cluster, and one deal on several threads.

    python benchmarks/batch_scaling.py deals [--deals FILE | --random SEED COUNT] [--rounds 3]
    python benchmarks/batch_scaling.py simulate [FILE] [--board lead] [--count 600] [--rounds 3]
    python benchmarks/batch_scaling.py threads FILE [--rounds 5]
    python benchmarks/batch_scaling.py critical [--symmetry] FILE...

``deals``: ``table FILE --ranking up --json`` with ``--jobs 1 --threads 1``
(one core), ``--jobs N``, and ``--scheduler`` on an N-worker LocalCluster
(worker processes of one thread each, loopback only, started here before the
runs and stopped after them), the runs interleaved round by round; each run
is a fresh ``whist-solve`` process, timed whole (start-up, reading, solving,
printing).  The outputs must be byte-identical.  Targets (issue #12): the
cluster within 10% of ``--jobs N``, both at least 1.7x one process (N = 2).

``simulate``: the same three places for ``simulate FILE --board B --count
N --json`` (default: the lead problem of ``examples/simulate.pbn``, 600
samples).

``threads``: ``table FILE --json --threads 1`` against ``--threads 2``,
alternating (issue #15: at most 0.65 of the one-thread time on 2 cores).

``critical``: in this process, ``dd_table`` of each deal of the files on one
thread and on two, with the CPU time of each thread's searches: the busier
thread's time over the one-thread time is what two free cores would give
(the critical path), a figure that the other users of a shared machine
barely move; and the same in nodes (the busier thread's solver's over the
one thread's), which the machine's speed moves only through the order in
which the threads meet.  The tables are checked equal.  Every (strain,
leader) is searched, unless ``--symmetry``: then only those ``table``
searches of a deal that turns into itself (the four-void freak deal: five).

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


def _three_places(common, label: str, workers: int, rounds: int) -> None:
    """``whist-solve COMMON...`` in one process, with ``--jobs N`` and on an
    N-worker LocalCluster, interleaved round by round."""
    from distributed import LocalCluster

    print(f"# {label}: {os.cpu_count()} CPUs; {workers} workers; {rounds} rounds, interleaved")
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as lc:
        from distributed import Client
        with Client(lc.scheduler_address, set_as_default=False) as client:
            WORKER_PIDS.extend(client.run(os.getpid).values())
        one = (("one process, 1 thread", common + ["--threads", "1"]) if common[0] == "table"
               else ("one process", common))           # --threads is table's
        runs = [one,
                (f"--jobs {workers}", common + ["--jobs", str(workers)]),
                (f"--scheduler ({workers}x1)", common + ["--scheduler", lc.scheduler_address])]
        _run(["table", os.path.join(HERE, "data", "random.pbn"), "--json",
              "--scheduler", lc.scheduler_address])   # warm the workers
        _rounds(runs, rounds)


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
    try:
        _three_places(["table", path, "--ranking", "up", "--json"], path, args.workers,
                      args.rounds)
    finally:
        if tmp is not None:
            os.unlink(tmp.name)
    return 0


def simulation(args) -> int:
    # the board's own lines (from its Board tag to the next blank line) in a file of its own
    with open(args.file) as f:
        blocks = f.read().split("\n\n")
    block = next((b for b in blocks if f'[Board "{args.board}"]' in b), None)
    if block is None:
        raise SystemExit(f"{args.file}: no board {args.board}")
    block = block[block.index("[Board "):]
    with tempfile.NamedTemporaryFile("w", suffix=".pbn", delete=False) as tmp:
        tmp.write(block + "\n")
    try:
        _three_places(["simulate", tmp.name, "--count", str(args.count), "--json"],
                      f"{args.file} board {args.board}, {args.count} samples", args.workers,
                      args.rounds)
    finally:
        os.unlink(tmp.name)
    return 0


def threads(args) -> int:
    common = ["table", args.file, "--json"]
    print(f"# {args.file}: {os.cpu_count()} CPUs; {args.rounds} rounds, alternating")
    _rounds([("--threads 1", common + ["--threads", "1"]),
             ("--threads 2", common + ["--threads", "2"])], args.rounds)
    return 0


def critical(args) -> int:
    from whist_solve import engine
    from whist_solve.pbn import read_pbn_file

    for path in args.files:
        for board in read_pbn_file(path):
            hands = [list(h) for h in board.hands]
            # the (strain, leader) searches: every one, or with --symmetry
            # those dd_table makes (the others it reads off them)
            search, _derived, leaders = engine.table_searches(hands, symmetry=args.symmetry)
            rows = [(strain, "up") for strain in engine.STRAINS if leaders[strain]]
            alone = engine.Solver()
            t = time.thread_time()
            one = engine.dd_table(hands, threads=1, symmetry=args.symmetry, solver=alone)
            single = time.thread_time() - t
            stats: dict = {}
            pair = [engine.Solver(), engine.Solver()]
            rows_two = engine._threaded_table(hands, rows, pair, stats, leaders=leaders)
            same = all(rows_two[strain, "up"][leader] == one[strain]["up"][engine.SEATS[leader]]
                       for strain, leader in search)
            per = stats["cpu"]
            nodes = max(s.nodes for s in pair)
            print(f"{path} board {board.label}: one thread {single:6.2f} s; two threads "
                  f"{' + '.join(f'{x:.2f}' for x in per)} s; critical path "
                  f"{per[0] / single:4.2f} of one thread, in nodes {nodes / alone.nodes:4.2f}"
                  f"{'' if same else '  TABLES DIFFER'}   load {_load():5.2f}", flush=True)
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
    m = sub.add_parser("simulate", help="one process, --jobs N and a cluster on a simulation")
    m.add_argument("file", nargs="?", default=os.path.join(os.path.dirname(HERE), "examples",
                                                           "simulate.pbn"))
    m.add_argument("--board", default="lead", help="the board of FILE (default: lead)")
    m.add_argument("--count", type=int, default=600, help="samples (default: 600)")
    m.add_argument("--workers", type=int, default=2)
    m.add_argument("--rounds", type=int, default=3)
    t = sub.add_parser("threads", help="one deal on 1 and 2 threads")
    t.add_argument("file")
    t.add_argument("--rounds", type=int, default=5)
    c = sub.add_parser("critical", help="one deal on 1 and 2 threads: CPU time per thread")
    c.add_argument("--symmetry", action="store_true",
                   help="only the searches dd_table makes of a symmetric deal (as table does)")
    c.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    return {"deals": deals, "simulate": simulation, "threads": threads,
            "critical": critical}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
