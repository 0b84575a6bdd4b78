"""Several cores on one null-window search (Core.search_job, _split.pxd):
the first core to finish answers for all, the others stop without storing
what they saw, and the answer is the one a core alone gives.  dd_table on
two threads lets a thread with nothing left join the other's searches.

Answers are checked against solvers of their own (whose searches the
reference and DDS tests check)."""
from __future__ import annotations

import threading

import pytest

from whist_solve import Solver, dd_table
from whist_solve.board import _parse_deal
from whist_solve.cards import Position
from whist_solve._engine import moves_in_progress_kept
from whist_solve.engine import _Exact, _Job, _root_fails_all, _threaded_table

from support.strategies import random_deal


def _answer(hands, trump, leader, target):
    fresh = Solver(16)
    return fresh.can_take(Position.make(hands, trump, "up", leader), "NS", target)


def _join(guest: Solver, host: Solver, pos: Position, target: int, job: int,
          root_all: bool = False) -> int:
    """The guest's part of a job: it joins once the shared table takes
    guests (not while it is making room) and searches until it answers
    or the job is done."""
    while not guest.share_table_of(host):
        if host._core.job_done >= job:
            return -1
    guest._load(pos)
    r = guest._core.search_job(target, job, root_all=root_all)
    guest.own_table()
    return r


@pytest.mark.parametrize("seed,trump,mb,root_all", [(4200, None, 16, False), (4201, "S", 16, False),
                                                   (4202, "H", 0.25, False), (4203, None, 0.25, False),
                                                   (4204, None, 16, True), (4205, "D", 0.25, True)])
def test_a_job_on_two_cores_gives_the_answer_of_one(seed, trump, mb, root_all):
    # a quarter of a megabyte fills up during the search: the two cores
    # then wait for each other, one makes room, and both go on (the
    # engine's park); with root_all the two share out the root's first
    # moves too
    hands = random_deal(seed)
    host, guest = Solver(mb), Solver(mb)
    host.shareable = True
    pos = Position.make(hands, trump, "up", 1)
    value = Solver(16).ns_value(pos)
    for job, target in enumerate((value, value + 1, value - 1), start=1):
        if not 0 < target <= 13:
            continue
        host._load(pos)
        got = {}

        def run_guest():
            got["guest"] = _join(guest, host, pos, target, job, root_all)

        t = threading.Thread(target=run_guest)
        t.start()
        got["host"] = host._core.search_job(target, job, root_all=root_all)
        t.join()
        assert set(got.values()) <= {-1, 0, 1}
        answers = [r for r in got.values() if r >= 0]
        assert answers                                   # someone answered
        assert set(answers) == {int(_answer(hands, trump, 1, target))}
        assert host._core.guests == 0


@pytest.mark.parametrize("seed,trump", [(4230, None), (4231, "H")])
def test_a_guest_alone_in_a_full_shared_table_makes_room_itself(seed, trump):
    # a helper's test ahead searches the owner's table while the owner is
    # between searches: when the table fills up, the guest (the only core
    # searching it) makes room itself and goes on to the answer
    hands = random_deal(seed)
    host, guest = Solver(0.25), Solver(0.25)
    host.shareable = True
    pos = Position.make(hands, trump, "up", 2)
    host._load(pos)
    value = Solver(16).ns_value(pos)
    fills = host._core.tt_usage[4]
    assert guest.share_table_of(host)
    guest._load(pos)
    assert guest._core.search_job(value, host._core.next_job()) == 1
    assert guest._core.search_job(value + 1, host._core.next_job()) == 0
    guest.own_table()
    assert host._core.tt_usage[4] > fills                # it filled up, and room was made
    assert host._core.guests == 0
    assert guest.share_table_of(host)                     # it takes guests again
    guest.own_table()


