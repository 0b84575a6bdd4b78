"""Bid whist exchange (``whist_solve.bid``): the best discard for all ten
options (4 suits x up/down, no-trump x up/down) of one random 12 + 6 deal,
the bidder leading.  The goal is under 2 s per deal on one core.

Under ``--benchmark-disable`` (the normal test run) it runs once on a fast
deal; timed (``--benchmark-enable``) it runs a typical deal three times.
The books are checked against values found by the optimizer and verified
when they were recorded (tests/test_bid.py checks the optimizer itself).
"""
import os

from whist_solve.bid import BID_TT_MB, analyse_bid
from whist_solve.dealing import random_deal
from whist_solve.engine import Solver

# seed -> books of the ten options (S up, S down, H up, ..., NT down)
DEALS = {
    13: [10, 11, 11, 10, 6, 6, 12, 11, 11, 10],    # ~0.3 s
    3: [12, 12, 13, 11, 10, 12, 9, 10, 9, 10],     # ~1.3 s
}


def test_bid_exchange_ten_options(benchmark):
    quick = getattr(benchmark, "disabled", False) and not os.environ.get("WHIST_BENCH_FULL")
    seed = 13 if quick else 3
    hands, kitty, bidder = random_deal(seed)
    solver = Solver(BID_TT_MB)

    def go():
        solver.clear()
        return analyse_bid(hands, kitty, bidder, solver=solver)

    exs = benchmark.pedantic(go, rounds=1 if quick else 3, iterations=1, warmup_rounds=0)
    benchmark.extra_info["seed"] = seed
    benchmark.extra_info["keeps"] = sum(e.stats.keeps for e in exs)
    benchmark.extra_info["null_window"] = sum(e.stats.null_window for e in exs)
    benchmark.extra_info["exact"] = sum(e.stats.exact for e in exs)
    benchmark.extra_info["nodes"] = sum(e.stats.nodes for e in exs)
    assert [e.books for e in exs] == DEALS[seed]
    for e in exs:
        assert len(e.keep) == 12 and len(e.discard) == 6
