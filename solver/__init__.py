"""whist-solve: double-dummy analysis for whist and bid whist.

The library, below the command line (``whist_solve.cli``) and above the
Cython engine (``_engine``): the words of the game (``vocab``, ``errors``),
the rules (``cards``), PBN files (``pbn``) and what their tags mean
(``board``), the solver (``engine``, with ``symmetry`` for the tables of
symmetric deals), and the analyses: lines of play
(``lines``), puzzles (``puzzle``), bid whist (``bid``), random deals
(``dealing``), batches on several processes or a cluster (``batch``) and the
benchmarks (``bench``, ``dds_bridge``).
"""
from .cards import (JOKERS, RANKINGS, SEATS, STRAINS, SUITS, CardError, Position,
                    PositionError, WhistError, parse_card, parse_hand)
from .engine import Solver, SolveResult, dd_table, solve
from .bid import (ALL_OPTIONS, CheckResult, Exchange, analyse_bid, best_exchange,
                  best_option, bid_name, bid_score, check_contract, highest_bid,
                  summarize)

__version__ = "0.1.0"

__all__ = [
    "JOKERS", "RANKINGS", "SEATS", "STRAINS", "SUITS", "CardError", "Position",
    "PositionError", "WhistError", "parse_card", "parse_hand", "Solver",
    "SolveResult", "dd_table", "solve", "__version__",
    "ALL_OPTIONS", "CheckResult", "Exchange", "analyse_bid", "best_exchange",
    "best_option", "bid_name", "bid_score", "check_contract", "highest_bid",
    "summarize",
]
