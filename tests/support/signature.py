"""The node-count signature of the search (tests/test_node_signature.py):
small fixed positions whose node counts pin the search down.

After an intended change of the search, regenerate the stored counts with

    python tests/support/signature.py

(or ``whist-solve bench --regen-signature`` from a checkout).  A value
DDS disagrees with is never written.  This file imports only the library,
so that it can also be run by path.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import List, Optional, Tuple

from whist_solve.bench import Task
from whist_solve.cards import Position, format_hand, parse_hand
from whist_solve.dds_bridge import dds_available, dds_solve_task
from whist_solve.dealing import random_hands
from whist_solve.engine import DEFAULT_TT_MB, Solver
from whist_solve.vocab import SEATS

SIGNATURE_FORMAT = "whist-solve-node-signature/1"
REGEN_COMMAND = "python tests/support/signature.py"
SIGNATURE_PATH = Path(__file__).resolve().parent.parent / "data" / "node_signature.json"


def signature_cases() -> List[dict]:
    """Small fixed positions whose node counts pin the search down: three
    seeded 52-card deals (one strain and leader each), four 8-card endings
    and two bid whist positions with jokers."""
    cases = []
    for i, (trump, ranking, leader) in enumerate([("S", "up", 0), ("NT", "up", 1), ("H", "down", 2)]):
        cases.append(("deal52", 9100 + i, 13, False, trump, ranking, leader))
    for i, (trump, ranking, leader) in enumerate([("NT", "up", 0), ("D", "up", 3),
                                                  ("C", "down", 1), ("NT", "down", 2)]):
        cases.append(("ending8", 9200 + i, 8, False, trump, ranking, leader))
    for i, (trump, ranking, leader) in enumerate([("S", "up", 0), ("NT", "down", 1)]):
        cases.append(("bid10", 9300 + i, 10, True, trump, ranking, leader))
    out = []
    for kind, seed, size, jokers, trump, ranking, leader in cases:
        hands = random_hands(seed, size, jokers)
        out.append({"name": f"{kind}-seed{seed}-{trump}-{ranking}-{SEATS[leader]}",
                    "deal": "N:" + " ".join(format_hand(h) for h in hands),
                    "trump": trump, "ranking": ranking, "leader": SEATS[leader]})
    return out


def _case_hands(case: dict):
    return [parse_hand(h) for h in case["deal"][2:].split(" ")]


def _case_trump(case: dict) -> Optional[str]:
    return None if case["trump"] == "NT" else case["trump"]


def signature_case_nodes(case: dict, tt_mb: float) -> Tuple[int, int]:
    """(value, nodes) of a case with a fresh Solver."""
    pos = Position.make(_case_hands(case), _case_trump(case), case["ranking"],
                        SEATS.index(case["leader"]))
    solver = Solver(tt_mb)
    value = solver.ns_value(pos)
    return int(value), int(solver.nodes)


def _check_signature_value(case: dict, value: int) -> None:
    """Refuse to store a value DDS disagrees with (cases without jokers)."""
    task = Task(case["name"], "value", _case_hands(case), case["ranking"], _case_trump(case),
                SEATS.index(case["leader"]))
    if task.dds_ok and dds_available():
        theirs = dds_solve_task(task)[0][0]
        if theirs != value:
            raise SystemExit(f"{case['name']}: whist-solve says {value}, DDS {theirs}: "
                             "not writing the signature")


def regen_signature(path: Optional[Path] = None, tt_mb: float = DEFAULT_TT_MB) -> Path:
    """Solve every case and write the signature file; returns its path."""
    path = Path(path) if path else SIGNATURE_PATH
    cases = []
    for case in signature_cases():
        value, nodes = signature_case_nodes(case, tt_mb)
        _check_signature_value(case, value)
        cases.append(dict(case, value=value, nodes=nodes))
    doc = {
        "format": SIGNATURE_FORMAT,
        "about": "Node counts of the search on fixed positions, each with a fresh Solver(tt_mb). "
                 "A change means the search changed. After an intended change, regenerate with: "
                 + REGEN_COMMAND,
        "tt_mb": tt_mb,
        "cases": cases,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return path


def main(argv: Optional[List[str]] = None) -> int:
    """``python tests/support/signature.py [--tt-mb N] [--out FILE]``."""
    ap = argparse.ArgumentParser(prog="python tests/support/signature.py",
                                 description="Regenerate the node-count signature of the search.")
    ap.add_argument("--tt-mb", type=float, default=DEFAULT_TT_MB)
    ap.add_argument("--out", type=Path, default=None, help=f"default: {SIGNATURE_PATH}")
    args = ap.parse_args(argv)
    path = regen_signature(args.out, args.tt_mb)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
