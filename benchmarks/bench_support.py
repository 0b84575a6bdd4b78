"""Shared helpers of the pytest-benchmark files (``benchmarks/test_bench_*.py``).

Each benchmark solves one committed deal set (``benchmarks/data/*.pbn``)
once, timed as a single round, and then checks the values where that is
cheap (DDS through endplay for everything DDS can express).

* ``pytest benchmarks --benchmark-only``: the full sets, timed;
* the normal test run (``--benchmark-disable``): each benchmark runs once,
  untimed, on the first few deals of its set (``QUICK``) so the folder
  stays well under two minutes; ``WHIST_BENCH_FULL=1`` runs the full sets
  there too.
"""
from __future__ import annotations

import os
import warnings

from whist_solve.bench import Task, load_tasks, solve_task
from whist_solve.dds_bridge import dds_available, dds_solve_task
from whist_solve.engine import Solver

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

# deals per set when benchmarking is disabled (the normal test run)
QUICK = {"random": 2, "downtown": 2, "bid": 6, "endings": 40, "margin": 1, "hard": 1}


def pick(name: str, benchmark) -> list:
    tasks = load_tasks(os.path.join(DATA, f"{name}.pbn"))
    if getattr(benchmark, "disabled", False) and not os.environ.get("WHIST_BENCH_FULL"):
        tasks = tasks[:QUICK[name]]
    return tasks


def run(benchmark, tasks, tt_mb: float = 64, rounds: int = 1) -> list:
    """Solve every task, each from an empty table, as one timed round
    (``rounds`` rounds for the sets that take milliseconds, so the median
    means something); node counts go to the benchmark's extra_info."""
    solver = Solver(tt_mb)

    def go():
        return [solve_task(solver, t) for t in tasks]

    results = benchmark.pedantic(go, rounds=rounds, iterations=1, warmup_rounds=0)
    benchmark.extra_info["deals"] = len(tasks)
    benchmark.extra_info["nodes"] = sum(r.nodes for r in results)
    benchmark.extra_info["nodes_per_deal"] = [r.nodes for r in results]
    return results


def check_dds(tasks, results, skip=()) -> int:
    """Every value equal to DDS's (downtown by relabelling); returns the
    number of values checked (0 when endplay is missing)."""
    if not dds_available():
        warnings.warn("endplay is not installed: values not checked against DDS")
        return 0
    bad = []
    n = 0
    for t, r in zip(tasks, results):
        if not t.dds_ok or t.label in skip:
            continue
        theirs, _ = dds_solve_task(t)
        for key, a, b in zip(t.keys(), r.values, theirs):
            n += 1
            if a != b:
                bad.append(f"board {t.label} {key} ({t.ranking}): whist-solve {a}, DDS {b}")
    assert not bad, "values differ from DDS:\n" + "\n".join(bad)
    return n


def rotated(task: Task) -> Task:
    """The same position with every hand moved one seat clockwise: N-S
    now hold what E-W held."""
    hands = [task.hands[(k - 1) % 4] for k in range(4)]
    return Task(task.label + "/rotated", task.kind, hands, task.ranking, task.trump,
                (task.leader + 1) % 4, task.trick)