def test_an_owner_with_no_job_does_not_wait_for_an_idle_guest_when_its_table_fills():
    # a guest with no job (a thread helping with an exchange) sits in the
    # owner's table between searches while the owner's own search fills
    # it: the owner goes on without waiting for it (the guest might be
    # waiting for the owner) and finds the value a single solver finds
    hands = random_deal(4232)
    host, guest = Solver(0.25), Solver(0.25)
    host.shareable = True
    host.core_for(None)
    assert guest.share_table_of(host)
    pos = Position.make(hands, None, "up", 3)
    got = {}
    t = threading.Thread(target=lambda: got.update(v=host.ns_value(pos)), daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive()
    assert got["v"] == Solver(16).ns_value(pos)
    assert not Solver(0.25).share_table_of(host)           # it did fill up while shared
    guest.own_table()
    assert host._core.guests == 0


def _host_and_guest(seed: int, trump, leader: int):
    """A deal, a host whose shareable table is set to one of its
    positions, a guest not yet in it, and the position."""
    hands = random_deal(seed)
    host, guest = Solver(16), Solver(16)
    host.shareable = True
    pos = Position.make(hands, trump, "up", leader)
    host._load(pos)
    return hands, host, guest, pos


def test_a_finished_job_stops_later_searches_of_it_and_of_older_jobs():
    hands, host, guest, pos = _host_and_guest(4204, "D", 0)
    r = host._core.search_job(7, 5)
    assert r == int(_answer(hands, "D", 0, 7))
    assert guest.share_table_of(host)
    guest._load(pos)
    n0 = guest.nodes
    assert guest._core.search_job(7, 5) == -1           # done: stops at once
    assert guest._core.search_job(6, 4) == -1           # older: stops too
    assert guest.nodes - n0 < 50
    assert guest._core.search_job(6, 6) == int(_answer(hands, "D", 0, 6))
    guest.own_table()
    with pytest.raises(ValueError):
        host._core.search_job(7, 0)


def test_a_full_shared_table_takes_no_new_guest_until_it_has_made_room():
    hands = random_deal(4205)
    host, guest, late = Solver(0.25), Solver(0.25), Solver(0.25)
    host.shareable = True
    host.core_for(None)
    assert guest.share_table_of(host)
    # the guest's searches fill the host's table; it is kept, and the
    # guest goes on in its own (see test_table_sharing)
    for h in range(4):
        guest.ns_value(Position.make(hands, None, "up", h))
    assert not late.share_table_of(host)                 # full: refused
    assert not late._core.sharing
    guest.own_table()
    host.ns_value(Position.make(hands, None, "up", 0))   # no guest left: it makes room
    assert late.share_table_of(host)
    late.own_table()


def test_a_table_asked_for_becomes_shareable_at_the_next_search():
    hands = random_deal(4206)
    solver = Solver(16)
    assert not solver.shareable
    solver._core.ask_shareable()
    assert not solver.shareable                          # not before it searches
    solver.ns_value(Position.make(hands, "C", "up", 2))
    assert solver.shareable
    solver.shareable = False
    solver._core.ask_shareable()
    solver.shareable = False                             # turning it off drops the request
    solver.ns_value(Position.make(hands, "C", "up", 3))
    assert not solver.shareable


@pytest.mark.parametrize("seed", [4207, 4208])
def test_one_row_on_two_threads_with_joins_equals_one_thread(seed):
    # one row: the second thread joins the owner's searches (or takes the
    # second side, once the owner's table fills up, and whichever finishes
    # first joins the other's)
    hands = random_deal(seed)
    stats: dict = {}
    solvers = [Solver(16), Solver(16)]
    two = _threaded_table(hands, [("NT", "up")], solvers, stats)
    assert dict(zip("NESW", two["NT", "up"])) == dd_table(hands, strains=("NT",))["NT"]["up"]
    assert stats["jobs"] >= 4
    assert not any(s.shareable for s in solvers)         # left as they were
    # each thread's CPU time, busiest first (benchmarks/batch_scaling.py critical)
    assert len(stats["cpu"]) == 2
    assert stats["cpu"][0] >= stats["cpu"][1] >= 0
    assert stats["cpu"][0] > 0


def test_a_solver_reused_for_threaded_tables_never_repeats_a_job_number():
    # A core that finds its job number already done stops and waits for
    # another's answer: a solver reused for a second table (numbers
    # starting afresh) used to wait for ever.  Run in a thread, so that a
    # hang fails the test instead of stopping the suite.
    hands, other = random_deal(4209), random_deal(4210)
    solver = Solver(16)
    out = {}

    def run():
        # two rows: each thread owns one, so both solvers number jobs
        out["first"] = dd_table(hands, strains=("NT", "S"), solver=solver, threads=2)
        out["done"] = solver._core.job_done
        out["second"] = dd_table(other, strains=("NT", "S"), solver=solver, threads=2)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout=300)
    assert not t.is_alive(), "a threaded table never finished"
    assert out["first"] == dd_table(hands, strains=("NT", "S"))
    assert out["second"] == dd_table(other, strains=("NT", "S"))
    assert 0 < out["done"] < solver._core.job_done < solver._core.next_job()


