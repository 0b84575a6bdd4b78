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

__version__ = "0.1.0"

# The bid whist names come from .bid when first asked for: a command that
# only solves or tabulates deals (and every worker process) then starts
# without loading the exchange's optimizer.
_FROM_BID = ("ALL_OPTIONS", "CheckResult", "Exchange", "analyse_bid", "best_exchange",
             "best_option", "bid_name", "bid_score", "check_contract", "highest_bid",
             "summarize")


def __getattr__(name: str):
    if name in _FROM_BID:
        from . import bid
        return getattr(bid, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_FROM_BID))

__all__ = [
    "JOKERS", "RANKINGS", "SEATS", "STRAINS", "SUITS", "CardError", "Position",
    "PositionError", "WhistError", "parse_card", "parse_hand", "Solver",
    "SolveResult", "dd_table", "solve", "__version__",
    "ALL_OPTIONS", "CheckResult", "Exchange", "analyse_bid", "best_exchange",
    "best_option", "bid_name", "bid_score", "check_contract", "highest_bid",
    "summarize",
]
