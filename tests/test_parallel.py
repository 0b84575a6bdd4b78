"""whist_solve.parallel: map_boards keeps the input order, inline and on a pool,
and reports a failing item in its place."""
from __future__ import annotations

import pytest

from whist_solve.parallel import map_boards


def _value(solver, item):
    from whist_solve.cards import Position
    hands, trump, leader = item
    return solver.ns_value(Position.make(hands, trump, "up", leader))


def _fail_on_odd(solver, n):
    if n % 2:
        raise ValueError(f"odd {n}")
    return n * 10


def _items():
    import random
    from whist_solve.cards import full_deck
    rng = random.Random(42)
    out = []
    for i in range(6):
        deck = full_deck()
        rng.shuffle(deck)
        out.append(([deck[k * 5:(k + 1) * 5] for k in range(4)], (None, "S", "H")[i % 3], i % 4))
    return out


@pytest.mark.parametrize("jobs", [1, 2])
def test_map_boards_in_order(jobs):
    items = _items()
    inline = list(map_boards(_value, items, 1))
    assert list(map_boards(_value, items, jobs)) == inline
    assert all(0 <= v <= 5 for v in inline)


@pytest.mark.parametrize("jobs", [1, 2])
def test_map_boards_exceptions(jobs):
    out = list(map_boards(_fail_on_odd, range(5), jobs, return_exceptions=True))
    assert [x if not isinstance(x, Exception) else "err" for x in out] == [0, "err", 20, "err", 40]
    assert str(out[1]) == "odd 1"
    with pytest.raises(ValueError, match="odd 1"):
        list(map_boards(_fail_on_odd, range(5), jobs))


def test_map_boards_streams_a_generator():
    seen = []

    def gen():
        for i in range(0, 40, 2):
            seen.append(i)
            yield i

    it = map_boards(_fail_on_odd, gen(), 2, window=1)
    assert next(it) == 0
    assert len(seen) <= 4          # read ahead at most jobs * window (+1)
    it.close()
