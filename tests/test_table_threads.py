"""dd_table on several threads gives the table of one thread, whatever the
rows, rankings and the number of threads (more threads than rows included)."""
import random

import pytest

from whist_solve import dd_table
from whist_solve.cards import full_deck


def _deal(seed: int, size: int, jokers: bool = False):
    rng = random.Random(seed)
    deck = full_deck(jokers)
    rng.shuffle(deck)
    return [deck[i * size:(i + 1) * size] for i in range(4)]


@pytest.mark.parametrize("seed,size,threads,rankings", [
    (1, 13, 2, ("up",)),
    (2, 13, 3, ("up", "down")),
    (3, 8, 2, ("down",)),
    (4, 5, 16, ("up", "down")),
    (5, 12, 2, ("up",)),
])
def test_threaded_table_equals_one_thread(seed, size, threads, rankings):
    hands = _deal(seed, size, jokers=size == 12)
    one = dd_table(hands, rankings=rankings)
    many = dd_table(hands, rankings=rankings, threads=threads)
    assert many == one
    assert list(many) == list(one)
    assert all(list(many[s]) == list(one[s]) for s in one)


def test_threaded_table_of_some_strains():
    hands = _deal(7, 13)
    strains = ("NT", "S")
    assert dd_table(hands, strains=strains, threads=2) == dd_table(hands, strains=strains)


def test_row_second_side_goes_to_one_helper_before_it_starts():
    import threading

    from whist_solve.engine import LEADER_ORDER, _Row

    lock = threading.Lock()
    row = _Row("NT", "up")
    assert row.take(lock) == LEADER_ORDER[0]
    assert row.can_split()
    assert row.split()                  # the owner is on its first leader
    assert not row.can_split()
    assert not row.split()              # only one helper per row
    assert row.take(lock) == LEADER_ORDER[1]
    assert row.take(lock) == -1         # the owner stops before the second side

    late = _Row("S", "up")
    for _ in range(3):
        late.take(lock)
    assert not late.can_split() and not late.split()   # the second side has started: the owner keeps it
    assert late.take(lock) == LEADER_ORDER[3]


def test_one_row_on_two_threads_equals_one_thread():
    # the second thread, finding no row, helps the owner in its table (or,
    # once that table fills up, takes the row's second side)
    hands = _deal(8, 13)
    assert dd_table(hands, strains=("NT",), threads=2) == dd_table(hands, strains=("NT",))


def test_threads_without_memory_for_their_tables_fall_back_to_fewer(monkeypatch):
    """A table for each further thread that the memory cannot hold: the
    threads that fit solve it (one, here), with the same values, instead of
    the board failing (`ulimit -v` with the default threads)."""
    from whist_solve.engine import Solver, TableMemoryError

    hands = _deal(7, 10)
    expected = dd_table(hands, solver=Solver(8), threads=1)
    first = Solver(8)
    made = []

    def no_room(self, *args, **kwargs):
        made.append(1)
        raise TableMemoryError("a transposition table of 8 MB is more than the memory available")
    monkeypatch.setattr(Solver, "__init__", no_room)
    assert dd_table(hands, solver=first, threads=2, tt_mb=8) == expected
    assert made == [1]                 # the second thread's table was asked for


def test_a_thread_that_cannot_start_leaves_the_table_to_one(monkeypatch):
    """No memory for another thread's stack (its table fitted): the table
    on the caller's thread, the same values (it was RuntimeError: can't
    start new thread)."""
    import threading
    from whist_solve.dealing import random_hands
    hands = random_hands(5, size=7)
    want = dd_table(hands, threads=1)

    def refuse(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(threading.Thread, "start", refuse)
    assert dd_table(hands, threads=2) == want
