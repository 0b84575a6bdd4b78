"""Node-count signature of the search.

A few fixed positions (3 seeded 52-card deals with one strain and leader
each, 4 endings of 8 cards, 2 bid whist positions with jokers), each solved
by a fresh ``Solver(tt_mb)``: the search is deterministic, so the node
counts are fixed until the search itself changes.  The stored counts are in
``tests/data/node_signature.json``.

A failure here means the search explores a different tree: expected after
a deliberate change of move ordering, pruning or the transposition table;
a surprise otherwise.  After a deliberate change, regenerate the file (and
commit it with the change)::

    python tests/support/signature.py

(or ``whist-solve bench --regen-signature`` from a checkout).  The values must never
change: a changed value is a bug, whatever the node counts.
"""
from __future__ import annotations

import json

import pytest

from support import TEST_DATA
from support.signature import REGEN_COMMAND as REGEN
from support.signature import signature_case_nodes, signature_cases

SIGNATURE = TEST_DATA / "node_signature.json"


def _doc():
    with open(SIGNATURE, encoding="utf-8") as f:
        return json.load(f)


def _cases():
    return _doc()["cases"]


def test_signature_file_matches_the_case_list():
    """The stored positions are the ones the regeneration command makes."""
    stored = [{k: c[k] for k in ("name", "deal", "trump", "ranking", "leader")} for c in _cases()]
    assert stored == signature_cases(), f"the case list changed: regenerate with `{REGEN}`"


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["name"])
def test_node_signature(case):
    value, nodes = signature_case_nodes(case, _doc()["tt_mb"])
    assert value == case["value"], (
        f"{case['name']}: the VALUE changed ({case['value']} -> {value}): this is a bug, "
        "not a search change; do not regenerate the signature to hide it")
    assert nodes == case["nodes"], (
        f"{case['name']}: {case['nodes']} nodes stored, {nodes} now: the search changed. "
        f"If that is intended, regenerate tests/data/node_signature.json with `{REGEN}` "
        "and commit it with the change.")
