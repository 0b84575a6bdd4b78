"""Two solvers searching one table (Solver.share_table_of): each finds what
the other stores, both may search at once, the values stay exact, and the
table is protected from being emptied under a search.

The values are checked against solvers of their own (whose searches the
reference and DDS tests check); the sharing itself is checked through the
node counts, which fall when a search finds the other's bounds."""
from __future__ import annotations

import threading

import pytest

from whist_solve import Solver
from whist_solve.cards import Position

from support.strategies import random_deal


def _own_values(hands, trump, leaders, ranking="up"):
    fresh = Solver(16)
    return {h: fresh.ns_value(Position.make(hands, trump, ranking, h)) for h in leaders}


def test_a_shared_table_answers_from_what_either_solver_stores():
    hands = random_deal(4100)
    first = Position.make(hands, None, "up", 0)
    second = Position.make(hands, None, "up", 1)
    host, guest, fresh = Solver(16), Solver(16), Solver(16)
    host.shareable = True
    value = host.ns_value(first)
    guest.share_table_of(host)
    n0 = guest.nodes
    assert guest.ns_value(first) == value == fresh.ns_value(first)
    warm = guest.nodes - n0
    assert warm * 5 < fresh.nodes                        # the host's bounds
    other = guest.ns_value(second)
    n1, f1 = host.nodes, fresh.nodes
    assert host.ns_value(second) == other == fresh.ns_value(second)
    assert (host.nodes - n1) * 5 < fresh.nodes - f1      # the guest's bounds
    guest.own_table()
    n2 = guest.nodes
    assert guest.ns_value(first) == value
    # its own table was left empty: the search is a cold one again
    assert guest.nodes - n2 > 5 * warm


def test_a_table_in_use_by_another_solver_is_not_emptied():
    hands = random_deal(4101)
    host, guest = Solver(8), Solver(8)
    with pytest.raises(RuntimeError):
        guest.share_table_of(host)                        # not shareable
    host.shareable = True
    host.ns_value(Position.make(hands, "S", "up", 0))
    guest.share_table_of(host)
    for refused in (host.clear, guest.clear, lambda: guest.core_for("H"),
                    lambda: guest.ns_value(Position.make(hands, "H", "up", 0))):
        with pytest.raises(RuntimeError):
            refused()
    with pytest.raises(RuntimeError):
        host.shareable = False
    # the same trump is fine: the guest searches spades in the host's table
    assert guest.ns_value(Position.make(hands, "S", "up", 2)) == \
        _own_values(hands, "S", [2])[2]
    guest.own_table()
    host.clear()
    host.shareable = False
    guest.ns_value(Position.make(hands, "H", "up", 0))    # its own table again


def _side_by_side(host, guest, hands, trump, rounds=2):
    """The host searches leaders N and S, the guest E and W, at once in
    the host's table, `rounds` times over; their values."""
    out: dict = {}
    errors: list = []

    def run(solver, leaders):
        try:
            for _ in range(rounds):
                for h in leaders:
                    v = solver.ns_value(Position.make(hands, trump, "up", h))
                    assert out.setdefault(h, v) == v
        except BaseException as e:         # reported in the main thread
            errors.append(e)

    guest.share_table_of(host)
    threads = [threading.Thread(target=run, args=(host, (0, 2))),
               threading.Thread(target=run, args=(guest, (1, 3)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    guest.own_table()
    if errors:
        raise errors[0]
    return out


@pytest.mark.parametrize("seed,trump", [(4102, None), (4103, "S"), (4104, "H"), (4105, None)])
def test_two_threads_in_one_table_give_the_values_of_one(seed, trump):
    hands = random_deal(seed)
    host, guest = Solver(16), Solver(16)
    host.shareable = True
    host.core_for(trump)
    assert _side_by_side(host, guest, hands, trump) == _own_values(hands, trump, range(4))


def test_a_shared_table_brings_its_next_pages_in_ahead_of_use():
    # only while shared: alone, a table's pages come in as they are used
    hands = random_deal(4108)
    host, guest = Solver(16), Solver(16)
    host.shareable = True
    core = host.core_for(None)
    host.ns_value(Position.make(hands, None, "up", 0))
    assert core.tt_ahead == 0
    values = _side_by_side(host, guest, hands, None, rounds=1)
    assert values == _own_values(hands, None, range(4))
    _used, _slots, pages_used, pages, _fills = core.tt_usage
    assert pages_used < core.tt_ahead <= min(pages, pages_used + 2 * 16384)
    assert guest.core_for(None).tt_ahead == 0


def test_bringing_a_table_into_memory_leaves_what_it_holds():
    hands = random_deal(4109)
    first = Position.make(hands, None, "up", 0)
    host, other = Solver(16), Solver(16)
    value = host.ns_value(first)
    cold = host.nodes
    other.bring_in_table(host)
    host.bring_in_table()
    assert host.ns_value(first) == value
    assert host.nodes - cold < cold // 20               # answered from its bounds
    with pytest.raises(TypeError):
        host.core_for(None).bring_in_table(None)


@pytest.mark.parametrize("seed,trump", [(4106, None), (4107, "D")])
def test_a_shared_table_that_fills_up_sends_its_guest_home(seed, trump):
    # a quarter of a megabyte fills many times in one 52-card search (see
    # test_table_fill).  Shared, it is not emptied under the guest's
    # probes: the guest goes on in its own table, and once it has left,
    # the host's table makes room as usual.  (One search at a time here, so
    # that what happens does not depend on timing; both at once above.)
    hands = random_deal(seed)
    host, guest = Solver(0.25), Solver(0.25)
    host.shareable = True
    host.core_for(trump)
    guest.share_table_of(host)
    values = _own_values(hands, trump, range(4))
    for h in (1, 2, 3):
        assert guest.ns_value(Position.make(hands, trump, "up", h)) == values[h]
    used, slots, pages_used, pages, fills = host.core_for(trump).tt_usage
    assert fills == 0 and ((used + 3) * 2 > slots or pages_used + 2 > pages)   # full, kept
    assert guest.core_for(trump).tt_usage[2] > 0          # its own table took over
    assert host.ns_value(Position.make(hands, trump, "up", 0)) == values[0]
    assert host.core_for(trump).tt_usage[4] >= 1          # then the host's filled up
    guest.own_table()
    # its own table holds this trump's positions: no clearing needed
    assert guest.ns_value(Position.make(hands, trump, "up", 3)) == values[3]


def test_a_change_of_ranking_empties_a_table_no_other_solver_can_search(monkeypatch):
    # the other ranking's bounds are kept only where another core may be
    # searching the table (shareable): there the values must not change
    from whist_solve import engine
    hands = random_deal(4300)
    up = Position.make(hands, "H", "up", 0)
    down = Position.make(hands, "H", "down", 0)
    expected = _own_values(hands, "H", (0,), "down")[0]
    for shareable, clear in ((False, True), (True, True), (False, False)):
        monkeypatch.setattr(engine, "RANKING_CLEAR", clear)
        solver = Solver(16)
        solver.shareable = shareable
        solver.ns_value(up)
        held = solver._core.tt_usage[2]
        assert held > 0
        solver.core_for("H", "down")
        emptied = solver._core.tt_usage[2] == 0
        assert emptied == (clear and not shareable)
        assert solver.ns_value(down) == expected
        solver.shareable = False
    # the same ranking again, or no ranking given, keeps the table
    solver = Solver(16)
    solver.ns_value(up)
    solver.core_for("H", "up")
    solver.core_for("H")
    assert solver._core.tt_usage[2] > 0
