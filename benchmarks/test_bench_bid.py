"""Bid whist 12-card positions with both jokers in play, trump and no-trump
(benchmarks/data/bid.pbn).  DDS knows no jokers, so the check is
metamorphic: moving every hand one seat clockwise (and the leader with
them) must swap the sides' tricks."""
import bench_support as bs
from whist_solve.bench import solve_task
from whist_solve.engine import Solver


def test_bid_positions(benchmark):
    tasks = bs.pick("bid", benchmark)
    assert all(t.jokers for t in tasks)
    results = bs.run(benchmark, tasks, rounds=5)
    solver = Solver()
    for t, r in zip(tasks, results):
        n = len(t.hands[0])
        assert 0 <= r.values[0] <= n
        assert solve_task(solver, bs.rotated(t)).values[0] == n - r.values[0], t.label
