"""A transposition table smaller than the search: what it keeps when it
fills up (see _tt.pxd's tt_fill), and that the values do not depend on it.

A table of a quarter of a megabyte (2,048 slots, 1,890 pages) fills up
many times in the search of one 52-card deal, so every path of the fill is
taken: the deepest lists kept and the pages moved to the front of the pool,
or (after many small searches) everything forgotten."""
from __future__ import annotations

import pytest

from whist_solve import Solver, dd_table
from whist_solve.engine import engine_card

from support.dds_helpers import dds_full_table
from support.engine_check import check
from support.strategies import random_deal, random_spot

TINY_MB = 0.25
STRAINS = ("S", "H", "D", "C", "NT")


def _fills(solver) -> int:
    return solver.core_for(None).tt_usage[4]


@pytest.mark.parametrize("seed,ranking", [(3000, "up"), (3001, "up"), (3002, "down")])
def test_a_table_smaller_than_the_search_agrees_with_dds(seed, ranking):
    hands = random_deal(seed)
    tiny = Solver(TINY_MB)
    got = dd_table(hands, strains=STRAINS, rankings=(ranking,), solver=tiny)
    assert _fills(tiny) > 0          # the fill was exercised (in the no-trump row at least)
    want = dds_full_table(hands, ranking)
    for strain in STRAINS:
        assert got[strain][ranking] == want[strain], f"seed {seed} {ranking} {strain}"


@pytest.mark.parametrize("trump", ["S", None])
def test_jokers_with_a_small_table_agree_with_a_large_one(trump):
    """54 cards, 12 each (bid whist): the shapes count jokers too."""
    hands = random_deal(77, jokers=True, cards=12)
    strain = trump or "NT"
    tiny = Solver(TINY_MB)
    got = dd_table(hands, strains=(strain,), rankings=("up", "down"), solver=tiny)
    assert tiny.core_for(trump).tt_usage[4] > 0
    assert got == dd_table(hands, strains=(strain,), rankings=("up", "down"))


@pytest.mark.parametrize("seed", range(6))
def test_endings_with_a_small_table_agree_with_the_reference(seed):
    trump = (None, "H", None, "S", None, "C")[seed]
    spot = random_spot(500 + seed, 7, trump=trump, ranking=("up", "down")[seed % 2],
                       jokers=seed >= 4)
    check(Solver(TINY_MB), spot)


def _load(core, hands, leader=0):
    core.set_position([[engine_card(c, None, "up") for c in h] for h in hands], -1, leader, ())


def test_a_search_bigger_than_the_table_keeps_its_deepest_bounds():
    hands = random_deal(3003)
    solver = Solver(TINY_MB)
    core = solver.core_for(None)
    _load(core, hands)
    n0 = core.nodes
    value = core.value()
    first = core.nodes - n0
    used, slots, pages_used, pages, fills = core.tt_usage
    assert fills > 0 and first > 10_000

    # One search stored far more than the table holds: a fill keeps the
    # deepest shapes (the root's among them), within the quota.
    core.fill_up()
    used, slots, pages_used, pages, _ = core.tt_usage
    assert 0 < used <= slots // 4 and 0 < pages_used <= pages // 2
    _load(core, hands)
    n0 = core.nodes
    assert core.value() == value
    # answered by the root's stored bounds: one node for each null-window
    # question of the value's search
    assert core.nodes - n0 <= 13

    # Nothing stored since the last root, but few roots since the last
    # fill (a table's four leaders): the deepest bounds are kept again.
    _load(core, hands)
    core.fill_up()
    assert core.tt_usage[0] > 0
    # Many roots since the last fill (many small searches: a simulation)
    # and nothing stored since the last one: a fill forgets everything.
    for _ in range(16):
        _load(core, hands)
    core.fill_up()
    assert core.tt_usage[0] == 0 and core.tt_usage[2] == 0
    n0 = core.nodes
    assert core.value() == value
    assert core.nodes - n0 > 1_000


def test_a_table_grows_its_slots_without_changing_the_search():
    # A table starts on 65,536 slots and doubles them as they fill (see
    # _tt.pxd's tt_grow); a shareable one has all of them from the start.
    # The bounds kept are the same either way, so are the nodes searched.
    hands = random_deal(28)     # (its no-trump row uses more than an eighth of the first slots)
    growing, whole = Solver(16), Solver(16)
    whole.shareable = True
    whole.shareable = False                  # (it keeps all its slots)
    assert growing.core_for(None).tt_usage[1] == 65536
    assert whole.core_for(None).tt_usage[1] == 131072
    got = dd_table(hands, strains=("NT", "S"), solver=growing)
    assert got == dd_table(hands, strains=("NT", "S"), solver=whole)
    assert growing.nodes == whole.nodes
    assert growing.core_for("S").tt_usage[1] == 131072     # it grew, and kept its size
    assert _fills(growing) == 0


def test_past_a_quarter_of_its_slots_a_table_doubles_them_only_at_half_full():
    # The default table (44 MB) has 524,288 slots.  Up to a quarter of them
    # it doubles its slots when an eighth are in use; past that, only when
    # half are (TT_GROW_LATE): the last doublings are the memory.  The
    # search is the same as in a table of all its slots.
    hands = random_deal(14)
    growing, whole = Solver(), Solver()
    whole.shareable = True
    whole.shareable = False                  # (it keeps all its slots)
    assert whole.core_for(None).tt_usage[1] == 524288
    got = dd_table(hands, strains=("NT", "S", "H"), solver=growing)
    assert got == dd_table(hands, strains=("NT", "S", "H"), solver=whole)
    assert growing.nodes == whole.nodes
    used, slots, _, _, fills = growing.core_for("H").tt_usage
    assert slots == 131072 and used * 8 > slots and used * 2 <= slots
    assert fills == 0
