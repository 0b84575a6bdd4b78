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
# Names of the library by the module that holds them.  A module is imported
# the first time one of its names is asked for (``whist_solve.Solver``,
# ``from whist_solve import solve``), so that importing the package, which
# the command line does before anything else, imports nothing: an interrupt
# there has no traceback to print (see ``whist_solve.cli.entry``).
_NAMES = {
    "cards": ("JOKERS", "RANKINGS", "SEATS", "STRAINS", "SUITS", "CardError", "Position",
              "PositionError", "WhistError", "parse_card", "parse_hand"),
    "engine": ("Solver", "SolveResult", "dd_table", "solve"),
    "bid": ("ALL_OPTIONS", "CheckResult", "Exchange", "analyse_bid", "best_exchange",
            "best_option", "bid_name", "bid_score", "check_contract", "highest_bid",
            "summarize"),
}
_HOME = {name: module for module, names in _NAMES.items() for name in names}

__version__ = "0.1.0"


def __getattr__(name: str):
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_HOME))


__all__ = [name for names in _NAMES.values() for name in names] + ["__version__"]
