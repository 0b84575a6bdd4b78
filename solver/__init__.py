"""whist-solve: double-dummy analysis for whist and bid whist."""
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