def test_stopping_a_cores_jobs_stops_its_search_at_once():
    # what an interrupt of a threaded table does: every search there is a
    # job, so counting the jobs done ends them (the four-void deal's
    # no-trump search takes seconds)
    hands = _parse_deal("N:.Q853.AJ962.KT74 Q853.AJ962.KT74. AJ962.KT74..Q853 KT74..Q853.AJ962", [])
    solver = Solver(16)
    solver._load(Position.make(hands, None, "up", 1))
    core = solver._core
    job = core.next_job()
    got = {}
    t = threading.Thread(target=lambda: got.update(r=core.search_job(6, job)), daemon=True)
    t.start()
    t.join(timeout=0.3)
    assert t.is_alive()                                   # still searching
    core.stop_jobs()
    t.join(timeout=10)
    assert not t.is_alive() and got["r"] == -1
    assert core.job_done == job


def test_finishing_a_job_stops_it_and_never_brings_an_older_one_back():
    _hands, host, guest, pos = _host_and_guest(4211, "H", 3)
    core = host._core
    first, second = core.next_job(), core.next_job()
    core.finish_job(second)
    assert core.job_done == second
    core.finish_job(first)                               # earlier: the watermark stays
    assert core.job_done == second
    assert guest.share_table_of(host)
    guest._load(pos)
    assert guest._core.search_job(7, first) == -1       # both count as done
    assert guest._core.search_job(7, second) == -1
    guest.own_table()


def test_a_search_that_does_not_publish_leaves_the_job_open():
    # a helper's test ahead of the owner has a later number than the
    # owner's test now: counting it done would stop the owner's
    hands = random_deal(4212)
    solver = Solver(16)
    pos = Position.make(hands, None, "up", 0)
    core = solver._core
    now, ahead = core.next_job(), core.next_job()
    solver._load(pos)
    r = core.search_job(6, ahead, publish=False)
    assert r == int(_answer(hands, None, 0, 6))
    assert core.job_done != ahead                        # not counted done
    solver._load(pos)
    assert core.search_job(5, now) == int(_answer(hands, None, 0, 5))
    assert core.job_done == now


def test_the_value_being_found_narrows_and_points_the_helper_ahead():
    ex = _Exact(None, 0, 13)
    ex.job = _Job(None, 7, 1)
    assert ex.ahead_target() == 8                       # the next test after a yes
    ex.settle(7, 1)
    assert (ex.lo, ex.hi, ex.next_target()) == (7, 13, 8)
    ex.job = _Job(None, 8, 2)
    ex.settle(10, 0)                                     # a helper's no ahead
    assert (ex.lo, ex.hi) == (7, 9)
    assert not ex.open(7) and ex.open(8) and ex.open(9) and not ex.open(10)
    assert ex.next_target() == 9                         # after a no: the most possible
    ex.job = _Job(None, 9, 3)
    assert ex.ahead_target() == 8                        # going down
    ex.settle(9, 0)
    ex.job = _Job(None, 8, 4)
    assert ex.ahead_target() is None                     # 7 proved, 9 refuted: nothing left
    ex.ahead = _Job(None, 8, 5, ahead=True)
    ex.job = _Job(None, 9, 6)
    assert ex.ahead_target() is None                     # one test ahead at a time


