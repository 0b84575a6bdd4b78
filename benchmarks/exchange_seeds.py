"""The bid whist exchange over many seeded deals, one process, one table:
time and nodes per deal (all ten options), the median, mean and maximum,
and the slowest deals option by option.

    python benchmarks/exchange_seeds.py                 # seeds 0-39
    python benchmarks/exchange_seeds.py 21 24 --json out.json
    python benchmarks/exchange_seeds.py --threads 2     # analyse_bid's threads

The deals are whist_solve.dealing.random_deal(seed), as in
``whist-solve bench --set exchange``.  Progress on stderr, the summary on
stdout.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from whist_solve.bid import ALL_OPTIONS, BID_TT_MB, analyse_bid, best_exchange
from whist_solve.dealing import random_deal
from whist_solve.engine import Solver


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seeds", nargs="*", type=int, help="default: 0 to 39")
    ap.add_argument("--json", type=argparse.FileType("w"), help="per-option details")
    ap.add_argument("--slowest", type=int, default=3, help="deals shown option by option")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads per deal (analyse_bid: the trump suits side by side)")
    args = ap.parse_args(argv)
    seeds = args.seeds or list(range(40))
    solver = Solver(BID_TT_MB)
    out = {}
    for seed in seeds:
        hands, kitty, bidder = random_deal(seed)
        t0 = time.perf_counter()
        opts = []
        if args.threads > 1:
            exchanges = analyse_bid(hands, kitty, bidder, solver=solver, threads=args.threads)
        else:
            exchanges = [best_exchange(hands, kitty, bidder, trump, ranking, solver=solver)
                         for trump, ranking in ALL_OPTIONS]
        for (trump, ranking), ex in zip(ALL_OPTIONS, exchanges):
            st = ex.stats
            opts.append({"option": f"{trump} {ranking}", "books": ex.books, "nodes": st.nodes,
                         "seconds": round(st.seconds, 4), "keeps": st.keeps,
                         "bounded": st.bounded, "null_window": st.null_window})
        sec = time.perf_counter() - t0
        out[seed] = {"seconds": sec, "nodes": sum(o["nodes"] for o in opts), "options": opts}
        print(f"seed {seed:3d} {sec:7.2f} s {out[seed]['nodes']:>12,d} nodes  "
              f"books {[o['books'] for o in opts]}", file=sys.stderr, flush=True)
    secs = [v["seconds"] for v in out.values()]
    print(f"{len(seeds)} deals: median {statistics.median(secs):.2f} s, mean {statistics.mean(secs):.2f} s, "
          f"max {max(secs):.2f} s, total nodes {sum(v['nodes'] for v in out.values()):,}")
    for seed in sorted(out, key=lambda s: -out[s]["seconds"])[:args.slowest]:
        print(f"seed {seed}: {out[seed]['seconds']:.2f} s")
        for o in out[seed]["options"]:
            print(f"  {o['option']:8s} {o['books']:2d} books {o['seconds']:7.2f} s {o['nodes']:>11,d} nodes "
                  f"{o['keeps']:5d} keeps")
    if args.json:
        json.dump(out, args.json, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
