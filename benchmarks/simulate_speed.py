"""Samples per second of the simulation questions, one process:

* lead: a 52-card bridge lead problem (the leader's 13 cards known, the
  other 39 dealt at random), every opening card solved per sample;
* tricks: declarer and dummy known, the full table (5 strains x 4 leaders);
* bid: a bid whist bidder's 12 cards known, three hands and the 6-card
  kitty at random, the best exchange of the ten options per sample.

    python benchmarks/simulate_speed.py                      # all three
    python benchmarks/simulate_speed.py lead --count 200
    python benchmarks/simulate_speed.py bid --count 5

Prints the seconds, samples per second and the mean and slowest sample on
stdout; the running count on stderr.
"""
from __future__ import annotations

import argparse
import sys
import time

from whist_solve.bid import BID_TT_MB
from whist_solve.cards import parse_hand
from whist_solve.engine import DEFAULT_TT_MB, Solver
from whist_solve.simulate import bid_question, lead_question, simulate, tricks_question

LEAD_HAND = "KQT4.J83.A72.Q63"            # W leads against 4S by S
DECLARER = "AJ832.AK4.K5.K72"             # S, for the tricks question
DUMMY = "976.Q92.QJ84.A85"                # N
BIDDER = "AK7.Q9.KJ8.T52.H"               # S in bid whist: 12 cards, the big joker


def problems(which):
    if which == "lead":
        return lead_question([None, None, None, parse_hand(LEAD_HAND)], "W", trump="S",
                             level=4), DEFAULT_TT_MB
    if which == "tricks":
        return tricks_question([parse_hand(DUMMY), None, parse_hand(DECLARER), None]), DEFAULT_TT_MB
    if which == "bid":
        return bid_question([None, None, parse_hand(BIDDER), None], "S"), BID_TT_MB
    raise SystemExit(f"unknown question {which!r}")


def run(which: str, count: int, seed: int) -> dict:
    problem, mb = problems(which)
    solver = Solver(mb)
    times = []
    last = [time.perf_counter()]

    def progress(agg):
        now = time.perf_counter()
        times.append(now - last[0])
        last[0] = now
        print(f"\r{which}: {agg.samples}/{count}", end="", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    agg = simulate(problem, count, seed=seed, solver=solver, progress=progress)
    sec = time.perf_counter() - t0
    print(file=sys.stderr)
    return {"question": which, "samples": agg.samples, "seconds": sec,
            "per_second": agg.samples / sec, "mean": sec / agg.samples, "slowest": max(times),
            "nodes": solver.nodes}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("questions", nargs="*", default=["lead", "tricks", "bid"])
    ap.add_argument("--count", type=int, help="samples (default: lead 200, tricks 50, bid 5)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    default = {"lead": 200, "tricks": 50, "bid": 5}
    for q in args.questions:
        r = run(q, args.count or default[q], args.seed)
        print(f"{r['question']:6s} {r['samples']:4d} samples {r['seconds']:7.2f} s "
              f"{r['per_second']:7.2f} samples/s  mean {r['mean']:.3f} s  "
              f"slowest {r['slowest']:.3f} s  {r['nodes']:,} nodes", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