@pytest.mark.parametrize("threads", [2, 3])
def test_an_idle_thread_tests_ahead_of_the_owner_with_the_same_answer(threads, monkeypatch):
    # one leader: nothing for the other threads to own, so one helps the
    # owner's one value by testing the target the owner would test next
    # (and a third searches the owner's test now beside them); no joins of
    # a test alone on two threads here (JOIN_ROOM 0, JOIN_ALONE off)
    from whist_solve import engine
    monkeypatch.setattr(engine, "JOIN_ROOM", 0.0)
    monkeypatch.setattr(engine, "JOIN_ALONE", False)
    hands = _parse_deal("N:.Q853.AJ962.KT74 Q853.AJ962.KT74. AJ962.KT74..Q853 KT74..Q853.AJ962", [])
    stats: dict = {}
    solvers = [Solver(16) for _ in range(threads)]
    got = _threaded_table(hands, [("S", "up")], solvers, stats, leaders={"S": (0,)})
    assert got["S", "up"][0] == Solver(16).ns_value(Position.make(hands, "S", "up", 0))
    assert stats["ahead"] >= 1
    if threads == 2:
        assert stats["joined"] == 0                      # two threads: no same-test joins
    assert not any(s.shareable for s in solvers)


def test_the_first_cards_a_helper_tries_are_one_of_each_run():
    from whist_solve.cards import effective_suit, power
    from whist_solve.engine import _first_cards
    for seed in range(6):
        hands = random_deal(seed)
        for trump, ranking, leader in ((None, "up", 0), ("H", "down", 1), ("S", "up", 2)):
            pos = Position.make(hands, trump, ranking, leader)
            firsts = _first_cards(pos)
            mine = set(pos.hands[leader])
            others = {c for i, h in enumerate(pos.hands) if i != leader for c in h}

            def same_run(a, b):
                # no other hand holds a card of their suit between them
                if effective_suit(a, trump) != effective_suit(b, trump):
                    return False
                lo, hi = sorted((power(a, trump, ranking), power(b, trump, ranking)))
                return not any(effective_suit(c, trump) == effective_suit(a, trump)
                               and lo < power(c, trump, ranking) < hi for c in others)

            assert set(firsts) <= mine
            assert all(any(same_run(c, f) for f in firsts) for c in mine)   # every card covered
            assert not any(same_run(a, b) for a in firsts for b in firsts if a != b)
            # highest of its run, the suits in the order S H D C
            assert all(not any(same_run(f, c) and power(c, trump, ranking) > power(f, trump, ranking)
                               for c in mine) for f in firsts)
            order = [("SHDC" + "J").index(effective_suit(f, trump)) for f in firsts]
            assert order == sorted(order)


def test_a_helper_trying_first_cards_gives_the_answer_of_one_thread(monkeypatch):
    # one leader per row and no wait before first cards: the idle thread
    # searches the owner's tests after each first card, in its own table,
    # and a card that settles a test answers it; the values are a single
    # solver's
    from whist_solve import engine
    monkeypatch.setattr(engine, "FIRST_AFTER", 0.0)
    monkeypatch.setattr(engine, "JOIN_ROOM", 0.0)    # first cards, not joins
    monkeypatch.setattr(engine, "JOIN_ALONE", False)
    tried = 0
    for seed in range(8):
        hands = random_deal(500 + seed)
        stats: dict = {}
        solvers = [Solver(16), Solver(16)]
        got = _threaded_table(hands, [("NT", "up"), ("D", "down")], solvers, stats,
                              leaders={"NT": (1,), "D": (2,)})
        assert got["NT", "up"][1] == Solver(16).ns_value(Position.make(hands, None, "up", 1))
        assert got["D", "down"][2] == Solver(16).ns_value(Position.make(hands, "D", "down", 2))
        tried += stats["first"]
    assert tried > 0


@pytest.mark.parametrize("room,alone,mb", [(0.0, False, 16), (1.0, False, 16), (0.0, True, 16),
                                           (0.0, True, 0.25)])
def test_two_threads_join_the_owners_test_while_its_table_has_room_or_last(room, alone, mb,
                                                                             monkeypatch):
    # on two threads, an idle thread with no test ahead to make joins the
    # owner's test now while less than JOIN_ROOM of the owner's pattern
    # pages are in use (0: never; 1: until the table is full), and with
    # JOIN_ALONE whatever the fill once it has no first card to try (a
    # quarter of a megabyte fills up over and over under the two); the
    # values are a single solver's either way
    from whist_solve import engine
    monkeypatch.setattr(engine, "JOIN_ROOM", room)
    monkeypatch.setattr(engine, "JOIN_ALONE", alone)
    joined = 0
    for seed in range(8):
        hands = random_deal(700 + seed)
        stats: dict = {}
        solvers = [Solver(mb), Solver(mb)]
        got = _threaded_table(hands, [("NT", "up"), ("C", "up")], solvers, stats,
                              leaders={"NT": (0,), "C": (3,)})
        assert got["NT", "up"][0] == Solver(16).ns_value(Position.make(hands, None, "up", 0))
        assert got["C", "up"][3] == Solver(16).ns_value(Position.make(hands, "C", "up", 3))
        assert not any(s.shareable for s in solvers)
        joined += stats["joined"]
    if room == 0.0 and not alone:
        assert joined == 0
    else:
        assert joined >= 1


@pytest.mark.parametrize("room", [0.0, 1.0])
def test_a_helper_takes_a_second_side_only_from_a_table_filling_up(room, monkeypatch):
    # one row on two threads: the idle thread takes the row's last two
    # leaders when the owner's table is at least JOIN_ROOM full (0: at
    # once), else it joins the owner's searches in the owner's table
    from whist_solve import engine
    monkeypatch.setattr(engine, "JOIN_ROOM", room)
    sides = []
    for seed in (4207, 4208, 4212):
        hands = random_deal(seed)
        stats: dict = {}
        two = _threaded_table(hands, [("NT", "up")], [Solver(16), Solver(16)], stats)
        assert dict(zip("NESW", two["NT", "up"])) == dd_table(hands, strains=("NT",))["NT"]["up"]
        sides.append(stats["sides"])
    if room == 0.0:
        assert max(sides) == 1       # (a row done before the helper starts is not split)
    else:
        assert sides == [0, 0, 0]


def test_a_helper_takes_a_second_side_when_the_table_fills_up_while_it_helps(monkeypatch):
    # the owner's table has room when the helper first looks (so it helps
    # in it), and is full the next time: the helper leaves off helping and
    # takes the row's last two leaders; the values are one thread's
    from whist_solve import engine
    calls = []

    def has_room(owner):
        calls.append(owner)
        return len(calls) == 1

    monkeypatch.setattr(engine, "_has_room", has_room)
    hands = random_deal(4208)
    stats: dict = {}
    two = _threaded_table(hands, [("NT", "up")], [Solver(16), Solver(16)], stats)
    assert dict(zip("NESW", two["NT", "up"])) == dd_table(hands, strains=("NT",))["NT"]["up"]
    assert len(calls) >= 2
    assert stats["sides"] == 1


@pytest.mark.parametrize("others,live", [(20000, 0), (20000, 24), (5000, 60)])
def test_a_mark_near_the_root_outlives_the_marks_made_below_it(others, live):
    # the map of moves in progress (_split.pxd): a move near the root stays
    # marked while its core searches below it, making and taking back
    # thousands of marks, and is unmarked when taken back
    kept, after = moves_in_progress_kept(others, live)
    assert kept
    assert not after


def test_a_root_is_expected_to_fail_on_every_move_when_the_side_on_lead_is_expected_to_lose():
    # the value expected is 7: "at least 7?" expects a yes, "at least 8?" a no
    hands = random_deal(4206)
    for leader in range(4):
        pos = Position.make(hands, None, "up", leader)
        ew_lead = leader % 2 == 1
        assert _root_fails_all(pos, 7, 7) == ew_lead      # a yes: E-W's leads all fail
        assert _root_fails_all(pos, 6, 7) == ew_lead
        assert _root_fails_all(pos, 8, 7) == (not ew_lead)  # a no: N-S's leads all fail
